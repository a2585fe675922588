#!/bin/sh
# The table writers on a hand-made penalties.json (tests/data/penalties-zen5.json): the C header
# compiles into a consumer that prints the constants, perf metrics use only EventNames of the
# model's own table, --core-ghz rescales both domains consistently, text from penalties.json
# cannot break out of a C comment or a CSV field, and a constant that is not ok is in no table.
. "$(dirname "$0")/lib.sh"
pj=tests/data/penalties-zen5.json
eventdata=${PMUCAL_EVENTDATA:-../shared/eventdata}

consumer() { # HEADER -> prints the three published constants
    printf '#include "%s"\n#include <stdio.h>\nint main(void) { printf("%%.2f %%.2f %%.2f\\n", PMUCAL_L1_HIT_CYCLES, PMUCAL_L2_HIT_CYCLES, PMUCAL_DRAM_CYCLES);\n#if defined(PMUCAL_PAGE_WALK_CYCLES) || defined(PMUCAL_ALIAS_4K_CYCLES)\n#error a constant that is not ok was published\n#endif\nreturn 0; }\n' "$1" > "$TMP/use.c" &&
        cc -std=c11 -Wall -Wextra -Werror -o "$TMP/use" "$TMP/use.c" && ! nm "$TMP/use" | grep -q evil && "$TMP/use"
}
$PMUCAL emit -f c "$pj" > "$TMP/p.h"
is "$(consumer "$TMP/p.h")" "4.00 14.00 400.00" "the C header compiles (cc -Wall -Wextra -Werror) into a consumer printing the ok constants; '*/' in a brief stays inside its comment"
$PMUCAL emit -f c --core-ghz 2 "$pj" > "$TMP/p2.h"
is "$(consumer "$TMP/p2.h")" "4.00 14.00 200.00" "emit -f c --core-ghz 2: DRAM's 100 ns is 200 cycles, core cycles stay"
grep -q 'L1_HIT_CYCLES 4.00 .* 2.00 ns' "$TMP/p2.h"; ok $? "emit -f c --core-ghz 2: a core penalty's ns follow the clock (4 cycles = 2.00 ns): $(grep L1_HIT "$TMP/p2.h" | cut -c1-90)"
grep -q 'PAGE_WALK_CYCLES not published (not ok): negative' "$TMP/p.h" && grep -q 'ALIAS_4K_CYCLES unstable, not published' "$TMP/p.h"
ok $? "not-ok and unstable penalties are comments with their reason"

$PMUCAL emit -f json --core-ghz 2 "$pj" > "$TMP/r.json"
jq -e '[.penalties[] | select(.name == "l1_hit" or .name == "dram") | [.cycles, .ns, .ns_lo, .cycles_hi]] == [[4, 2, 1.95, 4.1], [200, 100, 95, 210]]' "$TMP/r.json" > /dev/null
ok $? "emit -f json --core-ghz 2: core ns = cycles / 2, memory cycles = ns x 2: $(jq -c '[.penalties[] | select(.name == "l1_hit" or .name == "dram") | [.cycles, .ns, .ns_lo, .cycles_hi]]' "$TMP/r.json")"

$PMUCAL emit -f csv "$pj" > "$TMP/p.csv"
rows=$(python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], newline=""))); assert all(len(x) == len(r[0]) for x in r); assert r[2][-1] == "a load served by L2, \"quoted\", with a comma\nand a line break"; print(len(r))' "$TMP/p.csv")
is "$rows" 6 "penalties.csv reads back (RFC 4180) as a header and one row per penalty; a brief with quotes, a comma and a line break is one field"
grep -q '^"page_walk","not_ok",core,,,,,,,' "$TMP/p.csv"; ok $? "a penalty that is not ok has no figures in the CSV: $(grep page_walk "$TMP/p.csv" | cut -c1-60)"

# perf metrics: every event is an EventName of the model's table; only ok penalties.
names_of() { jq -r '.. | objects | .EventName? // empty' "$1"/*.json "$1"/events/*.json 2> /dev/null | sort -u; }
for m in zen4:amd/amdzen4 zen5:amd/amdzen5 skylake:intel/SKL; do
    model=${m%%:*} table=$eventdata/${m#*:}
    if [ ! -d "$table" ]; then skip "perf metrics for $model" "no event table at $table"; continue; fi
    $PMUCAL emit -f perf-metrics --model "$model" "$pj" > "$TMP/m.json" || { ok 1 "emit perf metrics for $model"; continue; }
    names_of "$table" > "$TMP/names"
    missing=$(jq -r '.[].MetricExpr' "$TMP/m.json" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u | grep -vxF -f "$TMP/names")
    used=$(jq -r '.[].MetricExpr' "$TMP/m.json" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u | tr '\n' ' ')
    [ -z "$missing" ] && [ -n "$used" ] && jq -e 'all(.[]; .MetricName and .MetricExpr and .BriefDescription and .MetricGroup and .ScaleUnit) and ([.[].MetricName] | index("pmucal_page_walk_cycles") == null and index("pmucal_alias_4k_cycles") == null)' "$TMP/m.json" > /dev/null
    ok $? "perf metrics for $model name only EventNames of $table ($used)${missing:+; not in it: $missing}"
done
$PMUCAL emit -f perf-metrics --model nope "$pj" > /dev/null 2> "$TMP/e"; rc=$?
[ $rc -eq 2 ] && grep -q 'model nope: give one of zen4, zen5, skylake' "$TMP/e"; ok $? "emit --model nope exits 2: $(cat "$TMP/e")"
done_testing
