# Shared helpers for the shell TAP tests: a plan-at-end counter and assertions that print
# what they compared, so a failure says what went wrong.
set -u
# From tests/ or tests/timing/ to the tree's root.
cd "$(dirname "$0")/.." || exit 1
[ -f Makefile ] || cd .. || exit 1
PMUCAL=${PMUCAL:-bin/pmucal}
T_N=0
T_FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PMUCAL_RESULTS="$TMP/results"
# Measured cache levels never come from this user's cache: make test shares one fresh folder
# across the files, a file run alone gets its own.
export PMUCAL_CACHE_DIR="${PMUCAL_CACHE_DIR:-$TMP/cache}"
# The event tables are the ones pmucal ships (eventdata/), never a user's PMUCAL_EVENTDATA or a
# folder beside the checkout: what a clone holds is what the suite checks.
export PMUCAL_EVENTDATA="$PWD/eventdata"

# The host a test sees. Tests take their topology from a fixture of tests/hosts/ where it matters,
# never from the machine they run on: PMUCAL_TEST_HOST=NAME runs a whole test file as if on that
# host (its hwloc.xml; the machine's own allowed CPUs), PMUCAL_TEST_HIDE_PMU=1 hides the host's
# libpfm4 PMU so the unknown-model paths run on any machine. tests/70-host-fixtures.t runs chosen checks
# under every fixture. A test about the real machine (timing) calls on_this_machine first.
use_host() { # use_host NAME: load tests/hosts/NAME/hwloc.xml as this process tree's topology
    [ -f "tests/hosts/$1/hwloc.xml" ] || { echo "Bail out! no fixture tests/hosts/$1/hwloc.xml"; exit 1; }
    export HWLOC_XMLFILE="$PWD/tests/hosts/$1/hwloc.xml" HWLOC_THISSYSTEM=1 HWLOC_THISSYSTEM_ALLOWED_RESOURCES=1
}
on_this_machine() { unset HWLOC_XMLFILE HWLOC_THISSYSTEM HWLOC_THISSYSTEM_ALLOWED_RESOURCES HWLOC_CPUID_PATH HWLOC_COMPONENTS; }
# hide_host_pmu: libpfm4 no longer finds this host's core PMU (a no-op where it knows none).
hide_host_pmu() {
    host_pmu=$(env -u LIBPFM_FORCE_PMU -u LIBPFM_DISABLED_PMUS "$PMUCAL" info --json 2>/dev/null | jq -r '.pmu.libpfm4_pmu // empty')
    [ -n "$host_pmu" ] && export LIBPFM_DISABLED_PMUS="$host_pmu"
    return 0
}
[ -n "${PMUCAL_TEST_HOST:-}" ] && use_host "$PMUCAL_TEST_HOST"
[ -n "${PMUCAL_TEST_HIDE_PMU:-}" ] && hide_host_pmu

