#!/bin/sh
# Runs every C unit test binary; each prints its own TAP, merged here into one plan.
. "$(dirname "$0")/lib.sh"
dir=${PMUCAL_OBJDIR:-build/opt}/tests
[ -d "$dir" ] || { echo "Bail out! no unit test binaries in $dir; run make first"; exit 1; }
for t in "$dir"/*; do
    [ -x "$t" ] || continue
    # test_topo_clock compares hwloc with this machine's sysfs and times its clock: the real host.
    case $(basename "$t") in
    test_topo_clock) out=$(on_this_machine; "$t" 2>&1); rc=$? ;;
    *) out=$("$t" 2>&1); rc=$? ;;
    esac
    echo "$out" | sed 's/^/    /'
    bad=$(echo "$out" | grep -c '^not ok')
    # prove shows stderr without -v: a failing check names itself in CI's log.
    echo "$out" | grep '^not ok' | sed "s|^|# $(basename "$t"): |" >&2
    total=$(echo "$out" | grep -c '^ok\|^not ok')
    [ "$rc" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$total" -gt 0 ]
    ok $? "$(basename "$t"): $total checks, $bad failed"
done
done_testing
