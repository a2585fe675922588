#!/bin/sh
# Event list files (good and malformed), 'all', --pmu, and grouping: pmucal groups and the jq script.
. "$(dirname "$0")/lib.sh"

# expect_err PATTERN -- command...: exit 2 and exactly one stderr line holding PATTERN.
expect_err() {
    pattern=$1
    shift 2
    "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = 2 ] && grep -q -- "$pattern" "$TMP/err" && [ "$(wc -l < "$TMP/err")" -eq 1 ]
    ok $? "'$*' exits 2 (got $got) with one line: $(head -c 200 "$TMP/err")"
}

cat > "$TMP/good.list" <<'LIST'
# a list file: one event a line, comments, blank lines, modifiers
page-faults            # software

amd64_fam19h_zen4::RETIRED_INSTRUCTIONS
RETIRED_INSTRUCTIONS:u:k
LS_DISPATCH:LD_DISPATCH:c=1:i=1:e=1
  RETIRED_BRANCH_INSTRUCTIONS:k
LIST
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $PMUCAL run walker size=L1 -e "$TMP/good.list" --iters 64 -r 1 --json > "$TMP/good.json" 2> "$TMP/good.err"
ok $? "a good list file runs: $(head -c 160 "$TMP/good.err")"
is "$(jq -r '[.events[].name] | sort | join(" ")' "$TMP/good.json")" \
   "LS_DISPATCH:LD_DISPATCH:c=1:i=1:e=1 RETIRED_BRANCH_INSTRUCTIONS:k RETIRED_INSTRUCTIONS:u:k amd64_fam19h_zen4::RETIRED_INSTRUCTIONS page-faults" \
   "every listed event is measured, comments and blank lines dropped"
is "$(jq -r '.events[] | select(.name == "LS_DISPATCH:LD_DISPATCH:c=1:i=1:e=1") | .attr.config' "$TMP/good.json")" "25428265" \
   "modifiers reach perf_event_attr.config (cmask 1, inv, edge: 0x1840429)"
is "$(jq -r '.events[] | select(.name == "RETIRED_BRANCH_INSTRUCTIONS:k") | "\(.attr.exclude_user) \(.attr.exclude_kernel)"' "$TMP/good.json")" \
   "true false" ":k alone counts the kernel only"
is "$(jq -r '.events[] | select(.name == "RETIRED_INSTRUCTIONS:u:k") | "\(.attr.exclude_user) \(.attr.exclude_kernel)"' "$TMP/good.json")" \
   "false false" ":u:k counts both levels"

# Malformed lines: one error naming file:line and the fix.
bad() { printf "$1" > "$TMP/bad.list"; expect_err "$2" -- $PMUCAL run walker -e "$TMP/bad.list"; }
bad 'page-faults\nRETIRED_INSTRUCTIONS RETIRED_OPS\n' "bad.list:2: one event a line, but 'RETIRED_INSTRUCTIONS RETIRED_OPS' has more"
bad 'page-faults,cpu-migrations\n' "bad.list:1: one event a line"
bad '# x\n\nLS_DISPATCH:LD_DISPATCH:c=x\n' "bad.list:3: 'LS_DISPATCH:LD_DISPATCH:c=x': modifier c needs a whole number"
bad 'LS_DISPATCH:LD_DISPATCH:c=300\n' "bad.list:1: .*counter mask c=300 is out of range 0..255"
bad 'LS_DISPATCH:LD_DISPATCH:i=2\n' "bad.list:1: .*modifier i is a flag: 0 or 1"
bad 'RETIRED_INSTRUCTIONS:u::k\n' "bad.list:1: .*empty unit mask or modifier"
bad 'LS_DISPATCH:LD_DISPATCH:\n' "bad.list:1: .*empty unit mask or modifier"
bad '::RETIRED_INSTRUCTIONS\n' "bad.list:1: .*the PMU name before '::' is empty"
bad 'page-faults\nNOT_AN_EVENT\n' "bad.list:2: unknown event 'NOT_AN_EVENT'"
bad 'RETIRED_INSTRUCTIONS:NOT_A_UMASK\n' "bad.list:1: unknown event 'RETIRED_INSTRUCTIONS:NOT_A_UMASK'"
bad '# only a comment\n\n' "bad.list names no event"
expect_err "cannot read event list $TMP/missing.list" -- $PMUCAL run walker -e "$TMP/missing.list"
expect_err "--pmu nosuch: libpfm4 has no such PMU" -- $PMUCAL validate --pmu nosuch -e all --case 'walker size=L1'

