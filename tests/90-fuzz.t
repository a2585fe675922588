#!/bin/sh
# Every parser's libFuzzer harness (make fuzz) runs a few seconds from its seed corpus and finds no
# crash, leak or hang; the seeds include every input a crash was once found with. Longer runs:
# make fuzz-run FUZZ_SECONDS=3600.
. "$(dirname "$0")/lib.sh"

secs=${PMUCAL_FUZZ_SECONDS:-3}
cc=${FUZZ_CC:-clang}
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$TMP/probe.c"
if ! command -v "$cc" > /dev/null 2>&1; then
    skip "fuzz harnesses" "$cc is not installed (apt-get install clang libclang-rt-14-dev)"
elif ! "$cc" -fsanitize=fuzzer,address,undefined -o "$TMP/probe" "$TMP/probe.c" > "$TMP/probe.err" 2>&1; then
    skip "fuzz harnesses" "$cc cannot link libFuzzer here (apt-get install libclang-rt-14-dev): $(head -c 120 "$TMP/probe.err")"
else
    nice make -s -j2 fuzz FUZZ_CC="$cc" > "$TMP/build.log" 2>&1   # two jobs: the build is most of this file's time
    rc=$?
    ok $rc "make fuzz builds the harnesses (exit $rc$( [ $rc = 0 ] || printf ': %s' "$(tail -c 200 "$TMP/build.log")"))"
    for h in fuzz/fuzz_*.c; do
        n=$(basename "$h" .c | sed 's/^fuzz_//')
        line=$(FUZZ_WORK="$TMP/fuzz" scripts/fuzz.sh "$secs" "$n")
        rc=$?
        ok $rc "$(printf '%s' "$line" | tr '\n' ';')"
    done
fi
done_testing
