#!/bin/sh
# The hosts pmucal must work on, whatever this machine is: each fixture of tests/hosts/ (hwloc's
# view of a real or typical machine) loaded as the topology, with chosen checks run under it:
# info, cases sized by level natively and under --source sim (the simulated machine handed to
# the valgrind child), and a level the host lacks as a SKIP; then this host with its PMU hidden
# from libpfm4 (an unknown model). Any test file runs under a fixture with PMUCAL_TEST_HOST=NAME.
. "$(dirname "$0")/lib.sh"
export PMUCAL_TEST_HOST= PMUCAL_TEST_HIDE_PMU=

# fixture | simulated D1 size,ways | simulated LL size,ways | L3 (sim) | why (source line in each verdict)
while IFS='|' read -r host d1 ll l3 why; do
    host=$(echo $host) d1=$(echo $d1) ll=$(echo $ll) l3=$(echo $l3)
    [ -z "$host" ] && continue
    line=$(grep -n "^$host *| *[0-9]" "$0" | cut -d: -f1)
    on_this_machine
    use_host "$host"
    xml_l1=$(grep -o 'type="L1Cache"[^>]*cache_size="[0-9]*"' "$HWLOC_XMLFILE" | head -n 1 | sed 's/.*cache_size="//; s/"//')
    $PMUCAL info --json > "$TMP/$host.info" 2> "$TMP/$host.info.err"
    rc=$?
    got=$(jq '.topology.caches[] | select(.name == "L1d") | .size' "$TMP/$host.info" 2> /dev/null)
    [ $rc -eq 0 ] && [ -n "$got" ] && [ "$got" = "$xml_l1" ]
    ok $? "$host (line $line): info exits $rc and shows the fixture's L1d ($got, want $xml_l1)"

    # Natively: level sizes resolve and a case runs.
    $PMUCAL run walker size=L2 -e page-faults -r 1 > "$TMP/$host.run" 2> "$TMP/$host.run.err"
    rc=$?
    [ $rc -eq 0 ] && grep -q '^walker size=L2' "$TMP/$host.run"
    ok $? "$host (line $line): run walker size=L2 natively (exit $rc) $(head -c 200 "$TMP/$host.run.err" | tr '\n' ' ')"

    if ! sim_usable; then
        sim_skip_or_fail "$host: cases under --source sim"
        continue
    fi
    $PMUCAL validate --source sim --label "sim-$host" -r 2 --case 'walker size=L2' --case 'walker size=L3' > "$TMP/$host.tap" 2> "$TMP/$host.err"
    rc=$?
    dir=$(ls -d "$PMUCAL_RESULTS"/*-"sim-$host" 2> /dev/null | head -n 1)
    good=$(grep -c '^ok ' "$TMP/$host.tap") bad=$(grep -c '^not ok' "$TMP/$host.tap")
    [ $rc -eq 0 ] && [ "$bad" -eq 0 ] && [ "$good" -ge 13 ]
    ok $? "$host (line $line): two cases under sim exit $rc, $good ok, $bad not ok $(grep '^not ok' "$TMP/$host.tap" | head -n 2 | tr '\n' ' ')"
    is "$(jq -r '"\(.sim.D1.size),\(.sim.D1.ways) \(.sim.LL.size),\(.sim.LL.ways)"' "$dir/manifest.json" 2> /dev/null)" "$d1 $ll" \
        "$host (line $line): the simulated D1 and LL: $why"
    if [ "$l3" = skip ]; then
        grep -q '^ok [0-9]* - walker size=L3 :: sim::Ir # SKIP size=L3: the simulated machine has no L3 cache' "$TMP/$host.tap"
        ok $? "$host (line $line): size=L3 is a SKIP saying why, not an abort"
    else
        grep -q '^ok [0-9]* - walker size=L3 :: sim::DLmr = ll.miss.warm' "$TMP/$host.tap"
        ok $? "$host (line $line): size=L3 is measured and its LL misses checked"
    fi
done <<'HOSTS'
zen5-vm  | 49152,12 | 1048576,8   | skip | hwloc's 508M 0-way L3 cannot be simulated: the L2 is the last level
zen4     | 32768,8  | 33554432,16 | run  | hwloc's L1d and L3 as they are
intel-2s | 49152,12 | 62914560,15 | run  | 60M 12-way has 81920 sets: simulated 15-way, 65536 sets, same size
emr-vm   | 49152,12 | 272629760,65 | run | hwloc's 260M 20-way L3 has 212992 sets: simulated 65-way, 65536 sets, same size
no-l3    | 32768,8  | 6291456,24  | skip | no L3: the L2 is the last level
zen4-vm  | 32768,8  | 33554432,16 | run  | the Zen 4 VM's hwloc (../shared/hosts/zen4-vm) as it is
intel-a7-vm | 49152,12 | 503316480,30 | run | 480M 16-way has 491520 sets: simulated 30-way, 262144 sets, same size
zen5-vm-32m | 49152,12 | 33554432,16 | run | the second Zen 5 VM's plausible 32M 16-way L3 (../shared/hosts/zen5-vm-32m) as it is
zen3-vm  | 32768,8  | 33554432,16 | run  | the Zen 3 VM's hwloc (../shared/hosts/zen3-vm) as it is
skylake  | 32768,8  | 8388608,16  | run  | a hand-written 4-core Skylake client: hwloc's levels as they are
HOSTS

# The walker and the latency curve agree on every level, on every fixture with a recorded curve:
# the case size=Ln (and size=DRAM) reads, on that host's curve, the latency of level n's plateau,
# nearer to it than to any other level's (in log: the plateaus are 3-10x apart).
# (A case beyond the curve's largest size reads the median of its last three points: memory is flat
# beyond them, and a last point may be slowed by another task.)
for host in emr-vm zen5-vm intel-a7-vm zen5-vm-32m; do
    on_this_machine
    use_host "$host"
    PMUCAL_CURVE_FILE="$PWD/tests/hosts/$host/curve.csv" $PMUCAL info --json > "$TMP/$host.curve.json" 2> /dev/null
    got=$(jq -r --rawfile csv "tests/hosts/$host/curve.csv" '
        [$csv | split("\n")[] | select(test("^[0-9]")) | split(",") | map(tonumber)] as $pts
        | def at($b): ([$pts[] | select(.[0] <= $b)] | last) as $a | ([$pts[] | select(.[0] >= $b)] | first) as $c
            | if $c == null then ([$pts[-3:][][1]] | sort | .[1]) elif $a == null then $c[1] elif $a[0] == $c[0] then $a[1]
              else $a[1] + ($c[1] - $a[1]) * ((($b | log) - ($a[0] | log)) / (($c[0] | log) - ($a[0] | log))) end;
        ([.topology.geometry.levels[].measured_cycles] + [.topology.geometry.memory_cycles]) as $plateau
        | ([.topology.caches[] | select(.name != "L1i") | .case_bytes] + [.topology.dram_case_bytes]) as $case
        | ([.topology.caches[] | select(.name != "L1i") | .name] + ["DRAM"]) as $names
        | [range(0; $case | length) | . as $k | at($case[$k]) as $c
           | ($plateau | to_entries | min_by((($c | log) - (.value | log)) | fabs) | .key) as $near
           | "\($names[$k]):\($case[$k] / 1024 | floor)K:\($c * 10 | round / 10):\(if $near == $k then "ok" else "nearer \($names[$near])" end)"]
        | join(" ")' "$TMP/$host.curve.json" 2> /dev/null)
    n=$(echo "$got" | tr ' ' '\n' | grep -c ':ok$')
    [ "$n" -eq 4 ]
    ok $? "$host: each level's walker case reads its own level's latency on the host's curve (level:case size:cycles:nearest plateau): $got"
done
on_this_machine

# The emulated RISC-V host (tests/77): QEMU's virt machine states no caches, so hwloc's view has
# none; every level is a SKIP naming the missing cache, never a size guessed, and a byte size runs.
use_host qemu-riscv64-virt
$PMUCAL info --json > "$TMP/rv.info" 2> "$TMP/rv.info.err"
rc=$?
is "$rc $(jq -r '[.topology.caches[]? | .name] | length' "$TMP/rv.info" 2> /dev/null) $(jq -r '.topology.cores' "$TMP/rv.info" 2> /dev/null)" "0 0 1" \
    "qemu-riscv64-virt: info exits 0 and shows no cache, one core (exit, caches, cores)"
$PMUCAL run walker size=L2 -e page-faults -r 1 > /dev/null 2> "$TMP/rv.l2"
rc=$?
[ $rc -eq 0 ] && grep -q 'SKIP size=L2: this machine has no L2 cache' "$TMP/rv.l2"
ok $? "qemu-riscv64-virt: walker size=L2 is a SKIP naming the missing cache (exit $rc): $(head -c 200 "$TMP/rv.l2")"
$PMUCAL run walker size=64k -e page-faults -r 1 > "$TMP/rv.run" 2> "$TMP/rv.run.err"
rc=$?
[ $rc -eq 0 ] && grep -q '^walker size=64k' "$TMP/rv.run"
ok $? "qemu-riscv64-virt: walker size=64k runs without a cache level (exit $rc) $(head -c 200 "$TMP/rv.run.err" | tr '\n' ' ')"
# mixwalk simulates its lap through the L1D: without one it is a SKIP saying so (it crashed in
# malloc, or with SIGSEGV inside the emulated RISC-V host, from a zero-sized simulated cache).
$PMUCAL run mixwalk -e page-faults -r 1 > /dev/null 2> "$TMP/rv.mix"
rc=$?
[ $rc -eq 0 ] && grep -q 'mixwalk: SKIP this machine has no L1 cache' "$TMP/rv.mix"
ok $? "qemu-riscv64-virt: mixwalk is a SKIP naming the missing L1, not a crash (exit $rc): $(head -c 200 "$TMP/rv.mix")"
# Its identity is a RISC-V CPU's: /proc/cpuinfo keys mvendorid, marchid, mimpid (perf's mapfile
# key) and the ISA string with sscofpmf, as each emulator states it.
for f in cpuinfo cpuinfo-qemu7.2; do
    key=$(awk -F': *' '/^mvendorid/ { v = $2 } /^marchid/ { a = $2 } /^mimpid/ { i = $2 } END { print v "-" a "-" i }' "tests/hosts/qemu-riscv64-virt/$f")
    grep -q '^isa.*_sscofpmf' "tests/hosts/qemu-riscv64-virt/$f" && case $key in 0x*-0x*-0x*) true ;; *) false ;; esac
    ok $? "qemu-riscv64-virt/$f: a RISC-V hart with sscofpmf, mvendorid-marchid-mimpid $key"
done
on_this_machine

# A curve measured under load that never reached memory (intel-a7-vm's first minutes of a make test
# beside a build: the L3's knee so soft the sweep stopped at 32M): hwloc's implausible 480M L3 is
# not used to size anything (it made size=DRAM 7.5G, and sim a 480M last level); the level is
# left out saying why, size=L3 is a SKIP naming it, size=DRAM 16 x the L2 (at least 256M).
use_host intel-a7-vm
export PMUCAL_CURVE_FILE="$PWD/tests/hosts/intel-a7-vm/curve-loaded.csv"
$PMUCAL info --json > "$TMP/loaded.json" 2> /dev/null
is "$(jq -r '[(.topology.geometry.levels[] | select(.level == "L3") | .bytes), .topology.dram_case_bytes] | join(" ")' "$TMP/loaded.json")" \
    "0 268435456" "a curve that never reached memory: the implausible L3 is left out and size=DRAM is 256M, not 16 x 480M"
jq -r '.topology.geometry.levels[] | select(.level == "L3") | .absent_why' "$TMP/loaded.json" | grep -q "its size is not known: hwloc's 480M is implausible and the measured curve never left its plateau"
ok $? "and says why: $(jq -r '.topology.geometry.levels[] | select(.level == "L3") | .absent_why' "$TMP/loaded.json")"
$PMUCAL run walker size=L3 -e page-faults -r 1 > /dev/null 2> "$TMP/loaded.err"
rc=$?
[ $rc -eq 0 ] && grep -q "SKIP size=L3: this machine's L3 cache is left out: its size is not known" "$TMP/loaded.err"
ok $? "walker size=L3 is a SKIP naming the reason (exit $rc): $(head -c 300 "$TMP/loaded.err")"
if sim_usable; then
    $PMUCAL validate --source sim --case 'walker size=L2' -e sim::Ir -r 1 --label loaded > /dev/null 2>&1
    is "$(jq -r '"\(.sim.LL.size)"' "$PMUCAL_RESULTS"/*-loaded/manifest.json 2> /dev/null)" 2097152 "and sim's last level is the L2"
else
    sim_skip_or_fail "the simulated machine of a host whose L3 is left out"
fi
unset PMUCAL_CURVE_FILE
on_this_machine

# The Zen 5 VM through hwloc's CPUID replay instead of its XML: the same 508M L3, and the sim
# child still gets the parent's machine (under valgrind hwloc's x86 backend is off).
on_this_machine
export HWLOC_COMPONENTS=x86 HWLOC_CPUID_PATH="$PWD/tests/hosts/zen5-vm/cpuid"
l3=$($PMUCAL info --json 2> /dev/null | jq '.topology.caches[] | select(.name == "L3") | .size')
is "$l3" 532676608 "zen5-vm CPUID replay: hwloc reads the 508M L3 from leaf 0x80000006"
if sim_usable; then
    $PMUCAL validate --source sim --case 'walker size=L2' -r 2 > "$TMP/replay.tap" 2> "$TMP/replay.err"
    rc=$?
    [ $rc -eq 0 ] && grep -q '^ok .*sim::DLmr' "$TMP/replay.tap" && ! grep -q '^not ok' "$TMP/replay.tap"
    ok $? "zen5-vm CPUID replay: walker size=L2 under sim (exit $rc) $(grep -v '^pmucal: \[' "$TMP/replay.err" | head -c 300 | tr '\n' ' ')"
else
    sim_skip_or_fail "zen5-vm CPUID replay under sim"
fi
on_this_machine

# Each CPUID fixture, this host's libpfm4 PMU hidden: the vendor table chosen by its signature,
# and the uarch whose references and recipe events a calibration takes.
# fixture | table source | uarch (- none)
hide_host_pmu
while IFS='|' read -r host table uarch; do
    host=$(echo $host) table=$(echo $table) uarch=$(echo $uarch)
    [ -z "$host" ] && continue
    line=$(grep -n "^$host *| *[a-z]" "$0" | cut -d: -f1)
    export HWLOC_CPUID_PATH="$PWD/tests/hosts/$host/cpuid"
    $PMUCAL events > "$TMP/$host.events" 2> "$TMP/$host.events.err"
    rc=$?
    n=$(grep -vc '^#' "$TMP/$host.events")
    [ $rc -eq 0 ] && grep -q "^# source: .*/eventdata/$table" "$TMP/$host.events" && [ "$n" -ge 100 ]
    ok $? "$host (line $line): events from $table by its CPUID (exit $rc, $n events: $(grep -m1 '^# source' "$TMP/$host.events" | cut -c1-120))"
    got=$($PMUCAL calibrate --recipe div64_latency --no-curve --passes 1 -r 3 --out "$TMP/cal-$host" 2> /dev/null |
          sed -n 's/^# references: \([a-z0-9]*\);.*/\1/p; s/^# references: none: no uarch file.*/-/p')
    is "$got" "$uarch" "$host (line $line): a calibration takes the uarch $uarch's references"
done <<'CPUIDS'
zen4-vm     | amd/amdzen4                          | zen4
zen5-vm     | amd/amdzen5                          | zen5
emr-vm      | intel/EMR/events/emeraldrapids_core  | goldencove
intel-a7-vm | intel/RKL/events/rocketlake_core     | -
zen5-vm-32m | amd/amdzen5                          | zen5
zen3-vm     | amd/amdzen3                          | zen3
CPUIDS
on_this_machine
unset LIBPFM_DISABLED_PMUS
# A guest whose CPUID model number is not its core's (6-A7 here, with a Golden Cove-family core):
# --uarch names the figures that apply (a uarch, or a CPU of one), and the run says it was given.
got=$($PMUCAL calibrate --recipe div64_latency --no-curve --passes 1 -r 3 --uarch emeraldrapids --out "$TMP/cal-uarch" 2> /dev/null |
      sed -n 's/^# references: \([a-z0-9]*\);.*/\1/p')
given=$(jq -r '[.uarch, .uarch_cpu, .uarch_given] | join(" ")' "$TMP"/cal-uarch/*/penalties.json 2> /dev/null)
[ "$got" = goldencove ] && [ "$given" = "goldencove emeraldrapids true" ]
ok $? "calibrate --uarch emeraldrapids takes goldencove's references and records it was given (got '$got', '$given')"
# The old spelling --model still works, with one note.
got=$($PMUCAL calibrate --recipe div64_latency --no-curve --passes 1 -r 3 --model goldencove --out "$TMP/cal-model" 2> "$TMP/model.note" |
      sed -n 's/^# references: \([a-z0-9]*\);.*/\1/p')
[ "$got" = goldencove ] && [ "$(grep -c 'calibrate: --model is now --uarch' "$TMP/model.note")" = 1 ]
ok $? "calibrate --model goldencove (the old spelling) still names the references, with one note (got '$got': $(head -c 120 "$TMP/model.note"))"
$PMUCAL calibrate --uarch pentium4 > /dev/null 2> "$TMP/model.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no such microarchitecture; pmucal has files for .*goldencove.*zen4" "$TMP/model.err"
ok $? "calibrate --uarch pentium4 is refused naming the uarchs there are (exit $rc: $(head -c 160 "$TMP/model.err"))"

# This host with its PMU hidden: the unknown-model paths, on every machine.
hide_host_pmu
is "$($PMUCAL info --json | jq -r '.pmu.libpfm4_pmu')" "null" "with LIBPFM_DISABLED_PMUS=${LIBPFM_DISABLED_PMUS:-(none known)} libpfm4 knows no core PMU"
$PMUCAL info > "$TMP/hidden.info" 2>&1
grep -q 'libpfm4 knows no core PMU' "$TMP/hidden.info"; ok $? "info says so: $(grep '^pmu' "$TMP/hidden.info")"
$PMUCAL validate --case 'walker size=L1' -e page-faults -r 2 > "$TMP/hidden.tap" 2> "$TMP/hidden.err"
rc=$?
[ $rc -eq 0 ] && grep -q '^ok [0-9]* - walker :: page-faults = pf.minor' "$TMP/hidden.tap"
ok $? "validate with software events runs and judges (exit $rc)"
done_testing