# 'all': every event and unit mask of a PMU, forced offline; the same strings 'pmucal events' prints.
n_events=$($PMUCAL events --pmu skl | wc -l)
n_groups=$($PMUCAL groups --names --pmu skl -e all | wc -l)
n_grouped=$($PMUCAL groups --names --pmu skl -e all | tr ',' '\n' | wc -l)
is "$n_grouped" "$n_events" "groups --pmu skl -e all places every one of the $n_events skl events"
[ "$n_groups" -ge $(( (n_events + 3) / 4 )) ]
ok $? "in at least ceil($n_events/4) groups ($n_groups)"

# events --open: the same libpfm4 strings, each with the kernel's answer (here without a hardware
# PMU, a refusal saying so; tests/48 and the emulated RISC-V host check what opens).
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $PMUCAL events --open --pmu amd64_fam19h_zen4 > "$TMP/open.out" 2> "$TMP/open.err"
rc=$?
grep -v '^#' "$TMP/open.out" | awk -F'\t' '$4 == "libpfm4" { print $1 }' > "$TMP/open.names"
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $PMUCAL events --pmu amd64_fam19h_zen4 > "$TMP/plain.names"
[ $rc -eq 0 ] && [ -s "$TMP/plain.names" ] && cmp -s "$TMP/open.names" "$TMP/plain.names" &&
    [ -z "$(grep -v '^#' "$TMP/open.out" | awk -F'\t' 'NF != 5 || $2 == ""')" ]
ok $? "events --open --pmu amd64_fam19h_zen4 gives each of its $(wc -l < "$TMP/plain.names") events a verdict, after perf's generic ones (exit $rc) $(head -c 200 "$TMP/open.err")"

# The jq script groups N at a time exactly as the scheduler does for an unrestricted list.
$PMUCAL events --pmu amd64_fam19h_zen4 | head -n 22 > "$TMP/zen4.list"
printf '# trailing comment\n\n' >> "$TMP/zen4.list"
for n in 4 6; do
    a=$(jq -R -s -r --argjson n $n -f scripts/groups.jq "$TMP/zen4.list")
    b=$($PMUCAL groups --names --pmu amd64_fam19h_zen4 --group-size $n -e "$TMP/zen4.list")
    is "$a" "$b" "scripts/groups.jq and pmucal groups agree on 22 zen4 events by $n"
done
is "$(jq -R -s -r --argjson n 4 -f scripts/groups.jq "$TMP/zen4.list" | head -n 1 | tr ',' '\n' | wc -l)" "4" "groups of 4 by default width"
is "$($PMUCAL groups --names --pmu amd64_fam19h_zen4 --group-size auto -e "$TMP/zen4.list" | head -n 1 | tr ',' '\n' | wc -l)" "6" \
   "--group-size auto takes libpfm4's 6 counters of zen4"

# Offcore-response events are interleaved: at most two per group; front-end MSR events one per group.
oc="OFFCORE_RESPONSE_0:DMND_DATA_RD:L3_HIT:SNP_ANY,OFFCORE_RESPONSE_1:DMND_RFO:L3_HIT:SNP_ANY,OFFCORE_RESPONSE_0:DMND_CODE_RD:L3_HIT:SNP_ANY,OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_MISS:SNP_ANY"
fe="FRONTEND_RETIRED:L1I_MISS,FRONTEND_RETIRED:ITLB_MISS"
$PMUCAL groups --names --pmu skl -e "$oc,$fe,INST_RETIRED:ANY_P,MEM_LOAD_RETIRED:L1_HIT" > "$TMP/g.out"
sed 's/^/# /' "$TMP/g.out"
awk -F, '{ o = 0; f = 0; for (i = 1; i <= NF; i++) { o += ($i ~ /^OFFCORE/); f += ($i ~ /^FRONTEND/) } if (o > 2 || f > 1 || NF > 4) bad = 1 } END { exit bad }' "$TMP/g.out"
ok $? "skl: no group holds more than 2 offcore, 1 front-end or 4 programmable events"
# Counter restrictions from the vendor table: fixed-counter-only events take no programmable counter.
out=$($PMUCAL groups --pmu icx --why --vendor-json eventdata/intel/ICX/events \
    -e INST_RETIRED:ANY,INST_RETIRED:ANY_P,BR_INST_RETIRED:ALL_BRANCHES,MEM_LOAD_RETIRED:L1_HIT,MEM_LOAD_RETIRED:L2_HIT)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -q '^# INST_RETIRED:ANY: INST_RETIRED.ANY: fixed counter 0 only' && \
    [ "$(echo "$out" | grep -vc '^#')" = 1 ]
ok $? "icx with Intel's table: INST_RETIRED:ANY is fixed-counter-only and rides beside 4 programmable events"
done_testing
