#!/bin/sh
# pmucal calibrate (quick mode) and its emitters: penalties.json, the C header, perf metric JSON,
# CSV, the curve, the closure check; the issue kernels' models under the sim source.
. "$(dirname "$0")/lib.sh"
# The progress lines (written to a file only when asked): one per recipe, and one per pass after the first.
export PMUCAL_PROGRESS=1
on_this_machine   # timing: about this machine, never a fixture

start=$(date +%s)
$PMUCAL calibrate --quick --label q > "$TMP/c.out" 2> "$TMP/c.err"
rc=$?
secs=$(( $(date +%s) - start ))
dir=$(ls -d "$PMUCAL_RESULTS"/*-q 2>/dev/null | head -n 1)
[ $rc -le 1 ] && [ -n "$dir" ]; ok $? "calibrate --quick ran in ${secs}s (exit $rc) into $dir"
for f in manifest.json measurements.ndjson penalties.json tables/penalties.h tables/penalties.csv curve.csv; do
    [ -s "$dir/$f" ]; ok $? "the run folder has $f"
done
nrec=$($PMUCAL calibrate --list | grep -c '^[a-z]')
jq -e --argjson n "$nrec" '.penalties | length == $n' "$dir/penalties.json" > /dev/null
ok $? "penalties.json parses and has one entry per recipe ($nrec)"
jq -e '.clock.core_ghz > 0.5 and .host.cpu.vendor and .pmucal and .date and .repetitions == 3 and .method' "$dir/penalties.json" > /dev/null
ok $? "penalties.json carries provenance: CPU, clock, date, version, repetitions, method"
jq -e 'all(.penalties[]; (.status == "ok" or .status == "unstable") as $m | if $m then (.cycles_lo <= .cycles and .cycles <= .cycles_hi and .ns > 0 or .cycles <= 0) else (.reason | length > 0) end)' "$dir/penalties.json" > /dev/null
ok $? "every measured penalty has its interval around it; every other one says why"
jq -e 'all(.penalties[] | select(.status == "ok"); .cycles > 0 and .cycles_lo > 0 and .ns > 0)' "$dir/penalties.json" > /dev/null
ok $? "every ok penalty is positive and clear of zero: $(jq -r '[.penalties[] | select(.status == "ok") | "\(.name) \(.cycles * 100 | round / 100)"] | join(", ")' "$dir/penalties.json")"
jq -e '[.penalties[] | select(.status == "not_ok")] | all(.reason | length > 0)' "$dir/penalties.json" > /dev/null &&
    ! grep -E "^#define PMUCAL_($(jq -r '[.penalties[] | select(.status != "ok") | .name | ascii_upcase] | join("|")' "$dir/penalties.json"))_CYCLES" "$dir/tables/penalties.h"
ok $? "penalties not ok, unstable or skipped are no constant in the header; not ok ones say why ($(jq '[.penalties[] | select(.status == "not_ok")] | length' "$dir/penalties.json") not ok)"
# Independent passes (--quick: 2): a measured penalty is the median of its passes, ok only when they
# agree within the spread its class allows (2% core, 3% hierarchy) and both had the core to
# themselves, each pass's cases kept as records of their own. An unstable level case may say instead
# that the part of its level this machine could use changed (penalties/checks.c plateau).
jq -e '.passes == 2 and ([.penalties[] | select(.status == "ok" or .status == "unstable")] | length > 0) and
       all(.penalties[] | select(.status == "ok" or .status == "unstable");
           .passes == 2 and (.pass_values | length) == 2 and .pass_spread >= 0 and (.pass_shared | length) == 2 and
           .passes_shared == ([.pass_shared[] | select(.)] | length)) and
       all(.penalties[]; .spread_allowed == (if .spread_class == "hierarchy" then 0.03 else 0.02 end)) and
       all(.penalties[] | select(.status == "ok"); .pass_spread <= .spread_allowed and .passes_agreeing == 2 and .passes_shared == 0) and
       all(.penalties[] | select(.status == "unstable" and .pass_spread > .spread_allowed);
           .reason | test("pass-to-pass spread|the core was not its own|passes read on|curve read the same walk|curve puts the case"))' \
    "$dir/penalties.json" > /dev/null &&
    [ "$(jq -r .key "$dir/measurements.ndjson" | sort | uniq -d | wc -l)" -eq 0 ] &&
    grep -q '^pmucal: pass 2 of 2: [0-9]* recipes measured again' "$TMP/c.err"
ok $? "every measured penalty is the median of 2 passes, ok only within its spread class of each other, each case a record of its own: $(jq -r '[.penalties[] | select(.status != "skip") | "\(.name) \(.pass_values | map(. * 100 | round / 100))"] | .[0:4] | join(", ")' "$dir/penalties.json")"
n_tap=$(grep -c -- '- penalty \|# SKIP' "$dir/validate.tap")
[ "$n_tap" -ge "$nrec" ]; ok $? "validate.tap has a verdict per penalty ($n_tap lines for $nrec recipes)"
# An unstable penalty is 'not ok ... # TODO': a TODO fails nothing (TAP), so it is not counted.
[ "$(grep '^not ok' "$dir/validate.tap" | grep -vc '# TODO')" -eq 0 ] || [ $rc -eq 1 ]; ok $? "a not ok verdict makes the exit status 1 (exit $rc)"
jq -e -s 'length > 0 and all(.[]; .cycles.ratio_before > 0 and (.events | length) >= 1 and .source == "perf")' "$dir/measurements.ndjson" > /dev/null
ok $? "every case is an engine record in measurements.ndjson ($(wc -l < "$dir/measurements.ndjson") records, with the clock around each)"
# replay fits the penalties again from the records alone (same seeds) and checks them as calibrate
# did: the same verdict lines, in order, and the same exit status, writing nothing.
verdict_lines() { grep -E '^(not )?ok [0-9]+ - ' "$1"; }
find "$dir" -type f -exec md5sum {} + | sort > "$TMP/before.md5"
$PMUCAL replay "$dir" > "$TMP/replay.out" 2> "$TMP/replay.err"; rrc=$?
verdict_lines "$dir/validate.tap" > "$TMP/stored.v"
verdict_lines "$TMP/replay.out" > "$TMP/replayed.v"
find "$dir" -type f -exec md5sum {} + | sort | cmp -s - "$TMP/before.md5" &&
    [ -s "$TMP/stored.v" ] && cmp -s "$TMP/stored.v" "$TMP/replayed.v" && [ $rrc -eq $rc ] &&
    grep -q '^# summary: .* 0 verdicts differ from the stored ones$' "$TMP/replay.out"
ok $? "replay of the calibration just made gives its $(wc -l < "$TMP/stored.v" | tr -d ' ') verdict lines again, exit $rrc (calibrate's $rc), nothing written: $(diff "$TMP/stored.v" "$TMP/replayed.v" | head -n 4 | tr '\n#' ' %') $(tail -n 1 "$TMP/replay.out" | tr '#' '%') $(head -c 300 "$TMP/replay.err")"
# A run folder of a pmucal before passes were named ("runs", "run_values", ... in penalties.json and
# the manifest) is replayed as it was made: each penalty fitted from as many passes as it had. The
# table replay prints (each figure and its interval, the median and range of the passes) is the
# same as for the folder as written; a folder with neither key would be fitted from one pass.
old_keys='with_entries(.key |= ({"passes": "runs", "pass_values": "run_values", "pass_shared": "run_shared",
          "passes_shared": "runs_shared", "pass_spread": "run_spread", "passes_agreeing": "runs_agreeing"}[.] // .))'
table_lines() { grep -E '^# [a-z0-9_]+ +(core|memory) ' "$1"; }
cp -R "$dir" "$TMP/old" && cp -R "$dir" "$TMP/nokey"
jq "$old_keys | .penalties |= map($old_keys)" "$dir/penalties.json" > "$TMP/old/penalties.json" &&
    jq "$old_keys" "$dir/manifest.json" > "$TMP/old/manifest.json" &&
    jq 'del(.passes) | .penalties |= map(del(.passes))' "$dir/penalties.json" > "$TMP/nokey/penalties.json"
$PMUCAL replay "$TMP/old" > "$TMP/replay-old.out" 2> "$TMP/replay-old.err"
$PMUCAL replay "$TMP/nokey" > "$TMP/replay-nokey.out" 2> /dev/null
table_lines "$TMP/replay.out" > "$TMP/table.new"
table_lines "$TMP/replay-old.out" > "$TMP/table.old"
table_lines "$TMP/replay-nokey.out" > "$TMP/table.nokey"
jq -e '.runs == 2 and .passes == null and all(.penalties[]; .runs != null and .passes == null)' "$TMP/old/penalties.json" > /dev/null &&
    [ -s "$TMP/table.new" ] && cmp -s "$TMP/table.new" "$TMP/table.old" && ! cmp -s "$TMP/table.new" "$TMP/table.nokey"
ok $? "a folder with the old key 'runs' replays with its passes: the same $(wc -l < "$TMP/table.new" | tr -d ' ') table lines (one pass each without the key: $(diff "$TMP/table.new" "$TMP/table.nokey" | grep -c '^>') differ) $(diff "$TMP/table.new" "$TMP/table.old" | head -n 2 | tr '\n#' ' %') $(head -c 200 "$TMP/replay-old.err")"
# A changed record is seen: l1_hit's repetitions doubled give another figure, and the line differs.
cp -R "$dir" "$TMP/changed"
jq -c 'if (.key | split("|")[0]) == "walker size=L1" then .cycles.per_iter |= map(. * 2) | .cycles.stats.median *= 2 else . end' \
    "$dir/measurements.ndjson" > "$TMP/changed/measurements.ndjson"
$PMUCAL replay "$TMP/changed" > "$TMP/replay2.out" 2> "$TMP/replay2.err"
grep -q "^# verdict changed since the run: .* 'penalty l1_hit: " "$TMP/replay2.out" &&
    ! grep -q '^# summary: .* 0 verdicts differ' "$TMP/replay2.out"
ok $? "replay of the calibration with l1_hit's cycles doubled names l1_hit's verdict as changed: $(grep -m1 'l1_hit' "$TMP/replay2.out" | tr '#' '%') $(tail -n 1 "$TMP/replay2.out" | tr '#' '%') $(head -c 300 "$TMP/replay2.err")"
# Occurrences from a model say whether 'calibrate --source sim' can check that model (one table).
jq -e '[.penalties[] | select(.occurrence.source == "model")] | length > 0 and all(.occurrence.model_check |
        test("^(checked under sim by .pmucal calibrate --source sim. [(]|not checkable under sim: .{20})"))' "$dir/penalties.json" > /dev/null &&
    jq -e '.penalties[] | select(.name == "stlb_hit") | .occurrence.source == "event" or (.occurrence.model_check | test("no TLB"))' "$dir/penalties.json" > /dev/null &&
    grep -q "^#   occurrences of .*l1_hit.*: model, checked under sim by 'pmucal calibrate --source sim'\|^#   occurrences of .*l1_hit.*: counted by" "$TMP/c.out"
ok $? "each model-given occurrence says whether sim can check it: $(jq -r '[.penalties[] | select(.name == "l1_hit" or .name == "stlb_hit") | "\(.name): \(.occurrence.model_check)"] | join("; ")' "$dir/penalties.json")"
model=$(jq -r '.uarch // empty' "$dir/penalties.json")
if [ -n "$model" ]; then
    jq -e '[.penalties[] | select(.reference)] | length >= 1 and all(.reference.source | length > 10)' "$dir/penalties.json" > /dev/null &&
        grep -q '^# references: '"$model" "$TMP/c.out"
    ok $? "$model: penalties carry their published reference and its source ($(jq '[.penalties[] | select(.reference)] | length' "$dir/penalties.json")), printed beside them"
else
    skip "references beside the figures" "no uarch file recognises this CPU"
fi
jq -e 'all(.penalties[] | select(.domain == "memory" and .status != "skip" and .status != "error"); (.cycles / .ns - .cycles / .ns) == 0 and .ns > 0)' "$dir/penalties.json" > /dev/null
ok $? "memory-domain penalties are stored in ns and in cycles"
for k in branch ifetch; do
    if $PMUCAL kernels $k > /dev/null 2>&1; then
        jq -e --arg k "$k" 'all(.penalties[] | select(.issue.case // "" | startswith($k)); .status != "skip" or (.reason | test("not built") | not))' "$dir/penalties.json" > /dev/null
        ok $? "kernel $k is built: its recipes are measured"
    else
        jq -e --arg k "$k" '[.penalties[] | select(.reason == "kernel \($k) not built")] | length > 0 and all(.status == "skip")' "$dir/penalties.json" > /dev/null
        ok $? "kernel $k is not built here: its recipes are SKIP 'kernel $k not built'"
    fi
done
grep -q '^pmucal: \[1/' "$TMP/c.err" && [ "$(grep -c '^pmucal: \[[0-9]*/' "$TMP/c.err")" -eq "$nrec" ]
ok $? "one progress line per recipe on stderr"

# The C header compiles and defines numbers.
printf '#include "%s"\n#if !defined(PMUCAL_L1_HIT_CYCLES) && !defined(PMUCAL_PENALTIES_H)\n#error no header\n#endif\ndouble first_constant(void);\n' "$dir/tables/penalties.h" > "$TMP/h.c"
cc -std=c11 -Wall -Wextra -Werror -c -o "$TMP/h.o" "$TMP/h.c"
ok $? "tables/penalties.h compiles with cc -c"
$PMUCAL emit --format c --prefix ZEN4 "$dir" > "$TMP/z.h" && printf '#include "%s"\ndouble x(void) { return 0%s; }\n' "$TMP/z.h" \
    "$(grep -o '^#define ZEN4_[A-Z0-9_]*_CYCLES' "$TMP/z.h" | sed 's/#define / + /' | tr -d '\n')" > "$TMP/z.c" &&
    cc -std=c11 -Wall -Werror -c -o "$TMP/z.o" "$TMP/z.c"
ok $? "emit --format c --prefix ZEN4: every ZEN4_*_CYCLES constant is a C expression ($(grep -c '^#define ZEN4_.*_CYCLES' "$TMP/z.h") constants)"
unstable=$(jq '[.penalties[] | select(.status == "unstable")] | length' "$dir/penalties.json")
[ "$(grep -c 'unstable, not published' "$dir/tables/penalties.h")" -eq "$unstable" ]
ok $? "the $unstable unstable penalties are comments in the header, not constants"

# perf metric JSON: parses, has the fields, names only perf's events of the model (its own table).
eventdata=eventdata
check_metrics() { # FILE TABLE (a folder of JSON, or one file; .json.gz too)
    jq -e 'type == "array" and all(.[]; .MetricName and .MetricExpr and .BriefDescription and .MetricGroup and .ScaleUnit)' "$1" > /dev/null || return 1
    [ -e "$2" ] || { echo "# no event table at $2"; return 1; }
    find "$2" -name '*.json' -o -name '*.json.gz' | while read -r f; do
        case $f in *.gz) gzip -dc "$f" ;; *) cat "$f" ;; esac; done |
        jq -r '.. | objects | .EventName? // empty' 2> /dev/null | sort -u > "$TMP/names"
    for e in $(jq -r '.[].MetricExpr' "$1" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u); do
        grep -Fxq "$e" "$TMP/names" || { echo "# $e is not an EventName of $2"; return 1; }
    done
}
if [ -f "$dir/tables/metrics.json" ]; then
    # A uarch of its own (uarch/NAME.txt), else the vendor table of the run's CPU (what 'events' reads for it).
    case $(jq -r '.uarch // empty' "$dir/penalties.json") in
        zen4) table=$eventdata/amd/amdzen4 ;; zen5) table=$eventdata/amd/amdzen5 ;; skylake) table=$eventdata/intel/SKL ;;
        *) table=$(hide_host_pmu; PMUCAL_CPUID=$(jq -r .host.cpu.id "$dir/penalties.json") $PMUCAL events 2> /dev/null |
               sed -n 's/^# source: \([^ ]*\) .*/\1/p' | head -n 1) ;;
    esac
    check_metrics "$dir/tables/metrics.json" "$table"
    ok $? "tables/metrics.json parses and names perf's events: $(jq -r '[.[].MetricName] | join(" ")' "$dir/tables/metrics.json" | cut -c1-160)"
