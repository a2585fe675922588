#!/bin/sh
# The table writers on a hand-made penalties.json (tests/data/penalties-zen5.json): the C header
# compiles into a consumer that prints the constants, perf metrics use only EventNames of the
# uarch's own table, --core-ghz rescales both domains consistently, text from penalties.json
# cannot break out of a C comment or a CSV field, and a constant that is not ok is in no table.
. "$(dirname "$0")/lib.sh"
pj=tests/data/penalties-zen5.json
eventdata=eventdata

consumer() { # HEADER -> prints the three published constants
    printf '#include "%s"\n#include <stdio.h>\nint main(void) { printf("%%.2f %%.2f %%.2f\\n", PMUCAL_L1_HIT_CYCLES, PMUCAL_L2_HIT_CYCLES, PMUCAL_DRAM_CYCLES);\n#if defined(PMUCAL_PAGE_WALK_CYCLES) || defined(PMUCAL_ALIAS_4K_CYCLES)\n#error a constant that is not ok was published\n#endif\nreturn 0; }\n' "$1" > "$TMP/use.c" &&
        cc -std=c11 -Wall -Wextra -Werror -o "$TMP/use" "$TMP/use.c" && ! nm "$TMP/use" | grep -q evil && "$TMP/use"
}
$PMUCAL emit -f c "$pj" > "$TMP/p.h"
is "$(consumer "$TMP/p.h")" "4.00 14.00 400.00" "the C header compiles (cc -Wall -Wextra -Werror) into a consumer printing the ok constants; '*/' in a brief stays inside its comment"
$PMUCAL emit -f c --core-ghz 2 "$pj" > "$TMP/p2.h"
is "$(consumer "$TMP/p2.h")" "4.00 14.00 200.00" "emit -f c --core-ghz 2: DRAM's 100 ns is 200 cycles, core cycles stay"
grep -q 'L1_HIT_CYCLES 4.00 .* 2.00 ns' "$TMP/p2.h"; ok $? "emit -f c --core-ghz 2: a core penalty's ns follow the clock (4 cycles = 2.00 ns): $(grep L1_HIT_CYCLES "$TMP/p2.h" | cut -c1-90)"
grep -q 'PAGE_WALK_CYCLES not published (not ok): negative' "$TMP/p.h" && grep -q 'ALIAS_4K_CYCLES unstable, not published' "$TMP/p.h"
ok $? "not-ok and unstable penalties are comments with their reason"

$PMUCAL emit -f json --core-ghz 2 "$pj" > "$TMP/r.json"
jq -e '[.penalties[] | select(.name == "l1_hit" or .name == "dram") | [.cycles, .ns, .ns_lo, .cycles_hi]] == [[4, 2, 1.95, 4.1], [200, 100, 95, 210]]' "$TMP/r.json" > /dev/null
ok $? "emit -f json --core-ghz 2: core ns = cycles / 2, memory cycles = ns x 2: $(jq -c '[.penalties[] | select(.name == "l1_hit" or .name == "dram") | [.cycles, .ns, .ns_lo, .cycles_hi]]' "$TMP/r.json")"

$PMUCAL emit -f csv "$pj" > "$TMP/p.csv"
rows=$(python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], newline=""))); assert all(len(x) == len(r[0]) for x in r); assert r[2][-1] == "a load served by L2, \"quoted\", with a comma\nand a line break"; print(len(r))' "$TMP/p.csv")
is "$rows" 6 "penalties.csv reads back (RFC 4180) as a header and one row per penalty; a brief with quotes, a comma and a line break is one field"
grep -q '^"page_walk","not_ok",core,,,,,,,' "$TMP/p.csv"; ok $? "a penalty that is not ok has no figures in the CSV: $(grep page_walk "$TMP/p.csv" | cut -c1-60)"

# perf metrics: every event is an EventName of the uarch's table; only ok penalties.
names_of() { # a table folder's EventNames, its JSON plain or gzip-compressed (Intel's ship as .json.gz)
    find "$1" \( -name '*.json' -o -name '*.json.gz' \) | while read -r f; do
        case $f in *.gz) gzip -dc "$f" ;; *) cat "$f" ;; esac; done | jq -r '.. | objects | .EventName? // empty' 2> /dev/null | sort -u; }
