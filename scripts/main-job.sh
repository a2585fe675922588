#!/bin/sh
# The main job on this host: validate the default matrix, then a short summary.
# On a host without a hardware PMU it validates what it can and says what it skipped and why.
set -u
cd "$(dirname "$0")/.."
log=$(mktemp)
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
rm -f "$log"
exit $status