else
    grep -q 'tables/metrics.json not written: \(no perf event names for \|the .* table (CPU .*) has no event counting\)' "$TMP/c.err"
    ok $? "no metrics.json for a CPU without perf event names here, and a note says so"
fi
# Another uarch's names over this host's figures only when forced (emit refuses a mismatch).
$PMUCAL emit --format perf-metrics --uarch skylake --force-uarch "$dir" > "$TMP/skl.json" 2> "$TMP/skl.err"
check_metrics "$TMP/skl.json" "$eventdata/intel/SKL"
ok $? "--uarch skylake --force-uarch: metrics for Skylake name only EventNames of its table ($(jq length "$TMP/skl.json") metrics)"

# CSV: one row per penalty.
rows=$(($(wc -l < "$dir/tables/penalties.csv") - 1))
[ "$rows" -eq "$nrec" ] && head -n 1 "$dir/tables/penalties.csv" | grep -q '^name,status,domain,cycles'
ok $? "penalties.csv has a header and one row per penalty ($rows)"

# Frequency split: --core-ghz rescales memory-domain cycles from ns, leaves core ones.
$PMUCAL emit --format json --core-ghz 2 "$dir" > "$TMP/r.json"
jq -e --slurpfile a "$dir/penalties.json" '.emitted_for_core_ghz == 2 and all(.penalties[] | select(.status == "ok" or .status == "unstable"); . as $p | ($a[0].penalties[] | select(.name == $p.name)) as $o |
    if .domain == "memory" then ((.cycles - 2 * .ns) | fabs) < 1e-6 else .cycles == $o.cycles end)' "$TMP/r.json" > /dev/null
