#!/bin/sh
# The event tables ship with pmucal (eventdata/): each vendor's with its licence and source
# revision; the binary finds them from the tree with nothing set; PMUCAL_EVENTDATA takes the
# layouts of the upstream checkouts as they are (a Linux tree's tools/perf/pmu-events/arch, its
# arch/x86, an Intel perfmon checkout, several joined by ':'); scripts/refresh-eventdata.sh
# writes the same files again from such checkouts; a missing table's message says where to get one.
. "$(dirname "$0")/lib.sh"
hide_host_pmu
unset LIBPFM_FORCE_PMU
export PMUCAL_CPUID=AuthenticAMD-26-2   # a Zen 5 on any machine: the vendor table by CPUID
tree=$PWD

for v in amd intel arm; do
    [ -s "eventdata/$v/LICENSE" ] && [ -s "eventdata/$v/mapfile.csv" ] && grep -Eq '[0-9a-f]{12}' "eventdata/$v/SOURCE"
    ok $? "eventdata/$v has its mapfile, LICENSE and a SOURCE naming upstream revisions ($(head -c 70 "eventdata/$v/SOURCE" | tr '\n' ' '))"
done

# source_of OUTPUT: the table 'events' says it read.
source_of() { sed -n 's/^# source: \([^ ]*\) .*/\1/p' "$1" | head -n 1; }

# The binary in the tree, run from elsewhere with nothing set, reads the tree's tables.
(cd "$TMP" && env -u PMUCAL_EVENTDATA "$tree/$PMUCAL" events > "$TMP/ev.out" 2> "$TMP/ev.err")
rc=$?
[ $rc -eq 0 ] && [ "$(source_of "$TMP/ev.out")" = "$tree/eventdata/amd/amdzen5" ] && grep -q '^ls_dispatch.ld_dispatch ' "$TMP/ev.out"
ok $? "with nothing set, pmucal from the tree names Zen 5's events from its own eventdata/ (exit $rc): $(source_of "$TMP/ev.out") $(head -c 200 "$TMP/ev.err")"
(cd "$TMP" && env -u PMUCAL_EVENTDATA "$tree/$PMUCAL" modeldiff amdzen4 amdzen5 > "$TMP/md.out" 2> "$TMP/md.err")
rc=$?
[ $rc -le 1 ] && grep -q '^# totals amdzen4 .* -> amdzen5 ' "$TMP/md.out"
ok $? "modeldiff amdzen4 amdzen5 from the tree's tables (exit $rc): $(tail -n 1 "$TMP/md.out" | cut -c1-120) $(head -c 200 "$TMP/md.err")"

# Upstream layouts, made from the shipped files: a Linux checkout and an Intel perfmon checkout.
linux=$TMP/linux arch=$TMP/linux/tools/perf/pmu-events/arch perfmon=$TMP/perfmon
mkdir -p "$arch/x86" "$arch/arm64" "$perfmon"
cp -R eventdata/amd/. "$arch/x86/" && cp -R eventdata/arm/. "$arch/arm64/" && cp -R eventdata/intel/. "$perfmon/"
rm -f "$arch"/*/SOURCE "$arch"/*/LICENSE "$perfmon/SOURCE"
# Rows: PMUCAL_EVENTDATA, CPUID, the table 'events' must read. A row's line is counted from the
# 'done << EOF' line above the rows.
line=$(awk '/^done << EOF$/ { print NR; exit }' "$0")
while read -r root cpuid want; do
    line=$((line + 1))
    PMUCAL_EVENTDATA=$root PMUCAL_CPUID=$cpuid $PMUCAL events > "$TMP/lay.out" 2> "$TMP/lay.err"
    rc=$?
    [ $rc -eq 0 ] && [ "$(source_of "$TMP/lay.out")" = "$want" ] && [ "$(grep -vc '^#' "$TMP/lay.out")" -gt 100 ]
    ok $? "line $line: PMUCAL_EVENTDATA=${root#$TMP/} with CPUID $cpuid reads ${want#$TMP/} (exit $rc): $(source_of "$TMP/lay.out" | sed "s|$TMP/||") $(head -c 200 "$TMP/lay.err")"
done << EOF
$arch AuthenticAMD-26-2 $arch/x86/amdzen5
$arch/x86 AuthenticAMD-25-11 $arch/x86/amdzen4
$arch:$perfmon GenuineIntel-6-55-4 $perfmon/SKX/events/skylakex_core.json
$perfmon GenuineIntel-6-4E $perfmon/SKL/events/skylake_core.json
$perfmon:$arch AuthenticAMD-26-2 $arch/x86/amdzen5
EOF
PMUCAL_EVENTDATA=$arch:$perfmon $PMUCAL events --vendor-json SKL > "$TMP/named.out" 2> "$TMP/named.err"
rc=$?
[ $rc -eq 0 ] && [ "$(source_of "$TMP/named.out")" = "$perfmon/SKL" ]
ok $? "--vendor-json SKL finds the table by name in a perfmon checkout among the roots (exit $rc): $(head -c 200 "$TMP/named.err")"

