#!/bin/sh
# scripts/kernel-check.sh: a kernel as a user gives it, booted on the emulated Neoverse N1, its run
# folders brought back on a virtio disk, the manifest naming the kernel and its PMU's own sysfs
# description; the same kernel on a CPU without a PMU (-cpu neoverse-n1,pmu=off) caught by compare
# as not ok naming the events; bad input (not an Image, no such package, a kernel that panics or
# never reaches /init) refused with one message and a non-zero exit. One kernel: the one make deps
# downloads (build/emu), booted with a short command list (tests/emu/kernel-check-short).
# The riscv64 form: Debian 13's riscv64 kernel (build/emu-riscv64) on QEMU's RISC-V virt machine,
# its image's header telling the ISA, and again on a PMU without Sscofpmf (-cpu
# rv64,sscofpmf=false: riscv-pmu-sbi refuses sampling and the user-only filter), the planted
# regression compare must catch (tests/emu-riscv64/kernel-check-short: one short boot each).
. "$(dirname "$0")/lib.sh"
KERNEL=${PMUCAL_EMU_KERNEL:-build/emu/vmlinuz}
MODULES=build/emu/modules
SHORT=tests/emu/kernel-check-short
export PMUCAL_EMU_BIN=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} PMUCAL_EMU_INIT=${PMUCAL_EMU_INIT:-build/aarch64/emu-init}