ok $? "emit --core-ghz 2: memory-domain cycles = ns x 2, core-domain cycles unchanged"
$PMUCAL emit --format json "$dir" | jq -S . > "$TMP/rt.json" && jq -S . "$dir/penalties.json" | diff -q - "$TMP/rt.json" > /dev/null
ok $? "emit --format json reproduces penalties.json"

# The latency curve.
# It spans 4 KiB to 4x the last level used (hwloc's, or the measured one where hwloc's is
# implausible), 2 points per octave. Where it puts L1 and L2 is timing: tests/timing/50-closure.t.
pts=$(($(wc -l < "$dir/curve.csv") - 1))
llc=$(jq '[.curve.levels[].used_bytes] | max' "$dir/penalties.json")
want=$(awk -v l="$llc" 'BEGIN { printf "%d", 2 * log(4 * l / 4096) / log(2) - 1 }')
# A level the host could not measure (this VM's L3 under load: hwloc's is implausible and the curve
# failed its checks) is used at 0 bytes, left out: an honest state, with L1 and L2 always known.
jq -e '.curve.points >= 4 and all(.curve.levels[]; .used_from) and all(.curve.levels[:2][]; .used_bytes > 0)' \
    "$dir/penalties.json" > /dev/null &&
    [ "$pts" -ge "$want" ] && [ "$(tail -n 1 "$dir/curve.csv" | cut -d, -f1)" -le $((4 * llc)) ]