for m in zen4:amd/amdzen4 zen5:amd/amdzen5 skylake:intel/SKL; do
    model=${m%%:*} table=$eventdata/${m#*:}
    force=; [ "$model" = zen5 ] || force=--force-uarch
    $PMUCAL emit -f perf-metrics --uarch "$model" $force "$pj" > "$TMP/m.json" || { ok 1 "emit perf metrics for $model"; continue; }
    names_of "$table" > "$TMP/names"
    missing=$(jq -r '.[].MetricExpr' "$TMP/m.json" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u | grep -vxF -f "$TMP/names")
    used=$(jq -r '.[].MetricExpr' "$TMP/m.json" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u | tr '\n' ' ')
    [ -z "$missing" ] && [ -n "$used" ] && jq -e 'all(.[]; .MetricName and .MetricExpr and .BriefDescription and .MetricGroup and .ScaleUnit) and ([.[].MetricName] | index("pmucal_page_walk_cycles") == null and index("pmucal_alias_4k_cycles") == null)' "$TMP/m.json" > /dev/null
    ok $? "perf metrics for $model name only EventNames of $table ($used)${missing:+; not in it: $missing}"
done
$PMUCAL emit -f perf-metrics --uarch nope "$pj" > /dev/null 2> "$TMP/e"; rc=$?
names=$(ls uarch/*.txt | sed 's|.*/||; s|\.txt$||' | sort | paste -sd, - | sed 's/,/, /g')
[ $rc -eq 2 ] && grep -qF "uarch nope: give one of $names " "$TMP/e"; ok $? "emit --uarch nope exits 2, naming every uarch file ($names): $(cat "$TMP/e")"
# Another uarch's event names over a Zen 5 calibration: refused unless --force-uarch.
$PMUCAL emit -f perf-metrics --uarch skylake "$pj" > "$TMP/m.json" 2> "$TMP/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/m.json" ] && grep -q 'calibrated on zen5.*--force-uarch' "$TMP/e"
ok $? "emit --uarch skylake on a zen5 calibration exits 2: $(cat "$TMP/e")"
# The old spellings --model and --force-model still work, a note each.
$PMUCAL emit -f perf-metrics --model skylake --force-model "$pj" > "$TMP/m.json" 2> "$TMP/e"; rc=$?
[ $rc -eq 0 ] && [ -s "$TMP/m.json" ] && grep -q 'emit: --model is now --uarch' "$TMP/e" && grep -q 'emit: --force-model is now --force-uarch' "$TMP/e" && [ "$(grep -c "is now" "$TMP/e")" -eq 2 ]
ok $? "emit --model skylake --force-model (the old spellings) works with a note each (exit $rc): $(cat "$TMP/e" | tr '\n' ' ')"
$PMUCAL emit -f perf-metrics "$pj" > "$TMP/m.json" 2> /dev/null
jq -e '[.[].MetricExpr] | any(test("ls_dispatch.ld_dispatch"))' "$TMP/m.json" > /dev/null
ok $? "without --uarch the calibration's own uarch (zen5, its old key cpu_model) names the events, on any host"
jq 'del(.cpu_model) | .uarch = "zen5"' "$pj" > "$TMP/new-key.json"
$PMUCAL emit -f perf-metrics "$TMP/new-key.json" > "$TMP/m.json" 2> /dev/null
jq -e '[.[].MetricExpr] | any(test("ls_dispatch.ld_dispatch"))' "$TMP/m.json" > /dev/null
ok $? "a calibration naming its uarch under the key uarch names the events the same way"

# A consumer builds unchanged against two calibrations: B has l2_hit unstable, page_walk ok, and
# no dram (a partial one); every recipe has its PMUCAL_HAVE_ in both headers.
jq '(.penalties[] | select(.name == "l2_hit")) |= (.status = "unstable")
    | (.penalties[] | select(.name == "page_walk")) |= (.status = "ok" | .reason = null | .cycles = 40 | .cycles_lo = 38
        | .cycles_hi = 42 | .ns = 10 | .ns_lo = 9.5 | .ns_hi = 10.5)
    | .penalties |= map(select(.name != "dram")) | .date = "2026-02-02T00:00:00Z"' "$pj" > "$TMP/b.json"
mkdir -p "$TMP/A" "$TMP/B" "$TMP/F"
$PMUCAL emit -f c "$pj" > "$TMP/A/penalties.h" 2> /dev/null && $PMUCAL emit -f c "$TMP/b.json" > "$TMP/B/penalties.h" 2> /dev/null
build() { cc -std=c11 -Wall -Wextra -Wundef -Werror -I"$1" -o "$1/use" tests/data/penalty-consumer.c 2> "$1/cc.err" && "$1/use" | tr '\n' ' '; }
is "$(build "$TMP/A")" "l2_hit 14.00 dram 400.00 page_walk none ifetch_l3 none " "tests/data/penalty-consumer.c against calibration A: $(head -c 200 "$TMP/A/cc.err")"
is "$(build "$TMP/B")" "l2_hit none dram none page_walk 40.00 ifetch_l3 none " "the same file, unchanged, against calibration B: $(head -c 200 "$TMP/B/cc.err")"
$PMUCAL calibrate --list --json | jq -r '.[].name' | tr 'a-z' 'A-Z' | sort > "$TMP/recipes"
for h in A B; do
    sed -n 's/^#define PMUCAL_HAVE_\([A-Z0-9_]*\) [01]\( .*\)\{0,1\}$/\1/p' "$TMP/$h/penalties.h" | sort > "$TMP/have"
    missing=$(comm -23 "$TMP/recipes" "$TMP/have" | tr '\n' ' ')
    [ "$(wc -l < "$TMP/recipes")" -ge 20 ] && [ -z "$missing" ] &&
        [ "$(grep -c '^#define PMUCAL_HAVE_[A-Z0-9_]* 1$' "$TMP/$h/penalties.h")" -eq "$(grep -c '^#define PMUCAL_[A-Z0-9_]*_CYCLES ' "$TMP/$h/penalties.h")" ]
    ok $? "calibration $h: PMUCAL_HAVE_ for all $(wc -l < "$TMP/recipes") recipes, and a _CYCLES constant exactly where it is 1${missing:+; missing: $missing}"
done
# --fallback: B's withheld figures from A, each naming A; a not-ok figure of both stays withheld.
$PMUCAL emit -f c --fallback "$pj" "$TMP/b.json" > "$TMP/F/penalties.h" 2> "$TMP/F/err"
rc=$?
is "$(build "$TMP/F")" "l2_hit 14.00 dram 400.00 page_walk 40.00 ifetch_l3 none " "emit --fallback A B: l2_hit (unstable in B) and dram (not measured in B) from A (exit $rc): $(head -c 200 "$TMP/F/err")"
grep -q "^#define PMUCAL_L2_HIT_CYCLES 14.00 .*from the earlier calibration $pj (this one's: unstable" "$TMP/F/penalties.h" &&
    grep -q "^#define PMUCAL_DRAM_CYCLES 400.00 .*from the earlier calibration $pj (this one's: not measured)" "$TMP/F/penalties.h" &&
    grep -q "Withheld figures filled from the earlier calibration $pj of 2026-01-01" "$TMP/F/penalties.h" &&
    grep -q "^#define PMUCAL_HAVE_ALIAS_4K 0" "$TMP/F/penalties.h" && grep -q "emit: $TMP/b.json, withheld figures from $pj" "$TMP/F/err"
ok $? "each figure from the fallback names it and why B withheld its own; the header and the note name both runs"
jq 'del(.cpu_model) | .uarch = "zen4" | .host.cpu.model = 17 | .host.cpu.family = 25' "$pj" > "$TMP/zen4.json"
$PMUCAL emit -f c --fallback "$TMP/zen4.json" "$TMP/b.json" > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/o" ] && grep -q -- "--fallback $TMP/zen4.json: it was calibrated on zen4 .*, this one on zen5 .*a penalty of one CPU is not another" "$TMP/e"
ok $? "--fallback of another uarch is refused (exit $rc): $(head -c 250 "$TMP/e")"
$PMUCAL emit -f csv --fallback "$pj" "$TMP/b.json" > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--fallback fills the C header's constants: give --format c" "$TMP/e"
ok $? "--fallback with another format is refused (exit $rc): $(head -c 160 "$TMP/e")"

# A prefix that makes no C macro is refused (exit 2, naming it); a good one compiles.
for row in "1ABC|emit -f c $pj" "|emit -f c $pj" "bad prefix|emit -f c $pj" "_X|emit -f c $pj" "lower|emit -f c $pj" \
           "bad prefix|calibrate --list"; do
    prefix=${row%%|*}
    # shellcheck disable=SC2086
    $PMUCAL ${row#*|} --prefix "$prefix" > "$TMP/o" 2> "$TMP/e"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$TMP/o" ] && grep -qF -- "--prefix '$prefix'" "$TMP/e"
    ok $? "${row#*|} --prefix '$prefix' exits 2 naming it ($rc): $(head -c 160 "$TMP/e")"
done
$PMUCAL emit -f c --prefix MY_LIB2 "$pj" > "$TMP/my.h"
printf '#include "%s"\nint main(void) { return MY_LIB2_L1_HIT_CYCLES == 4.0 ? 0 : 1; }\n' "$TMP/my.h" > "$TMP/my.c"
cc -std=c11 -Wall -Wextra -Werror -o "$TMP/my" "$TMP/my.c" && "$TMP/my"
ok $? "emit -f c --prefix MY_LIB2 compiles and defines MY_LIB2_L1_HIT_CYCLES 4.00"

# An edited penalties.json: names that would collide or break out, figures no calibration gives.
for row in '.penalties[2].name = "l1-hit"|lower-case letters, digits' \
           '.penalties[1].name = "l1_hit"|given twice' \
           '.penalties[1].name = "x\u000aMetricName"|lower-case letters, digits' \
           '.penalties[0].cycles = -1e300|must be finite and positive' \
           '.penalties[2].ns_hi = "NUM:1e400"|"ns_hi": 1e400 is beyond the range of a number' \
           '.penalties[1].ns = 4.0|is not ns 4 at the run.s clock of 4 GHz' \
           'del(.clock)|needs the run.s clock' \
           '.penalties[1].status = "not ok"|its status is none of ok, unstable, not_ok, skip, error' \
           'del(.penalties[0].status)|penalty 1 .*its status is none of'; do
    jq "${row%%|*}" "$pj" | sed 's/"NUM:\([^"]*\)"/\1/' > "$TMP/edited.json"   # JSON numbers jq cannot hold
    for f in c perf-metrics; do
        $PMUCAL emit -f "$f" --uarch zen5 "$TMP/edited.json" > "$TMP/o" 2> "$TMP/e"; rc=$?
        [ $rc -eq 2 ] && [ ! -s "$TMP/o" ] && grep -q -- "${row#*|}" "$TMP/e" && [ "$(wc -l < "$TMP/e")" -eq 1 ]
        ok $? "emit -f $f refuses penalties.json with ${row%%|*} (exit $rc): $(head -c 200 "$TMP/e")"
    done
done
# -o FILE is written whole by a new file renamed into place: a link at FILE is replaced, its target
# untouched, and a table that cannot be made leaves FILE as it was.
echo keep > "$TMP/target" && ln -sf "$TMP/target" "$TMP/link.h"
$PMUCAL emit -f c -o "$TMP/link.h" results/reference/zen5-vm-calibrate > /dev/null 2> "$TMP/e"; rc=$?
[ $rc -eq 0 ] && [ "$(cat "$TMP/target")" = keep ] && [ ! -L "$TMP/link.h" ] && grep -q '^#define PMUCAL_' "$TMP/link.h"
ok $? "emit -o onto a link replaces the link, never writes its target (exit $rc): $(head -c 200 "$TMP/e")"
# Every output a user names is written so (runs/rundir.h, run_out_user): gen's listing and code,
# cpi's bars, export's KTAP. FILE is the output's name, a link to a file that must stay as it was.
# arguments | exit | what the new file holds
while IFS='|' read -r args want_rc want; do
    args=$(echo "$args" | sed 's/ *$//'); want_rc=$(echo $want_rc); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$args" ] && continue
    echo keep > "$TMP/target" && rm -f "$TMP/out" && ln -s "$TMP/target" "$TMP/out"
    # shellcheck disable=SC2086
    $PMUCAL $(echo "$args" | sed "s|FILE|$TMP/out|") > /dev/null 2> "$TMP/e"; rc=$?
    [ $rc -eq "$want_rc" ] && [ "$(cat "$TMP/target")" = keep ] && [ ! -L "$TMP/out" ] && grep -a -q -- "$want" "$TMP/out"
    ok $? "$args onto a link: the link replaced, its target untouched (exit $rc): $(head -c 200 "$TMP/e")"
done <<'EOT'
gen branch --asm FILE                                               | 0 | jmp
gen branch --bin FILE                                               | 0 | .
export --ktap -o FILE results/reference/zen5-vm-validate-perf       | 0 | ^KTAP version 1
cpi --case mixwalk --svg FILE results/reference/zen5-vm-calibrate   | 1 | ^<svg
EOT
# A device or FIFO named as the output is written in place, never replaced by a file renamed over
# it: that replaced /dev/null itself ('gen ifetch --bin /dev/null' as root). A FIFO stands in for
# the device here; what comes through it is what --bin - writes.
$PMUCAL gen branch --bin - > "$TMP/stdout.bin" 2> /dev/null
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" > "$TMP/fifo.bin" &   # never waits for ever on a writer that does not come
reader=$!
$PMUCAL gen branch --bin "$TMP/fifo" > /dev/null 2> "$TMP/e"; rc=$?
wait $reader
[ $rc -eq 0 ] && [ -p "$TMP/fifo" ] && [ -s "$TMP/stdout.bin" ] && cmp -s "$TMP/stdout.bin" "$TMP/fifo.bin"
ok $? "gen --bin onto a FIFO writes through it and leaves it a FIFO (exit $rc, $(wc -c < "$TMP/fifo.bin") bytes of $(wc -c < "$TMP/stdout.bin")): $(head -c 200 "$TMP/e")"
done_testing
