#!/bin/sh
# Runs every C unit test binary; each prints its own TAP, merged here into one plan.
. "$(dirname "$0")/lib.sh"
dir=${PMUCAL_OBJDIR:-build/opt}/tests
[ -d "$dir" ] || { echo "Bail out! no unit test binaries in $dir; run make first"; exit 1; }
# unit_result NAME OUTPUT EXIT: one TAP line for a unit test binary's run.
unit_result() {
    if [ "$3" -eq 0 ] && echo "$2" | grep -q '^1\.\.0 # SKIP'; then
        skip "$1" "$(echo "$2" | sed -n 's/^1\.\.0 # SKIP //p' | head -n 1)"
        return
    fi
    bad=$(echo "$2" | grep -c '^not ok')
    # prove shows stderr without -v: a failing check names itself in CI's log.
    echo "$2" | grep '^not ok' | sed "s|^|# $1: |" >&2
    total=$(echo "$2" | grep -c '^ok\|^not ok')
    [ "$3" -eq 0 ] && [ "$bad" -eq 0 ] && [ "$total" -gt 0 ]
    ok $? "$1: $total checks, $bad failed"
}
for t in "$dir"/*; do
    [ -x "$t" ] || continue
    # test_topo_clock compares hwloc with this machine's sysfs and times its clock: the real host.
    case $(basename "$t") in
    test_topo_clock) out=$(on_this_machine; "$t" 2>&1); rc=$? ;;
    *) out=$("$t" 2>&1); rc=$? ;;
    esac
    echo "$out" | sed 's/^/    /'
    unit_result "$(basename "$t")" "$out" "$rc"
done
# The rule on what a binary may print (run in a subshell: its line is looked at, not counted): a
# plan of '1..0 # SKIP why' is a SKIP with the reason, silence and a failed check are failures.
# output | exit | the line unit_result must print
while IFS='|' read -r out rc want; do
    out=$(echo "$out" | sed 's/ *$//; s/\\n/\n/g'); rc=$(echo $rc); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$want" ] && continue
    got=$(unit_result fake "$out" "$rc" 2> /dev/null)
    echo "$got" | grep -q -- "$want"
    # '#' would make the description a directive: shown as '%'.
    ok $? "$(echo "unit_result of '$out' (exit $rc): '$want' (got '$got')" | tr '\n#' ' %')"
done <<'EOT'
1..0 # SKIP this CPU reports no DTLB count | 0 | ^ok [0-9]* - fake # SKIP this CPU reports no DTLB count$
ok 1 - a\n1..1                              | 0 | ^ok [0-9]* - fake: 1 checks, 0 failed$
not ok 1 - a\n1..1                          | 1 | ^not ok [0-9]* - fake: 1 checks, 1 failed$
1..0                                        | 0 | ^not ok [0-9]* - fake: 0 checks, 0 failed$
1..0 # SKIP but it crashed                  | 134 | ^not ok [0-9]* - fake: 0 checks
EOT
done_testing
