#!/bin/sh
# Bounds: files that are not files, endless inputs, counts and times past any use, infinite
# tolerances, and writes that fail (a full disk, /dev/full) get one clear message and a non-zero
# exit; a SIGTERM stops a run within a second (times the machine's measured load); nothing cut short is counted as finished.
. "$(dirname "$0")/lib.sh"

expect() { # expect STATUS PATTERN -- command...: exit STATUS, stderr has PATTERN, within 20 s
    want=$1 pattern=$2
    shift 3
    timeout 20 "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err"
    ok $? "'$*' exits $want naming '$pattern' (got $got: $(head -c 160 "$TMP/err"))"
}
mkfifo "$TMP/fifo"
expect 2 "/dev/zero: a device, not a regular file" -- $PMUCAL run walker size=4k -e /dev/zero
expect 2 "fifo: a FIFO, not a regular file" -- $PMUCAL run walker size=4k -e "$TMP/fifo"
expect 2 ": a folder, not a regular file" -- $PMUCAL run walker size=4k -e page-faults --expect "$TMP"
expect 2 "fifo: a FIFO, not a regular file" -- $PMUCAL run walker size=4k -e page-faults --expect "$TMP/fifo"
expect 2 "/dev/zero: a device, not a regular file" -- $PMUCAL run walker size=4k -e page-faults --vendor-json /dev/zero
expect 2 "fifo: a FIFO, not a regular file" -- $PMUCAL cpi --penalties fuzz/corpus/json/penalties-ok.json "$TMP/fifo"
expect 2 "/dev/zero: a device, not a regular file" -- $PMUCAL cpi --penalties fuzz/corpus/json/penalties-ok.json /dev/zero
mkdir -p "$TMP/cpuid" && mkfifo "$TMP/cpuid/pu0"
# The host's own libpfm4 core PMU hidden, so that events goes to the vendor table by CPUID on
# every host (on one libpfm4 knows, such as 6-A7 as icl, it never read the CPUID dump).
host_pmu=$($PMUCAL info 2> /dev/null | awk '$1 == "pmu" && $2 != "sysfs" && $2 != "libpfm4" { print $2; exit }')
expect 2 "pu0: a FIFO, not a regular file" -- env LIBPFM_DISABLED_PMUS="$host_pmu" HWLOC_CPUID_PATH="$TMP/cpuid" PMUCAL_GEOMETRY=hwloc $PMUCAL events
head -c $((300 * 1024 * 1024)) /dev/zero 2> /dev/null | tr '\0' 'x' > "$TMP/big" 2> /dev/null &&
    expect 2 "more than the 256 MiB" -- $PMUCAL run walker size=4k -e "$TMP/big"
rm -f "$TMP/big"
expect 2 "give a whole number from 1 to 1000000000" -- $PMUCAL run walker --iters 4611686018427387903
expect 1 "a loop lasts at most 0.5 s" -- $PMUCAL run walker size=64M -e page-faults --iters 1000000000
# The count suggested is one the case takes as given: bbexec's model is exact over pairs.
expect 1 "give --iters [0-9]*[02468] or fewer" -- $PMUCAL run bbexec copy=16 sqrts=4 -e page-faults --iters 999999999
expect 2 "give a whole number from 1 to 500" -- $PMUCAL run walker --target-ms 60000
expect 2 "give a whole number from 1 to 1000000000" -- $PMUCAL gen ifetch size=4k --repeat 18446744073709551615
expect 2 "give --repeat [0-9]* or fewer" -- $PMUCAL gen ifetch size=16M --repeat 1000000000
# A chain of jumps needs two lines at least, and its loop branch must reach back over it.
expect 1 "order=random takes sizes from 128 bytes (two lines) to" -- $PMUCAL run ifetch size=64 order=random -e page-faults
# The upper bound is this ISA's (x86's rel32: 2G; A64's b.cs and RISC-V's j: 1M less a page), told in bytes.
max=$(timeout 20 $PMUCAL run ifetch size=64 order=random -e page-faults 2>&1 | sed -n 's/.* to \([0-9]*\) bytes (.*/\1/p')
case $(uname -m) in
    x86_64) reach=2147483584 ;;          # jae rel32: 2G, less a line
    aarch64 | riscv64) reach=1044416 ;;  # b.cs, and RISC-V's far j: 1M less a page, less a line
    *) reach=unknown ;;
