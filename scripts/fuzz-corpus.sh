#!/bin/sh
# Seeds for the run-folder harnesses (fuzz/fuzz_{replay,compare,report,resume,emit,cpi,rundir}.c)
# made from real run folders: each seed is the folder's files in the harness's order, joined by
# NUL bytes, with measurements.ndjson cut to its first LINES records (default 4) so that a seed
# stays small and a run fast. Usage: scripts/fuzz-corpus.sh [RUN ...] (default: results/reference/*)
set -u
cd "$(dirname "$0")/.." || exit 2
lines=${LINES_PER_SEED:-4}
runs=${*:-$(ls -d results/reference/*/)}
# part FILE: the file's bytes (measurements.ndjson cut short), nothing when absent
part() {
    [ -f "$1" ] || return 0
    case $1 in
        */measurements.ndjson) head -n "$lines" "$1" ;;
        *) cat "$1" ;;
    esac
}
# seed HARNESS RUN FILE...: fuzz/corpus/HARNESS/<run name>, the files joined by NUL bytes
seed() {
    h=$1 run=${2%/}
    shift 2
    mkdir -p "fuzz/corpus/$h"
    out="fuzz/corpus/$h/$(basename "$run")"
    : > "$out"
    first=1
    for f in "$@"; do
        [ $first = 1 ] || printf '\0' >> "$out"
        first=0
        part "$run/$f" >> "$out"
    done
}
for run in $runs; do
    seed replay "$run" manifest.json measurements.ndjson validate.tap
    seed compare "$run" manifest.json measurements.ndjson   # and a first byte: 0 TAP, 1 --json
    for mode in 0 1; do
        { printf "\\00$mode"; cat "fuzz/corpus/compare/$(basename "${run%/}")"; } > "fuzz/corpus/compare/$(basename "${run%/}")-$mode"
    done
    rm "fuzz/corpus/compare/$(basename "${run%/}")"
    seed rundir "$run" manifest.json measurements.ndjson
    seed report "$run" manifest.json validate.tap penalties.json curve.csv c2c.csv classify.json measurements.ndjson
    seed resume "$run" manifest.json measurements.ndjson cases.done
    if [ -f "$run/penalties.json" ]; then
        # emit: a first byte before the files picks the format (0 json, 1 c, 2 perf-metrics, 3 csv)
        seed emit "$run" manifest.json penalties.json
        name="fuzz/corpus/emit/$(basename "${run%/}")"
        for fmt in 0 1 2 3; do
            { printf "\\00$fmt"; cat "$name"; } > "$name-$fmt"
        done
        rm "$name"
        seed cpi "$run" manifest.json penalties.json measurements.ndjson
    fi
done