ok $? "curve.csv has $pts points (at least $want: 4 KiB to 4x the used LLC $llc at 2 per octave; levels used: $(jq -r '[.curve.levels[] | "\(.level) \(.used_bytes) from \(.used_from)"] | join(", ")' "$dir/penalties.json"))"
if command -v gnuplot > /dev/null; then
    grep -q '<svg' "$dir/curve.svg" 2>/dev/null; ok $? "curve.svg drawn by gnuplot"
else
    skip "curve.svg" "gnuplot not installed"
fi

# Where l3_hit had all its passes, mixwalk follows its last L3 case; where it had not (this VM's L3
# left out under load, or its case failed), mixwalk is not measured and the closure is a SKIP
# naming the first of its latencies that is not ok (under load l1_hit or l2_hit may be unstable
# too, and then it names that one).
order=$(jq -s -c '[.[].case] | [index("mixwalk"), rindex("walker size=L3 order=random")]' "$dir/measurements.ndjson")
l3_passes=$(jq '.penalties[] | select(.name == "l3_hit") | .passes' "$dir/penalties.json")
first_not_ok=$(jq -r '. as $d | [("l1_hit", "l2_hit", "l3_hit") as $n |
    select([$d.penalties[] | select(.name == $n and .status == "ok")] | length == 0) | $n][0] // empty' "$dir/penalties.json")
