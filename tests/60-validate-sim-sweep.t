#!/bin/sh
# Every kernel's model over its declared parameter space, under sim: cases drawn at random from each
# parameter's domain (core/kernel.h struct param: choices, ranges, edges included) from a seed, each
# checked exactly against callgrind's counts (validate/expect/sim.txt), on a fixture's geometry.
# No case may be 'not ok': a wrong model is fixed, or the combination refused by the kernel's setup
# with the reason (a SKIP). The seed is printed; 'pmucal validate --source sim --sweep K --seed N'
# draws the same cases again on any machine, '--case LABEL' one of them.
# PMUCAL_SWEEP_CASES (default 40: 120 took 106 s beside another test file, the most of make test's
# ten minutes any file had; 64, 85 s of CPU alone; the first 40 of seed 41 draw each of the 14
# kernels at least twice, every verdict kind of the 64) and PMUCAL_SWEEP_SEED (default 41) size it;
# PMUCAL_SWEEP_HOSTS the fixtures it runs under (default zen5-vm, whose 1M simulated last level
# the drawn sizes overflow); 'make sweep' runs a long one under several.
# Then the verdict's truth: a model defect seeded in one parameter region (PMUCAL_MODEL_DEFECT, off
# by one instruction or by 5% of its misses) must turn 'not ok' in that region, and only there.
. "$(dirname "$0")/lib.sh"
export PMUCAL_TEST_HOST=

if ! sim_usable; then
    sim_skip_or_fail "the parameter sweep under sim"
    done_testing
    exit $?
fi
CASES=${PMUCAL_SWEEP_CASES:-40}
SEED=${PMUCAL_SWEEP_SEED:-41}
echo "# sweep: $CASES cases a host, seed $SEED"

