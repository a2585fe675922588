#!/bin/sh
# Timing gates of calibrate, outside make test (make bench-timing): on this host now, does the
# closure close, and does the latency curve find L1 and L2 where the topology has them? Both
# compare figures measured minutes apart on a machine whose L3 other tenants share, so they say
# how this host behaves today; tests/51-penalties-calibrate.t checks that the verdicts follow from the figures.
. "$(dirname "$0")/../lib.sh"
on_this_machine

# A burst of other work can spoil one attempt; a second, with more repetitions, says whether
# the miss is real.
closure() { grep -- '- closure:' "$1" | head -n 1; }
for attempt in 1 2 3; do
    $PMUCAL calibrate --no-curve -r 9 --recipe l1_hit --recipe l2_hit --recipe l3_hit --recipe dram \
        --label cl$attempt > "$TMP/cl.out" 2> "$TMP/cl.err"
    line=$(closure "$TMP/cl.out")
    case "$line" in ok*SKIP*|not*) echo "# attempt $attempt: $line" ;; *) break ;; esac
done
dir=$(ls -d "$PMUCAL_RESULTS"/*-cl$attempt | head -n 1)
# An L3 that answers like DRAM is held by someone else: what the closure mixes as L3 lines is
# then not what was calibrated, and nothing can be decided.
l3=$(jq '.penalties[] | select(.name == "l3_hit") | .cycles' "$dir/penalties.json")
dram=$(jq '.penalties[] | select(.name == "dram") | .cycles' "$dir/penalties.json")
case "$line" in
    ok*SKIP*) skip "closure check" "${line#*# SKIP }" ;;
    *)  if awk -v a="$l3" -v d="$dram" 'BEGIN { exit !(a ~ /^[0-9.e+-]+$/ && d + 0 > 0 && a > d / 2) }'; then
            skip "closure check" "the L3 case measured $l3 cycles, like DRAM ($dram): this host's L3 is held by other work"
        else
            case "$line" in ok*) ok 0 "closure check passes: ${line#* - }" ;; *) ok 1 "closure check passes: ${line#* - }" ;; esac
        fi ;;
esac

# The curve: L1 and L2 read off it within 2x of the sizes hwloc gives (both plausible here).
$PMUCAL calibrate --curve --label curve > "$TMP/cv.out" 2> "$TMP/cv.err"
cdir=$(ls -d "$PMUCAL_RESULTS"/*-curve | head -n 1)
jq -e '[.curve.levels[0,1] | .detected_bytes >= .used_bytes / 2 and .detected_bytes <= .used_bytes * 2] == [true, true]' \
    "$cdir/penalties.json" > /dev/null
ok $? "L1 and L2 read off the curve within 2x of the sizes used: $(jq -c '[.curve.levels[] | [.level, .detected_bytes, .used_bytes, .used_from]]' "$cdir/penalties.json")"
done_testing
