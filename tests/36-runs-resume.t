#!/bin/sh
# --resume: an interrupted or killed run of validate, calibrate, sample or c2c is completed in its
# own folder. Finished cases are kept (judged again, never measured twice), records of unfinished
# ones and a cut last line are dropped, and the verdicts are those of an uninterrupted run. Folders
# that cannot be resumed (complete, another command, host, CPU or build, a live process) are
# refused; report refuses an unfinished folder unless --allow-incomplete. Software events only
# (c2c times its pairs by the clock): runs on any host.
. "$(dirname "$0")/lib.sh"
# The progress lines (written to a file only when asked) say which cases and pairs were measured.
export PMUCAL_PROGRESS=1

EV=page-faults,minor-faults,major-faults   # not context-switches: beside other work their verdict is the load's (issue 41)
set -- --case 'walker size=16k' --case 'walker size=32k' --case 'walker size=64k' --case 'walker size=128k' \
    --iters 100000 -r 21 -e $EV
run_dir() { ls -d "$PMUCAL_RESULTS"/*-"$1" 2> /dev/null | head -n 1; }
# verdicts FILE: the (verdict, case, event) lines of a TAP file, sorted, without numbers and values
verdicts() { sed -n 's/^\(ok\|not ok\) [0-9]* - \(.*\) :: \([^ ]*\).*/\1 \2 :: \3/p' "$1" | sort; }
# records_per_case RUN: "case count" lines of its measurements.ndjson
records_per_case() { jq -r .case "$1/measurements.ndjson" | sort | uniq -c | awk '{c=$1; $1=""; print substr($0,2) "=" c}' | paste -s -d ';' -; }
# start_run LABEL N OPTIONS...: validate in the background ($pid); $d is its folder once N cases
# finished (N=0: once its manifest is written)
start_run() {
    lbl=$1 n=$2
    shift 2
    $PMUCAL validate "$@" --label "$lbl" > "$TMP/$lbl.tap" 2> "$TMP/$lbl.err" &
    pid=$!
    for i in $(seq 1 600); do
        d=$(run_dir "$lbl")
        [ -n "$d" ] && [ -s "$d/manifest.json" ] && [ "$(cat "$d/cases.done" 2> /dev/null | wc -l)" -ge "$n" ] && break
        sleep 0.05
    done
}
set_manifest() { # set_manifest RUN JQ-FILTER
    jq "$2" "$1/manifest.json" > "$TMP/m.json" && mv "$TMP/m.json" "$1/manifest.json"
}

$PMUCAL validate "$@" --label ref > "$TMP/ref.tap" 2> /dev/null
ref=$(run_dir ref)
is "$(jq -r .status "$ref/manifest.json")" complete "the uninterrupted run completes"

# SIGTERM after one case, then --resume.
start_run int 1 "$@"
kill -TERM $pid
wait $pid
rc=$?
kept=$(wc -l < "$d/cases.done")
[ $rc -eq 143 ] && [ "$(jq -r .status "$d/manifest.json")" = interrupted ] && [ "$kept" -ge 1 ] && [ "$kept" -lt 4 ]
ok $? "SIGTERM stops the run after $kept finished cases (exit $rc, $(jq -r .status "$d/manifest.json"))"
cp "$d/measurements.ndjson" "$TMP/before.ndjson"
started=$(jq -r .started "$d/manifest.json")

$PMUCAL report "$d" > /dev/null 2> "$TMP/rep.err"
rc=$?
[ $rc -eq 2 ] && grep -q "$d: it is interrupted: .*give --allow-incomplete" "$TMP/rep.err" && [ ! -e "$d/report.html" ]
ok $? "report refuses the interrupted folder, naming it and why (exit $rc: $(cat "$TMP/rep.err"))"
$PMUCAL report --allow-incomplete "$d" > /dev/null 2> "$TMP/rep.err"
rc=$?
[ $rc -eq 0 ] && grep -q '<td>interrupted</td>' "$d/report.html"
ok $? "report --allow-incomplete renders it, marked interrupted (exit $rc)"

# A link planted at the temporary name the rewrite once used must not be written through.
echo untouched > "$TMP/victim" && ln -s "$TMP/victim" "$d/.measurements.ndjson.tmp"
# CI unset: a progress line per case measured is printed, and counted below.
$PMUCAL validate --resume "$d" > "$TMP/res.tap" 2> "$TMP/res.err"
rc=$?
[ "$(cat "$TMP/victim")" = untouched ] && [ ! -L "$d/measurements.ndjson" ]
ok $? "the rewrite of measurements.ndjson wrote through no planted link ($(head -c 40 "$TMP/victim"))"
rm -f "$d/.measurements.ndjson.tmp"
[ $rc -eq 0 ] && grep -q "^# resuming: $kept of 4 cases finished and are kept" "$TMP/res.tap"
ok $? "--resume completes the run (exit $rc): $(grep '^# resuming' "$TMP/res.tap") $(head -c 300 "$TMP/res.err")"
jq -e --argjson k "$kept" --arg s "$started" '.status == "complete" and .cases_done == 4 and .measurements == 4
    and (.resumed | length == 1 and .[0].cases_kept == $k and .[0].records_kept == $k) and .started == $s
    and (.command | index("--resume") == null)' "$d/manifest.json" > /dev/null
ok $? "the manifest says complete and records the resumption: $(jq -c '{status, started, resumed}' "$d/manifest.json")"
is "$(verdicts "$d/validate.tap" | md5sum)" "$(verdicts "$ref/validate.tap" | md5sum)" \
    "validate.tap holds the verdict lines of an uninterrupted run ($(verdicts "$d/validate.tap" | wc -l) (case, event) lines)"
is "$(records_per_case "$d")" "walker size=128k=1;walker size=16k=1;walker size=32k=1;walker size=64k=1" \
    "no case was measured twice: records per case"
is "$(head -n "$kept" "$d/measurements.ndjson" | md5sum)" "$(head -n "$kept" "$TMP/before.ndjson" | md5sum)" \
    "the kept records are byte for byte the ones measured before"
is "$(grep -c '^pmucal: \[' "$TMP/res.err")" "$((4 - kept))" "only the $((4 - kept)) unfinished cases were measured"

# kill -9 mid-run: the manifest still says running, its process is gone. The last finished
# case's marker and a line cut mid-write are what a kill can leave behind; both are made so here.
start_run k9 2 "$@"
kill -KILL $pid
wait $pid 2> /dev/null
sed -i '$d' "$d/cases.done"
printf '{"case":"walker size=16k","kernel":"walk' >> "$d/measurements.ndjson"
lines=$(wc -l < "$d/measurements.ndjson")
finished=$(wc -l < "$d/cases.done")
is "$(jq -r .status "$d/manifest.json")" running "after kill -9 the manifest still says running"
$PMUCAL validate --resume "$d" > "$TMP/k9.tap" 2> "$TMP/k9.err"
rc=$?
jq -e --argjson k "$finished" --argjson d "$((lines - finished + 1))" '.status == "complete"
    and .resumed[0].cases_kept == $k and .resumed[0].records_dropped == $d' "$d/manifest.json" > /dev/null
ok $? "the killed run resumes (exit $rc): an unmarked case's record and the cut line dropped: $(jq -c .resumed "$d/manifest.json") $(head -c 300 "$TMP/k9.err")"
is "$(records_per_case "$d")" "walker size=128k=1;walker size=16k=1;walker size=32k=1;walker size=64k=1" \
    "after the kill: one record per case, the cut line gone"
jq -e . "$d/measurements.ndjson" > /dev/null; ok $? "every line of measurements.ndjson is whole JSON"

# A resumption stopped in its turn is resumed again; the manifest lists both.
start_run twice 1 "$@"
kill -TERM $pid
wait $pid
k1=$(wc -l < "$d/cases.done")
if [ "$k1" -le 2 ]; then
    $PMUCAL validate --resume "$d" > /dev/null 2>&1 &
    pid=$!
    for i in $(seq 1 600); do
        [ "$(wc -l < "$d/cases.done")" -gt "$k1" ] && break
        sleep 0.05
    done
    kill -TERM $pid
    wait $pid
    rc1=$?
    k2=$(wc -l < "$d/cases.done")
    $PMUCAL validate --resume "$d" > /dev/null 2> "$TMP/twice.err"
    rc2=$?
    [ $rc1 -eq 143 ] && [ $rc2 -eq 0 ] && jq -e --argjson a "$k1" --argjson b "$k2" '.status == "complete" and
        (.resumed | length == 2 and .[0].cases_kept == $a and .[1].cases_kept == $b)' "$d/manifest.json" > /dev/null
    ok $? "a stopped resumption (exit $rc1) resumes again (exit $rc2): $(jq -c .resumed "$d/manifest.json")"
    is "$(records_per_case "$d")" "walker size=128k=1;walker size=16k=1;walker size=32k=1;walker size=64k=1" \
        "after two resumptions: one record per case"
else
    skip "a stopped resumption resumes again" "the first stop came after $k1 of 4 cases (a busy machine): no case left to stop the resumption in"
    skip "after two resumptions: one record per case" "as above"
fi

# The sim source: the parent (outside valgrind) must not make a folder; the child under valgrind
# resumes the same one. The stop is made by hand here (status and the last case's marker), so
# the check is exact: sim counts are deterministic.
if sim_usable; then
    $PMUCAL validate --source sim --case 'walker size=4k' --case 'walker size=8k' --case 'branch' -r 2 \
        --iters 1000 -e sim::Ir,sim::Dr,sim::Bc --label sim > "$TMP/sim.tap" 2> /dev/null
    d=$(run_dir sim)
    set_manifest "$d" '.status = "interrupted"'
    sed -i '$d' "$d/cases.done"
    $PMUCAL validate --resume "$d" > "$TMP/sim2.tap" 2> "$TMP/sim2.err"
    rc=$?
    [ $rc -eq 0 ] && [ "$(ls "$PMUCAL_RESULTS" | grep -c -- '-sim')" -eq 1 ] && [ "$(jq -r .status "$d/manifest.json")" = complete ] &&
        grep -q '^# resuming: 2 of 3 cases' "$TMP/sim2.tap" && [ "$(grep -c '^pmucal: \[' "$TMP/sim2.err")" -eq 1 ]
    ok $? "--source sim resumes in the same folder, measuring only the unfinished case (exit $rc): $(grep '^# resuming' "$TMP/sim2.tap") $(head -c 300 "$TMP/sim2.err")"
    is "$(sed -n 's/^\(ok\|not ok\) [0-9]* - \(.*\) measured \([^ ]*\).*/\1 \2 \3/p' "$TMP/sim2.tap" | md5sum)" \
        "$(sed -n 's/^\(ok\|not ok\) [0-9]* - \(.*\) measured \([^ ]*\).*/\1 \2 \3/p' "$TMP/sim.tap" | md5sum)" \
        "under sim the resumed run's verdicts and counts equal the first run's, in order"
else
    sim_skip_or_fail "--source sim resumes in the same folder"
fi

# Refusals, each with one message naming the folder; exit 2; the folder untouched.
refused() { # refused RUN PATTERN DESCRIPTION [OPTIONS...]
    r=$1 pattern=$2 what=$3
    shift 3
    sum=$(cat "$r/measurements.ndjson" "$r/validate.tap" | md5sum)
    $PMUCAL validate --resume "$r" "$@" > "$TMP/ref.out" 2> "$TMP/ref.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$pattern" "$TMP/ref.err" && [ "$sum" = "$(cat "$r/measurements.ndjson" "$r/validate.tap" | md5sum)" ]
    ok $? "$what: exit $rc, $(head -c 250 "$TMP/ref.err")"
}
refused "$ref" "$ref: it is complete: nothing to resume" "a complete run is refused"
cp -r "$ref" "$TMP/other"
set_manifest "$TMP/other" '.status = "interrupted"'
refused "$TMP/other" "no other option" "options beside --resume are refused" -r 3
set_manifest "$TMP/other" '.command[1] = "calibrate"'
refused "$TMP/other" "made by 'pmucal calibrate', not 'pmucal validate'" "a run of another command is refused"
set_manifest "$TMP/other" '.command[1] = "validate" | .pmucal_commit = "0123456789ab"'
refused "$TMP/other" "commit 0123456789ab).*mix two builds" "a run of another pmucal commit is refused"
set_manifest "$TMP/other" ".pmucal_commit = \"$(jq -r .pmucal_commit "$ref/manifest.json")\" | .hostname = \"elsewhere\""
refused "$TMP/other" "measured on host 'elsewhere'" "a run of another host is refused"
set_manifest "$TMP/other" ".hostname = \"$(jq -r .hostname "$ref/manifest.json")\" | .cpu.id = \"GenuineIntel-6-55-4\""
refused "$TMP/other" "measured on CPU GenuineIntel-6-55-4" "a run on another CPU is refused"
set_manifest "$TMP/other" ".cpu.id = \"$(jq -r .cpu.id "$ref/manifest.json")\""
cp "$TMP/other/measurements.ndjson" "$TMP/keep.ndjson"
{ echo '{"case": "walker size=16k"}'; cat "$TMP/keep.ndjson"; } > "$TMP/other/measurements.ndjson"
refused "$TMP/other" "measurements.ndjson:1 is not a measurement record" "a damaged record before the last line is refused"
echo '{"status": ' > "$TMP/other/manifest.json"
refused "$TMP/other" "manifest.json.*start a new run" "a corrupt manifest is refused"

start_run live 0 --case 'walker size=16k' --iters 100000 -r 101 -e $EV
refused "$d" "its process $pid is still running it" "a run whose process is alive is refused"
kill -TERM $pid
wait $pid

# calibrate: each case is one record keyed "text|event|run"; a resumed calibration takes the cases
# it finds there and fits the penalties again with the same seeds. Two walker cases of about half a
# second or more each (mispredict's branch cases take milliseconds: a stop could come too late).
$PMUCAL calibrate --recipe l1_hit --recipe l2_hit --no-curve -r 21 --target-ms 25 --label cal > "$TMP/cal.tap" 2> "$TMP/cal.err" &
pid=$!
stop_after_records cal 1 TERM $pid
d=$stopped_dir rc=$stopped_rc
kept=$(wc -l < "$d/measurements.ndjson")
cp "$d/measurements.ndjson" "$TMP/cal-before.ndjson"
l1_before=$(jq '.penalties[] | select(.name == "l1_hit") | .pass_values[0]' "$d/penalties.json")
[ $rc -eq 143 ] && [ "$(jq -r .status "$d/manifest.json")" = interrupted ] && [ "$kept" -ge 1 ] && [ ! -e "$d/tables" ]
ok $? "calibrate stopped by SIGTERM after $kept cases (exit $rc, no tables)"
$PMUCAL calibrate --resume "$d" > "$TMP/cal2.tap" 2> "$TMP/cal2.err"
rc=$?
[ $rc -le 1 ] && grep -q "^# resuming: $kept cases measured before are taken from their records" "$TMP/cal2.tap" &&
    jq -e --argjson k "$kept" '.status == "complete" and .resumed[0].cases_kept == $k' "$d/manifest.json" > /dev/null &&
    [ -s "$d/tables/penalties.h" ] && [ "$(jq '.penalties | length' "$d/penalties.json")" -eq 2 ]
ok $? "calibrate --resume completes the run, tables and all (exit $rc): $(grep '^# resuming' "$TMP/cal2.tap") $(head -c 300 "$TMP/cal2.err")"
total=$(wc -l < "$d/measurements.ndjson")
keys=$(jq -r '.key // empty' "$d/measurements.ndjson" | sort -u | wc -l)
[ "$total" -eq "$keys" ] && [ "$total" -gt "$kept" ]
ok $? "no calibrate case was measured twice: $total records, $keys distinct case keys ($kept kept)"
is "$(head -n "$kept" "$d/measurements.ndjson" | md5sum)" "$(md5sum < "$TMP/cal-before.ndjson")" "the kept records are unchanged"
is "$(jq '.penalties[] | select(.name == "l1_hit") | .pass_values[0]' "$d/penalties.json")" "$l1_before" \
    "l1_hit's first pass, fitted from its kept record, is the figure of the interrupted run's"
refused() { # refused RUN PATTERN DESCRIPTION (calibrate)
    $PMUCAL calibrate --resume "$1" > /dev/null 2> "$TMP/ref.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$2" "$TMP/ref.err"
    ok $? "$3: exit $rc, $(head -c 250 "$TMP/ref.err")"
}
refused "$d" "it is complete: nothing to resume" "calibrate refuses a complete run"
cp -r "$(run_dir int)" "$TMP/v" && set_manifest "$TMP/v" '.status = "interrupted"'
refused "$TMP/v" "made by 'pmucal validate', not 'pmucal calibrate'" "calibrate refuses a validate run"

# The issue case a penalty shows (and checks whole against a published figure) is its median pass's,
# not its first: a first pass a burst of load hit would fail a right figure. Pass 0's issue record is
# made half as long again, and the run fitted anew from its records.
$PMUCAL calibrate --recipe store_forward_block --passes 3 --quick --no-curve --label median > /dev/null 2> "$TMP/med.err"
m=$(run_dir median)
set_manifest "$m" '.status = "interrupted"'
# Every pass clean (whatever the machine did): the shared-core rule below is not what this checks.
jq -c '.cycles.windows.clock_split = 0 | del(.cycles.windows.load_median) | .noise.noisy = false |
       if (.key | test("^stlf variant=block[|][^|]*[|]0$")) then .cycles.per_iter |= map(. * 1.5) else . end' \
    "$m/measurements.ndjson" > "$TMP/med.ndjson" && cp "$TMP/med.ndjson" "$m/measurements.ndjson"
$PMUCAL calibrate --resume "$m" > "$TMP/med.tap" 2> "$TMP/med2.err"
shown=$(jq '.penalties[0].issue.cycles_per_iter' "$m/penalties.json")
jq -e --argjson s "$shown" '.penalties[0] as $p | ($p.pass_values | sort | .[1]) as $mid |
        ([$p.pass_values | to_entries[] | select(.value == $mid) | .key][0]) as $r |
        $p.pass_values[0] > $mid and $r != 0 and $s != null' "$m/penalties.json" > /dev/null &&
    [ "$(jq -r --argjson s "$shown" 'select(.key | test("^stlf variant=block[|][^|]*[|][12]$")) | .cycles.per_iter |
          sort | .[length / 2 | floor] | . == $s' "$m/measurements.ndjson" | grep -c true)" -eq 1 ]
ok $? "a penalty shows its median pass's issue case ($shown cycles an iteration), not pass 0's made long: $(jq -c '.penalties[0] | {pass_values, status}' "$m/penalties.json") $(head -c 300 "$TMP/med2.err")"

# A pass whose case did not have the core to itself is left out of the figure: its clock references
# read 2.5% apart (one chain slowed), its load witness read 25% slow beside a case that loads, or
# its windows outlast a scheduler slice while its counted loops were switched out. Four passes:
# pass 0 shared and made three times as long (a busy host's passes differ by 15-20%: half again as
# long was once under 1.3 times pass 1), three clean needed.
shared() { # shared NAME JQ-EDIT-OF-PASS-0's-ISSUE-RECORD REASON
    $PMUCAL calibrate --recipe l2_hit --passes 4 --quick --no-curve --label "$1" > /dev/null 2> "$TMP/sh.err"
    s=$(run_dir "$1")
    set_manifest "$s" '.status = "interrupted"'
    jq -c "if (.key | test(\"^walker size=L2[|][^|]*[|]0\$\")) then .cycles.per_iter |= map(. * 3) | $2 else . end" \
        "$s/measurements.ndjson" > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
    # Passes 1-3 clean, whatever the machine did while they ran; their load witnesses told a whole
    # of 4, as pass 0's (the run's whole is the one most of its cases told).
    jq -c 'if (.key | test("[|][123]$")) then .cycles.windows.clock_split = 0 | .cycles.windows.load_whole = 4 |
           del(.cycles.windows.load_median) | .noise.noisy = false else . end' \
        "$s/measurements.ndjson" > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
    $PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
    jq -e '.penalties[0] | .pass_shared == [true, false, false, false] and .passes_shared == 1 and
           .pass_values[0] > .pass_values[1] * 1.3 and .cycles < .pass_values[0] * 0.8' "$s/penalties.json" > /dev/null &&
        "$PMUCAL" calibrate --resume "$s" 2>&1 | grep -q "complete"
    ok $? "$3: pass 0 is left out of l2_hit: $(jq -c '.penalties[0] | {pass_values, pass_shared, cycles, status}' "$s/penalties.json") $(head -c 300 "$TMP/sh2.err")"
}
shared shared-core '.cycles.windows.clock_split = 0.025' "clock references 2.5% apart"
# The Emerald Rapids guest's cases read 7-20% slow at a split of 0.5-0.9%, clean ones at 0.1-0.22%.
shared shared-core-little '.cycles.windows.clock_split = 0.006 | del(.cycles.windows.load_median) | .noise.noisy = false' \
    "clock references 0.6% apart (and nothing else)"
shared shared-loads '.cycles.windows.clock_split = 0 | .cycles.windows.load_whole = 4 | .cycles.windows.load_median = 5' \
    "load witness 5 cycles of 4"
shared shared-cpu '.cycles.windows.iters = 100000000 | .noise.noisy = true' "windows longer than a slice, switched out in every attempt"
# The witness speaks only for a case that loads: a divide chain beside a slow witness keeps its passes.
$PMUCAL calibrate --recipe div64_latency --passes 3 --quick --no-curve --label noload > /dev/null 2> "$TMP/sh.err"
s=$(run_dir noload)
set_manifest "$s" '.status = "interrupted"'
jq -c '.cycles.windows.clock_split = 0 | .noise.noisy = false | .cycles.windows.load_whole = 4 | .cycles.windows.load_median = 8' \
    "$s/measurements.ndjson" \
    > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
$PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
jq -e '.penalties[0] | .pass_shared == [false, false, false] and .passes_shared == 0' "$s/penalties.json" > /dev/null
ok $? "a slow load witness leaves a case without loads clean: $(jq -c '.penalties[0] | {pass_shared, status}' "$s/penalties.json") $(head -c 200 "$TMP/sh2.err")"
# A witness barely over its whole (5.06 of 5) says another thread ran on the core: a front-end case
# (btb_resteer read 3.83 cycles so, 3.20 alone, on the Emerald Rapids guest) leaves that pass out;
# an L2 walk, whose 16 loads it could slow by 0.4% of its cycles, keeps it. So does a front-end
# witness 9% over its fastest (0.19 cycles a no-op against 0.174) beside a load witness of its
# whole: another thread at the front end that hardly loads. Every other pass planted quiet. A
# case's own whole comes from its fastest trip, which can read a few percent fast (4 of 5 in 67 of
# 5,194 cases on that guest): a witness of 5 is judged against the run's whole, 5, not its own 4.
witness() { # witness NAME RECIPE WANT-PASS-SHARED LOAD-MEDIAN FRONT-MEDIAN [LOAD-WHOLE [REASON]] (pass 0's)
    $PMUCAL calibrate --recipe "$2" --passes 3 --quick --no-curve --label "$1" > /dev/null 2> "$TMP/sh.err"
    s=$(run_dir "$1")
    set_manifest "$s" '.status = "interrupted"'
    jq -c --argjson load "$4" --argjson front "$5" --argjson whole "${6:-5}" '.cycles.windows.clock_split = 0 |
           .noise.noisy = false | .cycles.windows.front_fastest = 0.174 |
           .cycles.windows.load_whole = (if (.key | test("[|]0$")) then $whole else 5 end) |
           .cycles.windows.load_median = (if (.key | test("[|]0$")) then $load else 5 end) |
           .cycles.windows.front_median = (if (.key | test("[|]0$")) then $front else 0.175 end)' \
        "$s/measurements.ndjson" > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
    $PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
    jq -e --argjson want "$3" --arg says "${7:-}" \
        '.penalties[0] | .pass_shared == $want and ((.reason // "") | contains($says))' "$s/penalties.json" > /dev/null
    ok $? "$2 beside a load witness of $4 (its own whole ${6:-5}, the run's 5) and a front-end witness of $5 of 0.174 in pass 0: passes shared $3: $(jq -c '.penalties[0] | {pass_shared, status, reason}' "$s/penalties.json" | head -c 300)"
}
witness front-end btb_resteer '[true,false,false]' 5.06 0.175
witness not-front-end l2_hit '[false,false,false]' 5.06 0.175
witness front-end-nops btb_resteer '[true,false,false]' 5 0.19
witness not-front-end-nops l2_hit '[false,false,false]' 5 0.19
witness fast-trip btb_resteer '[false,false,false]' 5 0.175 4
witness slow-case btb_resteer '[true,false,false]' 6.01 0.175 6 "20.2% over the run's whole 5 (its own 6)"
# A recipe left short of clean passes by shared ones is measured in further passes, up to twice those
# asked: three asked, two planted shared, the run resumed: two more at least (five, when the machine
# left them clean), six at most, or nine where the clean ones then disagreed.
$PMUCAL calibrate --recipe l2_hit --passes 3 -r 3 --target-ms 2 --no-curve --label more > /dev/null 2> "$TMP/sh.err"
s=$(run_dir more)
set_manifest "$s" '.status = "interrupted"'
jq -c 'if (.key | test("^walker size=L2[|][^|]*[|][01]$")) then .cycles.windows.clock_split = 0.025 else . end' \
    "$s/measurements.ndjson" > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
$PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
jq -e '.penalties[0] | .passes >= 5 and .passes <= 9 and .pass_shared[0] and .pass_shared[1]' "$s/penalties.json" \
    > /dev/null && [ "$(grep -c '"key":"walker size=L2|[^|]*|[45]"' "$s/measurements.ndjson")" -ge 1 ]
ok $? "two of three passes shared: more passes measured, at most nine (six for sharing): $(jq -c '.penalties[0] | {passes, pass_shared, status}' "$s/penalties.json") $(head -c 200 "$TMP/sh2.err")"
# So is one whose clean passes disagree: three asked, all planted clean, the second the first again
# and the third 10% slower (an L2 hit's may spread 2%): one more at least, nine at most, the slow
# one kept among them. (Were the first two 1% apart, twice the passes' median deviation would be the
# 2% allowed already, and no further pass due.)
$PMUCAL calibrate --recipe l2_hit --passes 3 -r 3 --target-ms 2 --no-curve --label apart > /dev/null 2> "$TMP/sh.err"
s=$(run_dir apart)
set_manifest "$s" '.status = "interrupted"'
jq -c -s '(map(select(.key | test("[|]0$")) | {key: (.key | sub("[|]0$"; "")), value: .cycles.per_iter}) | from_entries)
          as $first | .[] | .cycles.windows.clock_split = 0 | .noise.noisy = false | .cycles.windows.load_whole = 5 |
          .cycles.windows.load_median = 5 |
          if (.key | test("[|]1$")) then .cycles.per_iter = ($first[.key | sub("[|]1$"; "")] // .cycles.per_iter)
          elif (.key | test("[|]2$")) then .cycles.per_iter = (($first[.key | sub("[|]2$"; "")] // .cycles.per_iter) | map(. * 1.1))
          else . end' \
    "$s/measurements.ndjson" > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
$PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
jq -e '.penalties[0] | .passes >= 4 and .passes <= 9 and .pass_values[2] > 1.08 * .pass_values[0] and
       .pass_shared[0] == false and .pass_shared[2] == false' "$s/penalties.json" > /dev/null &&
    [ "$(grep -c '"key":"walker size=L2|[^|]*|3"' "$s/measurements.ndjson")" -ge 1 ]
ok $? "clean passes 10% apart: more passes measured, at most nine: $(jq -c '.penalties[0] | {passes, pass_values, status, reason}' "$s/penalties.json" | head -c 400) $(head -c 200 "$TMP/sh2.err")"
# Three passes with one shared leave two clean: not enough to publish. This one is given as --runs,
# the old spelling of --passes: taken, with one note, and none when the run is resumed (the
# manifest's command line is the run's, not typed).
$PMUCAL calibrate --recipe l2_hit --runs 3 --quick --no-curve --label three > /dev/null 2> "$TMP/sh.err"
s=$(run_dir three)
[ "$(grep -c 'runs is now --passes' "$TMP/sh.err")" -eq 1 ] && jq -e '.passes == 3' "$s/penalties.json" > /dev/null &&
    jq -e '.passes == 3' "$s/manifest.json" > /dev/null
ok $? "--runs 3 is --passes 3, with one note: $(grep 'runs' "$TMP/sh.err" | head -n 2 | tr '\n' ' ') passes $(jq .passes "$s/penalties.json")"
set_manifest "$s" '.status = "interrupted"'
jq -c 'if (.key | test("^walker size=L2[|][^|]*[|]0$")) then .cycles.windows.clock_split = 0.025 else . end' "$s/measurements.ndjson" \
    > "$TMP/sh.ndjson" && cp "$TMP/sh.ndjson" "$s/measurements.ndjson"
$PMUCAL calibrate --resume "$s" > /dev/null 2> "$TMP/sh2.err"
jq -e '.penalties[0] | .status == "unstable" and (.reason | test("the core was not its own in [1-3] of 3 passes, 3 clean passes needed: walker size=L2.*read 2.50% apart"))' \
    "$s/penalties.json" > /dev/null && ! grep -q 'is now --passes' "$TMP/sh2.err"
ok $? "a penalty with two clean passes of three is unstable, and says which case shared the core (no note on resuming): $(jq -r '.penalties[0].reason' "$s/penalties.json" | head -c 300)"
# sample: one record per (case, event, precise level). A resumed sample run keeps each record it
# finds (its verdicts said again from it, never measured), measures the rest, and refuses as
# validate does. Software events, sampled wherever perf_event samples at all.
SMP="walker phase=touch size=16M page=4k"
# refuse_resume PATTERN COMMAND ARGS...: pmucal COMMAND ARGS exits 2 with PATTERN on stderr; else
# what it did is added to $refusals
refuse_resume() {
    pattern=$1
    shift
    $PMUCAL "$@" > /dev/null 2> "$TMP/refuse.err"
    r=$?
    { [ $r -eq 2 ] && grep -q -- "$pattern" "$TMP/refuse.err"; } || refusals="$refusals [$*: exit $r, $(head -c 200 "$TMP/refuse.err")]"
}
# verdict_keys TAP: what each verdict line is about (case, event, level, kind of verdict), sorted
verdict_keys() { sed -n 's/^\(ok\|not ok\) [0-9]* - \(.* precise=[0-3] [a-z]*\).*/\2/p' "$1" | sort; }
$PMUCAL sample $SMP -e page-faults,minor-faults --iters 4096 -r 21 --label sref > "$TMP/sref.tap" 2> "$TMP/sref.err"
srefrc=$?
sref=$(run_dir sref)
levels=$(wc -l 2> /dev/null < "$sref/measurements.ndjson" || echo 0)
# Fewer records than (event, level) pairs is a SKIP only where sample ran and said which levels it
# could not sample; a crash or a refusal is a failure of the test.
if [ "$levels" -lt 4 ] && { [ $srefrc -gt 1 ] || ! grep -q '# SKIP' "$TMP/sref.tap"; }; then
    ok 1 "the uninterrupted sample run: exit $srefrc, $levels records and no SKIP saying why: $(head -c 300 "$TMP/sref.err")"
elif [ "$levels" -lt 4 ]; then
    for t in "sample stopped part-way" "sample --resume completes it" "sample: no record measured twice" \
             "sample: kept records unchanged" "sample: kept verdicts said again" "sample refusals"; do
        skip "$t" "the uninterrupted sample run made $levels records, not one per (event, level): $(grep -m1 SKIP "$TMP/sref.tap" | head -c 200)"
    done
else
    $PMUCAL sample $SMP -e page-faults,minor-faults --iters 4096 -r 21 --label smp > "$TMP/smp.tap" 2> "$TMP/smp.err" &
    stop_after_records smp 2 TERM $!
    d=$stopped_dir
    kept=$(wc -l < "$d/measurements.ndjson")
    cp "$d/measurements.ndjson" "$TMP/smp-before.ndjson"
    started=$(jq -r .started "$d/manifest.json")
    [ "$stopped_rc" -eq 143 ] && [ "$(jq -r .status "$d/manifest.json")" = interrupted ] && [ "$kept" -ge 2 ] &&
        [ "$kept" -lt "$levels" ]
    ok $? "sample stopped part-way by SIGTERM: $kept of $levels records (exit $stopped_rc, $(jq -r .status "$d/manifest.json"))"
    $PMUCAL sample --resume "$d" > "$TMP/smp2.tap" 2> "$TMP/smp2.err"
    rc=$?
    want=0
    grep -q '^not ok' "$TMP/smp2.tap" && want=1
    [ $rc -eq $want ] && grep -q "^# resuming: $kept (case, event, precise level) records measured before are kept" "$TMP/smp2.tap" &&
        jq -e --argjson k "$kept" --arg s "$started" '.status == "complete" and .started == $s and
            (.resumed | length == 1 and .[0].records_kept == $k) and (.command | index("--resume") == null)' \
            "$d/manifest.json" > /dev/null &&
        [ "$(grep -c '^1\.\.' "$TMP/smp2.tap")" -eq 1 ] && [ -n "$(verdict_keys "$TMP/sref.tap")" ] &&
        [ "$(verdict_keys "$TMP/smp2.tap" | md5sum)" = "$(verdict_keys "$TMP/sref.tap" | md5sum)" ]
    ok $? "sample --resume completes the run (exit $rc, $want wanted), every verdict of an uninterrupted run said: $(grep '^# resuming' "$TMP/smp2.tap") $(jq -c '{status, resumed}' "$d/manifest.json") $(head -c 300 "$TMP/smp2.err")"
    measured=$(grep -c '^# .* precise=[0-3] overhead .* ns per sample' "$TMP/smp2.tap")
    [ "$(jq -r '"\(.case) \(.event) \(.precise_ip)"' "$d/measurements.ndjson" | sort | uniq -d | wc -l)" -eq 0 ] &&
        [ "$(wc -l < "$d/measurements.ndjson")" -eq "$levels" ] && [ "$measured" -eq $((levels - kept)) ] &&
        [ "$(grep -c '^# .* kept: measured before the resume' "$TMP/smp2.tap")" -eq "$kept" ]
    ok $? "sample: no (event, level) measured twice: $(wc -l < "$d/measurements.ndjson") records, $measured measured by the resume, $kept kept"
    is "$(head -n "$kept" "$d/measurements.ndjson" | md5sum)" "$(md5sum < "$TMP/smp-before.ndjson")" \
        "sample: the kept records are byte for byte the ones measured before"
    # The kept levels' verdict lines are the stopped run's own, word for word (numbers aside).
    [ "$(grep -c '^\(ok\|not ok\)' "$TMP/smp.tap")" -gt 0 ] || ok 1 "the stopped sample run said no verdict before the stop"
    is "$(sed -n 's/^\(ok\|not ok\) [0-9]* - //p' "$TMP/smp.tap" | head -n "$(grep -c '^\(ok\|not ok\)' "$TMP/smp.tap")" | md5sum)" \
        "$(sed -n 's/^\(ok\|not ok\) [0-9]* - //p' "$TMP/smp2.tap" | head -n "$(grep -c '^\(ok\|not ok\)' "$TMP/smp.tap")" | md5sum)" \
        "sample: the kept levels' verdicts are said again as the stopped run said them"
    # Refusals: a complete run, options beside --resume (a kernel too), another command's folder.
    refusals=""
    refuse_resume "$d: it is complete: nothing to resume" sample --resume "$d"
    cp -r "$d" "$TMP/smp-other" && set_manifest "$TMP/smp-other" '.status = "interrupted"'
    refuse_resume "no other option" sample --resume "$TMP/smp-other" -r 3
    refuse_resume "no other option" sample walker --resume "$TMP/smp-other"
    refuse_resume "made by 'pmucal validate', not 'pmucal sample'" sample --resume "$TMP/v"
    refuse_resume "made by 'pmucal sample', not 'pmucal validate'" validate --resume "$TMP/smp-other"
    set_manifest "$TMP/smp-other" '.sample.perturbed = "drop=3"'
    refuse_resume "PMUCAL_SAMPLE_PERTURB='drop=3', this process has ''" sample --resume "$TMP/smp-other"
    [ -z "$refusals" ]
    ok $? "sample refusals, exit 2 with validate's messages: a complete run, options or a kernel beside --resume, another command's folder, validate of a sample folder, and a stream perturbed otherwise than the run's${refusals:+; not:$refusals}"
fi

# c2c: its pairs are its records, kept in c2c.csv; a resumed c2c run measures only the pairs not
# there. Two CPUs of this process's mask; the stop comes once the first pair is done (the note of
# the second is printed as it starts).
cpu_pair=$(taskset -pc $$ 2> /dev/null | sed 's/.*: //' | tr ',' '\n' |
           awk -F- '{ for (i = $1; i <= (NF == 2 ? $2 : $1); i++) print i }' | head -n 2 | paste -sd, -)
if [ "${cpu_pair#*,}" = "$cpu_pair" ]; then
    for t in "c2c stopped after one pair" "c2c --resume measures only the other" "c2c: kept pair unchanged" "c2c refusals" \
             "c2c killed (-9) keeps its finished pair" "c2c --resume of the killed run" "c2c --resume drops a cut last line (nonl)" \
             "c2c --resume drops a cut last line (bad)" "c2c --resume refuses a bad row not last"; do
        skip "$t" "this process may use one CPU (${cpu_pair:-none}); c2c needs two"
    done
else
    $PMUCAL c2c --cpus "$cpu_pair" -r 101 --label c2c > "$TMP/c2c.out" 2> "$TMP/c2c.err" &
    pid=$!
    for i in $(seq 1 600); do
        [ "$(grep -c '^pmucal: c2c: CPU' "$TMP/c2c.err")" -ge 2 ] && break
        sleep 0.05
    done
    kill -TERM $pid
    wait $pid
    rc=$?
    d=$(run_dir c2c)
    cp "$d/c2c.csv" "$TMP/c2c-before.csv" 2> /dev/null
    [ $rc -eq 143 ] && [ "$(jq -r .status "$d/manifest.json")" = interrupted ] && [ "$(wc -l < "$d/c2c.csv")" -eq 2 ] &&
        grep -q "c2c --resume $d' completes it" "$TMP/c2c.err"
    ok $? "c2c stopped after one pair of two (exit $rc, $(jq -r .status "$d/manifest.json"), $(($(wc -l < "$d/c2c.csv") - 1)) pair in c2c.csv)"
    $PMUCAL c2c --resume "$d" > "$TMP/c2c2.out" 2> "$TMP/c2c2.err"
    rc=$?
    first=$(sed -n 2p "$TMP/c2c-before.csv" | cut -d, -f1,2)
    [ $rc -eq 0 ] && [ -n "$first" ] && [ "$(grep -c '^pmucal: c2c: CPU' "$TMP/c2c2.err")" -eq 1 ] &&
        grep -q "^pmucal: resuming: 1 of 2 pairs measured before are kept" "$TMP/c2c2.err" &&
        ! grep -q "^pmucal: c2c: CPU ${first%,*} -> CPU ${first#*,} " "$TMP/c2c2.err" &&
        [ "$(tail -n +2 "$d/c2c.csv" | cut -d, -f1,2 | sort -u | wc -l)" -eq 2 ] && [ "$(wc -l < "$d/c2c.csv")" -eq 3 ] &&
        jq -e '.status == "complete" and .resumed[0].records_kept == 1 and (.command | index("--resume") == null)' "$d/manifest.json" > /dev/null
    ok $? "c2c --resume measures only the pair not in c2c.csv (exit $rc): $(grep '^pmucal: c2c: CPU' "$TMP/c2c2.err") $(jq -c '{status, resumed}' "$d/manifest.json")"
    [ -n "$first" ] && [ "$(grep "^${first}," "$d/c2c.csv")" = "$(sed -n 2p "$TMP/c2c-before.csv")" ]
    ok $? "c2c: the kept pair's row ($first) is the one measured before"
    refusals=""
    refuse_resume "$d: it is complete: nothing to resume" c2c --resume "$d"
    cp -r "$d" "$TMP/c2c-other" && set_manifest "$TMP/c2c-other" '.status = "interrupted"'
    refuse_resume "no other option" c2c --resume "$TMP/c2c-other" -r 3
    refuse_resume "made by 'pmucal validate', not 'pmucal c2c'" c2c --resume "$TMP/v"
    refuse_resume "made by 'pmucal c2c', not 'pmucal sample'" sample --resume "$TMP/c2c-other"
    [ -z "$refusals" ]
    ok $? "c2c refusals, exit 2 with validate's messages: a complete run, options beside --resume, another command's folder, and sample of a c2c folder${refusals:+; not:$refusals}"

    # kill -9 mid-run: nothing of the run's end happens, yet c2c.csv keeps every pair finished
    # before the kill (it grows a row per pair), and --resume measures only the others. The kill
    # comes once c2c.csv holds a row; a pair takes about half a second at -r 101.
    c0=${cpu_pair%,*} c1=${cpu_pair#*,}
    every_pair=$(printf '%s\n' "$c0,$c1" "$c1,$c0" | sort | paste -sd' ' -)
    $PMUCAL c2c --cpus "$cpu_pair" -r 101 --label c2c9 > "$TMP/c2c9.out" 2> "$TMP/c2c9.err" &
    pid=$!
    stop_after_records c2c9 2 KILL $pid c2c.csv
    d=$stopped_dir rc=$stopped_rc
    rows=$(($(cat "$d/c2c.csv" 2> /dev/null | wc -l) - 1))
    cp "$d/c2c.csv" "$TMP/c2c9-before.csv" 2> /dev/null
    [ $rc -eq 137 ] && [ "$rows" -eq 1 ] && [ "$(jq -r .status "$d/manifest.json")" = running ] &&
        [ "$(sed -n 2p "$d/c2c.csv" | cut -d, -f1,2)" = "$c0,$c1" ]
    ok $? "c2c killed (-9) mid-run keeps the finished pair in c2c.csv (exit $rc, $(jq -r .status "$d/manifest.json"), $rows of 2 pairs: $(sed -n 2p "$d/c2c.csv" | cut -d, -f1,2))"
    # Copies of the killed folder whose last line the kill cut: without its newline, and a row
    # that does not parse; and one with such a row before its last line (damage, not a kill).
    for torn in nonl bad mid; do rm -rf "$TMP/c2c9-$torn" && cp -r "$d" "$TMP/c2c9-$torn"; done
    printf '%s' "$c1,$c0,same-l3,2" >> "$TMP/c2c9-nonl/c2c.csv"
    printf '%s\n' "$c1,$c0,same-l3,x" >> "$TMP/c2c9-bad/c2c.csv"
    printf '%s\n' "$c1,$c0,same-l3,x" "$c1,$c0,same-l3,1,1,1,1,1" >> "$TMP/c2c9-mid/c2c.csv"
    $PMUCAL c2c --resume "$d" > "$TMP/c2c9r.out" 2> "$TMP/c2c9r.err"
    rc=$?
    [ $rc -eq 0 ] && grep -q "^pmucal: resuming: 1 of 2 pairs measured before are kept" "$TMP/c2c9r.err" &&
        [ "$(grep -c '^pmucal: c2c: CPU' "$TMP/c2c9r.err")" -eq 1 ] && grep -q "^pmucal: c2c: CPU $c1 -> CPU $c0 " "$TMP/c2c9r.err" &&
        [ "$(tail -n +2 "$d/c2c.csv" | cut -d, -f1,2 | sort | paste -sd' ' -)" = "$every_pair" ] &&
        [ "$(head -n 2 "$d/c2c.csv")" = "$(cat "$TMP/c2c9-before.csv")" ] &&
        jq -e '.status == "complete" and .resumed[0].records_kept == 1 and .resumed[0].records_dropped == 0' "$d/manifest.json" > /dev/null
    ok $? "c2c --resume of the killed run keeps its pair and measures the other: every pair once (exit $rc; $(grep '^pmucal: \(resuming\|c2c: CPU\)' "$TMP/c2c9r.err" | tr '\n' ';') c2c.csv: $(tail -n +2 "$d/c2c.csv" | cut -d, -f1,2 | paste -sd' ' -))"
    for torn in nonl bad; do
        t=$TMP/c2c9-$torn
        $PMUCAL c2c --resume "$t" > "$TMP/c2c9-$torn.out" 2> "$TMP/c2c9-$torn.err"
        rc=$?
        why="it has no newline"
        [ $torn = bad ] && why="expected 8 comma-separated values"
        [ $rc -eq 0 ] && grep -q "^pmucal: --resume $t: $t/c2c.csv:3, the last line, is not a whole row ($why.*dropped" "$TMP/c2c9-$torn.err" &&
            grep -q "^pmucal: resuming: 1 of 2 pairs measured before are kept" "$TMP/c2c9-$torn.err" &&
            [ "$(tail -n +2 "$t/c2c.csv" | cut -d, -f1,2 | sort | paste -sd' ' -)" = "$every_pair" ] &&
            [ "$(wc -l < "$t/c2c.csv")" -eq 3 ] && ! grep -q ',x$' "$t/c2c.csv" &&
            jq -e '.status == "complete" and .resumed[0].records_dropped == 1' "$t/manifest.json" > /dev/null
        ok $? "c2c --resume drops a cut last line of c2c.csv ($torn) with a note and measures its pair (exit $rc; $(grep '^pmucal: --resume' "$TMP/c2c9-$torn.err"))"
    done
    refusals=""
    refuse_resume "c2c.csv:3: corrupt run folder" c2c --resume "$TMP/c2c9-mid"
    # Rows that parse but are not the run's pairs: a CPU it did not pair, a pair twice, no time.
    row1=$(sed -n 2p "$TMP/c2c9-before.csv")
    for bad in "other:$c0,$c0,${row1#*,*,}:the pair $c0 -> $c0 is not one of the run's CPUs" \
               "twice:$row1:the pair $c0 -> $c1 comes twice" \
               "notime:$c1,$c0,same-l3,0,0,0,0,5:the pair $c1 -> $c0 holds no measured time"; do
        name=${bad%%:*} rest=${bad#*:}
        rm -rf "$TMP/c2c9-$name" && cp -r "$d" "$TMP/c2c9-$name" && cp "$TMP/c2c9-before.csv" "$TMP/c2c9-$name/c2c.csv" &&
            printf '%s\n' "${rest%%:*}" >> "$TMP/c2c9-$name/c2c.csv" &&
            set_manifest "$TMP/c2c9-$name" '.status = "interrupted"'
        refuse_resume "c2c.csv, row 2: ${rest#*:}; start a new run" c2c --resume "$TMP/c2c9-$name"
    done
    [ -z "$refusals" ]
    ok $? "c2c --resume refuses a c2c.csv with a bad row that is not its last, and rows not of the run's pairs${refusals:+; not:$refusals}"
fi
# A run with a code case (issue 46): it resumes only when the user hands the same snippet again,
# checked by the SHA-256 the manifest recorded when the run started; the folder's own is never run.
if ! command -v as > /dev/null; then
    skip "a run with a code case resumes only when handed again" "no assembler (binutils as): the code kernel cannot run here"
else
    printf 'nop\n' > "$TMP/k.s"
    KC="code file=$TMP/k.s chain=none"
    $PMUCAL validate --case "$KC" --case 'walker size=16k' --iters 10000 -r 3 -e page-faults --label code \
        > /dev/null 2> "$TMP/code.err"
    d=$(run_dir code)
    digest=$(jq -r '.snippets[0].sha256' "$d/manifest.json" 2> /dev/null)
    [ "$digest" = "$(sha256sum < "$TMP/k.s" | cut -d' ' -f1)" ] && [ "$(jq -r '.case_labels | length' "$d/manifest.json")" = 2 ]
    ok $? "a code case's snippet digest is recorded when the run starts: $digest $(tail -n 1 "$TMP/code.err")"
    # stopped before the code case finished: its line out of cases.done, so a resume measures it
    stop_code() { rm -rf "$TMP/kr" && cp -r "$d" "$TMP/kr" && set_manifest "$TMP/kr" '.status = "interrupted"' &&
        sed -i '/code/d' "$TMP/kr/cases.done"; }
    refusals=""
    stop_code
    refuse_resume "its case '$KC' runs code, and a resume runs no code nor file a run folder names; hand the same snippet again (pmucal validate --resume $TMP/kr --case '$KC'" validate --resume "$TMP/kr"
    printf 'nop;nop\n' > "$TMP/k.s"
    refuse_resume "--case '$KC': its snippet's SHA-256 is [0-9a-f]\{64\}, the run recorded $digest when it started" \
        validate --resume "$TMP/kr" --case "$KC"
    printf 'nop\n' > "$TMP/k.s"
    refuse_resume "no other option" validate --resume "$TMP/kr" --case "$KC" -r 5
    set_manifest "$TMP/kr" 'del(.snippets)'
    refuse_resume "the run recorded no SHA-256 of its snippet" validate --resume "$TMP/kr" --case "$KC"
    [ -z "$refusals" ]
    ok $? "a code case not handed again, handed changed, or without a recorded digest is refused (exit 2)${refusals:+; not:$refusals}"
    stop_code
    $PMUCAL validate --resume "$TMP/kr" --case "$KC" > "$TMP/kr.tap" 2> "$TMP/kr.err"
    rc=$?
    [ $rc -eq 0 ] && [ "$(jq -r .status "$TMP/kr/manifest.json")" = complete ] && [ "$(wc -l < "$TMP/kr/cases.done")" = 2 ] &&
        [ "$(jq -r .snippets[0].sha256 "$TMP/kr/manifest.json")" = "$digest" ] && $PMUCAL replay "$TMP/kr" > /dev/null 2>&1
    ok $? "handed again with the same snippet, the code case resumes and the run completes (exit $rc): $(grep '^# resuming' "$TMP/kr.tap") $(head -c 300 "$TMP/kr.err")"
    # sample takes one case and nothing to hand it again with: a run of code is not resumed
    $PMUCAL sample code asm=nop chain=none -e task-clock -r 1 --label scode > /dev/null 2>&1
    s=$(run_dir scode)
    if [ -z "$s" ]; then
        skip "sample --resume of a run of code is refused" "pmucal sample made no folder here (no sampling event)"
    else
        set_manifest "$s" '.status = "interrupted"'
        refusals=""
        refuse_resume "its case 'code asm=nop chain=none' runs code, and a resume runs no code nor file a run folder names" sample --resume "$s"
        [ -z "$refusals" ]
        ok $? "sample --resume of a run of code is refused${refusals:+; not:$refusals}"
    fi
fi
done_testing