if [ "$l3_passes" = 2 ]; then
    jq -n -e --argjson o "$order" '$o[0] != null and $o[0] == $o[1] + 1' > /dev/null
else
    jq -n -e --argjson o "$order" '$o[0] == null' > /dev/null && [ -n "$first_not_ok" ] &&
        grep -q "^ok [0-9]* - closure: mixwalk predicted from calibrated latencies # SKIP needs an ok $first_not_ok" "$dir/validate.tap"
fi
ok $? "the closure's mixwalk is measured right after the last L3 case it is predicted from (l3_hit passes $l3_passes, records $order, first latency not ok: ${first_not_ok:-none})"

# Closure: its verdict follows from its own figures (ok within the tolerance; a TODO only when the
# figures' noise is wider than the tolerance; not ok otherwise), the same in the TAP line and in
# penalties.json. Whether it closes on this host now is a timing question: tests/timing/ gates it
# (make bench-timing), since a shared host's L3 moves between the cases it compares.
line=$(grep -- '- closure:' "$TMP/c.out" | head -n 1)
if jq -e '.closure' "$dir/penalties.json" > /dev/null; then
    jq -e '.closure | (.error | fabs) as $e | .tolerance == 0.05 and .noise >= 0 and .predicted_cycles > 0 and .measured_cycles > 0 and
        .ok == ($e <= .tolerance) and .undecided == ((.ok | not) and .noise > .tolerance) and
        ((.measured_cycles - .predicted_cycles) / .predicted_cycles - .error | fabs) < 1e-9' "$dir/penalties.json" > /dev/null &&
        want=$(jq -r '.closure | if .ok then "^ok " elif .undecided then "^not ok .* # TODO unstable: " else "^not ok [0-9]* - [^#]*$" end' "$dir/penalties.json") &&
        printf '%s\n' "$line" | grep -q "$want" &&
        shown=$(printf '%s\n' "$line" | sed -n 's/.*, measured \([0-9.]*\) (.*/\1/p') &&
        jq -e --argjson m "${shown:-null}" '$m != null and (.closure.measured_cycles - $m | fabs) <= 0.051' "$dir/penalties.json" > /dev/null
    ok $? "the closure's verdict follows from its figures, in the TAP line and penalties.json: ${line#* - }"
