#!/bin/sh
# A second real PMU driver in every test run: the riscv64 pmucal (make emu-riscv64) on QEMU's
# RISC-V virt machine (TCG, -cpu rv64,sscofpmf=true, -icount shift=0), counted by Debian 13's
# riscv64 kernel and its riscv-pmu-sbi driver through OpenSBI, under both emulators: bookworm's
# QEMU 7.2 (OpenSBI 1.1) and bookworm-backports' QEMU 10.0 (OpenSBI 1.5, build/emu-riscv64/qemu10,
# scripts/emu-riscv-fetch.sh). One boot each runs tests/emu-riscv64/commands (scripts/emu-run.sh);
# the verdicts come back through the serial console, and so does the matrix run's folder, which
# 'pmucal compare' holds one emulator against the other, as it holds two kernels.
. "$(dirname "$0")/lib.sh"
BIN=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal}
INIT=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}
FETCHED=build/emu-riscv64
Q10=$FETCHED/qemu10/usr/bin/qemu-system-riscv64
Q10_BIOS=$FETCHED/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin

skip_all() { skip "the emulated RISC-V host" "$1"; done_testing; exit; }
[ "${PMUCAL_TEST_EMU:-1}" = 0 ] &&
    skip_all "PMUCAL_TEST_EMU=0: the emulated hosts are left out (this one needs qemu-system-misc, gcc-riscv64-linux-gnu, cpio and what make deps fetches into $FETCHED)"
sanitized_build &&
    skip_all "$PMUCAL is an AddressSanitizer build (make SAN=1); the emulated host runs the plain riscv64 build, which plain 'make test' checks"
[ -f "$FETCHED/unavailable" ] && skip_all "make deps could not fetch its kernel or QEMU 10: $(head -c 300 "$FETCHED/unavailable")"
[ -s "$FETCHED/vmlinux" ] || skip_all "$FETCHED/vmlinux is missing: make deps fetches it (scripts/emu-riscv-fetch.sh)"
[ -x "$BIN" ] || skip_all "$BIN is missing: make emu-riscv64 builds it"
[ -x "$INIT" ] || skip_all "$INIT is missing: make emu-riscv64 builds it"

# The emulator's cost is judged in CPU seconds, which the load does not change (test 72 says why);
# the wall limit only guards against a stall.
f=$(cpu_wait_factor)
limit=$(awk -v f="$f" 'BEGIN { l = 2 * 120 * (f > 1 ? f : 1); printf "%d", (l > 600 ? 600 : l) }')
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / hz }' "/proc/$$/stat"; }
cpu_budget=90

# boot NAME QEMU BIOS: one boot of the commands; its console in $TMP/NAME.console. Returns 1
# (after a SKIP) when this emulator is not here.
boot() {
    name=$1 qemu=$2 bios=$3
    start=$(date +%s.%N) cpu0=$(children_cpu)
    PMUCAL_EMU_ISA=riscv64 PMUCAL_EMU_QEMU=$qemu PMUCAL_EMU_BIOS=$bios PMUCAL_EMU_CPU_SECONDS=$cpu_budget \
        scripts/emu-run.sh "$BIN" "$INIT" tests/emu-riscv64/commands "$TMP/$name.raw" "$limit" 2> "$TMP/$name.err"
    rc=$?
    end=$(date +%s.%N) cpu1=$(children_cpu)
    secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
    cpu=$(echo "$cpu0 $cpu1" | awk '{ printf "%.1f", $2 - $1 }')
    ok $rc "$name: booted, ran tests/emu-riscv64/commands and powered off in ${secs} s wall, ${cpu} s CPU (limits ${cpu_budget} s CPU, ${limit} s wall at load factor $f; exit $rc$( [ $rc = 0 ] || printf ': %s' "$(head -c 400 "$TMP/$name.err")"))"
    echo "# $name: wall ${secs} s, CPU ${cpu} s"
    # The serial console ends lines with CR LF, and a progress line may precede a TAP line.
    tr -d '\r' < "$TMP/$name.raw" | sed 's/.*\x1b\[K//' > "$TMP/$name.console"
    grep -q '^### emu done' "$TMP/$name.console"
    ok $? "$name: the guest ran every command to the end"
}
section() { awk -v n="$2" '$0 ~ "^### emu begin " n ":" { on = 1; next } $0 ~ "^### emu end " n " " { on = 0 } on' "$TMP/$1.console"; }
rc_of() { sed -n "s/^### emu end $2 rc=\([0-9]*\)$/\1/p" "$TMP/$1.console"; }
# verdicts FILE EVENT: the TAP lines of one event
verdicts() { grep -E "^(not )?ok [0-9]+ - .* :: $2( |$)" "$1"; }

