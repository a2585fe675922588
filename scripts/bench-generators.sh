#!/bin/sh
# Timing figures of the generated kernels on this machine (TSC-derived core cycles):
#   ifetch cycles per 64-byte line of code at each level, straight-line (what the fetch recipes
#   time) and as a chain of jumps in random order, one a line (order=random, which a sequential
#   prefetcher cannot follow; refused beyond the reach of the ISA's loop branch), 64 MiB
#   generation time,
#   cycles per mispredicted branch (pattern=random minus pattern=never, calibrate's control, beside
#   minus pattern=taken: the same instructions, their branches never or always taken),
#   callchain cycles per call+return across the assumed return-stack depth.
# Each figure is RUNS separate processes (default 5): median, min..max. Timing on a shared
# machine is noisy; run it quiet and say how busy it was (the load average is printed).
set -u
ME=bench-generators
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.." || exit 1
P=${PMUCAL:-bin/pmucal}
RUNS=${RUNS:-5}
need_count RUNS "$RUNS" 1 1000 "a number of runs"
echo "# $(date -u +%FT%TZ) $(uname -n), load average: $(cut -d' ' -f1-3 /proc/loadavg), $RUNS runs each"

stats() { # values on stdin, one a line -> "median M (min A, max B)"
    sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                    printf "median %.2f (min %.2f, max %.2f, n %d)", m, v[1], v[NR], NR }'
}
# cycles per iteration (median of the run's repetitions) and a model quantity
run_json() { $P run "$@" -e page-faults --json 2>/dev/null | head -1; }

for s in L1 L2 L3 DRAM; do
    for order in linear random; do
        for i in $(seq "$RUNS"); do
            run_json ifetch size=$s order=$order | jq '.cycles.stats.median / .model."ifetch.lines"'
        done >"/tmp/pmucal-bench.$$"
        if [ -s "/tmp/pmucal-bench.$$" ]; then
            echo "ifetch size=$s order=$order: cycles per 64-byte line: $(stats <"/tmp/pmucal-bench.$$")"
        else
            echo "ifetch size=$s order=$order: not run: $($P run ifetch size=$s order=$order -e page-faults --iters 1 -r 1 2>&1 >/dev/null | tail -n 1)"
        fi
    done
done

for i in $(seq "$RUNS"); do
    s=$(date +%s%N); $P gen ifetch size=64M --bin /dev/null 2>/dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
done >"/tmp/pmucal-bench.$$"
echo "pmucal gen ifetch size=64M --bin /dev/null: ms $(stats <"/tmp/pmucal-bench.$$")"

for i in $(seq "$RUNS"); do
    n=$(run_json branch pattern=never | jq '[.cycles.stats.median, .model."br.mispred"] | @tsv' -r)
    t=$(run_json branch pattern=taken | jq '[.cycles.stats.median, .model."br.mispred"] | @tsv' -r)
    r=$(run_json branch pattern=random | jq '[.cycles.stats.median, .model."br.mispred"] | @tsv' -r)
    echo "$n $t $r" | awk '{ printf "%.4f %.4f %.4f %.4f %.4f\n", ($5 - $1) / ($6 - $2), ($5 - $3) / ($6 - $4), $1, $3, $5 }'
done >"/tmp/pmucal-bench.$$"
echo "branch never: cycles per iteration $(cut -d' ' -f3 "/tmp/pmucal-bench.$$" | stats)"
echo "branch taken: cycles per iteration $(cut -d' ' -f4 "/tmp/pmucal-bench.$$" | stats)"
echo "branch random: cycles per iteration $(cut -d' ' -f5 "/tmp/pmucal-bench.$$" | stats)"
echo "branch random - never: cycles per mispredicted branch $(cut -d' ' -f1 "/tmp/pmucal-bench.$$" | stats)"
echo "branch random - taken: cycles per mispredicted branch $(cut -d' ' -f2 "/tmp/pmucal-bench.$$" | stats)"

for d in 8 16 24 28 32 36 40 48 64; do
    for i in $(seq "$RUNS"); do
        run_json callchain depth=$d | jq '.cycles.stats.median / .model."br.call"'
    done >"/tmp/pmucal-bench.$$"
    echo "callchain depth=$d: cycles per call+return $(stats <"/tmp/pmucal-bench.$$")"
done
rm -f "/tmp/pmucal-bench.$$"
