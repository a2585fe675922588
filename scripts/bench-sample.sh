#!/bin/sh
# The cost of one sample on this machine: pmucal sample times each measured loop of the region
# sampling and the same loop counting the event only; (median sampling - median counting) /
# samples per loop is a loop's overhead per sample (its record's overhead_ns_per_sample). RUNS
# separate runs (default 7) of each setup: median, min..max. Software events here (no hardware PMU):
#   page-faults at period 1 on walker's touch phase (1024 fresh 4 KiB pages a loop): the cost of
#     writing a sample from the fault path, beside a fault's own cost (noisy: a fault costs more);
#   cpu-clock at period 100 us on walker size=L1: a timer interrupt and its sample.
set -u
ME=bench-sample
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.." || exit 1
P=${PMUCAL:-bin/pmucal}
RUNS=${RUNS:-7}
need_count RUNS "$RUNS" 1 1000 "a number of runs"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
echo "# $(date -u +%FT%TZ) $(uname -n), load average: $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each"

stats() { # values on stdin, one a line -> "median M (min A, max B, n N)"
    sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "no figures"; exit }
                    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                    printf "median %.0f ns (min %.0f, max %.0f, n %d)", m, v[1], v[NR], NR }'
}
bench() { # LABEL ARGS...
    label=$1
    shift
    for i in $(seq "$RUNS"); do
        $P sample "$@" --precise 0 -r 5 --out "$OUT" --label "$label-$i" > /dev/null 2>&1
        jq -r '.overhead_ns_per_sample // empty' "$OUT"/*-"$label-$i"/measurements.ndjson
    done
}
echo "page-faults, period 1, walker phase=touch 1024 pages: overhead per sample $(bench pf walker phase=touch size=4M page=4k -e page-faults --iters 1024 | stats)"
echo "cpu-clock, period 100 us, walker size=L1: overhead per sample $(bench clock walker size=L1 -e cpu-clock --period 100000 --iters 3000000 | stats)"