esac
[ "$max" = "$reach" ]
ok $? "order=random's largest size is told in bytes, this ISA's loop branch's reach: '$max' (want $reach)"
expect 1 "to $max bytes .*; size=$((max + 1)) gives $((max + 1)) bytes" -- $PMUCAL run ifetch size=$((max + 1)) order=random -e page-faults
expect 1 "to $max bytes .*; size=$((max + 64)) gives $((max + 64)) bytes" -- $PMUCAL run ifetch size=$((max + 64)) order=random -e page-faults
expect 2 "PMUCAL_CURVE_FILE=/dev/zero: cannot read /dev/zero: a device" -- env PMUCAL_CURVE_FILE=/dev/zero $PMUCAL info
printf 'page-faults  pf.minor  +-inf\n' > "$TMP/inf.rules"
expect 2 "tolerance '+-inf' is not one of" -- $PMUCAL run walker size=4k -e page-faults --expect "$TMP/inf.rules"
printf 'page-faults  pf.minor  5%%+-1e999\n' > "$TMP/inf2.rules"
expect 2 "tolerance '5%+-1e999' is not one of" -- $PMUCAL run walker size=4k -e page-faults --expect "$TMP/inf2.rules"
mkdir -p "$TMP/damaged"
printf '{"status": ' > "$TMP/damaged/manifest.json"
expect 2 "a damaged run folder" -- $PMUCAL classify "$TMP/damaged"

# Output that cannot be written is a failure, not a success.
for c in "kernels" "info --json" "emit --format c fuzz/corpus/json/penalties-ok.json" "quantities --json"; do
    $PMUCAL $c > /dev/full 2> "$TMP/err"
    rc=$?
    [ $rc != 0 ] && grep -q "cannot write to standard output" "$TMP/err"
    ok $? "$c > /dev/full: exit $rc, $(head -c 100 "$TMP/err")"
done