# check NAME: what one boot says.
check() {
    name=$1 c=$TMP/$1
    section "$name" 1 > "$c.cpuinfo"
    section "$name" 2 > "$c.info"
    section "$name" 3 > "$c.events"
    section "$name" 4 > "$c.matrix"
    section "$name" 8 > "$c.firmware"
    section "$name" 9 > "$c.sample"
    grep -q '^isa.*sscofpmf' "$c.cpuinfo"
    ok $? "$name: the guest's CPU has sscofpmf: $(grep -m1 '^isa' "$c.cpuinfo")"
    marchid=$(sed -n 's/^marchid[[:space:]]*: //p' "$c.cpuinfo" | head -n 1)
    [ -n "$marchid" ] && grep -qi "marchid.*$marchid" "$c.info"
    ok $? "$name: info names the CPU by its marchid ($marchid) as /proc/cpuinfo does: $(grep -i -m1 'marchid' "$c.info" | cut -c1-160)"
    grep -qi '^pmu sysfs *cpu' "$c.info"
    ok $? "$name: info names the kernel's core PMU: $(grep -i -m1 '^pmu' "$c.info" | cut -c1-160)"
    grep -q '^machine .*virtual or emulated' "$c.info"
    ok $? "$name: info says the host is emulated: $(grep -m1 '^machine' "$c.info" | cut -c1-160)"

    # The matrix: each event's verdicts, ok / not ok / skip.
    for ev in cycles instructions dTLB-read-misses dTLB-write-misses iTLB-read-misses; do
        n=$(verdicts "$c.matrix" "$ev" | wc -l)
        okn=$(verdicts "$c.matrix" "$ev" | grep -v '# SKIP' | grep -c '^ok ')
        bad=$(verdicts "$c.matrix" "$ev" | grep -c '^not ok')
        sk=$(verdicts "$c.matrix" "$ev" | grep -c '# SKIP')
        echo "# $name: $ev: $okn ok, $bad not ok, $sk skip of $n"
    done
    [ "$(grep -Ec '^(not )?ok [0-9]+ - ' "$c.matrix")" -ge 20 ]
    ok $? "$name: the matrix ran: $(grep -Ec '^(not )?ok [0-9]+ - ' "$c.matrix") verdicts"
}

# Both emulators; a run folder of each, brought back for compare.
for e in qemu7.2 qemu10.0; do
    case $e in
    qemu7.2)
        if ! command -v qemu-system-riscv64 > /dev/null 2>&1; then
            skip "$e" "qemu-system-riscv64 is not on PATH: install qemu-system-misc (make deps does)"
            continue
        fi
        boot "$e" "" "" ;;
    qemu10.0)
        if ! [ -x "$Q10" ] || ! [ -s "$Q10_BIOS" ]; then
            skip "$e" "$Q10 or its OpenSBI is missing: make deps fetches them (scripts/emu-riscv-fetch.sh)"
            continue
        fi
        boot "$e" "$Q10" "$Q10_BIOS" ;;
    esac
    check "$e"
    run=$TMP/$e-run
    mkdir -p "$run"
    section "$e" 5 | sed '/^$/d' > "$run/manifest.json"
    section "$e" 6 | sed '/^$/d' > "$run/measurements.ndjson"
    section "$e" 7 | sed '/^$/d' > "$run/validate.tap"
done

# compare: each (case, event) whose verdict or count differs between the emulators, named.
if [ -s "$TMP/qemu7.2-run/manifest.json" ] && [ -s "$TMP/qemu10.0-run/manifest.json" ]; then
    $PMUCAL compare "$TMP/qemu7.2-run" "$TMP/qemu10.0-run" > "$TMP/cmp.tap" 2> "$TMP/cmp.err"
    rc=$?
    $PMUCAL compare --json "$TMP/qemu7.2-run" "$TMP/qemu10.0-run" > "$TMP/cmp.json" 2>> "$TMP/cmp.err"
    differ=$(jq -r '[.points[] | select(.result != "same")] | length' "$TMP/cmp.json" 2> /dev/null)
    points=$(jq -r '.points | length' "$TMP/cmp.json" 2> /dev/null)
    [ "$rc" -le 1 ] && [ -n "$points" ] && [ "$points" -gt 0 ]
    ok $? "compare qemu7.2 qemu10.0 ran (exit $rc): $points points, $differ differ $(head -c 200 "$TMP/cmp.err")"
    jq -r '.points[] | select(.result != "same") | "# differs: \(.case) :: \(.event): \(.result) [\(.flags | join(","))] \(.why // "")"' "$TMP/cmp.json" 2> /dev/null | cut -c1-300
    jq -r '.facts[]? | "# fact differs: \(.fact): \(.base) -> \(.new)"' "$TMP/cmp.json" 2> /dev/null | cut -c1-300
else
    skip "compare qemu7.2 qemu10.0" "a run folder of each emulator is needed; one boot did not bring one back"
fi
done_testing
