#!/bin/sh
# The classifier on synthetic counts with seeded faults (x2 overcount, a constant offset per
# iteration, the wrong cache level, counting where the quantity is zero): every fault is reported
# and no clean event is. (On a real --source sim run: tests/55-sources-sim.t.)
. "$(dirname "$0")/lib.sh"

run="$TMP/synthetic"
mkdir -p "$run"
# Cases: a walker-like model at four levels x two load counts, plus one case where nothing happens.
# Each event is a formula of the model with a small deterministic jitter (well below 0.01).
awk 'BEGIN {
    split("L1 L2 L3 DRAM", lv, " "); n = 0
    for (li = 1; li <= 4; li++) for (loads = 4; loads <= 16; loads += 12) {
        n++; c[n] = sprintf("walker size=%s loads=%d", lv[li], loads)
        inst[n] = loads + 2; ld[n] = loads; st[n] = (li == 4) ? 1 : 0
        l1[n] = (li == 1) ? loads : 0; l2[n] = (li == 2) ? loads : 0
        l3[n] = (li == 3) ? loads : 0; dr[n] = (li == 4) ? loads : 0
    }
    n++; c[n] = "empty"; inst[n] = 0; ld[n] = 0; st[n] = 0; l1[n] = 0; l2[n] = 0; l3[n] = 0; dr[n] = 0
    for (i = 1; i <= n; i++) {
        j = ((i * 7919) % 13 - 6) / 10000        # deterministic jitter in [-0.0006, 0.0006]
        printf "{\"case\":\"%s\",\"model\":{\"inst\":%d,\"ld.all\":%d,\"st.all\":%d,\"ld.l1\":%d,\"ld.l2\":%d,\"ld.l3\":%d,\"ld.dram\":%d,\"iter\":1},\"events\":[", c[i], inst[i], ld[i], st[i], l1[i], l2[i], l3[i], dr[i]
        printf "{\"name\":\"GOOD_INST\",\"stats\":{\"median\":%.6f}},", inst[i] + j
        printf "{\"name\":\"GOOD_LOADS\",\"stats\":{\"median\":%.6f}},", ld[i] - j
        printf "{\"name\":\"GOOD_L2_HIT\",\"stats\":{\"median\":%.6f}},", l2[i] + j
        printf "{\"name\":\"GOOD_STORES\",\"stats\":{\"median\":%.6f}},", st[i]
        printf "{\"name\":\"FAULT_DOUBLE\",\"stats\":{\"median\":%.6f}},", 2 * inst[i] + j
        printf "{\"name\":\"FAULT_OFFSET\",\"stats\":{\"median\":%.6f}},", ld[i] + 3 + j
        printf "{\"name\":\"FAULT_WRONG_LEVEL\",\"stats\":{\"median\":%.6f}},", l3[i] + j
        printf "{\"name\":\"FAULT_ZERO_COUNTS\",\"stats\":{\"median\":%.6f}},", dr[i] + (dr[i] == 0 ? 0.5 : 0)
        printf "{\"name\":\"NO_PMU\",\"unsupported\":\"no hardware PMU\"}"
        printf "]}\n"
    }
}' > "$run/measurements.ndjson"
printf '{"command": ["pmucal", "validate"], "status": "complete"}\n' > "$run/manifest.json"
cat > "$TMP/synthetic.rules" <<'RULES'
GOOD_INST          inst      exact
GOOD_LOADS         ld.all    exact
GOOD_L2_HIT        ld.l2     5%
GOOD_STORES        st.all    exact
FAULT_DOUBLE       inst      exact
FAULT_OFFSET       ld.all    exact
FAULT_WRONG_LEVEL  ld.l2     5%
FAULT_ZERO_COUNTS  ld.dram   5%
RULES
$PMUCAL classify "$run" --expect "$TMP/synthetic.rules" > "$TMP/c.out" 2> "$TMP/c.err"
rc=$?
sed 's/^/# /' "$TMP/c.out"
is "$rc" "1" "classify exits 1 when some event is not clean"
[ -s "$run/classify.txt" ] && jq -e '.events | length == 8' "$run/classify.json" > /dev/null
ok $? "classify.txt and classify.json are written in the run folder, 8 counted events (unsupported left out)"
status() { jq -r --arg e "$1" '.events[] | select(.event == $e) | .status' "$run/classify.json"; }
field() { jq -r --arg e "$1" ".events[] | select(.event == \$e) | $2" "$run/classify.json"; }
for e in GOOD_INST GOOD_LOADS GOOD_L2_HIT GOOD_STORES; do
    is "$(status $e)" "clean" "$e is clean"
done
is "$(field GOOD_INST .explanation)" "1.000 x inst" "GOOD_INST is explained as 1.000 x inst"
is "$(field GOOD_L2_HIT .explanation)" "1.000 x ld.l2" "GOOD_L2_HIT is explained as 1.000 x ld.l2"
for e in FAULT_DOUBLE FAULT_OFFSET FAULT_WRONG_LEVEL FAULT_ZERO_COUNTS; do
    s=$(status $e)
    [ "$s" = "suspect" ] || [ "$s" = "unexplained" ]
    ok $? "$e is reported ($s): $(field $e .explanation); rule fails in $(field $e .rule.failing_cases) cases"