# Each host draws its own cases (seed SEED, SEED+1, ... in the order given): a long sweep under
# several hosts covers more of the space than one set of cases under each.
hostseed=$SEED
for host in ${PMUCAL_SWEEP_HOSTS:-zen5-vm}; do
    SEED=$hostseed
    hostseed=$((hostseed + 1))
    on_this_machine
    unset PMUCAL_CURVE_FILE
    case $host in
    this) ;;
    *+curve) use_host "${host%+curve}"; export PMUCAL_CURVE_FILE="$PWD/tests/hosts/${host%+curve}/curve.csv" ;;
    *) use_host "$host" ;;
    esac
    label="sweep-$(echo "$host" | tr + -)"
    case $host in
    this) again="on this machine:" ;;
    *+curve) again="HWLOC_XMLFILE=tests/hosts/${host%+curve}/hwloc.xml HWLOC_THISSYSTEM=1 PMUCAL_CURVE_FILE=tests/hosts/${host%+curve}/curve.csv" ;;
    *) again="HWLOC_XMLFILE=tests/hosts/$host/hwloc.xml HWLOC_THISSYSTEM=1" ;;
    esac
    start=$(date +%s)
    $PMUCAL validate --source sim -r 2 --sweep "$CASES" --seed "$SEED" --label "$label" > "$TMP/$label.tap" 2> "$TMP/$label.err"
    rc=$?
    secs=$(($(date +%s) - start))
    dir=$(ls -d "$PMUCAL_RESULTS"/*-"$label" 2> /dev/null | head -n 1)
    bad=$(grep -c '^not ok' "$TMP/$label.tap")
    # what was measured, what the kernels refused, what the source could not run
    cases=$(sed -n 's/^\(not \)\{0,1\}ok [0-9]* - \(.*\) :: .*/\2/p' "$TMP/$label.tap" | sort -u | wc -l)
    measured=$(cat "$dir/measurements.ndjson" 2> /dev/null | wc -l)
    refused=$(grep ' # SKIP refused by the kernel' "$TMP/$label.tap" | sed 's/^ok [0-9]* - //; s/ :: .*//' | sort -u | wc -l)
    grep '^not ok' "$TMP/$label.tap" | head -n 5 | sed 's/^/# /'
    [ $rc -eq 0 ] && [ "$bad" -eq 0 ] && [ "$measured" -gt $((CASES / 3)) ]
    ok $? "$host: sweep seed $SEED, $CASES cases drawn ($cases distinct) in ${secs}s: $measured measured, $refused refused by their kernel's setup, $bad verdicts not ok, exit $rc (again: $again pmucal validate --source sim --sweep $CASES --seed $SEED)$(grep -v '^pmucal: \[' "$TMP/$label.err" | grep -i 'error' | grep -v 'refuse\|must be\|is for\|needs a\|holds fewer\|always taken\|drop pattern\|kind=indirect takes\|too small' | head -c 300)"
    grep -q "^# sweep: $CASES cases drawn from the kernels' declared domains with seed $SEED; the same cases again: pmucal validate --source sim --sweep $CASES --seed $SEED" "$TMP/$label.tap"
    ok $? "$host: the TAP names the seed and the command that draws the same cases"
done
on_this_machine
unset PMUCAL_CURVE_FILE

# Every defect earlier sweeps found, each exact now or refused with its reason, under the fixture
# it was found on. Rows: case | what it must be (exact, or the words of its refusal) | the finding
use_host zen5-vm
cat > "$TMP/found.rows" <<'FOUND'
walker size=814776 stride=8 block=185 page=2m loads=2 seed=4259666 | exact | a 740K block then a 57K one: a loop of 10000 iterations read 1.891 D1 misses an iteration, the lap 1.790
walker size=16M stride=48 page_stride=336 order=linear | exact | elements sharing lines read 1.93 misses for 2 loads
walker size=16M stride=1048 page_stride=31296 | fill sets of the simulated D1 | a ring at the edge of D1's sets missed 0.004-0.008 a load from run to run
triad size=22587 store=nt threads=2 | fill sets of the simulated cache to the edge | a team's arrays at the edge of their sets missed 0.057 a lap
triad size=40061 variant=sse store=nt | fill sets of the simulated cache to the edge | sets at 10 of 12 ways missed 0.056 a lap
branch branches=906 | exact | a line two outcome-table slots share was counted twice
branch kind=indirect | exact | one target read no mispredict, the model said one an iteration
branch pattern=alternate branches=16 density=1 | exact | read 0.5 mispredicts an iteration, the model said none
FOUND
set --
while IFS='|' read -r c want why; do
    c=$(echo $c)
    [ -n "$c" ] && set -- "$@" --case "$c"
done < "$TMP/found.rows"
$PMUCAL validate --source sim -r 2 -e sim::Ir,sim::D1mr,sim::DLmr,sim::Bcm,sim::Bim --label found "$@" \
    > "$TMP/found.tap" 2> "$TMP/found.err"
rc=$?
while IFS='|' read -r c want why; do
    c=$(echo $c) want=$(echo $want)
    [ -z "$c" ] && continue
    if [ "$want" = exact ]; then
        n=$(grep -c "^ok [0-9]* - $c :: sim::[A-Za-z0-9]* = " "$TMP/found.tap")
        bad=$(grep "^not ok [0-9]* - $c :: " "$TMP/found.tap" | head -n 1)
        [ "$n" -ge 4 ] && [ -z "$bad" ]
        ok $? "found by a sweep ($why): '$c' is exact now, $n rules ok $bad"
    else
        grep -q "^ok [0-9]* - $c :: sim::D1mr # SKIP .*$want" "$TMP/found.tap"
        ok $? "found by a sweep ($why): '$c' is refused: $(grep -m 1 "^ok [0-9]* - $c :: sim::D1mr" "$TMP/found.tap" | sed 's/.*# SKIP //' | head -c 200)"
    fi
done < "$TMP/found.rows"
[ $rc -eq 0 ]; ok $? "the found cases' run exits 0 (exit $rc)"
# The bunched ring's runs are whole laps (101847 elements, 2 loads an iteration: 101847 iterations)
# where sim's 10000 would read the part they walk.
iters=$(jq -r 'select(.case | startswith("walker size=814776")) | .iters' "$PMUCAL_RESULTS"/*-found/measurements.ndjson | head -n 1)
[ -n "$iters" ] && [ $((iters % 101847)) -eq 0 ]
ok $? "a ring whose misses bunch up is measured over whole laps: $iters iterations a loop (a lap is 101847)"
on_this_machine

# Seeded model defects, one region each: the sweep finds every one, in its region only.
use_host zen5-vm
# kernel | seed | cases | defect (PMUCAL_MODEL_DEFECT) | the event it must turn | the label words of its region
while IFS='|' read -r kernel seed n defect event region; do
    kernel=$(echo $kernel) seed=$(echo $seed) n=$(echo $n) event=$(echo $event) region=$(echo $region)
    defect=$(echo "$defect" | sed 's/^ *//; s/ *$//')
    [ -z "$kernel" ] && continue
    PMUCAL_MODEL_DEFECT="$defect" $PMUCAL validate --source sim -r 2 --sweep "$n" --seed "$seed" --kernel "$kernel" \
        -e sim::Ir,sim::D1mr,sim::DLmr,sim::Bcm --label defect > "$TMP/defect.tap" 2> "$TMP/defect.err"
    rc=$?
    found=$(grep -c "^not ok .* :: $event" "$TMP/defect.tap")
    elsewhere=$(grep '^not ok' "$TMP/defect.tap" | grep -v -e " $region[ :]" -e " :: $event " | head -n 2)
    outside=$(grep '^not ok' "$TMP/defect.tap" | grep -c -v " $region[ :]")
    [ $rc -eq 1 ] && [ "$found" -gt 0 ] && [ "$outside" -eq 0 ]
    ok $? "seeded '$defect': the sweep (--kernel $kernel --sweep $n --seed $seed) finds it in $found cases' $event, none outside $region ($outside) exit $rc $elsewhere"
done <<'DEFECTS'
branch  | 3 | 24 | branch pattern=period: inst +1                  | sim::Ir   | pattern=period
mixwalk | 5 | 10 | mixwalk hops=0: d1.miss.warm *1.05              | sim::D1mr | hops=0
walker  | 6 | 16 | walker order=random: d1.miss.warm *1.05         | sim::D1mr | order=random
DEFECTS
done_testing