ok() { # ok CONDITION-EXIT-STATUS DESCRIPTION
    T_N=$((T_N + 1))
    # A failure is also told on stderr, which prove shows without -v: CI's log names it.
    if [ "$1" -eq 0 ]; then echo "ok $T_N - $2"; else echo "not ok $T_N - $2"; echo "# failed: $T_N - $2" >&2; T_FAIL=$((T_FAIL + 1)); fi
}
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
# is_close ACTUAL EXPECTED TOLERANCE DESCRIPTION: |actual - expected| <= tolerance
is_close() {
    # Both sides must be numbers: an empty or "null" result never passes.
    awk -v a="$1" -v e="$2" -v t="$3" 'BEGIN { num = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
        d = a - e; if (d < 0) d = -d; exit !(a ~ num && e ~ num && d <= t) }'
    ok $? "$4 (got $1, want $2 +- $3)"
}
# cpu_wait_factor: how many times its CPU time a CPU-bound task takes in wall time here now (about 1
# on an idle CPU, 2 or more beside other work): a bound on how soon pmucal answers is scaled by it,
# so the tolerance comes from the load measured, not from a quiet machine.
cpu_wait_factor() {
    perl -MTime::HiRes=time -e '$t = time; $c = (times)[0]; $s = 0; $s += $_ for 1 .. 1e7;
        $u = (times)[0] - $c; printf "%.2f\n", (time - $t) / ($u > 0.02 ? $u : 0.02)'
}
# children_cpu: the CPU seconds (user + system) this shell's finished children and theirs have
# used so far. A bound on what a command costs is taken on its difference: load stretches wall
# time, not CPU time.
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($14 + $15) / hz }' "/proc/$$/stat"; }
is() { [ "$1" = "$2" ]; ok $? "$3 (got '$1', want '$2')"; }
# Is $PMUCAL an AddressSanitizer build (make SAN=1)? It runs 2-3x slower and not under valgrind.
sanitized_build() { nm "$PMUCAL" 2> /dev/null | grep -q __asan_init; }
# Can this build count with the sim source? Proven by counting: one tiny case under callgrind
# must give its exact instruction count. When not, SIM_WHY says why (for a SKIP).
sim_usable() {
    if sanitized_build; then
        SIM_WHY="an AddressSanitizer build (make SAN=1) cannot run under valgrind; plain 'make test' checks this"
        return 1
    fi
    if ! command -v valgrind > /dev/null 2>&1; then
        SIM_WHY="valgrind is not installed (apt-get install valgrind)"
        return 1
    fi
    [ -n "${SIM_PROVEN:-}" ] && return 0
    $PMUCAL run walker size=4k loads=1 --source sim -e sim::Ir -r 1 --iters 100 --json > "$TMP/sim-usable.json" 2> "$TMP/sim-usable.err"
    got=$(jq -r '.events[0].stats.median // empty' "$TMP/sim-usable.json" 2> /dev/null)
    want=$(jq -r '.model.inst // empty' "$TMP/sim-usable.json" 2> /dev/null)
    if [ -z "$got" ] || [ "$got" != "$want" ]; then
        # valgrind is there, so sim must work: the caller fails rather than skips.
        SIM_WHY="valgrind is installed but --source sim counted '$got' instructions, the model says '$want': $(head -c 400 "$TMP/sim-usable.err")"
        SIM_BROKEN=1
        return 1
    fi
    SIM_PROVEN=1
    return 0
}
# sim_skip_or_fail DESCRIPTION: after sim_usable failed, a SKIP where sim cannot exist here,
# a failure where it should work and does not.
sim_skip_or_fail() {
    if [ -n "${SIM_BROKEN:-}" ]; then ok 1 "$1: $SIM_WHY"; else skip "$1" "$SIM_WHY"; fi
}
# stop_after_records LABEL N SIGNAL PID [FILE]: once the run folder *-LABEL under $PMUCAL_RESULTS
# holds N lines in FILE (measurements.ndjson: N records; at most 30 s), send SIGNAL to PID and wait
# for it: stopped_dir is the folder, stopped_rc its exit status.
stop_after_records() {
    stopped_dir=""
    for _i in $(seq 1 600); do
        stopped_dir=$(ls -d "$PMUCAL_RESULTS"/*-"$1" 2> /dev/null | head -n 1)
        [ -n "$stopped_dir" ] && [ "$(wc -l 2> /dev/null < "$stopped_dir/${5:-measurements.ndjson}" || echo 0)" -ge "$2" ] && break
        sleep 0.05
    done
    kill -"$3" "$4"
    wait "$4" 2> /dev/null   # not the shell's "Killed" on prove's output
    stopped_rc=$?
}
# validate_perturbed PERTURBATION LABEL TAP: validate of "$TOUCH" and walker size=16k under
# --source perturb:perf/PERTURBATION, events $EV, TAP into the file TAP; perturbed_rc is its exit
# status, perturbed_dir its run folder. A sporadic zero (zero=EV%N) changes a count only where it
# falls in a repetition the measurement kept: a zero that fell only in attempts redone for a
# context switch changed nothing to flag, so that run is made again (at most three in all), and a
# check of the flagging never meets a perturbation that left no trace.
validate_perturbed() {
    _ev=""
    case $1 in zero=*) _ev=${1#zero=}; _ev=${_ev%%%*} ;; esac
    for _try in 1 2 3; do
        $PMUCAL validate --source "perturb:perf/$1" --case "$TOUCH" --case 'walker size=16k' --iters 1024 -e "$EV" \
            --label "$2" > "$3" 2> "$3.err"
        perturbed_rc=$?
        perturbed_dir=$(sed -n '1s/.*, results in //p' "$3")
        [ -z "$_ev" ] && return 0
        jq -n --arg c "$TOUCH" --arg e "$_ev" '[inputs | select(.case == $c) | .events[] | select(.name == $e) |
            .raw[] | select(.[0] == 0)] | length > 0' "$perturbed_dir/measurements.ndjson" 2> /dev/null |
            grep -q true && return 0
        echo "# $1: no repetition $perturbed_dir kept read $_ev as 0: measured again" >&2
        [ "$_try" -lt 3 ] && rm -rf "$perturbed_dir"
    done
    return 0
}
done_testing() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }
