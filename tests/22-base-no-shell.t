#!/bin/sh
# No shell between pmucal and the programs it runs, and no way out of the run folder: quotes,
# $(), backquotes, spaces and newlines in --out, --label and PATH stay characters; a newline in a
# path never forges a TAP line; text from penalties.json cannot break out of a C comment or a
# CSV field. (base/subprocess.c and the curve's gnuplot run: tests/unit/test_subprocess.c.)
. "$(dirname "$0")/lib.sh"

work="$TMP/work"
mkdir -p "$work"
evil="q'x \$(touch PWNED1) \`touch PWNED2\` ;touch PWNED3; sp ace"
nl='
'
pwned() { find "$TMP" "$PWD" -maxdepth 4 -name 'PWNED*' 2> /dev/null | head -3; }

ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" -ge 2 ]; then
    (cd "$work" && "$OLDPWD/$PMUCAL" c2c --cpus 0,1 -r 1 --size 4k --label "$evil" --out "$TMP/out $evil") > "$TMP/c2c.out" 2>&1
    rc=$?
    dir=$(ls -d "$TMP/out $evil"/*-"$evil" 2> /dev/null)
    [ $rc = 0 ] && [ -s "$dir/c2c.csv" ] && [ -z "$(pwned)" ]
    ok $? "c2c with quotes, \$(), backquotes in --out and --label: exit $rc, c2c.csv in the folder so named, nothing ran ($(pwned))"
    if command -v gnuplot > /dev/null; then
        grep -q '<svg' "$dir/c2c.svg" 2> /dev/null
        ok $? "c2c: gnuplot drew c2c.svg there (run in the folder, no path in its script)"
    else
        skip "c2c.svg" "gnuplot is not installed"
    fi
else
    skip "c2c with a hostile --out and --label" "c2c needs two CPUs; this host has $ncpu"
    skip "c2c.svg" "c2c needs two CPUs"
fi

# sim: valgrind is found in PATH; a folder of PATH with a hostile name holds a stand-in.
if sanitized_build; then
    skip "sim with a hostile valgrind path" "an AddressSanitizer build refuses --source sim before it starts valgrind"
else
    fake="$TMP/bin $evil"
    mkdir -p "$fake"
    printf '#!/bin/sh\n[ "$1" = --version ] && { echo valgrind-3.99.0; exit 0; }\necho "$@" > "%s/fake-args"\nexit 3\n' "$TMP" > "$fake/valgrind"
    chmod +x "$fake/valgrind"
    (cd "$work" && PATH="$fake:$PATH" "$OLDPWD/$PMUCAL" validate --source sim --case 'walker size=4k' --label "$evil" --out "$TMP/sim $evil") > "$TMP/sim.out" 2>&1
    rc=$?
    [ $rc = 3 ] && grep -q -- "--label $evil" "$TMP/fake-args" && [ -z "$(pwned)" ]
    ok $? "sim: valgrind from a PATH folder named with quotes and \$(), --label passed as one argument, nothing ran (exit $rc: $(head -c 160 "$TMP/sim.out"))"
fi

expect() { # expect STATUS PATTERN DESCRIPTION -- command...
    want=$1 pattern=$2 what=$3
    shift 4
    "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err" && [ -z "$(pwned)" ]
    ok $? "$what: exit $want naming '$pattern' (got $got: $(head -c 160 "$TMP/err"))"
}
expect 2 "--out is empty" "an empty --out= is refused" -- $PMUCAL validate --case 'walker size=4k' -e page-faults --out=
expect 2 "PMUCAL_RESULTS is empty" "an empty PMUCAL_RESULTS is refused" -- env PMUCAL_RESULTS= $PMUCAL validate --case 'walker size=4k' -e page-faults
expect 2 "a label is one folder name" "--label ../../x cannot leave the run folder" -- $PMUCAL validate --case 'walker size=4k' -e page-faults --label ../../x
[ ! -e "$TMP/x" ] && [ -z "$(ls -d "$TMP"/*x 2> /dev/null)" ]
ok $? "--label ../../x created nothing outside the run folder"
expect 2 "control character" "a newline in --out is refused" -- $PMUCAL c2c --out "$TMP/a${nl}system \"touch PWNED9\""
expect 2 "control character" "a newline in --label is refused" -- $PMUCAL calibrate --curve --label "a${nl}b"

# A newline in a path that reaches the TAP stays on its line.
printf 'page-faults  pf.minor  exact\n' > "$TMP/r${nl}not ok 99 - forged"
$PMUCAL validate --case 'walker size=4k' -e page-faults --expect "$TMP/r${nl}not ok 99 - forged" > "$TMP/tap" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && ! grep -q '^not ok' "$TMP/tap" && grep -q '^ok 1 ' "$TMP/tap"
ok $? "an --expect rule file named with a newline and 'not ok 99': no forged TAP line (exit $rc)"

# penalties.json text in a C header and a CSV.
cat > "$TMP/penalties.json" << 'EOF2'
{"pmucal": "0 */\n#include <evil.h>\n/*", "clock": {"core_ghz": 3}, "penalties": [
 {"name": "x", "status": "skip", "reason": "gone */\n#define EVIL 1\n/*", "brief": "b,\"c\"\nd"},
 {"name": "y", "status": "ok", "domain": "core", "cycles": 3, "cycles_lo": 2, "cycles_hi": 4, "ns": 1,
  "ns_lo": 0.6666666666666666, "ns_hi": 1.3333333333333333,
  "brief": "fine */ #define EVIL 2"}]}
EOF2
$PMUCAL emit --format c "$TMP/penalties.json" > "$TMP/p.h" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && ! grep -q '^#include\|^#define EVIL\|EVIL 2$' "$TMP/p.h" && cc -fsyntax-only -x c "$TMP/p.h" 2> "$TMP/cc.err" &&
    printf '#include "%s"\n#ifdef EVIL\n#error EVIL defined\n#endif\n' "$TMP/p.h" | cc -fsyntax-only -x c - 2>> "$TMP/cc.err"
ok $? "emit --format c: '*/' and newlines from penalties.json stay inside comments (exit $rc; $(head -c 160 "$TMP/cc.err"))"
$PMUCAL emit --format csv "$TMP/penalties.json" > "$TMP/p.csv" 2> "$TMP/err"
rc=$?
python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) == 3, rows
assert rows[1][-1] == "b,\"c\"\nd", rows[1]
assert all(len(r) == len(rows[0]) for r in rows), rows
' "$TMP/p.csv" 2> "$TMP/py.err"
ok $? "emit --format csv: a comma, quote and newline stay in one field (exit $rc; $(tail -1 "$TMP/py.err"))"
done_testing
