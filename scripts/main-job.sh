#!/bin/sh
# The main job on this host: validate the default matrix, then calibrate the cycle penalties,
# then a short summary of both and one HTML page of both runs. On a host without a hardware PMU
# it validates what it can and says what it skipped and why; calibration needs no PMU (time from
# the TSC, counts from models).
set -u
cd "$(dirname "$0")/.."
log=$(mktemp)
cal=$(mktemp)
trap 'rm -f "$log" "$cal"' EXIT
bin/pmucal info
echo
bin/pmucal validate "$@" | tee "$log"
status=$?
summary=$(grep '^# summary:' "$log" | tail -n 1)
echo
echo "pmucal validate: ${summary#\# summary: }"
skips=$(grep -c '# SKIP' "$log")
if [ "$skips" -gt 0 ]; then
    echo "skipped ($skips), by reason:"
    grep -o '# SKIP .*' "$log" | sort | uniq -c | sort -rn | sed 's/^/  /'
fi
echo
bin/pmucal calibrate | tee "$cal"
cstatus=$?
echo
echo "pmucal calibrate: $(grep -c '^# [a-z0-9_]* *\(core\|memory\) *ok ' "$cal") penalties ok," \
     "$(grep -c ' unstable ' "$cal") unstable, $(grep -c ' skip ' "$cal") skipped;" \
     "closure: $(grep -o '^\(not \)\{0,1\}ok [0-9]* - closure[^(]*([^)]*)' "$cal" | sed 's/ - closure:.*measured/ measured/' | head -n 1)"
[ $status -eq 0 ] && status=$cstatus
# One offline page of both runs (matrix, curve, penalties), in the validate run's folder; each
# command names its folder on its first TAP comment.
vdir=$(sed -n '1,5s/^# pmucal validate:.*results in //p' "$log" | head -n 1)
cdir=$(sed -n '1,5s/^# pmucal calibrate:.*results in //p' "$cal" | head -n 1)
echo
if [ -n "$vdir" ] && page=$(bin/pmucal report "$vdir" ${cdir:+"$cdir"} --out "$vdir/report.html"); then
    echo "report: $page"
else
    echo "report: not written (see the message above)"
    status=1
fi
exit $status
