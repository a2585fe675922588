#!/bin/sh
# Cache geometry: hwloc's levels checked for plausibility (the Zen 5 VM fixture's 508M 0-way L3),
# replaced by the measured curve (a recorded one here, so any host gives the same answer), shown
# side by side by info and recorded in a run's manifest; the per-host cache of the measurement.
. "$(dirname "$0")/lib.sh"

fx=tests/hosts/zen5-vm   # the repository's copy of ../shared/hosts/zen5-vm
curve=tests/hosts/zen5-vm/curve.csv
export PMUCAL_CACHE_DIR="$TMP/cache"
zen5() { HWLOC_XMLFILE=$fx/hwloc.xml HWLOC_THISSYSTEM=1 HWLOC_CPUID_PATH=$fx/cpuid "$@"; }
l3() { jq -c '.topology.geometry.levels[2] | [.bytes, .source, .hwloc_plausible, [.findings[].reason]]' "$1"; }

# The fixture alone: implausible, and not measured (its caches are not this machine's).
zen5 $PMUCAL info --json > "$TMP/a.json" 2> "$TMP/a.err"
ok $? "info --json on the Zen 5 VM fixture"
is "$(l3 "$TMP/a.json")" '[532676608,"hwloc",false,["zero-ways","beyond-silicon","cpuid-incomplete"]]' \
    "the 508M 0-way L3 is implausible for three named reasons, kept from hwloc without a curve"
jq -e '.topology.geometry.curve | test("not measured: the topology comes from HWLOC_XMLFILE")' "$TMP/a.json" > /dev/null
ok $? "the manifest says why it was not measured: $(jq -r .topology.geometry.curve "$TMP/a.json")"
jq -e '[.topology.geometry.levels[0,1] | .hwloc_plausible and .source == "hwloc" and (.findings | length) == 0] == [true, true]' \
    "$TMP/a.json" > /dev/null
ok $? "its L1d 48K and L2 1M pass the checks and come from hwloc"
[ ! -e "$TMP/cache" ]; ok $? "a fixture never measures nor writes the cache"

# With the curve recorded on that VM: L3 from the measured boundary, everywhere.
zen5 env PMUCAL_CURVE_FILE=$curve $PMUCAL info --json > "$TMP/b.json"
is "$(l3 "$TMP/b.json")" '[12582912,"measured",false,["zero-ways","beyond-silicon","cpuid-incomplete"]]' \
    "the recorded curve puts the L3 boundary at 12M, used in place of hwloc's 508M"
jq -e '.topology.geometry.levels | [.[].measured_bytes] == [49152, 1048576, 12582912]' "$TMP/b.json" > /dev/null
ok $? "measured beside hwloc: L1d 48K, L2 1M, L3 12M (got $(jq -c '[.topology.geometry.levels[].measured_bytes]' "$TMP/b.json"))"
jq -e '.topology.geometry.memory_ns > 60 and .topology.geometry.levels[2].measured_cycles < 100' "$TMP/b.json" > /dev/null
ok $? "memory answers beyond 60 ns, the L3 plateau under 100 cycles"
zen5 env PMUCAL_CURVE_FILE=$curve $PMUCAL info > "$TMP/b.txt"
grep -q '^L3 .*12M.*size=L3 means 2M' "$TMP/b.txt" && grep -q 'L3 .*508M 0-way .*508M .*12M (.*cycles) .*12M from measured' "$TMP/b.txt" &&
    grep -q '^findings   L3 zero-ways' "$TMP/b.txt" && grep -q '^DRAM .*size=DRAM means 256M' "$TMP/b.txt"
ok $? "info shows hwloc, CPUID, measured and used side by side, the findings, and size=L3 2M, size=DRAM 256M"

# A run's manifest records the same.
zen5 env PMUCAL_CURVE_FILE=$curve $PMUCAL validate --case 'walker size=L3' -e page-faults -r 1 --label geo \
    > "$TMP/v.out" 2>&1
