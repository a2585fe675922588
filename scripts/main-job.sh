#!/bin/sh
# The main job on this host: validate the default matrix, then calibrate the cycle penalties,
# then a short summary of both and one HTML page of both runs. On a host without a hardware PMU
# it validates what it can and says what it skipped and why; calibration needs no PMU (time from
# the TSC, counts from models). The exit status follows the verdicts: non-zero when a command
# failed, any verdict is 'not ok', or a log or the report could not be written.
set -u
PMUCAL=${PMUCAL:-bin/pmucal}   # tests put a stand-in here
cd "$(dirname "$0")/.."
trap 'rm -f ${log:+"$log"} ${cal:+"$cal"} ${st:+"$st"}' EXIT
log=$(mktemp) && cal=$(mktemp) && st=$(mktemp) || { echo "main-job: cannot create its logs (TMPDIR=${TMPDIR:-/tmp})" >&2; exit 1; }

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
     "$(grep -c ' unstable ' "$cal") unstable, $(grep -c ' skip ' "$cal") skipped;" \
     "verdicts: $(grep -c '^ok ' "$cal") ok, $(grep -c '^not ok ' "$cal") not ok; exit $cstatus"
closure=$(grep -m 1 '^\(not \)\{0,1\}ok [0-9]* - closure' "$cal")
echo "closure: ${closure:-none reported}"
# One offline page of both runs (matrix, curve, penalties), in the validate run's folder; each
# command names its folder on its first TAP comment. The page shows these runs however they
# ended (--allow-incomplete): a failed or stopped one says so on it, and the job fails anyway.
vdir=$(sed -n '1,5s/^# pmucal validate:.*results in //p' "$log" | head -n 1)
cdir=$(sed -n '1,5s/^# pmucal calibrate:.*results in //p' "$cal" | head -n 1)
echo
rstatus=0
if [ -n "$vdir" ] && page=$("$PMUCAL" report "$vdir" ${cdir:+"$cdir"} --out "$vdir/report.html" --allow-incomplete); then
    echo "report: $page"
else
    echo "report: not written (see the message above)"
    rstatus=1
fi
# A 'not ok' anywhere fails the job, whatever a command returned.
not_ok=$(cat "$log" "$cal" | grep -c '^not ok ')
[ "$vstatus" -ne 0 ] && status=$vstatus
[ "$status" -eq 0 ] && [ "$cstatus" -ne 0 ] && status=$cstatus
[ "$status" -eq 0 ] && [ "$not_ok" -gt 0 ] && status=1
[ "$status" -eq 0 ] && status=$rstatus
echo "main job: exit $status ($not_ok verdicts not ok)"
exit "$status"
