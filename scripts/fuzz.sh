#!/bin/sh
# Runs every libFuzzer harness of 'make fuzz' for SECONDS each (default 60), niced, from the seed
# corpus in fuzz/corpus/NAME plus what earlier runs found (build/fuzz/corpus/NAME). Prints one
# line per harness: seconds, executions (and per second), and the crash file when one was found; exits 1 if any
# harness found a crash, a leak or a hang, 2 when the harnesses are not built.
# Usage: scripts/fuzz.sh [SECONDS] [NAME ...]      e.g. scripts/fuzz.sh 3600 expr json
# SECONDS: 1 to 604800 (a week); each NAME: a harness, fuzz/fuzz_NAME.c.
# FUZZ_BUILD (default build/fuzz, ASan+UBSan) picks the build: build/fuzz-ubsan (make fuzz-ubsan,
# UBSan alone) is the one for executions per second. FUZZ_WORK (default build/fuzz) holds the grown corpora, crash files and logs.
set -u
ME=fuzz
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.." || exit 2
secs=${1:-60}
[ $# -gt 0 ] && shift
# SECONDS reaches libFuzzer's -max_total_time (0 there is "no limit"); a NAME is a harness of fuzz/.
need_count SECONDS "$secs" 1 604800 "whole seconds"
for n in "$@"; do
    case $n in
    ''|*[!a-z0-9_]*) die 2 "NAME '$n': not a harness name: give one of $(ls fuzz/fuzz_*.c 2> /dev/null | sed 's|fuzz/fuzz_||; s|\.c$||' | tr '\n' ' ')" ;;
    esac
    [ -f "fuzz/fuzz_$n.c" ] || die 2 "NAME $n: no fuzz/fuzz_$n.c: give one of $(ls fuzz/fuzz_*.c 2> /dev/null | sed 's|fuzz/fuzz_||; s|\.c$||' | tr '\n' ' ')"
done
names=${*:-$(ls fuzz/fuzz_*.c 2> /dev/null | sed 's|fuzz/fuzz_||; s|\.c$||')}
status=0
for n in $names; do
    bin=${FUZZ_BUILD:-build/fuzz}/fuzz_$n
    if [ ! -x "$bin" ]; then
        echo "fuzz $n: $bin is not built; run 'make fuzz' or 'make fuzz-ubsan' (needs clang with libFuzzer)"
        exit 2
    fi
    top=${FUZZ_WORK:-build/fuzz}
    work=$top/corpus/$n crashes=$top/crashes/$n log=$top/$n.log
    mkdir -p "$work" "$crashes"
    # -rss_limit_mb: a parser that reads until memory runs out is a finding, not a host problem.
    # A 16 MB quarantine (ASan's default is 256): the run-folder harnesses free a few MB a run,
    # and cycling a large quarantine through mmap halves their executions per second.
    # A text format's dictionary (fuzz/NAME.dict: the tokens of its grammar, docs/grammar.md).
    dict=""
    [ -f "fuzz/$n.dict" ] && dict="-dict=fuzz/$n.dict"
    ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=16} nice -n 19 "$bin" $dict -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$crashes/" "$work" "fuzz/corpus/$n" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    # A slow unit or a time-out on a shared machine may be the host stopping the process, not
    # the input: replayed alone, an input that runs in under a second was the host's.
    case "$(basename "${found:-x}")" in
    slow-unit-* | timeout-*)
        "$bin" -timeout=120 "$found" > "$log.again" 2>&1
        ms=$(sed -n 's/^Executed .* in \([0-9][0-9]*\) ms$/\1/p' "$log.again" | tail -n 1)
        if [ -n "$ms" ] && [ "$ms" -lt 1000 ] && ! grep -q 'ERROR:' "$log.again"; then
            echo "fuzz $n: note: $(basename "$found") took long beside other work, and $ms ms replayed alone: the host's, not the input's"
            found="" rc=0
        fi
        ;;
    esac
    if [ $rc -ne 0 ] || [ -n "$found" ]; then
        echo "fuzz $n: FAILED after ${execs:-?} executions in up to $secs s: ${found:-exit $rc} (log $log)"
        grep -m3 'ERROR:\|SUMMARY:' "$log" | sed 's/^/    /'
        status=1
    else
        echo "fuzz $n: ${execs:-?} executions in $secs s (${rate:-?}/s), no crash, leak or hang"
    fi
done
exit $status