done
is "$(field FAULT_DOUBLE .explanation)" "2.000 x inst" "the x2 overcount is named with its coefficient"
is "$(field FAULT_OFFSET .explanation)" "1.000 x ld.all + 3.000 x iter" "the constant offset shows as 3.000 x iter"
is "$(field FAULT_WRONG_LEVEL .explanation)" "1.000 x ld.l3" "the wrong cache level is named: ld.l3, not the rule's ld.l2"
is "$(field FAULT_ZERO_COUNTS .counts_where_every_quantity_is_zero)" "empty (0.5000)" "counts where every quantity is zero are listed"
case "$(field FAULT_ZERO_COUNTS .rule.worst)" in *"measured 0.5000, rule says 0.0000"*) r=0 ;; *) r=1 ;; esac
ok $r "counting on zero-quantity cases fails the rule there: $(field FAULT_ZERO_COUNTS .rule.worst)"
# Without rules the regression alone still flags the overcount and the offset, and name the wrong level.
$PMUCAL classify "$run" --no-rules > /dev/null 2>&1
is "$(status FAULT_DOUBLE)/$(status FAULT_OFFSET)/$(field FAULT_WRONG_LEVEL .explanation)" "suspect/suspect/1.000 x ld.l3" \
    "--no-rules: x2 and offset are suspect, the level is named"
# Bad input: one message naming the input.
mkdir -p "$TMP/bad"
printf '{"command": ["pmucal", "validate"], "status": "complete"}\n' > "$TMP/bad/manifest.json"
printf '{"case":"x","events":[}\n' > "$TMP/bad/measurements.ndjson"
$PMUCAL classify "$TMP/bad" > /dev/null 2> "$TMP/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "measurements.ndjson:1: line 1 column 23" "$TMP/bad.err"
ok $? "a malformed line is one error naming file:line and column: $(cat "$TMP/bad.err")"

# Run files are written whole: a link planted at classify.txt or classify.json is replaced, not followed.
printf 'victim\n' > "$TMP/victim"
ln -sf "$TMP/victim" "$run/classify.txt"
ln -sf "$TMP/victim" "$run/classify.json"
$PMUCAL classify "$run" --no-rules > /dev/null 2>&1
[ "$(cat "$TMP/victim")" = victim ] && [ -f "$run/classify.txt" ] && [ ! -L "$run/classify.txt" ] && [ ! -L "$run/classify.json" ] &&
    jq -e '.events | length == 8' "$run/classify.json" > /dev/null
ok $? "links at classify.txt and classify.json are replaced by the files, their target untouched: $(head -c 40 "$TMP/victim")"

# A run folder is data: no file its manifest names is opened, and its PMU name is a plain name.
printf 'GOOD_INST  inst * 2  exact\nSECRET_TOKEN x y\n' > "$TMP/secret"
cp "$run/manifest.json" "$TMP/manifest.keep"
printf '{"command": ["pmucal", "validate"], "status": "complete", "expectations": "%s", "expect": "%s"}\n' "$TMP/secret" "$TMP/secret" > "$run/manifest.json"
$PMUCAL classify "$run" --expect "$TMP/synthetic.rules" > "$TMP/c2.out" 2> "$TMP/c2.err"
rc=$?
[ $rc -eq 1 ] && [ "$(status GOOD_INST)" = clean ] && ! grep -q SECRET "$TMP/c2.err" "$TMP/c2.out" &&
    grep -q "give --expect FILE" "$TMP/c2.err"
ok $? "files the manifest names are not read (GOOD_INST stays clean, nothing of them echoed), one note says how to give them: $(cat "$TMP/c2.err")"
printf '{"command": ["pmucal", "validate"], "status": "complete", "pmu_option": "../../../../../../tmp/x"}\n' > "$run/manifest.json"
$PMUCAL classify "$run" > /dev/null 2> "$TMP/c3.err"
rc=$?
[ $rc -eq 2 ] && grep -q "is not a PMU or source name" "$TMP/c3.err"
ok $? "a manifest's PMU name with a path in it is refused (exit $rc): $(cat "$TMP/c3.err")"
# Folders compare and replay refuse, classify refuses: no manifest, no status, a manifest that is not an object.
for row in "no manifest||damaged run folder" "{}||no status" '{"status": null}||no status' \
           '[]|--allow-incomplete|not a JSON object' "no manifest|--allow-incomplete|damaged run folder"; do
    man=${row%%|*} rest=${row#*|} opt=${rest%%|*} want=${rest#*|}
    if [ "$man" = "no manifest" ]; then rm -f "$run/manifest.json"; else printf '%s\n' "$man" > "$run/manifest.json"; fi
    # shellcheck disable=SC2086
    $PMUCAL classify $opt "$run" > "$TMP/c4.out" 2> "$TMP/c4.err"
    rc=$?
    [ $rc -eq 2 ] && [ ! -s "$TMP/c4.out" ] && grep -q "$want" "$TMP/c4.err"
    ok $? "manifest '$man' $opt: refused, exit $rc: $(head -c 160 "$TMP/c4.err")"
done
printf '{"command": ["pmucal", "validate"]}\n' > "$run/manifest.json"
$PMUCAL classify --allow-incomplete --no-rules "$run" > /dev/null 2>&1
is "$?" 1 "a manifest without a status is classified with --allow-incomplete"
cp "$TMP/manifest.keep" "$run/manifest.json"

# The classifier on a real --source sim run (sim::Ir named inst, sim::Dr ld.all, sim::Dw st.all,
# sim::Bc br.cond, coefficient 1.000, the rule files withheld) is checked in
# tests/55-sources-sim.t, on the default matrix that file measures under sim anyway.
done_testing
