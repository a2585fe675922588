#!/bin/bash
# Inputs that grow with the machine or the table stay linear (issue 39): modeldiff of two tables of
# 200,000 events each, and a report of a run with 200,000 c2c pairs. Each once took minutes (a
# name looked up by a pass over the other table; arrays grown by one element, which ASan's realloc
# copies every time). The bound is on CPU time (user + system, so another process's load does not
# count): 5 s in an AddressSanitizer build, 2.5 s in the normal one, where quadratic work takes
# minutes. Each result is checked too, so a fast wrong answer fails.
. "$(dirname "$0")/lib.sh"

N=200000
limit=2.5
sanitized_build && limit=5
TIMEFORMAT='%U %S'
cpu() { # cpu OUT CMD...: runs CMD, its stdout into OUT; prints user+system seconds
    local t
    t=$( { time timeout 120 "${@:2}" > "$1" 2> "$1.err"; } 2>&1 )   # quadratic work: minutes; stopped
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.2f\n", a[1] + a[2] }'
}

# Two tables: every 7th event renamed in the newer one (same code and unit mask: a rename).
awk -v n=$N -v dir="$TMP" 'BEGIN { for (side = 0; side < 2; side++) {
    f = dir (side ? "/new.json" : "/old.json"); printf "[" > f
    for (i = 0; i < n; i++) {
        name = side && i % 7 == 0 ? sprintf("NEW_%06d.Y", i) : sprintf("EV_%06d.X", i)
        printf "%s{\"EventName\":\"%s\",\"EventCode\":\"0x%x\",\"UMask\":\"0x%x\",\"BriefDescription\":\"d%d\",\"Counter\":\"0,1,2,3\"}",
            i ? "," : "", name, i % 255 + 1, int(i / 255) % 256, i > f
    }
    printf "]\n" > f; close(f) } }'
t=$(cpu "$TMP/diff.out" $PMUCAL modeldiff "$TMP/old.json" "$TMP/new.json" --quiet)
renamed=$(( (N + 6) / 7 ))
grep -q "same $((N - renamed)), changed 0, re-meant 0, renamed $renamed, new 0, removed 0" "$TMP/diff.out"
right=$?
ok $right "modeldiff of two tables of $N events: $(tail -n 1 "$TMP/diff.out" | sed 's/.*: //') (want same $((N - renamed)), renamed $renamed) $(head -c 200 "$TMP/diff.out.err")"
[ $right = 0 ] && awk -v t="$t" -v l=$limit 'BEGIN { exit !(t <= l) }'
ok $? "modeldiff of $N events a side: $t s CPU (at most $limit s)"

# A run folder with N c2c pairs: the shape of a small validate run, and the pairs' CSV.
$PMUCAL validate --case 'walker size=16k' --iters 1000 -r 3 -e page-faults --label s > /dev/null 2> "$TMP/v.err"
run=$(ls -d "$PMUCAL_RESULTS"/*-s 2> /dev/null | head -n 1)
if [ -z "$run" ]; then
    echo "Bail out! the base run failed: $(tail -n 2 "$TMP/v.err")"
    exit 1
fi
awk -v n=$N 'BEGIN { print "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions"
    for (a = 0; k < n; a++) for (b = 0; b < 448 && k < n; b++) if (a != b) {
        printf "%d,%d,same-l3,%d,90,1,%.1f,5\n", a, b, 100 + (a * b) % 50, 40 + (a + b) % 20; k++ } }' > "$run/c2c.csv"
t=$(cpu "$TMP/report.out" $PMUCAL report --allow-incomplete "$run")
cells=$(grep -o 'class="c2c-cell"' "$run/report.html" 2> /dev/null | wc -l)
is "$cells" "$N" "the report of $N c2c pairs draws a cell for each"
[ "$cells" = "$N" ] && awk -v t="$t" -v l=$limit 'BEGIN { exit !(t <= l) }'
ok $? "report of $N c2c pairs: $t s CPU (at most $limit s) $(head -c 200 "$TMP/report.out.err")"
done_testing