# A full disk (a file size limit: pmucal ignores SIGXFSZ, so the write fails with EFBIG): the run
# stops non-zero, the TAP ends with Bail out! (not a plan that would pass the verdicts so far), and
# measurements.ndjson holds only whole records, as many as the summary counts.
cases=""
for s in 4k 8k 12k 16k 20k 24k 28k 32k 36k 40k 44k 48k; do cases="$cases --case 'walker size=$s'"; done
(ulimit -f 16; eval "$PMUCAL validate $cases -e page-faults --label full") > "$TMP/full.tap" 2> "$TMP/full.err"
rc=$?
dir=$(ls -d "$PMUCAL_RESULTS"/*-full 2> /dev/null | head -n 1)
lines=$(wc -l 2> /dev/null < "$dir/measurements.ndjson" || echo 0)
counted=$(sed -n 's/^# summary: .*; \([0-9]*\) measurements in .*/\1/p' "$TMP/full.tap")
[ $rc != 0 ] && [ "$lines" -ge 1 ] && [ "$lines" -lt 12 ] && jq -e . "$dir/measurements.ndjson" > /dev/null 2>&1 &&
    [ "$(tail -c 1 "$dir/measurements.ndjson" | od -An -c | tr -d ' ')" = '\n' ] && [ "$counted" = "$lines" ] &&
    tail -n 1 "$TMP/full.tap" | grep -q '^Bail out! results could not be written' &&
    jq -e '.status == "failed"' "$dir/manifest.json" > /dev/null
ok $? "disk full: exit $rc, $lines whole records kept and counted ($counted), message: $(grep -m1 'cannot append' "$TMP/full.err" | head -c 120)"

# A disk too full for the manifest itself: a run folder without its manifest is no run, so the
# command measures nothing (no verdict line, no record) and exits 1 naming the file.
for cmd in "validate --case walker -e page-faults" "sample walker -e page-faults --iters 1000"; do
    label=nomanifest-${cmd%% *}
    (ulimit -f 2; $PMUCAL $cmd --label $label) > "$TMP/nm.out" 2> "$TMP/nm.err"
    rc=$?
    dir=$(ls -d "$PMUCAL_RESULTS"/*-$label 2> /dev/null | head -n 1)
    [ $rc = 1 ] && [ -n "$dir" ] && [ ! -s "$dir/measurements.ndjson" ] && ! grep -q '^\(not \)\?ok ' "$TMP/nm.out" &&
        grep -q "cannot write $dir/manifest.json" "$TMP/nm.err"
    ok $? "${cmd%% *} with no room for its manifest: exit $rc, nothing measured: $(head -n 1 "$TMP/nm.err" | head -c 150)"
done

# term_within COMMAND...: the best of 3 times (s) from SIGTERM to exit, the command started anew
# each time and stopped $wait_s after it started; rc is the last exit status.
term_within() {
    best=99
    for attempt in 1 2 3; do
        "$@" > /dev/null 2> "$TMP/term.err" &
        pid=$!
        sleep "$wait_s"
        t0=$(date +%s.%N)
        kill -TERM $pid
        wait $pid
        rc=$?
        took=$(echo "$(date +%s.%N) - $t0" | bc)
        best=$(echo "if ($took < $best) $took else $best" | bc)
    done
}
# SIGTERM mid-repetition: runs last at most 0.5 s, so the stop comes within a second.
# A second on an idle CPU; on a loaded one, a second times the load measured beside it.
f=$(cpu_wait_factor)
wait_s=3 term_within $PMUCAL run walker size=4M -e page-faults -r 101 --target-ms 500
awk -v b="$best" -v f="$f" 'BEGIN { exit !(b >= 0 && b <= (f > 1 ? f : 1)) }'
ok $? "SIGTERM during 0.5 s runs: stopped within a second x the load factor $f (${best} s, exit $rc)"
# SIGTERM while a large case is set up (touching 256M, linking 4M elements, the warm-up lap):
# seconds of work, looked at for a stop between parts.
wait_s=0.3 term_within $PMUCAL run walker size=256M order=random -e page-faults
f=$(cpu_wait_factor)
awk -v b="$best" -v f="$f" 'BEGIN { exit !(b >= 0 && b <= (f > 1 ? f : 1)) }'
ok $? "SIGTERM while a 256M case is set up or warmed: stopped within a second x the load factor $f (${best} s, exit $rc)"
# Where hardware events cannot be counted at all, -e all says so once and moves on in seconds.
if [ "$($PMUCAL info --json | jq -r .pmu.hardware_usable)" = true ]; then
    skip "-e all as one SKIP block" "this host counts hardware events: each is measured, not skipped"
else
    start=$(date +%s)
    LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $PMUCAL validate -e all --pmu amd64_fam19h_zen4 --label all > "$TMP/all.tap" 2> /dev/null
    rc=$?
    secs=$(($(date +%s) - start))
    n=$(grep -c '^ok\|^not ok' "$TMP/all.tap")
    line=$(grep -m1 '# SKIP' "$TMP/all.tap")
    [ $rc = 0 ] && [ "$n" = 1 ] && echo "$line" | grep -q '^ok 1 - [0-9][0-9]* hardware events x [0-9]* cases # SKIP no hardware PMU' &&
        [ $secs -le 30 ]
    ok $? "-e all without a hardware PMU: one SKIP line with the count and the reason, ${secs}s, exit $rc: $line"
fi
# A perf that never answers (a wrapper script whose child hangs): info waits 2 s, says so, and
# leaves nothing running (the child runs in its own process group, killed whole).
mkdir -p "$TMP/hang" && printf '#!/bin/sh\nsleep 47\n' > "$TMP/hang/perf" && chmod +x "$TMP/hang/perf"
start=$(date +%s)
PATH="$TMP/hang:$PATH" $PMUCAL info > "$TMP/hang.out" 2>&1
secs=$(($(date +%s) - start))
sleep 0.2
left=$(pgrep -f "sleep 47" | wc -l)
grep -q "'perf --version' gave no answer within 2 s" "$TMP/hang.out" && [ $secs -le 8 ] && [ "$left" -eq 0 ]
ok $? "a hanging perf: info took ${secs}s, says it gave no answer, $left of its processes left"
done_testing