else
    case "$line" in
        ok*'# SKIP '*) ok 0 "the closure was not measured and says why: ${line#*# SKIP }" ;;
        *) ok 1 "the closure was not measured, and no SKIP says why: '$line'" ;;
    esac
fi

# Bad input: one line naming the input and the fix.
$PMUCAL emit "$dir" > /dev/null 2> "$TMP/e1"; rc=$?
[ $rc -eq 2 ] && grep -q 'give --format' "$TMP/e1"; ok $? "emit without --format exits 2: $(cat "$TMP/e1")"
echo '{"penalties": [' > "$TMP/bad.json"
$PMUCAL emit -f csv "$TMP/bad.json" > /dev/null 2> "$TMP/e2"; rc=$?
[ $rc -eq 2 ] && grep -q "bad.json: line 2 column 1: " "$TMP/e2"; ok $? "emit on broken JSON exits 2: $(head -n 1 "$TMP/e2")"
$PMUCAL calibrate --recipe nope > /dev/null 2> "$TMP/e3"; rc=$?
[ $rc -eq 2 ] && grep -q "recipe nope: no such recipe" "$TMP/e3"; ok $? "calibrate --recipe nope exits 2: $(cat "$TMP/e3")"
$PMUCAL emit -f c --core-ghz fast "$dir" > /dev/null 2> "$TMP/e4"; rc=$?
[ $rc -eq 2 ] && grep -q "core-ghz fast: give a number from 0.05 to 20" "$TMP/e4"; ok $? "emit --core-ghz fast exits 2: $(cat "$TMP/e4")"

