#!/bin/sh
# Every parser's libFuzzer harness (make fuzz) runs its whole seed corpus and a second of fuzzing
# from it and finds no crash, leak or hang; the seeds include every input a crash was once found
# with, and libFuzzer runs every seed before it looks at -max_total_time (fuzz_params: 104 seeds,
# INITED after 107 runs of a 1 s run). Longer runs: make fuzz-run FUZZ_SECONDS=3600.
# The harnesses are built at -O0 without -g into build/fuzz-O0: ASan and UBSan check the same
# there, and clang compiles them in 44 s of CPU instead of 54 with -g and -O1's 122 (cold, all),
# which a second of fuzzing does not win back; a report names functions, not lines. make fuzz
# (-O1 -g, build/fuzz) stays the build for long runs and for reading a crash file's report.
. "$(dirname "$0")/lib.sh"

secs=${PMUCAL_FUZZ_SECONDS:-1}
cc=${FUZZ_CC:-clang}
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$TMP/probe.c"
if ! command -v "$cc" > /dev/null 2>&1; then
    skip "fuzz harnesses" "$cc is not installed (apt-get install clang libclang-rt-14-dev)"
elif ! "$cc" -fsanitize=fuzzer,address,undefined -o "$TMP/probe" "$TMP/probe.c" > "$TMP/probe.err" 2>&1; then
    skip "fuzz harnesses" "$cc cannot link libFuzzer here (apt-get install libclang-rt-14-dev): $(head -c 120 "$TMP/probe.err")"
else
    # two jobs: the build is most of this file's time
    nice make -s -j2 fuzz FUZZ_CC="$cc" FUZZ_OPT=-O0 FUZZ_DIR=build/fuzz-O0 > "$TMP/build.log" 2>&1
    rc=$?
    ok $rc "make fuzz builds the harnesses at -O0 (exit $rc$( [ $rc = 0 ] || printf ': %s' "$(tail -c 200 "$TMP/build.log")"))"
    for h in fuzz/fuzz_*.c; do
        n=$(basename "$h" .c | sed 's/^fuzz_//')
        line=$(FUZZ_BUILD=build/fuzz-O0 FUZZ_WORK="$TMP/fuzz" scripts/fuzz.sh "$secs" "$n")
        rc=$?
        ok $rc "$(printf '%s' "$line" | tr '\n' ';')"
    done
fi
done_testing
