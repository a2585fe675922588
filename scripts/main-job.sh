#!/bin/sh
# The main job on this host: validate the default matrix, then calibrate the cycle penalties,
# then a short summary of both and one HTML page of both runs. On a host without a hardware PMU
# it validates what it can and says what it skipped and why; calibration needs no PMU (time from
# the TSC, counts from models). The exit status follows the verdicts as TAP means them, counted by
# one TAP parser (scripts/tap-verdicts.pl: a TODO or a SKIP fails nothing): non-zero when a command
# failed, a point is really 'not ok', or a log or the report could not be written. It ends with
# the paths of the penalty tables and of the report.
set -u
PMUCAL=${PMUCAL:-bin/pmucal}   # tests put a stand-in here
cd "$(dirname "$0")/.."
trap 'rm -f ${log:+"$log"} ${cal:+"$cal"} ${st:+"$st"} ${ver:+"$ver"}' EXIT
log=$(mktemp) && cal=$(mktemp) && st=$(mktemp) && ver=$(mktemp) || { echo "main-job: cannot create its logs (TMPDIR=${TMPDIR:-/tmp})" >&2; exit 1; }

# logged LOG COMMAND...: the command's stdout on the terminal and in LOG. Its own exit status,
# not tee's (a pipeline's status is its last command's): non-zero also when LOG could not be written.
logged() {
    out=$1
    shift
    echo 1 > "$st"
    { "$@"; echo $? > "$st"; } | tee "$out" || { echo "main-job: cannot write $out" >&2; return 1; }
    return "$(cat "$st")"
}

status=0
"$PMUCAL" info || status=1
echo
logged "$log" "$PMUCAL" validate "$@"
vstatus=$?
summary=$(grep '^# summary:' "$log" | tail -n 1)
echo
echo "pmucal validate: ${summary:+${summary#\# summary: }, }exit $vstatus"
skips=$(grep -c '# SKIP' "$log")
if [ "$skips" -gt 0 ]; then
    echo "skipped ($skips), by reason:"
    grep -o '# SKIP .*' "$log" | sort | uniq -c | sort -rn | sed 's/^/  /'
fi
echo
logged "$cal" "$PMUCAL" calibrate
cstatus=$?
echo
echo "pmucal calibrate: $(grep -c '^# [a-z0-9_]* *\(core\|memory\) *ok ' "$cal") penalties ok," \
     "$(grep -c ' unstable ' "$cal") unstable, $(grep -c ' skip ' "$cal") skipped; exit $cstatus"
closure=$(grep -m 1 '^\(not \)\{0,1\}ok [0-9]* - closure' "$cal")
echo "closure: ${closure:-none reported}"
# One offline page of both runs (matrix, curve, penalties), beside the validate run's folder (a
# run folder's files are only its command's: report refuses an output inside one); each command
# names its folder on its first TAP comment. The page shows these runs however they
# ended (--allow-incomplete): a failed or stopped one says so on it, and the job fails anyway.
vdir=$(sed -n '1,5s/^# pmucal validate:.*results in //p' "$log" | head -n 1)
cdir=$(sed -n '1,5s/^# pmucal calibrate:.*results in //p' "$cal" | head -n 1)
echo
rstatus=0
# The page opens with the job's conclusion (PASS or FAIL), then the calibration's penalties; it is
# named after the validate run (RUN-main-job.html).
page="" rstatus=0
if [ -n "$vdir" ] && page=$("$PMUCAL" report ${cdir:+"$cdir"} "$vdir" --out "${vdir%/}-main-job.html" --allow-incomplete); then
    :
else
    echo "report: not written (see the message above)"
    rstatus=1
fi
# The verdicts as TAP means them, whatever a command returned: a real 'not ok' fails the job.
echo "verdicts:"
scripts/tap-verdicts.pl validate="$log" calibrate="$cal" > "$ver"
tstatus=$?
sed 's/^/  /' "$ver"
[ "$vstatus" -ne 0 ] && status=$vstatus
[ "$status" -eq 0 ] && [ "$cstatus" -ne 0 ] && status=$cstatus
[ "$status" -eq 0 ] && [ "$tstatus" -ne 0 ] && status=1
[ "$status" -eq 0 ] && status=$rstatus
echo "main job: exit $status ($([ "$tstatus" -eq 0 ] && echo 'no point failed' || echo 'points failed, listed above'))"
echo "tables: $([ -n "$cdir" ] && echo "$cdir/tables" || echo 'none (no calibration folder)')"
echo "report: ${page:-not written}"
exit "$status"