# Missing tables: exit 2, and the message says where to get them.
where="PMUCAL_EVENTDATA to a Linux checkout's tools/perf/pmu-events/arch, an Intel perfmon checkout"
PMUCAL_EVENTDATA=$TMP/none $PMUCAL events > /dev/null 2> "$TMP/miss.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no amd event tables .* under $TMP/none: pmucal ships them in its eventdata/ folder.*$where" "$TMP/miss.err"
ok $? "no tables at PMUCAL_EVENTDATA: exit $rc, the message names the folder and where tables come from: $(head -c 300 "$TMP/miss.err")"
PMUCAL_EVENTDATA=$TMP/none $PMUCAL modeldiff amdzen4 amdzen5 > /dev/null 2> "$TMP/miss2.err"
rc=$?
[ $rc -eq 2 ] && grep -q "'amdzen4' is neither a path nor a table under $TMP/none.*$where" "$TMP/miss2.err"
ok $? "modeldiff of a table not there: exit $rc, the message says where tables come from: $(head -c 300 "$TMP/miss2.err")"
PMUCAL_EVENTDATA=$perfmon $PMUCAL events > /dev/null 2> "$TMP/miss3.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no row of $perfmon/mapfile.csv matches CPUID AuthenticAMD-26-2 .*$where" "$TMP/miss3.err"
ok $? "a mapfile without the CPU's row: exit $rc, the message says where tables come from: $(head -c 300 "$TMP/miss3.err")"

# encodings takes a table name as modeldiff does (the example its --help gives).
LIBPFM_FORCE_PMU=amd64_fam19h_zen4 $PMUCAL encodings --pmu amd64_fam19h_zen4 --vendor-json amdzen5 --quiet > "$TMP/enc.out" 2> "$TMP/enc.err"
rc=$?
[ $rc -eq 1 ] && grep -q "^# cross-model amd64_fam19h_zen4 .* -> amdzen5\|^# cross-model amdzen4 -> amdzen5" "$TMP/enc.out"
ok $? "encodings --vendor-json amdzen5 reads the table by name: a cross-model comparison, exit $rc: $(grep '^# cross-model' "$TMP/enc.out" | tail -n 1 | cut -c1-120) $(head -c 200 "$TMP/enc.err")"

# The refresh script writes the shipped files again from the two checkouts (git repositories here,
# so SOURCE names their commits).
for repo in "$linux" "$perfmon"; do
    git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm upstream
done
scripts/refresh-eventdata.sh --linux "$linux" --perfmon "$perfmon" --out "$TMP/fresh" 2> "$TMP/refresh.err"
rc=$?
diff -r -x SOURCE eventdata "$TMP/fresh" | grep -v '^Only in eventdata: README.md$' > "$TMP/refresh.diff"
[ $rc -eq 0 ] && [ ! -s "$TMP/refresh.diff" ]
ok $? "refresh-eventdata.sh --linux --perfmon writes the shipped tables again, file for file (exit $rc): $(head -c 300 "$TMP/refresh.diff") $(head -c 200 "$TMP/refresh.err")"
commit=$(git -C "$linux" rev-parse HEAD)
blob=$(git hash-object eventdata/amd/amdzen5/load-store.json)
grep -q "^revision: .*(commit $commit)" "$TMP/fresh/amd/SOURCE" && grep -q "^amdzen5/load-store.json $blob$" "$TMP/fresh/amd/SOURCE" &&
    grep -q "^revision: .*(commit $(git -C "$perfmon" rev-parse HEAD))" "$TMP/fresh/intel/SOURCE"
ok $? "its SOURCE files name the checkouts' commits and each file's blob: $(sed -n 2p "$TMP/fresh/amd/SOURCE")"
scripts/refresh-eventdata.sh --linux "$TMP/none" --out "$TMP/fresh2" 2> "$TMP/refresh2.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no $TMP/none/x86/mapfile.csv: --linux takes a Linux checkout" "$TMP/refresh2.err" && [ ! -e "$TMP/fresh2" ]
ok $? "refresh-eventdata.sh of a folder that is no checkout: exit $rc, one message, nothing written: $(cat "$TMP/refresh2.err")"
done_testing
