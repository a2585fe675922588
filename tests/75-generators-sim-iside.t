#!/bin/sh
# The instruction side under sim (issue 48): hwloc's L1i reaches the topology and callgrind's --I1
# on this machine and under every fixture that has one; the stand-in note appears only where there
# is none. ifetch one line either side of the L1I's size is judged exactly (sim::I1mr, sim::ILmr
# against i1.miss.warm, il.miss.warm) here and under fixtures of other L1I geometries, a small
# last level makes ILmr count, and a seeded I-side model defect turns the ifetch, bbexec and
# callchain kernels 'not ok'. Every event a sim run counts is judged or says why not.
. "$(dirname "$0")/lib.sh"
export PMUCAL_TEST_HOST=

# Every fixture's L1i is the topology's: 'pmucal info' shows it (hwloc 2 filters it out unasked).
for host in $(ls tests/hosts); do
    [ -f "tests/hosts/$host/hwloc.xml" ] || continue
    want=$(grep -o 'type="L1iCache"[^>]*' "tests/hosts/$host/hwloc.xml" | head -n 1 |
        sed -n 's/.*cache_size="\([0-9]*\)".*cache_associativity="\([0-9]*\)".*/\1 \2/p')
    [ -n "$want" ] || continue
    use_host "$host"
    got=$($PMUCAL info 2> /dev/null | sed -n 's/^L1i *\([0-9]*\)K, \([0-9]*\)-way.*/\1 \2/p')
    is "$got" "$(($(echo "$want" | cut -d' ' -f1) / 1024)) $(echo "$want" | cut -d' ' -f2)" "$host: the topology's L1i is the fixture's"
done
on_this_machine

if ! sim_usable; then
    sim_skip_or_fail "the instruction side under sim"
    done_testing
    exit $?
fi

NOTE='hwloc reports no L1I geometry'
# This machine's L1i (a 32K 8-way one where hwloc gives none, as on the Zen 3 guest it was written on).
THIS_I1=$(lstopo-no-graphics --of xml 2> /dev/null | grep -o 'type="L1iCache"[^>]*' | head -n 1 |
    sed -n 's/.*cache_size="\([0-9]*\)".*cache_associativity="\([0-9]*\)".*/\1 \2/p')
[ -n "$THIS_I1" ] || THIS_I1="32768 8"
I1_BYTES=${THIS_I1% *} I1_WAYS=${THIS_I1#* }
# host | the simulated I1 (size,ways) | code bytes one line below, at, one line above the L1I
while IFS='|' read -r host i1 cases; do
    host=$(echo $host) i1=$(echo $i1) cases=$(echo $cases)
    [ -z "$host" ] && continue
    on_this_machine
    [ "$host" = this ] || use_host "$host"
    set --
    n=0
    for s in $cases; do set -- "$@" --case "ifetch size=$s"; n=$((n + 1)); done
    $PMUCAL validate --source sim -r 2 -e sim::Ir,sim::I1mr,sim::ILmr --label "i1-$host" "$@" \
        > "$TMP/i1-$host.tap" 2> "$TMP/i1-$host.err"
    rc=$?
    dir=$(ls -d "$PMUCAL_RESULTS"/*-"i1-$host" 2> /dev/null | head -n 1)
    judged=$(grep -c '^ok [0-9]* - ifetch size=[0-9]* :: sim::I[1L]mr = i[1l]\.miss\.warm: measured' "$TMP/i1-$host.tap")
    [ $rc -eq 0 ] && [ "$judged" -eq $((2 * n)) ] && ! grep -q '^not ok' "$TMP/i1-$host.tap"
    ok $? "$host: ifetch at the L1I's size (and a line either side) ($cases) is judged and exact: $judged of $((2 * n)) I1mr/ILmr rules ok, exit $rc $(grep -m 2 'I1mr' "$TMP/i1-$host.tap" | tr '\n' ' ' | head -c 400)"
    geo=$(jq -r '"\(.sim.I1.size),\(.sim.I1.ways)"' "$dir/manifest.json" 2> /dev/null)
    is "$geo" "$i1" "$host: callgrind's I1 is the host's L1i"
    ! grep -q "$NOTE" "$TMP/i1-$host.err"
    ok $? "$host: no '$NOTE' note where hwloc gives one"
done <<HOSTS
this        | $I1_BYTES,$I1_WAYS | $((I1_BYTES - 64)) $I1_BYTES $((I1_BYTES + 64))
qemu-n1     | 65536,4     | 65536 65600
zen5-vm     | 32768,8     | 32768 32832
HOSTS
on_this_machine
# One line above the L1I: the one overfull set's lines miss, ways + 1 of them, every pass.
above=$((I1_BYTES + 64))
grep -q "^ok [0-9]* - ifetch size=$above :: sim::I1mr = i1.miss.warm: measured [0-9.]* expected $((I1_WAYS + 1)).0000" "$TMP/i1-this.tap"
ok $? "this: ifetch one line above the L1I expects the $((I1_WAYS + 1)) lines of its overfull set: $(grep -m 1 "size=$above :: sim::I1mr" "$TMP/i1-this.tap")"

# The chain of jumps (order=random) has a line more than its jumps, its loop test's. One line under
# the L1I's size its code fills every set exactly (the edge path: the lap before each loop keeps it
# exact, none missing); at the size, one set overflows and its ways + 1 lines miss every lap. Both
# leave sets exactly full, which a more than 8-way L1I's model refuses to state (intel-a7-vm below),
# so they run on zen5-vm's 32K 8-way L1I, whatever this machine's.
use_host zen5-vm
$PMUCAL validate --source sim -r 2 -e sim::I1mr,sim::ILmr --label chain-z5 --case "ifetch size=32704 order=random" \
    --case "ifetch size=32768 order=random" > "$TMP/chain-z5.tap" 2> "$TMP/chain-z5.err"
rc=$?
grep -q "^ok [0-9]* - ifetch size=32704 order=random :: sim::I1mr = i1.miss.warm: measured [0-9.]* expected 0.0000" "$TMP/chain-z5.tap" &&
    grep -q "^ok [0-9]* - ifetch size=32768 order=random :: sim::I1mr = i1.miss.warm: measured [0-9.]* expected 9.0000" "$TMP/chain-z5.tap" &&
    [ "$(grep -c '^ok [0-9]* - ifetch size=[0-9]* order=random :: sim::ILmr = il.miss.warm' "$TMP/chain-z5.tap")" -eq 2 ] &&
    ! grep -q '^not ok' "$TMP/chain-z5.tap" && [ $rc -eq 0 ]
ok $? "zen5-vm: a chain filling the L1I's every set exactly misses nothing, one line more misses its set's 9, exit $rc: $(grep 'I1mr' "$TMP/chain-z5.tap" | tr '\n' ' ' | head -c 400)"
on_this_machine

# Where hwloc gives no L1i (the fixture's without one), the L1D's stands in, and the note says so.
sed 's/\(type="L1iCache"[^>]*cache_size="\)[0-9]*"/\10"/' tests/hosts/zen5-vm/hwloc.xml > "$TMP/no-l1i.xml"
HWLOC_XMLFILE="$TMP/no-l1i.xml" HWLOC_THISSYSTEM=1 $PMUCAL validate --source sim -r 2 -e sim::I1mr \
    --case 'ifetch size=4096' --label no-l1i > "$TMP/no-l1i.tap" 2> "$TMP/no-l1i.err"
rc=$?
geo=$(jq -r '"\(.sim.I1.size),\(.sim.I1.ways)"' "$PMUCAL_RESULTS"/*-no-l1i/manifest.json 2> /dev/null)
[ $rc -eq 0 ] && grep -q "$NOTE: simulated with the L1D's" "$TMP/no-l1i.err" && [ "$geo" = "49152,12" ]
ok $? "a topology without an L1i: the note is there and I1 is the 48K 12-way L1D ($geo), exit $rc"

# A 16-way L1I filled exactly: the harness's few code lines between the last lap and the loop
# cost 16 misses each, beyond the source's slack: refused with the reason, never 'not ok'.
use_host intel-a7-vm
$PMUCAL validate --source sim -r 2 --iters 500 -e sim::I1mr --case 'ifetch size=65536' --label a7 > "$TMP/a7.tap" 2> "$TMP/a7.err"
rc=$?
grep -q '^ok [0-9]* - ifetch size=65536 :: sim::I1mr # SKIP .*fills sets of a more than 8-way L1I exactly' "$TMP/a7.tap" &&
    [ $rc -eq 0 ]
ok $? "intel-a7-vm: ifetch filling its 64K 16-way L1I exactly is refused with the reason, exit $rc: $(grep -m 1 'I1mr' "$TMP/a7.tap" | head -c 300)"
$PMUCAL validate --source sim -r 2 --iters 500 -e sim::I1mr --case 'ifetch size=65472 order=random' --label a7-chain \
    > "$TMP/a7-chain.tap" 2> "$TMP/a7-chain.err"
rc=$?
grep -q '^ok [0-9]* - ifetch size=65472 order=random :: sim::I1mr # SKIP .*fills sets of a more than 8-way L1I exactly' \
    "$TMP/a7-chain.tap" && [ $rc -eq 0 ]
ok $? "intel-a7-vm: a chain (1,023 jumps and its loop test) filling that L1I exactly is refused the same way, exit $rc: $(grep -m 1 'I1mr' "$TMP/a7-chain.tap" | head -c 300)"
on_this_machine

# Code that takes more than half the ways of some L1I sets shares them with the harness's code
# between loops (a zen5-vm sweep, seed 41, found this chain missing 100 lines a loop where it was
# said to miss none): refused with the reason.
use_host zen5-vm
$PMUCAL validate --source sim -r 2 --iters 1000 -e sim::I1mr --case 'callchain depth=1396 ras=4096' --label crowded \
    > "$TMP/crowded.tap" 2> "$TMP/crowded.err"
rc=$?
grep -q '^ok [0-9]* - callchain depth=1396 ras=4096 :: sim::I1mr # SKIP .*take more than half the ways of some sets of the L1I' \
    "$TMP/crowded.tap" && [ $rc -eq 0 ]
ok $? "zen5-vm: a 22K call chain crowding the L1I's sets is refused with the reason, exit $rc: $(grep -m 1 'I1mr' "$TMP/crowded.tap" | head -c 300)"
on_this_machine

# A last level small enough for the code (no-l3's L2 made 64K 16-way). At 1025 lines they all miss
# I1, and LL's one overfull set is left unstated: the harness's data shares that unified level, in
# sets ASLR moves (17.03 to 17.05 misses a lap against 17, run to run). At 2049 lines every LL set
# overflows: all 2049 miss there, every pass.
sed 's/\(type="L2Cache"[^>]*cache_size="\)6291456"\([^>]*cache_associativity="\)24"/\165536"\216"/' \
    tests/hosts/no-l3/hwloc.xml > "$TMP/small-ll.xml"
export HWLOC_XMLFILE="$TMP/small-ll.xml" HWLOC_THISSYSTEM=1
$PMUCAL validate --source sim -r 2 -e sim::I1mr,sim::ILmr --case 'ifetch size=65600' --case 'ifetch size=131136' \
    --label small-ll > "$TMP/small-ll.tap" 2> "$TMP/small-ll.err"
rc=$?
grep -q '^ok [0-9]* - ifetch size=65600 :: sim::ILmr # SKIP .*il.miss.warm: the code fills sets of the last level exactly' "$TMP/small-ll.tap" &&
    grep -q '^ok [0-9]* - ifetch size=65600 :: sim::I1mr = i1.miss.warm: measured [0-9.]* expected 1025.0000' "$TMP/small-ll.tap" &&
    grep -q '^ok [0-9]* - ifetch size=131136 :: sim::ILmr = il.miss.warm: measured [0-9.]* expected 2049.0000' "$TMP/small-ll.tap" &&
    grep -q '^ok [0-9]* - ifetch size=131136 :: sim::I1mr = i1.miss.warm: measured [0-9.]* expected 2049.0000' "$TMP/small-ll.tap" &&
    [ $rc -eq 0 ]
ok $? "a 64K 16-way last level: ifetch of 1025 lines exact in I1mr, LL's exactly full set unstated; of 2049 exact in both, exit $rc: $(grep 'ILmr' "$TMP/small-ll.tap" | tr '\n#' ' %' | head -c 400)"

# Seeded I-side model defects: each turns its kernel's I-side rule 'not ok', and nothing else.
# fixture (this: this machine) | case | defect (PMUCAL_MODEL_DEFECT) | the event it must turn
while IFS='|' read -r host case defect event; do
    host=$(echo $host) case=$(echo $case) event=$(echo $event)
    defect=$(echo "$defect" | sed 's/^ *//; s/ *$//')
    [ -z "$host" ] && continue
    on_this_machine
    case $host in
    this) ;;
    small-ll) export HWLOC_XMLFILE="$TMP/small-ll.xml" HWLOC_THISSYSTEM=1 ;;
    *) use_host "$host" ;;
    esac
    PMUCAL_MODEL_DEFECT="$defect" $PMUCAL validate --source sim -r 2 --iters 1000 -e sim::Ir,sim::I1mr,sim::ILmr --case "$case" \
        --label defect > "$TMP/defect.tap" 2> "$TMP/defect.err"
    rc=$?
    found=$(grep -c "^not ok .* :: $event = " "$TMP/defect.tap")
    others=$(grep '^not ok' "$TMP/defect.tap" | grep -c -v " :: $event = ")
    [ $rc -eq 1 ] && [ "$found" -eq 1 ] && [ "$others" -eq 0 ]
    ok $? "seeded '$defect': '$case' turns $event not ok ($found), nothing else ($others), exit $rc"
done <<DEFECTS
this     | ifetch size=$((I1_BYTES + 64)) | ifetch: i1.miss.warm *1.05 | sim::I1mr
this     | bbexec                   | bbexec: i1.miss.warm +1      | sim::I1mr
this     | callchain depth=64       | callchain: i1.miss.warm +1   | sim::I1mr
small-ll | ifetch size=131136       | ifetch: il.miss.warm *1.05   | sim::ILmr
DEFECTS
on_this_machine

# Every event a sim run counts is judged or says why not, in 'pmucal run's table as in the TAP.
# (100 iterations: what is checked is that each line has a verdict or a reason, not which one;
# the 4096-deep chain takes 40 s of valgrind at the default 10000.)
for c in 'triad variant=avx2 size=49152 store=nt' 'callchain depth=4096 kind=indirect'; do
    # shellcheck disable=SC2086
    $PMUCAL run $c --source sim --iters 100 > "$TMP/run.out" 2> "$TMP/run.err"
    rc=$?
    rows=$(grep -c '^  sim::' "$TMP/run.out")
    bare=$(grep '^  sim::' "$TMP/run.out" | grep -v -e '  ok$' -e '  NOT OK$' -e '  not judged: [a-z]' | head -n 3)
    [ $rc -eq 0 ] && [ "$rows" -eq 13 ] && [ -z "$bare" ]
    ok $? "run $c: all $rows sim events judged or with their reason, exit $rc $bare"
done
grep '^  sim::Bim' "$TMP/run.out" | grep -q 'not judged: .*last-target table'
ok $? "callchain depth=4096 kind=indirect: Bim says its model leaves the aliasing last-target table out"
$PMUCAL validate --source sim -r 2 --iters 1000 --case 'bbexec' --label unjudged > "$TMP/unjudged.tap" 2> /dev/null
grep -q '^# info bbexec :: sim::D1mw measured [0-9.-]* per iteration (no kernel.s model states its stores. misses' "$TMP/unjudged.tap"
ok $? "validate's TAP says why D1mw is not judged: $(grep -m 1 'sim::D1mw' "$TMP/unjudged.tap")"
done_testing
