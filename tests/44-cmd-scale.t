#!/bin/bash
# Inputs that grow with the machine or the table stay linear (issue 39): tablediff of two tables of
# 200,000 events each, and a report of a run with 200,000 c2c pairs. Each once took minutes (a
# name looked up by a scan of the other table; arrays grown by one element, which ASan's realloc
# copies every time). Each is timed in CPU time (user + system) at N and at N/4, one after the
# other: linear work takes at most about 4 times as long at N, quadratic 16 times. The bound is on
# that ratio (at most 8), not on seconds, which a loaded machine stretches (5.7 s where a quiet one
# took 2). Each result is checked too, so a fast wrong answer fails.
. "$(dirname "$0")/lib.sh"

N=200000
Q=$((N / 4))
TIMEFORMAT='%U %S'
cpu() { # cpu OUT CMD...: runs CMD, its stdout into OUT; prints user+system seconds
    local t
    t=$( { time timeout 120 "${@:2}" > "$1" 2> "$1.err"; } 2>&1 )   # quadratic work: minutes; stopped
    awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.2f\n", a[1] + a[2] }'
}
# linear WHAT T_N T_Q RIGHT: ok when both results were right (RIGHT 0: a fast wrong answer times
# nothing) and the work at N took at most 8 times its time at N/4 (0.05 s at least, so a quick
# small run does not make a ratio of noise)
linear() {
    [ "$4" = 0 ] && awk -v n="$2" -v q="$3" 'BEGIN { if (q < 0.05) q = 0.05; exit !(n > 0 && n <= 8 * q) }'
    ok $? "$1: $2 s CPU at $N, $3 s at $Q: linear (at most 8 times, quadratic work takes 16)$([ "$4" = 0 ] || echo "; NOT TIMED: a result was wrong")"
}

# tables N: two tables of N events, every 7th renamed in the newer one (same code and unit mask: a
# rename), as $TMP/old-N.json and $TMP/new-N.json.
tables() {
    awk -v n="$1" -v dir="$TMP" 'BEGIN { for (side = 0; side < 2; side++) {
        f = dir (side ? "/new-" : "/old-") n ".json"; printf "[" > f
        for (i = 0; i < n; i++) {
            name = side && i % 7 == 0 ? sprintf("NEW_%06d.Y", i) : sprintf("EV_%06d.X", i)
            printf "%s{\"EventName\":\"%s\",\"EventCode\":\"0x%x\",\"UMask\":\"0x%x\",\"BriefDescription\":\"d%d\",\"Counter\":\"0,1,2,3\"}",
                i ? "," : "", name, i % 255 + 1, int(i / 255) % 256, i > f
        }
        printf "]\n" > f; close(f) } }'
}
tables $N
tables $Q
t=$(cpu "$TMP/diff.out" $PMUCAL tablediff "$TMP/old-$N.json" "$TMP/new-$N.json" --quiet)
tq=$(cpu "$TMP/diffq.out" $PMUCAL tablediff "$TMP/old-$Q.json" "$TMP/new-$Q.json" --quiet)
renamed=$(( (N + 6) / 7 ))
grep -q "same $((N - renamed)), changed 0, re-meant 0, renamed $renamed, new 0, removed 0" "$TMP/diff.out"
right=$?
ok $right "tablediff of two tables of $N events: $(tail -n 1 "$TMP/diff.out" | sed 's/.*: //') (want same $((N - renamed)), renamed $renamed) $(head -c 200 "$TMP/diff.out.err")"
rq=$(( (Q + 6) / 7 ))
[ $right = 0 ] && grep -q "same $((Q - rq)), changed 0, re-meant 0, renamed $rq, new 0, removed 0" "$TMP/diffq.out"
linear "tablediff of $N events a side" "$t" "$tq" $?

# A run folder with N c2c pairs: the shape of a small validate run, and the pairs' CSV.
$PMUCAL validate --case 'walker size=16k' --iters 1000 -r 3 -e page-faults --label s > /dev/null 2> "$TMP/v.err"
run=$(ls -d "$PMUCAL_RESULTS"/*-s 2> /dev/null | head -n 1)
if [ -z "$run" ]; then
    echo "Bail out! the base run failed: $(tail -n 2 "$TMP/v.err")"
    exit 1
fi
# c2c N FILE: N pairs' CSV
c2c() {
    awk -v n="$1" 'BEGIN { print "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions"
        for (a = 0; k < n; a++) for (b = 0; b < 448 && k < n; b++) if (a != b) {
            printf "%d,%d,same-l3,%d,90,1,%.1f,5\n", a, b, 100 + (a * b) % 50, 40 + (a + b) % 20; k++ } }' > "$2"
}
cp -R "$run" "$TMP/small"
c2c $N "$run/c2c.csv"
c2c $Q "$TMP/small/c2c.csv"
t=$(cpu "$TMP/report.out" $PMUCAL report --allow-incomplete "$run")
tq=$(cpu "$TMP/reportq.out" $PMUCAL report --allow-incomplete "$TMP/small")
cells=$(grep -o 'class="c2c-cell"' "$run/report.html" 2> /dev/null | wc -l)
is "$cells" "$N" "the report of $N c2c pairs draws a cell for each"
cellsq=$(grep -o 'class="c2c-cell"' "$TMP/small/report.html" 2> /dev/null | wc -l)
[ "$cells" = "$N" ] && [ "$cellsq" = "$Q" ]
linear "report of $N c2c pairs ($cellsq cells at $Q)" "$t" "$tq" $?
done_testing
