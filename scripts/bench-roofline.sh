#!/bin/sh
# Side by side: pmucal roofline's ceilings against likwid-bench and STREAM on the same threads and
# working sets, RUNS times each, the ratios pmucal / peer with their median and range (goal: 1.0x
# or more).
#   compute: pmucal's flops (FMA, 12 accumulators) at avx512 / avx2 DP against likwid-bench
#            peakflops_avx512_fma / peakflops_avx_fma (32 kB, in L1), 1 thread and all CPUs;
#   DRAM:    pmucal's triad (a = b + s*c, 24 bytes an element) against likwid-bench triad_avx512
#            (a = b*c + d, 32 bytes an element) and STREAM's Triad (24 bytes an element, OpenMP), at
#            pmucal's DRAM working set per thread, 1 thread and all CPUs. All three count the bytes
#            their instructions load and store (no write-allocate traffic).
# STREAM is built at run time from public source, never kept: $STREAM_SRC (a stream.c, or a folder
# holding one), else downloaded from its home page. likwid-bench comes from Debian's likwid
# (installed here when run as root, else the apt-get line is printed).
# Usage: scripts/bench-roofline.sh [RUNS]   (default 5; 1 to 1000)   make bench-roofline
set -eu
ME=bench-roofline
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
runs=${1:-5}
need_count RUNS "$runs" 1 1000 "a number of runs"
pmucal=${PMUCAL:-bin/pmucal}
stream_url=https://www.cs.virginia.edu/stream/FTP/Code/stream.c
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PMUCAL_RESULTS="$work/results"

if ! command -v likwid-bench > /dev/null; then
    if [ "$(id -u)" = 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y likwid > "$work/apt.log" 2>&1 \
            || { echo "apt-get install likwid failed: $(tail -n 3 "$work/apt.log")" >&2; exit 1; }
    else
        echo "likwid-bench is missing: sudo apt-get install likwid" >&2
        exit 1
    fi
fi
threads=$(nproc)

# STREAM's source, then built once per array size below.
if [ -n "${STREAM_SRC:-}" ]; then
    src=$STREAM_SRC
    [ -d "$src" ] && src="$src/stream.c"
    [ -f "$src" ] || { echo "STREAM_SRC=$STREAM_SRC: no stream.c there" >&2; exit 1; }
    cp "$src" "$work/stream.c"
elif ! curl -fsSL -o "$work/stream.c" "$stream_url" 2> "$work/curl.err"; then
    echo "cannot download STREAM ($stream_url: $(cat "$work/curl.err")); give STREAM_SRC=path/to/stream.c" >&2
    exit 1
fi

med() { sort -n | awk 'NF { v[++n] = $1 } END { if (!n) { printf "%21s", "-"; exit }
        m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; printf "%7.3f [%5.3f..%5.3f]", m, v[1], v[n] }'; }
likwid() { # likwid TEST WORKGROUP FIELD: its figure in G (MFlops/s or MByte/s over 1000)
    likwid-bench -t "$1" -w "$2" 2> /dev/null | awk -v f="$3" '$1 == f":" { print $2 / 1000 }'
}

: > "$work/rows"
for r in $(seq "$runs"); do
    "$pmucal" roofline --widths avx2,avx512 --levels DRAM -r 5 --label "b$r" > "$work/roof.out" 2> "$work/roof.err" \
        || { echo "pmucal roofline failed: $(tail -n 3 "$work/roof.err")" >&2; exit 1; }
    rj=$(ls -d "$PMUCAL_RESULTS"/*-"b$r")/roofline.json
    for t in 1 "$threads"; do
        p512=$(jq --argjson t "$t" '.compute[] | select(.isa == "avx512" and .prec == "dp" and .threads == $t) | .gflops' "$rj")
        p256=$(jq --argjson t "$t" '.compute[] | select(.isa == "avx2" and .prec == "dp" and .threads == $t) | .gflops' "$rj")
        pbw=$(jq --argjson t "$t" '.bandwidth[] | select(.level == "DRAM" and .threads == $t) | .gbs' "$rj")
        set_bytes=$(jq --argjson t "$t" '.bandwidth[] | select(.level == "DRAM" and .threads == $t) | .bytes_per_thread' "$rj")
        total_kb=$(echo "$set_bytes * $t / 1024" | bc)
        l512=$(likwid peakflops_avx512_fma "S0:32kB:$t" MFlops/s)
        l256=$(likwid peakflops_avx_fma "S0:32kB:$t" MFlops/s)
        ltri=$(likwid triad_avx512 "S0:${total_kb}kB:$t" MByte/s)
        # STREAM: the same elements per array in all (pmucal: each thread's arrays of set/24).
        n=$(echo "$set_bytes / 24 * $t" | bc)
        [ -x "$work/stream-$n" ] || gcc -O3 -march=native -fopenmp -DSTREAM_ARRAY_SIZE="$n" -DNTIMES=10 \
            -o "$work/stream-$n" "$work/stream.c" 2> "$work/gcc.err" \
            || { echo "building STREAM failed: $(head -n 3 "$work/gcc.err")" >&2; exit 1; }
        stri=$(OMP_NUM_THREADS=$t OMP_PROC_BIND=close OMP_PLACES=cores "$work/stream-$n" | awk '$1 == "Triad:" { print $2 / 1000 }')
        echo "$r $t $p512 $l512 $p256 $l256 $pbw $ltri $stri" >> "$work/rows"
    done
done

echo "pmucal roofline vs likwid-bench (Debian likwid $(dpkg-query -W -f '${Version}' likwid 2> /dev/null)) and STREAM, $runs runs, $threads CPUs"
echo "figures: GFLOP/s or GB/s, median [min..max]; ratio = pmucal / peer, median [min..max] over runs"
for t in 1 "$threads"; do
    col() { awk -v t="$t" -v c="$1" '$2 == t { print $c }' "$work/rows" | med; }
    ratio() { awk -v t="$t" -v a="$1" -v b="$2" '$2 == t && $b > 0 { print $a / $b }' "$work/rows" | med; }
    printf '\n%s thread(s)\n' "$t"
    printf '  %-34s %-22s %-22s %s\n' "" "pmucal" "peer" "ratio"
    printf '  %-34s %s  %s  %s\n' "avx512 dp FMA / peakflops_avx512_fma" "$(col 3)" "$(col 4)" "$(ratio 3 4)"
    printf '  %-34s %s  %s  %s\n' "avx2 dp FMA / peakflops_avx_fma" "$(col 5)" "$(col 6)" "$(ratio 5 6)"
    printf '  %-34s %s  %s  %s\n' "DRAM triad / likwid triad_avx512" "$(col 7)" "$(col 8)" "$(ratio 7 8)"
    printf '  %-34s %s  %s  %s\n' "DRAM triad / STREAM Triad" "$(col 7)" "$(col 9)" "$(ratio 7 9)"
done
