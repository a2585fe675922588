#!/bin/sh
# No rule that cannot fail: a context switch or a migration happens in the Linux kernel, so
# context-switches and cpu-migrations are counted on the Linux kernel's side (user-side only they read 0
# by construction, and 'ctx.switch bound ok' beside a busy loop said nothing). The rule ('none')
# asserts that the least disturbed repetition ran alone: the measurement core measures again a
# repetition another task interrupted, a few times; when every kept one still counted a switch the
# verdict is a SKIP naming the switches (the counts beside it are not the kernel's alone). Where the Linux kernel keeps its side from the user (perf_event_paranoid 2 without
# CAP_PERFMON) the verdict is a SKIP saying so, never a 0.
. "$(dirname "$0")/lib.sh"
on_this_machine   # about this machine's scheduler and perf_event_paranoid

last=$(taskset -pc $$ 2> /dev/null | sed 's/.*: //' | tr ',' '\n' | awk -F- '{ print NF == 2 ? $2 : $1 }' | sort -n | tail -n 1)
if ! command -v taskset > /dev/null || [ -z "$last" ]; then
    skip "context switches beside a busy loop" "needs taskset"
    done_testing
    exit $?
fi
blind=$($PMUCAL run walker size=L1 -e context-switches -r 1 2>&1 >/dev/null | grep -c "cannot be counted here")

# Beside a busy loop pinned on the measured CPU the scheduler shares the CPU every tick or so:
# every repetition, redone or not, counts switches.
# The loop must be running first: under make test's load its shell once started only after the
# measured loops had ended, and every repetition counted 0 switches.
taskset -c "$last" sh -c 'while :; do :; done' &
spin=$!
for i in $(seq 50); do
    [ "$(awk '{ print $14 }' "/proc/$spin/stat" 2> /dev/null || echo 0)" -gt 0 ] && break
    sleep 0.1
done
$PMUCAL validate --case 'walker size=L1' -e context-switches,cpu-migrations --cpu "$last" --target-ms 20 -r 3 \
    --label busy > "$TMP/busy.tap" 2> "$TMP/busy.err"
rc=$?
kill "$spin"
if [ "$blind" -gt 0 ]; then
    grep -q '^ok 1 - walker :: context-switches # SKIP counted on the Linux kernel.s side, where it happens, which kernel.perf_event_paranoid=[0-9] keeps from this user' "$TMP/busy.tap"
    ok $? "the Linux kernel keeps its side from this user: context-switches is a SKIP with the reason: $(grep -m1 " context-switches" "$TMP/busy.tap")"
else
    # Not the vacuous ok it was: withheld, a SKIP naming the switches counted (the load is the
    # host's, not a defect of the event), and so exit 0.
    [ $rc -eq 0 ] && grep -q '^ok 1 - walker :: context-switches # SKIP context-switches = ctx.switch: .*(none, .*; [0-9.e+-]* an iteration: every kept repetition counted some' "$TMP/busy.tap"
    ok $? "beside a busy loop on CPU $last, context-switches is withheld with the switches it counted, never ok (exit $rc): $(grep -m1 " context-switches" "$TMP/busy.tap")"
    jq -e '.events[] | select(.name == "context-switches") | .attr.exclude_kernel == false' \
        "$(ls -d "$PMUCAL_RESULTS"/*-busy)/measurements.ndjson" > /dev/null
    ok $? "it was counted on the Linux kernel's side (exclude_kernel false in the record)"
fi
grep -q '^ok 2 - walker :: cpu-migrations' "$TMP/busy.tap"
ok $? "a pinned walk never migrates, busy loop or not: $(grep -m1 " cpu-migrations" "$TMP/busy.tap")"

# As a user the Linux kernel refuses its side to (nobody, perf_event_paranoid >= 2): a SKIP with the
# reason for both, never a count of 0.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null || echo 0)
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv > /dev/null || [ "$paranoid" -lt 2 ]; then
    skip "context-switches as a user without CAP_PERFMON" "needs root and setpriv to become nobody, and perf_event_paranoid >= 2 (it is $paranoid)"
else
    out=$(mktemp -d)
    chmod 777 "$out"
    setpriv --reuid=nobody --regid=nogroup --clear-groups env PMUCAL_RESULTS="$out" PMUCAL_CACHE_DIR="$out/cache" \
        $PMUCAL validate --case 'walker size=L1' -e context-switches,cpu-migrations -r 2 > "$TMP/nobody.tap" 2> "$TMP/nobody.err"
    rc=$?
    rm -rf "$out"
    n=$(grep -c "^ok [12] - walker :: [a-z-]* # SKIP counted on the Linux kernel.s side, where it happens, which kernel.perf_event_paranoid=$paranoid keeps from this user (user-side only it would read 0 by construction)" "$TMP/nobody.tap")
    [ "$rc" -eq 0 ] && [ "$n" -eq 2 ]
    ok $? "as nobody (paranoid $paranoid): both are SKIP with the reason, exit $rc: $(grep -m1 " context-switches" "$TMP/nobody.tap") $(grep -v '^pmucal: \[' "$TMP/nobody.err" | grep error | head -c 200)"
fi

# The rule's tolerance is read from a file too, and an unknown one names 'none' among the valid.
printf 'context-switches ctx.switch nothing\n' > "$TMP/bad.txt"
$PMUCAL validate --case 'walker size=L1' -e context-switches --expect "$TMP/bad.txt" > /dev/null 2> "$TMP/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "none (no more in a loop than without iterations" "$TMP/bad.err"
ok $? "an unknown tolerance is refused, naming 'none' (exit $rc)"
done_testing
