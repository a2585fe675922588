#!/bin/sh
# Bad input: one clear message naming the input and the fix, a non-zero exit, never a crash.
. "$(dirname "$0")/lib.sh"

# expect STATUS PATTERN -- command...: exit status is STATUS and stderr has PATTERN.
expect() {
    want=$1 pattern=$2
    shift 3
    "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    lines=$(wc -l < "$TMP/err")
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err" && [ "$lines" -eq 1 ]
    ok $? "'$*' exits $want with one line: $(head -c 160 "$TMP/err")"
}
expect 2 "unknown kernel 'nope'" -- $PMUCAL run nope
expect 2 "unknown parameter 'sise'" -- $PMUCAL run walker sise=L1
expect 2 "unknown event 'NOT_AN_EVENT'" -- $PMUCAL run walker -e NOT_AN_EVENT
expect 2 "size=huge is not a size" -- $PMUCAL run walker size=huge
expect 2 "order=sideways is not one of" -- $PMUCAL run walker order=sideways
expect 2 "run_cpu=4096 is not a CPU" -- $PMUCAL run walker run_cpu=4096
expect 2 "size=64T is more than this machine's available memory" -- $PMUCAL run walker size=64T
expect 2 "stride=0 measures nothing" -- $PMUCAL run walker stride=0
expect 2 "size=0 measures nothing" -- $PMUCAL run walker size=0
# Caught before a run folder exists: nothing is measured, nothing is left behind.
expect 2 "size=1T is more than this machine's available memory" -- $PMUCAL validate --case 'walker size=1T' --out "$TMP/none"
[ ! -e "$TMP/none" ]; ok $? "a case that cannot be built leaves no run folder"
expect 2 "unknown command 'frobnicate'" -- $PMUCAL frobnicate
expect 2 "unknown counter source 'oracle'" -- $PMUCAL run walker --source oracle
expect 2 "give a whole number from 1 to 101" -- $PMUCAL run walker -r 0
expect 2 "unknown kernel 'nope'" -- $PMUCAL validate --case 'nope size=L1'
# Real-number options share one parser (cli_real): a word, NaN or a number out of range is refused.
expect 2 "core-ghz fast: give a number from 0.05 to 20" -- $PMUCAL emit --core-ghz fast x.json
expect 2 "floor -1: give a number of 0 or more" -- $PMUCAL classify --floor -1 x
expect 2 "floor inf: give a number of 0 or more" -- $PMUCAL classify --floor inf x
expect 2 "base-cpi nan: give a number from 0 to 100" -- $PMUCAL cpi --base-cpi nan x
expect 2 "threshold 1e9: give a number from 0 to 1000" -- $PMUCAL compare --threshold 1e9 a b
# A case whose setup fails inside validate is a 'not ok' verdict; the run goes on and exits 1.
$PMUCAL validate --case 'walker stride=12' --case 'walker size=L1' -e page-faults > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q 'stride=12 must be a multiple of 8' "$TMP/err" && grep -q '^not ok 1 - walker stride=12 :: page-faults' "$TMP/out" \
    && grep -q '^ok 2 - walker :: page-faults = pf.minor' "$TMP/out"
ok $? "validate: a failing setup is 'not ok', the next case still runs, exit 1 (got $rc)"
printf 'page-faults pf.minor\n' > "$TMP/bad.rules"
expect 2 "bad.rules:1: a rule needs" -- $PMUCAL run walker --expect "$TMP/bad.rules"
printf '# ok line\npage-faults  pf.minr  exact\n' > "$TMP/bad2.rules"
expect 2 "bad2.rules:2: unknown quantity 'pf.minr'" -- $PMUCAL run walker --expect "$TMP/bad2.rules"
printf 'page-faults  pf.minor  roughly\n' > "$TMP/bad3.rules"
expect 2 "tolerance 'roughly' is not one of" -- $PMUCAL run walker --expect "$TMP/bad3.rules"
done_testing