man=$(ls "$PMUCAL_RESULTS"/*-geo/manifest.json 2>/dev/null | head -n 1)
is "$(jq -c '.topology.geometry.levels[2] | [.bytes, .source]' "$man" 2>/dev/null)" '[12582912,"measured"]' \
    "validate's manifest says the L3 it used came from the measured curve"
# (The detail may end in the prefetcher check's finding on a host whose prefetchers follow the
# walk: what is checked here is the size walked.)
is "$(jq -r 'select(.case == "walker size=L3") | .detail | sub(" order not the level.*$"; "")' "$PMUCAL_RESULTS"/*-geo/measurements.ndjson 2>/dev/null | head -n 1)" \
    "page=2m-thp elements=32768 lines=32768 pages=1" "walker size=L3 walked 2M (the measured L3's middle), not hwloc's 508M's" 

# An L3 less than twice the L2 (this VM's share of a busy L3 has been 2M and 3M beside a 1M L2):
# code and data cases named for the L3 must still land in it, not on the L2's edge.
awk -F, 'BEGIN { OFS = "," } $1 > 2500000 && $1 < 12000000 { $2 = 420 + $1 / 1e6; $3 = $2 / 3.72 } { print }' \
    $curve > "$TMP/small-l3.csv"
zen5 env PMUCAL_CURVE_FILE="$TMP/small-l3.csv" $PMUCAL info > "$TMP/s.txt"
grep -q '^L3 *2M,.*size=L3 means 1536K' "$TMP/s.txt"; ok $? "a 2M L3 over a 1M L2: $(grep '^L3 ' "$TMP/s.txt")"
zen5 env PMUCAL_CURVE_FILE="$TMP/small-l3.csv" $PMUCAL run ifetch size=L3 -e page-faults -r 1 --iters 2 > "$TMP/s.out" 2>&1
grep -q '^ifetch size=L3 *\[code=1.5M .* level=L3\]' "$TMP/s.out"
ok $? "ifetch size=L3 runs 1.5M of code, in the L3 (it took the L2's 1M before): $(head -n 1 "$TMP/s.out")"

# A plausible L3 the guest cannot keep all of (issue 47): the curve's usable part sizes the cases,
# hwloc's size stays the cache's. Recorded on this project's Zen 5 (8M of 32M) and Zen 3 (1536K of
# 32M) guests.
usable() { jq -c '.topology.geometry.levels[2] | [.bytes, .usable_bytes, .source, (.bytes / .usable_bytes | floor)]' "$1"; }
for row in "zen5-vm-32m 33554432 8388608 2097152 2M" "zen3-vm 33554432 1572864 1048576 1M"; do
    set -- $row
    HWLOC_XMLFILE=tests/hosts/$1/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/$1/curve.csv \
        $PMUCAL info --json > "$TMP/u.json"
    is "$(usable "$TMP/u.json")" "[$2,$3,\"hwloc\",$(($2 / $3))]" "$1: hwloc's L3 $2 kept, $3 of it usable by the curve"
    is "$(jq '.topology.caches[2].case_bytes' "$TMP/u.json")" "$4" "$1: size=L3 is $5, inside the usable part"
    HWLOC_XMLFILE=tests/hosts/$1/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/$1/curve.csv \
        $PMUCAL info > "$TMP/u.txt"
    grep -q "L3 .* usable of 32M from hwloc" "$TMP/u.txt" && grep -q "of which the curve shows .* usable here" "$TMP/u.txt"
    ok $? "$1: info says it: $(grep '^ *L3 ' "$TMP/u.txt" | tail -n 1)"
    HWLOC_XMLFILE=tests/hosts/$1/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/$1/curve.csv PMUCAL_GEOMETRY=hwloc \
        $PMUCAL info --json > "$TMP/u.json"
    is "$(jq '.topology.caches[2].case_bytes' "$TMP/u.json")" 4194304 "$1: PMUCAL_GEOMETRY=hwloc takes hwloc's 32M whole (size=L3 4M)"
done
# An L3 slower than 40 ns is a cache when memory answers far slower after it: the Emerald Rapids
# guest of 2026-11-29 (L3 41-45 ns from 2M to 4M, memory 134-140 ns), whose L3 the rules before
# took for memory, so that 12 size=L3 cases skipped saying "this machine has no L3 cache (hwloc)".
emr() { HWLOC_XMLFILE=tests/hosts/emr-vm/hwloc.xml HWLOC_THISSYSTEM=1 "$@"; }
emr env PMUCAL_CURVE_FILE=tests/hosts/emr-vm/curve-2026-11-29.csv $PMUCAL info --json > "$TMP/emr.json"
is "$(jq -c '[.topology.geometry.levels[2] | .bytes, .source] + [.topology.geometry.memory_ns | floor]' "$TMP/emr.json")" \
    '[8388608,"measured",134]' "emr-vm 2026-11-29: an L3 of 8M measured (its 42 ns plateau is a cache), memory at 134 ns"
# The same curve without its L3 points: the level is left out, and the reason says the curve did it.
awk -F, '/^#/ || $1 < 1400000 || $1 > 10000000' tests/hosts/emr-vm/curve-2026-11-29.csv > "$TMP/nol3.csv"
emr env PMUCAL_CURVE_FILE="$TMP/nol3.csv" $PMUCAL run walker size=L3 -e page-faults > "$TMP/nol3.out" 2>&1
grep -q "SKIP size=L3: this machine's L3 cache is left out: hwloc's 260M is implausible and the measured latency curve goes from L2 to memory" "$TMP/nol3.out" && ! grep -q "(hwloc)" "$TMP/nol3.out"
ok $? "an L3 the curve did not find is skipped for that reason, not for hwloc's: $(tail -n 1 "$TMP/nol3.out")"

# The Zen 3 guest's closure walks an L3 region inside its 1536K, not the 2M default.
HWLOC_XMLFILE=tests/hosts/zen3-vm/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/zen3-vm/curve.csv \
    $PMUCAL run mixwalk -e page-faults -r 1 --iters 2 > "$TMP/m.out" 2>&1
grep -q '^mixwalk .*loads per lap: 16384 L3' "$TMP/m.out"
ok $? "zen3-vm: mixwalk's L3 region is 1M of its usable 1536K: $(grep '^mixwalk' "$TMP/m.out")"
# Its L3 lines in random order over the region in 2M pages, as l3_hit walks them (blocks of 64K in
# order were prefetched on the Emerald Rapids guest: 30.5 cycles a load against 55 random), and
# within 64K blocks in 4K pages, keeping first-level TLB misses out of the L2 region's loads.
# This machine's: measured into a cache folder of their own, so that 'info --measure' below starts
# from none (it found theirs once, under load, and took it for its own: exit 1 beside a cached curve).
PMUCAL_CACHE_DIR="$TMP/cache-mixwalk" $PMUCAL run mixwalk -e page-faults -r 1 --iters 2 > "$TMP/m2.out" 2>&1
PMUCAL_CACHE_DIR="$TMP/cache-mixwalk" $PMUCAL run mixwalk page=4k -e page-faults -r 1 --iters 2 > "$TMP/m4.out" 2>&1
{ grep -q '^mixwalk .*page=2m.*L3 lines in random order over the region' "$TMP/m2.out" ||
  grep -q '^mixwalk .*page=4k.*L3 lines in random order within 64K blocks' "$TMP/m2.out"; } &&
    grep -q '^mixwalk .*page=4k.*L3 lines in random order within 64K blocks' "$TMP/m4.out"
ok $? "mixwalk's L3 order follows its pages: $(grep '^mixwalk' "$TMP/m2.out"); $(grep '^mixwalk' "$TMP/m4.out")"
# A simulator's caches stay whole: the same host under sim sizes size=L3 by hwloc's 32M.
if sim_usable; then
    HWLOC_XMLFILE=tests/hosts/zen3-vm/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/zen3-vm/curve.csv \
        timeout 300 $PMUCAL run walker size=L3 --source sim -e sim::Ir --iters 2 -r 1 > "$TMP/sim.out" 2>&1
    grep -q '^walker size=L3 .*lines=65536' "$TMP/sim.out"
    ok $? "under sim size=L3 is 4M of the whole 32M: $(grep '^walker' "$TMP/sim.out")"
else
    sim_skip_or_fail "under sim size=L3 is 4M of the whole 32M"
fi

# The way out, and bad input.
zen5 env PMUCAL_GEOMETRY=hwloc PMUCAL_CURVE_FILE=$curve $PMUCAL info --json > "$TMP/c.json"
is "$(jq -c '.topology.geometry.levels[2] | [.bytes, .source]' "$TMP/c.json")" '[532676608,"hwloc"]' \
    "PMUCAL_GEOMETRY=hwloc takes hwloc's levels as they are"
PMUCAL_GEOMETRY=sometimes $PMUCAL info > /dev/null 2> "$TMP/d.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'PMUCAL_GEOMETRY=sometimes: give auto' "$TMP/d.err"; ok $? "a bad PMUCAL_GEOMETRY is one clear error, exit 2 (exit $rc)"
zen5 env PMUCAL_CURVE_FILE="$TMP/none.csv" $PMUCAL info > /dev/null 2> "$TMP/e.err"
rc=$?
[ $rc -eq 2 ] && grep -q "PMUCAL_CURVE_FILE=$TMP/none.csv" "$TMP/e.err"; ok $? "a missing curve file is named (exit $rc)"
zen5 $PMUCAL info --measure > /dev/null 2> "$TMP/f.err"
rc=$?
[ $rc -ne 0 ] && grep -q 'not this machine' "$TMP/f.err"; ok $? "info --measure refuses a fixture topology (exit $rc)"

# A sane host (the fixture with a 32M 16-way L3): nothing implausible, nothing measured.
sed 's/cache_size="532676608" depth="3" cache_linesize="64" cache_associativity="0"/cache_size="33554432" depth="3" cache_linesize="64" cache_associativity="16"/' \
    $fx/hwloc.xml > "$TMP/sane.xml"
HWLOC_XMLFILE="$TMP/sane.xml" HWLOC_THISSYSTEM=1 $PMUCAL info --json > "$TMP/s.json" 2> "$TMP/s.err"
jq -e '[.topology.geometry.levels[] | .hwloc_plausible and .source == "hwloc"] == [true, true, true] and .topology.geometry.levels[2].bytes == 33554432' \
    "$TMP/s.json" > /dev/null && ! grep -q measuring "$TMP/s.err"
ok $? "a sane 32M L3 passes the checks and is used as hwloc says, without measuring"

# This machine: measured once into the cache, read from it afterwards.
on_this_machine
[ ! -e "$TMP/cache" ]; ok $? "nothing has measured this machine into the cache before info --measure"
start=$(date +%s)
$PMUCAL info --measure > "$TMP/m1.txt" 2> "$TMP/m1.err"
rc=$?
secs=$(( $(date +%s) - start ))
f=$(ls "$TMP"/cache/geometry-*.json 2>/dev/null | head -n 1)
# Under load the curve may fail its checks every time (this VM's L3 moved 52 -> 71 cycles between
# passes): info says so on stderr, exits 1 and caches nothing. That is a state the host can be in,
# not a defect; the sweep's own checks run only on a curve that was measured.
if [ $rc -eq 1 ] && [ -z "$f" ] && grep -q '^pmucal: error: measuring failed: the curve failed its checks' "$TMP/m1.err"; then
    why=$(grep -m1 '^pmucal: error: measuring failed' "$TMP/m1.err" | sed 's/^pmucal: error: //' | tr '#' '%')
    skip "info --measure on this host now" "$why"
    skip "the sweep's stop rule" "no curve passed its checks here now: $why"
    skip "the cache of the measured curve" "no curve was measured"
    skip "a cache file of another host" "no curve was measured"
    done_testing
    exit
fi
[ $rc -eq 0 ] && [ -n "$f" ] && jq -e '(.points | length) >= 12 and (.key | test("kernel"))' "$f" > /dev/null
ok $? "info --measure measured this host in ${secs}s (exit $rc) and cached $(jq '.points | length' "$f" 2>/dev/null) points in $f"
# How long it takes is the machine's load (a benchmark's business); that it stops is the design:
# the sweep ends once two octaves (8 points) answer at memory latency (40 ns) and the last octave
# is flat (its median at most 1.25 x the window's first octave's; four octaves under 60 ns, where
# a slow L3 could be: penalties/curve.c), not an octave later.
jq -e 'def med: sort | (.[1] + .[2]) / 2;
       def stops: length >= 8 and ((.[-4:] | map(.[2]) | med) as $last | (if $last >= 60 then 8 else 16 end) as $w
           | length >= $w and (.[-$w:] | all(.[2] >= 40)) and $last <= 1.25 * (.[-$w:][:4] | map(.[2]) | med));
       .points | length >= 12 and stops and (.[:-4] | stops | not)' "$f" > /dev/null
ok $? "the sweep (${secs}s) stops two octaves into memory (four under 60 ns), the last flat: last points $(jq -c '[.points[-9:][] | .[2] | floor]' "$f") ns"
$PMUCAL info > "$TMP/m2.txt" 2> "$TMP/m2.err"
! grep -q measuring "$TMP/m2.err" && grep -q "^curve .*cached in $TMP/cache" "$TMP/m2.txt"
ok $? "the next run reads the cache, measuring nothing: $(grep '^curve' "$TMP/m2.txt")"
jq '.key = "another host"' "$f" > "$TMP/k.json" && mv "$TMP/k.json" "$f"
$PMUCAL info > "$TMP/m3.txt" 2> /dev/null
! grep -q "^curve      measured on" "$TMP/m3.txt"; ok $? "a cache file of another host (key) is not used: $(grep '^curve' "$TMP/m3.txt")"
done_testing
