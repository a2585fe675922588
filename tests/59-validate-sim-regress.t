#!/bin/sh
# Regression checks on exact counts: two sim runs compare clean; a 25% change on one sim event is
# caught with no false alarm on the other twelve; each kind of wrong count the perturbing source
# makes (offset per measurement, wrong level, swapped events, sporadic zeros, a few percent
# under-count) is flagged on the perturbed events and nowhere else.
. "$(dirname "$0")/lib.sh"

if ! sim_usable; then
    skip "sim regression checks" "$SIM_WHY"
    done_testing
    exit $?
fi
sim() { # sim LABEL SOURCE: the run folder on stdout
    $PMUCAL validate --source "$2" --case 'walker size=16k' --case 'walker size=256k' --iters 2000 \
        --label "$1" > "$TMP/$1.tap" 2> "$TMP/$1.err"
    echo $? > "$TMP/$1.rc"
    ls -d "$PMUCAL_RESULTS"/*-"$1" 2> /dev/null | head -n 1
}
flagged() { # the events of the 'not ok' lines of a TAP file, sorted, space-separated
    sed -n 's/^not ok [0-9]* - .* :: \(sim::[A-Za-z0-9]*\).*/\1/p' "$1" | sort -u | paste -s -d ' ' -
}
A=$(sim a sim)
rc=$(cat "$TMP/a.rc")
[ "$rc" -eq 0 ] && [ -n "$A" ] && ! grep -q '^not ok' "$TMP/a.tap"
ok $? "validate --source sim on two walker cases: all ok (exit $rc) $(grep -m 2 -e '^not ok' -e 'error' "$TMP/a.tap" "$TMP/a.err")"
B=$(sim b sim)
$PMUCAL compare "$A" "$B" > "$TMP/ab.tap"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^ok' "$TMP/ab.tap")" -eq 26 ]; ok $? "two sim runs compare clean: 26 points, exit $rc"

S=$(sim s 'perturb:sim/scale=sim::Dr*1.25')
$PMUCAL compare --json "$A" "$S" > "$TMP/as.json"
rc=$?
got=$(jq -r '[.points[] | select(.regression) | .event] | unique | join(" ")' "$TMP/as.json")
n=$(jq '[.points[] | select(.regression) | select(.flags | index("count"))] | length' "$TMP/as.json")
[ $rc -eq 1 ] && [ "$got" = "sim::Dr" ] && [ "$n" -eq 2 ]
ok $? "a 25% change of sim::Dr is caught in both cases and nowhere else (exit $rc, flagged '$got', $n count changes)"

# Rows: perturbations | events flagged by validate (sorted)
while IFS='|' read -r label spec want; do
    P=$(sim "$label" "perturb:sim/$spec")
    rc=$(cat "$TMP/$label.rc")
    got=$(flagged "$TMP/$label.tap")
    [ "$rc" -eq 1 ] && [ "$got" = "$want" ]
    ok $? "perturb $spec: flagged '$got' (want '$want'), exit $rc"
done << 'ROWS'
p1|offset=sim::Ir+1000/level=sim::D1mr<sim::DLmr|sim::D1mr sim::Ir
p2|swap=sim::Dr,sim::Dw/zero=sim::Bc%3|sim::Bc sim::Dr sim::Dw
p3|scale=sim::Ir*0.97|sim::Ir
ROWS
grep -q '^not ok .*walker size=256k :: sim::D1mr' "$TMP/p1.tap" && ! grep -q '^not ok .*walker size=16k :: sim::D1mr' "$TMP/p1.tap"
ok $? "the wrong level shows where the levels differ (256k misses D1, hits LL) and only there"
grep -q '^not ok .* :: sim::Ir = inst: .*1000 counts per measurement are not explained by iterations' "$TMP/p1.tap" ||
    grep -q '^not ok .* :: sim::Ir = inst: .*counts per measurement are not explained by iterations' "$TMP/p1.tap"
ok $? "the offset is reported as a fixed excess per measurement: $(grep -o 'but [0-9]* counts per measurement[^(]*([^)]*)[^)]*)' "$TMP/p1.tap" | head -n 1)"
done_testing
