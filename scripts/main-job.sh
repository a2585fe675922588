#!/bin/sh
# The main job on this host: validate the default matrix, then calibrate the cycle penalties,
# then a short summary of both. On a host without a hardware PMU it validates what it can and
# says what it skipped and why; calibration needs no PMU (time from the TSC, counts from models).
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
exit $status