# Refused before anything boots: these need neither QEMU nor a kernel.
printf 'not a kernel\n' > "$TMP/text"
# A relative path is named as it was resolved: from the folder the script was started in.
for bad in "$TMP/text" "$PMUCAL"; do
    scripts/kernel-check.sh --image "$bad" --out "$TMP/bad" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    case $bad in /*) named=$bad ;; *) named=$PWD/$bad ;; esac
    [ $rc = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "^kernel-check: --image $named is not an arm64 kernel Image (no 'ARM\\\\x64' magic at offset 0x38" "$TMP/err"
    ok $? "$(basename "$bad"): not an arm64 Image, one message, exit 2 (exit $rc): $(cut -c1-200 "$TMP/err")"
done
scripts/kernel-check.sh --image "$TMP/absent" > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q "^kernel-check: --image $TMP/absent: no such file" "$TMP/err"
ok $? "a kernel file that does not exist: $(cat "$TMP/err")"
scripts/kernel-check.sh > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q 'give the Linux kernel under test: --image IMAGE or --package NAME' "$TMP/err"
ok $? "no kernel given: $(cat "$TMP/err")"
scripts/kernel-check.sh --package 'linux-image-$(id)' > /dev/null 2> "$TMP/err"
[ $? = 2 ] && grep -q "not a Debian package name" "$TMP/err"
ok $? "a package name that is not one is refused before apt sees it: $(cat "$TMP/err")"
if command -v apt-cache > /dev/null 2>&1 && apt-cache show --no-all-versions linux-image-arm64:arm64 > /dev/null 2>&1; then
    scripts/kernel-check.sh --package linux-image-0.0.0-0-nosuch-arm64 --out "$TMP/nosuch" > /dev/null 2> "$TMP/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q '^kernel-check: --package linux-image-0.0.0-0-nosuch-arm64: Debian has no such arm64 package' "$TMP/err" && [ ! -e "$TMP/nosuch" ]
    ok $? "a package that does not exist: one message, exit 2 (exit $rc), no folder: $(cut -c1-160 "$TMP/err")"
else
    skip "a package that does not exist" "apt knows no arm64 packages here (dpkg --add-architecture arm64 && apt-get update)"
fi

# children_cpu: the CPU seconds this test's finished children spent (QEMU's, mostly).
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / hz }' "/proc/$$/stat"; }
RV_KERNEL=build/emu-riscv64/vmlinux RV_MODULES=build/emu-riscv64/modules RV_SHORT=tests/emu-riscv64/kernel-check-short
export PMUCAL_EMU_RV_BIN=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal} PMUCAL_EMU_RV_INIT=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}
rv_why=
[ -x "$PMUCAL_EMU_RV_BIN" ] || rv_why="no $PMUCAL_EMU_RV_BIN: make emu-riscv64 builds it"
[ -s "$RV_MODULES/virtio_blk.ko.xz" ] || [ -s "$RV_MODULES/virtio_blk.ko" ] || rv_why="no $RV_MODULES/virtio_blk.ko.xz: make deps fetches it (scripts/emu-riscv-fetch.sh)"
[ -s "$RV_KERNEL" ] || rv_why="no $RV_KERNEL: make deps fetches it (scripts/emu-riscv-fetch.sh)$( [ -f build/emu-riscv64/unavailable ] && echo ": $(head -c 200 build/emu-riscv64/unavailable)")"
sanitized_build && rv_why="$PMUCAL is an AddressSanitizer build; the guest runs the plain riscv64 build"
[ "${PMUCAL_TEST_EMU:-1}" = 0 ] && rv_why="PMUCAL_TEST_EMU=0"
if [ -n "$rv_why" ]; then
    skip "a riscv64 kernel under test" "$rv_why"
else
    # rv_check NAME CPU: one short boot of the riscv64 kernel into $TMP/NAME, its CPU seconds said.
    rv_check() {
        cpu0=$(children_cpu)
        # A guest that loops is stopped by QEMU's CPU time (7-8 s a boot here, the TLB walk recorded), not the machine's load.
        PMUCAL_EMU_CPU_SECONDS=150 scripts/kernel-check.sh --image "$RV_KERNEL" --modules "$RV_MODULES" --commands "$RV_SHORT" \
            --out "$TMP/$1" --cpu "$2" --timeout 900 > "$TMP/$1.out" 2> "$TMP/$1.err"
        rc=$?
        rv_cpu=$(echo "$cpu0 $(children_cpu)" | awk '{ printf "%.1f", $2 - $1 }')
        echo "# riscv64 kernel-check -cpu $2: ${rv_cpu} s CPU"
        return $rc
    }
    rv_check rv rv64,sscofpmf=true
    ok $? "kernel-check told a riscv64 Image by its header, booted it on the virt machine and brought the run folders back (${rv_cpu} s CPU): $(grep "run folders in" "$TMP/rv.out" | cut -c1-240) $(tail -n 2 "$TMP/rv.err" | cut -c1-300)"
    rvm=$(ls -d "$TMP"/rv/results/*-matrix 2> /dev/null | head -n 1)
    rvs=$(ls -d "$TMP"/rv/results/*-sample 2> /dev/null | head -n 1)
    got=$(jq -r '.linux_kernel | [.release, .flavour, .pmu.name, .pmu.format.event, .pmu.format.firmware] | map(tostring) | join(" ")' "$rvm/manifest.json" 2> /dev/null)
    is "$got" "$(sed 's/^linux-image-//' build/emu-riscv64/kernel-package 2> /dev/null) riscv64 cpu config:0-47 config:62-63" \
        "the manifest names the riscv64 kernel and riscv-pmu-sbi's PMU: 'cpu', its event and SBI firmware formats"
    # No page-stride walk in the guest: emu-run.sh seeds its cache folder with the recorded one.
    walk=$(jq -r '.cpu.dtlb_walk' "$rvm/manifest.json" 2> /dev/null)
    case $walk in "measured on "*", cached in /cache/tlb-"*.json) rc=0 ;; *) rc=1 ;; esac
    ok $rc "the guest took this emulated host's recorded TLB walk, not a walk of its own: $walk"
    grep -q '^\(not \)\{0,1\}ok [0-9]* - branch :: instructions = inst: measured [0-9]' "$rvm/validate.tap" &&
        grep -q '^ok [0-9]* - branch :: branches # SKIP refused by the Linux kernel' "$rvm/validate.tap" &&
        grep -q '^ok [0-9]* - branch :: page-faults = ' "$rvm/validate.tap"
    ok $? "instructions measured, branches refused by riscv-pmu-sbi, page-faults ok: $(grep ' - branch :: instructions' "$rvm/validate.tap" | cut -c1-160)"
    rv_check rv-nosscof rv64,sscofpmf=false
    ok $? "the same kernel on -cpu rv64,sscofpmf=false came back too (${rv_cpu} s CPU): $(grep "run folders in" "$TMP/rv-nosscof.out" | cut -c1-240) $(tail -n 2 "$TMP/rv-nosscof.err" | cut -c1-300)"
    rvm0=$(ls -d "$TMP"/rv-nosscof/results/*-matrix 2> /dev/null | head -n 1)
    rvs0=$(ls -d "$TMP"/rv-nosscof/results/*-sample 2> /dev/null | head -n 1)
    grep -q '^ok [0-9]* - .* # SKIP the Linux kernel rejected the encoding (EINVAL)' "$rvm0/validate.tap" &&
        grep -q '^ok [0-9]* - walker .*:: cycles # SKIP this PMU cannot sample it' "$rvs0/validate.tap"
    ok $? "without Sscofpmf the driver refuses the user-only counts and sampling: $(grep -m1 'SKIP the Linux kernel rejected' "$rvm0/validate.tap" | cut -c1-160)"
    "$PMUCAL" compare "$rvm" "$rvm0" > "$TMP/rvcmp.tap" 2> "$TMP/rvcmp.err"
    rc=$?
    [ $rc = 1 ] && grep -q '^not ok [0-9]* - branch :: cycles no longer measured' "$TMP/rvcmp.tap" &&
        grep -q '^not ok [0-9]* - branch :: instructions no longer measured' "$TMP/rvcmp.tap" && grep -q '^ok [0-9]* - branch :: page-faults same' "$TMP/rvcmp.tap"
    ok $? "the planted regression: compare exits 1 (exit $rc), cycles and instructions not ok as no longer measured, page-faults ok: $(grep '^not ok' "$TMP/rvcmp.tap" | cut -c1-80 | tr '\n' ' ')"
    "$PMUCAL" compare "$rvs" "$rvs0" > "$TMP/rvscmp.tap" 2>&1
    rc=$?
    [ $rc = 1 ] && grep -q '^not ok [0-9]* - walker .*:: cycles precise=[0-3] no longer sampled' "$TMP/rvscmp.tap"
    ok $? "sampling: cycles no longer sampled without Sscofpmf (exit $rc): $(grep -c '^not ok' "$TMP/rvscmp.tap") not ok: $(grep -m1 '^not ok' "$TMP/rvscmp.tap" | cut -c1-160)"
fi

if [ "${PMUCAL_TEST_EMU:-1}" = 0 ] || sanitized_build || [ ! -s "$KERNEL" ] || [ ! -s "$MODULES/virtio_blk.ko" ]; then
    why="PMUCAL_TEST_EMU=0"
    sanitized_build && why="$PMUCAL is an AddressSanitizer build; the guest runs the plain aarch64 build"
    [ -s "$MODULES/virtio_blk.ko" ] || why="no $KERNEL with $MODULES/virtio_blk.ko: make deps downloads them"
    skip "booting a kernel under test" "$why"
    done_testing
    exit
fi

# A kernel that panics before /init, and one that waits for ever (rootwait on a disk that is not there).
scripts/kernel-check.sh --image "$KERNEL" --modules "$MODULES" --commands "$SHORT" --out "$TMP/panic" \
    --append "rdinit=/nonexistent panic=-1" --timeout 120 > /dev/null 2> "$TMP/err"
rc=$?
[ $rc = 4 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "^kernel-check: the kernel panicked before reaching /init: '.*Kernel panic - not syncing: " "$TMP/err"
ok $? "a kernel that panics: one message naming the panic, exit 4 (exit $rc): $(cut -c1-220 "$TMP/err")"
scripts/kernel-check.sh --image "$KERNEL" --modules "$MODULES" --commands "$SHORT" --out "$TMP/wait" \
    --append "loglevel=7 rdinit=/nonexistent root=/dev/vdz rootwait" --timeout 15 > /dev/null 2> "$TMP/err"
rc=$?
[ $rc = 4 ] && [ "$(wc -l < "$TMP/err")" = 1 ] && grep -q "^kernel-check: the kernel never reached /init within 15s; the console's last line: '.*Waiting for root device /dev/vdz" "$TMP/err"
ok $? "a kernel that never reaches /init: a timeout naming the console's last line, exit 4 (exit $rc): $(cut -c1-220 "$TMP/err")"

# The kernel under test, then the same on a CPU without a PMU.
out=$TMP/kc
scripts/kernel-check.sh --image "$KERNEL" --modules "$MODULES" --commands "$SHORT" --out "$out" --timeout 300 > "$TMP/kc.out" 2> "$TMP/kc.err"
rc=$?
ok $rc "kernel-check booted $KERNEL and brought the run folders back (exit $rc): $(grep "run folders in" "$TMP/kc.out" | cut -c1-200) $(tail -n 2 "$TMP/kc.err" | cut -c1-300)"
m=$(ls -d "$out"/results/*-matrix 2> /dev/null | head -n 1)
[ -n "$m" ] && [ -s "$m/measurements.ndjson" ] && [ -s "$m/validate.tap" ] && [ -d "$(ls -d "$out"/results/*-mux | head -n 1)" ] &&
    [ -s "$(ls -d "$out"/results/*-sample | head -n 1)/measurements.ndjson" ] && ! grep -q '^### emu: ' "$m/validate.tap"
ok $? "the whole run folders came back through the virtio disk, not the console: $(ls "$out/results" | tr '\n' ' ')"
release=$(sed 's/^linux-image-//' build/emu/kernel-package 2> /dev/null)
got=$(jq -r '.linux_kernel | [.release, .flavour, (.package // "null"), .pmu.name, .pmu.counters, .pmu.events.inst_retired, .pmu.events.cpu_cycles, .pmu.format.event, .perf_user_access] | map(tostring) | join(" ")' "$m/manifest.json" 2> /dev/null)
is "$got" "$release arm64 null armv8_pmuv3 7 event=0x0008 event=0x0011 config:0-15 0" \
    "the manifest names the kernel: release, flavour, package (none: a file), PMU, counters announced, sysfs events and format, perf_user_access"
jq -e '.linux_kernel | (.cmdline | test("rdinit=/init")) and (.pmu.counters_from | test("^hw perfevents: enabled with armv8_pmuv3 PMU driver, 7 counters")) and (.pmu.caps | type == "object") and (.version | length > 0)' "$m/manifest.json" > /dev/null 2>&1
ok $? "and its command line, the driver's own boot line and the caps folder: $(jq -r '.linux_kernel.pmu.counters_from' "$m/manifest.json" 2> /dev/null)"
head -n 1 "$out/console.ktap" | grep -q '^KTAP version 1$' && grep -q '^ *\(not \)\?ok [0-9]* INST_RETIRED' "$out/console.ktap"
ok $? "KTAP went to the console: $(grep -c 'ok [0-9]' "$out/console.ktap") result lines in $out/console.ktap"
jq -e --arg r "$release" '(.checkouts[0].misc.kernel_release == $r) and (.builds[0].architecture == "arm64") and (.builds[0].config_name == "arm64") and (.checkouts[0].comment | startswith("Linux " + $r))' "$out/kcidb-matrix.json" > /dev/null 2>&1
ok $? "the KCIDB export's checkout and build are the kernel: $(jq -c '.builds[0] | {comment, architecture, config_name}' "$out/kcidb-matrix.json" 2> /dev/null | cut -c1-200)"
[ -d ../shared/tools/kcidb-io/kcidb_io ] && export PYTHONPATH="../shared/tools/kcidb-io${PYTHONPATH:+:$PYTHONPATH}"
if python3 -c 'import kcidb_io, jsonschema' 2> /dev/null; then
    bad=0 n=0
    for f in "$out"/kcidb-*.json; do
        n=$((n + 1))
        python3 -c 'import json, sys, kcidb_io
kcidb_io.schema.LATEST.validate(json.load(open(sys.argv[1])))' "$f" 2> "$TMP/kcidb.err" || { bad=$((bad + 1)); tail -n 1 "$TMP/kcidb.err"; }
    done
    [ $n -ge 3 ] && [ $bad = 0 ]
    ok $? "every KCIDB export of the check validates with kcidb-io ($n exports, $bad refused)"
else
    skip "KCIDB exports against the schema" "kcidb-io is not importable (../shared/tools/kcidb-io or PYTHONPATH) or python3-jsonschema is missing"
fi
"$PMUCAL" compare "$m" "$m" > "$TMP/self.tap" 2>&1
ok $? "compare takes a kernel-check run: $(grep 'Linux kernel PMU' "$TMP/self.tap" | head -n 1)"

off=$TMP/off
scripts/kernel-check.sh --image "$KERNEL" --modules "$MODULES" --commands "$SHORT" --out "$off" --cpu neoverse-n1,pmu=off --timeout 300 > "$TMP/off.out" 2> "$TMP/off.err"
ok $? "the same kernel on -cpu neoverse-n1,pmu=off came back too: $(grep "run folders in" "$TMP/off.out" | cut -c1-200)"
moff=$(ls -d "$off"/results/*-matrix 2> /dev/null | head -n 1)
jq -e '.linux_kernel.pmu.name == null and .linux_kernel.pmu.why != null' "$moff/manifest.json" > /dev/null 2>&1
ok $? "its manifest says the kernel registered no core PMU: $(jq -r '.linux_kernel.pmu.why' "$moff/manifest.json" 2> /dev/null)"
"$PMUCAL" compare "$m" "$moff" > "$TMP/cmp.tap" 2> "$TMP/cmp.err"
is $? 1 "compare exits 1 on the planted regression"
grep -q '^not ok [0-9]* - Linux kernel PMU :: driver core PMU removed (was armv8_pmuv3)$' "$TMP/cmp.tap" &&
    grep -q '^not ok [0-9]* - Linux kernel PMU :: events inst_retired removed (was event=0x0008)$' "$TMP/cmp.tap" &&
    grep -q '^not ok [0-9]* - Linux kernel PMU :: format event removed (was config:0-15)$' "$TMP/cmp.tap"
ok $? "the PMU's own description: driver, events and format named as removed: $(grep -c '^not ok [0-9]* - Linux kernel PMU' "$TMP/cmp.tap") lines"
"$PMUCAL" compare --html "$TMP/cmp.html" "$m" "$moff" > /dev/null 2>&1
grep -q '<tr class="regress"><td>driver</td><td class="mono">core PMU</td><td>removed</td><td class="mono">armv8_pmuv3</td>' "$TMP/cmp.html"
ok $? "the HTML comparison shows the PMU's description too, the driver's loss among the regressions"
lost=$(grep -c '^not ok [0-9]* - [a-z]* :: \(INST_RETIRED\|CPU_CYCLES\|instructions\|cycles\|BR_RETIRED\|L1D_CACHE\) no longer measured' "$TMP/cmp.tap")
is "$lost" 12 "each hardware (case, event) of the 2 cases x 6 events is not ok as no longer measured"
grep -q '^ok [0-9]* - walker :: page-faults same' "$TMP/cmp.tap" && grep -q '^#   INST_RETIRED  *CHANGED in 2 of 2 cases: walker; branch' "$TMP/cmp.tap"
ok $? "software events stay ok; the summary names the events: $(grep '^#   INST_RETIRED' "$TMP/cmp.tap")"
s0=$(ls -d "$out"/results/*-sample | head -n 1) s1=$(ls -d "$off"/results/*-sample | head -n 1)
"$PMUCAL" compare "$s0" "$s1" > "$TMP/scmp.tap" 2>&1
rc=$?
[ $rc = 1 ] && grep -q '^not ok [0-9]* - walker loads=1 :: CPU_CYCLES precise=[0-3] no longer sampled' "$TMP/scmp.tap"
ok $? "sampling: CPU_CYCLES no longer sampled without the PMU (exit $rc): $(grep -c '^not ok' "$TMP/scmp.tap") not ok"
done_testing