# store_forward means what its reference means (a forwarding latency, whole): its case has no
# control and its load is forwarded, not renamed: narrower than the store (a same-size pair at the
# same address is renamed on Zen 4 and 5, under a cycle); the blocked recipe's control is that case.
sf=$($PMUCAL calibrate --list --json | jq -r '.[] | select(.name == "store_forward") | "\(.issue)|\(.control)"')
sfb=$($PMUCAL calibrate --list --json | jq -r '.[] | select(.name == "store_forward_block") | .control')
# shellcheck disable=SC2086
m=$($PMUCAL run ${sf%|*} -e page-faults -r 1 --iters 10 --json 2> /dev/null | jq -c '.model | {"st.fwd", "bytes.read", "bytes.written", "ld.all"}')
[ "${sf#*|}" = null ] && [ "$sfb" = "${sf%|*}" ] &&
    echo "$m" | jq -e '."st.fwd" == ."ld.all" and ."st.fwd" > 0 and ."bytes.read" < ."bytes.written"' > /dev/null
ok $? "store_forward: '${sf%|*}' alone, the control of store_forward_block, a forwarded narrower load: $m"

# The issue kernels' default cases (stlf, linesplit, alias4k, divsqrt, fpassist, mixwalk) under
# the simulator, every event, none 'not ok': tests/55-sources-sim.t's default matrix holds them.
# The very cases the recipes measure, where no counter shows the occurrences: the simulator
# counts their loads, stores, branches and instructions exactly against the models that give the
# occurrences (the issue kernels' cases; the walker's large cases take too long under valgrind).
if sim_usable; then
    set --
    for c in $($PMUCAL calibrate --list --json | jq -r '.[] | .issue, (.control // empty)' | sort -u |
               grep -E '^(stlf|linesplit|alias4k|divsqrt|fpassist) ' | tr ' ' '~'); do
        set -- "$@" --case "$(echo "$c" | tr '~' ' ')"
    done
    n=$(($# / 2))
    $PMUCAL validate --source sim "$@" --label sim-recipes > "$TMP/sim-r.tap" 2>&1
    [ "$n" -ge 10 ] && [ "$(grep -c '^not ok' "$TMP/sim-r.tap")" -eq 0 ] && [ "$(grep -c '^ok' "$TMP/sim-r.tap")" -ge "$n" ]
    ok $? "the $n recipe cases of the issue kernels: models exact under the sim source ($(grep -c '^ok' "$TMP/sim-r.tap") ok, $(grep -c '^not ok' "$TMP/sim-r.tap") not ok)"
else
    skip "recipe cases under sim" "$SIM_WHY"
fi

# The run-to-run benchmark (issue 47): its table has a column a run, a verdict a row, and its exit
# says whether a row is NOT OK (which load may make it: not asserted either way).
OUT="$TMP/bench" timeout 300 scripts/bench-calibrate.sh 2 --quick --recipe l1_hit --recipe fp_assist_add --no-curve \
    > "$TMP/bench.out" 2> "$TMP/bench.err"
rc=$?
notok=$(grep -c 'NOT OK$' "$TMP/bench.out")
grep -q '^penalty  *run 1  *run 2  *median  *max dist  *allowed  *verdict$' "$TMP/bench.out" &&
    grep -q '^l1_hit ' "$TMP/bench.out" && grep -q '^fp_assist_add ' "$TMP/bench.out" && grep -q '^closure ' "$TMP/bench.out" &&
    [ "$(ls -d "$TMP"/bench/*bench1 "$TMP"/bench/*bench2 2>/dev/null | wc -l)" = 2 ] &&
    { { [ "$notok" = 0 ] && [ $rc = 0 ]; } || { [ "$notok" -gt 0 ] && [ $rc = 1 ] && grep -q "^bench-calibrate: $notok rows not ok" "$TMP/bench.err"; }; }
ok $? "bench-calibrate 2: a table of two runs, $notok rows NOT OK, exit $rc: $(grep '^l1_hit' "$TMP/bench.out")"

# Its reasons, from two recorded runs (a stand-in pmucal writes them): l3_hit withheld in run 2
# with its reason, ifetch_l3 ok in both but each 5.6% from their median, l1_hit ok in both.
cat > "$TMP/fake-pmucal" << 'FAKE'
#!/bin/sh
while [ $# -gt 0 ]; do case $1 in --out) out=$2; shift ;; --label) label=$2; shift ;; esac; shift; done
run=${label#bench}
mkdir -p "$out/x-$label"
if [ "$run" = 1 ]; then l3='"status":"ok","cycles":110,"reason":null'; i3=17; else
    l3='"status":"unstable","cycles":109,"reason":"pass-to-pass spread 7.7% over 5 passes, in two groups"'; i3=19; fi
printf '{"penalties":[{"name":"l1_hit","status":"ok","domain":"core","spread_allowed":0.02,"cycles":5,"reason":null},
{"name":"l3_hit",%s,"domain":"core","spread_allowed":0.03},
{"name":"ifetch_l3","status":"ok","domain":"core","spread_allowed":0.03,"cycles":%s,"reason":null}],"closure":null}\n' \
    "$l3" "$i3" > "$out/x-$label/penalties.json"
echo "# pmucal calibrate: recorded; results in $out/x-$label"
FAKE
chmod +x "$TMP/fake-pmucal"
PMUCAL="$TMP/fake-pmucal" OUT="$TMP/bench-fake" timeout 60 scripts/bench-calibrate.sh 2 > "$TMP/fake.out" 2> "$TMP/fake.err"
rc=$?
[ $rc = 1 ] && grep -q '^bench-calibrate: 2 rows not ok: l3_hit,ifetch_l3$' "$TMP/fake.err" &&
    grep -qx '# l3_hit run 2: unstable: pass-to-pass spread 7.7% over 5 passes, in two groups' "$TMP/fake.out" &&
    grep -qx '# ifetch_l3 run 1: 17, 5.6% from the median 18 (3% allowed)' "$TMP/fake.out" &&
    grep -qx '# ifetch_l3 run 2: 19, 5.6% from the median 18 (3% allowed)' "$TMP/fake.out" &&
    [ "$(grep -c '^# l3_hit run 1\|^# l1_hit' "$TMP/fake.out")" = 0 ]
ok $? "bench-calibrate says under its table why each row is NOT OK, run by run, exit $rc: $(grep '^# [a-z0-9_]* run' "$TMP/fake.out" | tr '\n' ' ') $(cat "$TMP/fake.err")"
done_testing
