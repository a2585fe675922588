# Shared helpers for the shell TAP tests: a plan-at-end counter and assertions that print
# what they compared, so a failure says what went wrong.
set -u
cd "$(dirname "$0")/.." || exit 1
PMUCAL=${PMUCAL:-bin/pmucal}
T_N=0
T_FAIL=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PMUCAL_RESULTS="$TMP/results"
# Measured cache levels never come from this user's cache: make test shares one fresh folder
# across the files, a file run alone gets its own.
export PMUCAL_CACHE_DIR="${PMUCAL_CACHE_DIR:-$TMP/cache}"

ok() { # ok CONDITION-EXIT-STATUS DESCRIPTION
    T_N=$((T_N + 1))
    if [ "$1" -eq 0 ]; then echo "ok $T_N - $2"; else echo "not ok $T_N - $2"; T_FAIL=$((T_FAIL + 1)); fi
}
skip() { T_N=$((T_N + 1)); echo "ok $T_N - $1 # SKIP $2"; }
# is_close ACTUAL EXPECTED TOLERANCE DESCRIPTION: |actual - expected| <= tolerance
is_close() {
    awk -v a="$1" -v e="$2" -v t="$3" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(a != "" && d <= t) }'
    ok $? "$4 (got $1, want $2 +- $3)"
}
is() { [ "$1" = "$2" ]; ok $? "$3 (got '$1', want '$2')"; }
# Can this build count with the sim source? When not, SIM_WHY says why (for a SKIP).
sim_usable() {
    if nm "$PMUCAL" 2> /dev/null | grep -q __asan_init; then
        SIM_WHY="an AddressSanitizer build (make SAN=1) cannot run under valgrind; plain 'make test' checks this"
        return 1
    fi
    if ! command -v valgrind > /dev/null 2>&1; then
        SIM_WHY="valgrind is not installed (apt-get install valgrind)"
        return 1
    fi
    return 0
}
done_testing() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }
