#!/bin/sh
# make run installs what its job needs and nothing for the tests; make test installs the rest and
# fetches the emulated Arm host's kernel. Read from make's dry run (make -n), which prints each
# recipe's commands, the package lists spelled out, and runs none. Without root,
# scripts/install-deps.sh installs nothing: it names what is missing and the apt-get line, exit 1.
. "$(dirname "$0")/lib.sh"
# What a make started by make test would inherit (its jobserver, -s) stays out of these.
dry() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n "$@" 2>&1; }
# installs OUTPUT: the packages of the install-deps.sh lines of a dry run, one a line.
installs() { sed -n 's/^scripts\/install-deps\.sh //p' "$1" | tr ' ' '\n' | grep -v '^--emu$\|^$' | sort -u; }
run_pkgs="gcc make binutils libpfm4-dev libhwloc-dev zlib1g-dev perl gnuplot-nox"
test_pkgs="valgrind jq libtest-harness-perl hwloc linux-perf chromium clang libclang-rt-dev python3-jsonschema"
emu_pkgs="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross libpfm4-dev:arm64 libhwloc-dev:arm64 zlib1g-dev:arm64 cpio lava-common lava-dispatcher qemu-system-misc gcc-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu"
words() { printf '%s\n' $* | sort -u; }

dry run > "$TMP/run"
is "$(installs "$TMP/run" | tr '\n' ' ')" "$(words $run_pkgs | tr '\n' ' ')" \
    "make -n run installs exactly the build and the main job's packages (a new one is added here on purpose)"
sneaked=$(installs "$TMP/run" | grep -Fx "$(words $test_pkgs $emu_pkgs)" | tr '\n' ' ')
[ -z "$sneaked" ] && installs "$TMP/run" | grep -qx gcc
ok $? "make -n run installs none of the tests' packages${sneaked:+: $sneaked}"
! grep -q 'emu-kernel\|emu-riscv-fetch\|apt-get download\|linux-image' "$TMP/run" && grep -q '^scripts/main-job\.sh' "$TMP/run"
ok $? "make -n run fetches no kernel, then runs the main job: $(grep -c . "$TMP/run") lines"

dry test > "$TMP/test"
missing=$(words $run_pkgs $test_pkgs $emu_pkgs | grep -vFx "$(installs "$TMP/test")" | tr '\n' ' ')
[ -z "$missing" ] && grep -q '^scripts/install-deps\.sh .* --emu qemu-system-arm ' "$TMP/test"
ok $? "make -n test installs the main job's, the tests' and, after --emu, the emulated host's packages${missing:+; not: $missing}"
grep -q 'PMUCAL_TEST_EMU:-1}" = 0 ] || scripts/emu-kernel\.sh$' "$TMP/test"
ok $? "make -n test fetches the arm64 kernel unless PMUCAL_TEST_EMU=0: $(grep emu-kernel "$TMP/test")"
grep -q 'PMUCAL_TEST_EMU:-1}" = 0 ] || scripts/emu-riscv-fetch\.sh$' "$TMP/test"
ok $? "make -n test fetches the riscv64 kernel and QEMU 10 unless PMUCAL_TEST_EMU=0: $(grep emu-riscv-fetch "$TMP/test")"
dry kernel-check KERNEL=/no/such > "$TMP/kc"
grep -q 'scripts/emu-kernel\.sh$' "$TMP/kc" && grep -q '^scripts/install-deps\.sh .* --emu ' "$TMP/kc"
ok $? "make -n kernel-check installs the emulated host's packages and fetches its kernel"

# Without root: nothing installed, the missing names and the one line to run. As root, a user the
# test becomes (setpriv); never apt-get from a test.
as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ] && ! command -v setpriv > /dev/null; then
    skip "install-deps.sh without root" "running as root and no setpriv to become another user"
else
    as_user sh scripts/install-deps.sh gcc pmucal-no-such-package --emu pmucal-no-such-emu:arm64 > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ $rc -eq 1 ] && [ ! -s "$TMP/out" ] &&
        grep -qx 'pmucal: missing Debian packages: pmucal-no-such-package pmucal-no-such-emu:arm64' "$TMP/err" &&
        grep -qx 'pmucal: first: sudo dpkg --add-architecture arm64 && sudo apt-get update' "$TMP/err" &&
        grep -qx 'pmucal: install them with:  sudo apt-get install pmucal-no-such-package pmucal-no-such-emu:arm64' "$TMP/err" &&
        grep -qx 'pmucal: (or PMUCAL_TEST_EMU=0 to leave the emulated Arm host out: pmucal-no-such-emu:arm64)' "$TMP/err"
    ok $? "without root: the missing packages named, the apt-get line to run, exit $rc: $(tr '\n' ' ' < "$TMP/err")"
    PMUCAL_TEST_EMU=0 as_user sh scripts/install-deps.sh gcc pmucal-no-such-package --emu pmucal-no-such-emu:arm64 > /dev/null 2> "$TMP/err0"
    rc=$?
    [ $rc -eq 1 ] && grep -qx 'pmucal: install them with:  sudo apt-get install pmucal-no-such-package' "$TMP/err0" &&
        ! grep -q 'arm64' "$TMP/err0"
    ok $? "PMUCAL_TEST_EMU=0: the emulated host's packages are not asked for (exit $rc): $(tr '\n' ' ' < "$TMP/err0")"
fi
done_testing
