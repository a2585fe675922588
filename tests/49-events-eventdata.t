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

for v in amd intel arm riscv; do
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
(cd "$TMP" && env -u PMUCAL_EVENTDATA "$tree/$PMUCAL" tablediff amdzen4 amdzen5 > "$TMP/md.out" 2> "$TMP/md.err")
rc=$?
[ $rc -le 1 ] && grep -q '^# totals amdzen4 .* -> amdzen5 ' "$TMP/md.out"
ok $? "tablediff amdzen4 amdzen5 from the tree's tables (exit $rc): $(tail -n 1 "$TMP/md.out" | cut -c1-120) $(head -c 200 "$TMP/md.err")"

# Upstream layouts, made from the shipped files: a Linux checkout and an Intel perfmon checkout.
linux=$TMP/linux arch=$TMP/linux/tools/perf/pmu-events/arch perfmon=$TMP/perfmon
mkdir -p "$arch/x86" "$arch/arm64" "$arch/riscv" "$perfmon"
cp -R eventdata/amd/. "$arch/x86/" && cp -R eventdata/arm/. "$arch/arm64/" && cp -R eventdata/riscv/. "$arch/riscv/" &&
    cp -R eventdata/intel/. "$perfmon/"
rm -f "$arch"/*/SOURCE "$arch"/*/LICENSE "$perfmon/SOURCE"
# perfmon has its tables as plain JSON; pmucal ships them gzip-compressed.
find "$perfmon" -name '*.json.gz' -exec gzip -d {} +
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
$perfmon GenuineIntel-6-CF $perfmon/EMR/events/emeraldrapids_core.json
$tree/eventdata GenuineIntel-6-CF $tree/eventdata/intel/EMR/events/emeraldrapids_core.json.gz
$tree/eventdata GenuineIntel-6-A7 $tree/eventdata/intel/RKL/events/rocketlake_core.json.gz
$tree/eventdata GenuineIntel-6-97 $tree/eventdata/intel/ADL/events/alderlake_goldencove_core.json.gz
$tree/eventdata AuthenticAMD-23-1 $tree/eventdata/amd/amdzen1
$tree/eventdata 0x410fd0c0 $tree/eventdata/arm/arm/neoverse-n1
$perfmon:$arch AuthenticAMD-26-2 $arch/x86/amdzen5
EOF
# A Linux checkout's arch/riscv, by mvendorid-marchid-mimpid (SiFive's Bullet cores, the U74 among them: fewer than 100 events).
PMUCAL_EVENTDATA=$arch PMUCAL_CPUID=0x489-0x8000000000000007-0x0 $PMUCAL events > "$TMP/lay.out" 2> /dev/null
is "$(source_of "$TMP/lay.out") $(grep -vc '^#' "$TMP/lay.out")" "$arch/riscv/sifive/bullet 57" \
    "PMUCAL_EVENTDATA=linux/tools/perf/pmu-events/arch with a SiFive U74's mvendorid-marchid-mimpid reads arch/riscv/sifive/bullet"
PMUCAL_EVENTDATA=$arch:$perfmon $PMUCAL events --vendor-json SKL > "$TMP/named.out" 2> "$TMP/named.err"
rc=$?
[ $rc -eq 0 ] && [ "$(source_of "$TMP/named.out")" = "$perfmon/SKL" ]
ok $? "--vendor-json SKL finds the table by name in a perfmon checkout among the roots (exit $rc): $(head -c 200 "$TMP/named.err")"

# Every core row of the three mapfiles names a table that is shipped and loads: Intel's core,
# hybrid-core (each core type), offcore and FP files; perf's AMD and Arm folders. A row whose table
# is not shipped must be listed, with its reason, in eventdata/README.md's "Not shipped" section.
notshipped=$(sed -n '/^## Not shipped/,/^## [^N]/p' eventdata/README.md)
core_rows() {
    awk -F, 'NR > 1 && ($4 == "core" || $4 == "hybridcore" || $4 == "offcore" || $4 == "fp_arith_inst") { print "intel," $1 "," $3 }' eventdata/intel/mapfile.csv | sort -u -t, -k3,3
    awk -F, '$1 ~ /^(AuthenticAMD|HygonGenuine)/ && $4 == "core" { print "amd," $1 "," $3 }' eventdata/amd/mapfile.csv | sort -u -t, -k3,3
    awk -F, '$1 ~ /^0x/ && $4 == "core" { print "arm," $1 "," $3 }' eventdata/arm/mapfile.csv | sort -u -t, -k3,3
    awk -F, '$1 ~ /^0x/ && $4 == "core" { print "riscv," $1 "," $3 }' eventdata/riscv/mapfile.csv | sort -u -t, -k3,3
}
core_rows > "$TMP/rows"
rows=0 bad=""
while IFS=, read -r vendor sig file; do
    rows=$((rows + 1))
    path=eventdata/$vendor/${file#/}
    [ -e "$path" ] || path=$path.gz
    if [ ! -e "$path" ]; then
        echo "$notshipped" | grep -qF "\`$vendor/${file#/}\`" || bad="$bad $vendor:$sig:$file(not shipped, not listed)"
        continue
    fi
    # An offcore matrix or FP bit table holds no events of its own: it loads with its model's folder.
    [ "$vendor" = intel ] && path=${path%/*}
    if ! $PMUCAL events --vendor-json "$path" > "$TMP/row.out" 2> "$TMP/row.err" || [ "$(grep -vc '^#' "$TMP/row.out")" -eq 0 ]; then
        bad="$bad $vendor:$sig:$file($(head -c 160 "$TMP/row.err"))"
    fi
done < "$TMP/rows"
[ -z "$bad" ] && [ "$(cut -d, -f1 "$TMP/rows" | sort -u | paste -sd' ' -)" = "amd arm intel riscv" ]
ok $? "each of the $rows tables the mapfiles' core rows name is shipped and loads, or is listed as not shipped:${bad:- all}"
# RISC-V: each model folder with its event count (firmware events included: a model's
# ArchStdEvent entries resolve through riscv-sbi-firmware.json), and the firmware table itself.
while read -r line table want; do
    got=$($PMUCAL events --vendor-json "eventdata/riscv/$table" 2> "$TMP/rv.err" | grep -vc '^#')
    is "$got" "$want" "tests/49-events-eventdata.t:$line: eventdata/riscv/$table loads $want events $(head -c 160 "$TMP/rv.err")"
done << EOF
104 sifive/bullet 57
105 sifive/bullet-07 68
106 sifive/bullet-0d 70
107 sifive/p550 60
108 sifive/p650 73
109 openhwgroup/cva6 44
110 thead/c900-legacy 64
111 starfive/dubhe-80 56
112 andes/ax45 73
113 riscv-sbi-firmware.json 22
EOF
hybrid=$(awk -F, '$4 == "hybridcore" { print $3 }' eventdata/intel/mapfile.csv | sort -u | wc -l)
shipped=$(awk -F, '$4 == "hybridcore" { print $3 }' eventdata/intel/mapfile.csv | sort -u | while read -r f; do
    [ -s "eventdata/intel$f.gz" ] && echo "$f"; done | wc -l)
[ "$hybrid" -ge 10 ] && [ "$shipped" -eq "$hybrid" ]
ok $? "hybrid parts: all $hybrid core-type tables (perf's cpu_core and cpu_atom) are shipped ($shipped)"
PMUCAL_CPUID=GenuineIntel-6-97 $PMUCAL events > "$TMP/adl.out" 2>&1
head -n 1 "$TMP/adl.out" | grep -q "intel/ADL/events/alderlake_goldencove_core.json.gz (CPUID GenuineIntel-6-97 matches .*a hybrid part: the table of its Core cores, perf's cpu_core); its Atom cores (perf's cpu_atom) have .*/intel/ADL/events/alderlake_gracemont_core.json.gz"
ok $? "a hybrid part's catalog is its Core cores' table, and it names the Atom cores' one: $(head -n 1 "$TMP/adl.out" | cut -c1-300)"

# A .gz table and its plain JSON are one table: the same events with the same encodings.
gzdir=$TMP/gz
mkdir -p "$gzdir/both"
gzip -dc eventdata/intel/EMR/events/emeraldrapids_core.json.gz > "$gzdir/emr.json"
$PMUCAL events --describe --vendor-json eventdata/intel/EMR/events/emeraldrapids_core.json.gz | grep -v '^#' | cut -f1,2 > "$gzdir/from-gz"
$PMUCAL events --describe --vendor-json "$gzdir/emr.json" | grep -v '^#' | cut -f1,2 > "$gzdir/from-json"
[ "$(wc -l < "$gzdir/from-gz")" -gt 100 ] && cmp -s "$gzdir/from-gz" "$gzdir/from-json"
ok $? "emeraldrapids_core.json.gz and its plain JSON give the same $(wc -l < "$gzdir/from-gz") events and encodings"
# NAME.json named where only NAME.json.gz is (as perfmon's mapfile names it): the .gz is read.
$PMUCAL events --vendor-json eventdata/intel/EMR/events/emeraldrapids_core.json | grep -v '^#' > "$gzdir/by-name"
[ -s "$gzdir/by-name" ] && [ "$(wc -l < "$gzdir/by-name")" -eq "$(wc -l < "$gzdir/from-gz")" ]
ok $? "--vendor-json NAME.json reads NAME.json.gz where only that is there ($(wc -l < "$gzdir/by-name") events)"
# A folder holding both is one table, each event read once.
cp eventdata/intel/EMR/events/emeraldrapids_core.json.gz "$gzdir/emr.json.gz"
cp "$gzdir/emr.json" "$gzdir/emr.json.gz" "$gzdir/both/"
is "$($PMUCAL events --vendor-json "$gzdir/both" | grep -vc '^#')" "$(wc -l < "$gzdir/from-gz")" "a folder with NAME.json and NAME.json.gz lists each event once"

# A corrupt .gz is an error naming the file and what is wrong, never a crash or a partial table.
head -c 20000 "$gzdir/emr.json.gz" > "$gzdir/truncated.json.gz"
cp "$gzdir/emr.json.gz" "$gzdir/flipped.json.gz"
printf '\377\377\377\377' | dd of="$gzdir/flipped.json.gz" bs=1 seek=5000 conv=notrunc 2> /dev/null
cp "$gzdir/emr.json" "$gzdir/plain.json.gz"
: > "$gzdir/empty.json.gz"
{ cat "$gzdir/emr.json.gz"; echo trailing; } > "$gzdir/trailing.json.gz"
line=$(awk '/corrupt-rows" << .EOF.$/ { print NR; exit }' "$0")
cat > "$gzdir/corrupt-rows" << 'EOF'
truncated.json.gz|truncated gzip stream (it ends before the gzip trailer)
flipped.json.gz|corrupt gzip stream (zlib: 
plain.json.gz|not gzip data
empty.json.gz|not gzip data
trailing.json.gz|data after the end of the gzip stream
EOF
n=0
while IFS='|' read -r name want; do
    n=$((n + 1))
    $PMUCAL events --vendor-json "$gzdir/$name" > "$gzdir/out" 2> "$gzdir/err"
    rc=$?
    [ $rc -eq 2 ] && [ ! -s "$gzdir/out" ] && [ "$(wc -l < "$gzdir/err")" -eq 1 ] && grep -qF "$gzdir/$name: $want" "$gzdir/err"
    ok $? "line $((line + n)): $name: exit $rc, one message naming the file: $(sed "s|$TMP/||g" "$gzdir/err" | cut -c1-240)"
done < "$gzdir/corrupt-rows"

# Emerald Rapids (the EMR VM's CPUID leaves, libpfm4's own PMU hidden): libpfm4 4.13 has no PMU
# for model 0xCF, so its events come from the vendor table, and events and info say why.
emr() { env -u PMUCAL_CPUID HWLOC_CPUID_PATH="$tree/tests/hosts/emr-vm/cpuid" "$@"; }
emr $PMUCAL events > "$TMP/emr.out" 2> "$TMP/emr.err"
rc=$?
[ $rc -eq 0 ] && head -n 1 "$TMP/emr.out" | grep -q "intel/EMR/events/emeraldrapids_core.json.gz (CPUID GenuineIntel-6-CF-2 matches row 'GenuineIntel-6-CF'" &&
    grep -q '^MEM_LOAD_RETIRED.L1_HIT  *# EMR/emeraldrapids_core.json.gz$' "$TMP/emr.out" &&
    grep -q "^# libpfm4: .*later libpfm4 maps Emerald Rapids (0xCF) onto that spr table" "$TMP/emr.out"
ok $? "the EMR fixture lists EMR's $(grep -vc '^#' "$TMP/emr.out") events from the vendor table, saying libpfm4's successors map it onto spr (exit $rc): $(head -n 2 "$TMP/emr.out" | cut -c1-200) $(head -c 200 "$TMP/emr.err")"
emr $PMUCAL info --json 2> /dev/null | jq -r '[.pmu.event_source, .pmu.vendor_table.name, .pmu.vendor_table.libpfm4_note] | join("|")' > "$TMP/emr.info"
grep -q '^vendor table|EMR|.*onto that spr table' "$TMP/emr.info"
ok $? "info on the EMR fixture: events from the vendor table EMR, and the libpfm4 note: $(cut -c1-160 "$TMP/emr.info")"

# perf metric names come from the table of the calibrated CPU's model: a calibration recorded on
# the EMR VM (CPUID GenuineIntel-6-CF-2, no model of models.h) gets EMR's own names, renamed ones
# too (ASSISTS.FP, Skylake's FP_ASSIST.ANY), each an EventName of the EMR table; a model whose table
# has no event for any penalty's issue gets no metrics and a message saying so.
mkdir -p "$TMP/emrcal" "$TMP/n2cal" "$TMP/n1cal"
jq '.cpu_model = null | .host.cpu.id = "GenuineIntel-6-CF-2"' results/reference/zen5-vm-calibrate/penalties.json > "$TMP/emrcal/penalties.json"
(hide_host_pmu; $PMUCAL emit --format perf-metrics "$TMP/emrcal" > "$TMP/emr-metrics.json" 2> "$TMP/emr-metrics.err")
rc=$?
gzip -dc eventdata/intel/EMR/events/emeraldrapids_core.json.gz | jq -r '.Events[].EventName' | sort -u > "$TMP/emr-names"
jq -r '.[].MetricExpr' "$TMP/emr-metrics.json" | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u > "$TMP/emr-used"
[ $rc -eq 0 ] && [ -s "$TMP/emr-used" ] && [ -z "$(comm -23 "$TMP/emr-used" "$TMP/emr-names")" ] &&
    grep -qx 'MEM_LOAD_RETIRED.L1_HIT' "$TMP/emr-used" && grep -qx 'ASSISTS.FP' "$TMP/emr-used" &&
    grep -qx 'CPU_CLK_UNHALTED.THREAD' "$TMP/emr-used"
ok $? "metrics for an EMR calibration name only EMR's events ($(tr '\n' ' ' < "$TMP/emr-used" | cut -c1-200); not in the table: $(comm -23 "$TMP/emr-used" "$TMP/emr-names" | tr '\n' ' ')) (exit $rc) $(head -c 200 "$TMP/emr-metrics.err")"
# A CPU no uarch file knows borrows the names its own table shares with one that does (the
# Neoverse N2 table has the N1's): a table with none of them is one written here.
jq '.cpu_model = null | .host.cpu.id = "0x00000000410fd490"' results/reference/zen5-vm-calibrate/penalties.json > "$TMP/n2cal/penalties.json"
mkdir -p "$TMP/tiny/arm/arm/tiny"
{ head -n 1 eventdata/arm/mapfile.csv; echo "0x00000000410fd490,v1,arm/tiny,core"; } > "$TMP/tiny/arm/mapfile.csv"
echo '[{"EventName": "TINY_CYCLES", "EventCode": "0x11", "BriefDescription": "cycles"}]' > "$TMP/tiny/arm/arm/tiny/tiny.json"
(hide_host_pmu; PMUCAL_EVENTDATA="$TMP/tiny" $PMUCAL emit --format perf-metrics "$TMP/n2cal" > "$TMP/n2-metrics.json" 2> "$TMP/n2-metrics.err")
rc=$?
[ $rc -ne 0 ] && [ ! -s "$TMP/n2-metrics.json" ] &&
    grep -q 'perf metrics: the tiny table (CPU 0x00000000410fd490) has no event counting the issue of any penalty here' "$TMP/n2-metrics.err"
ok $? "a CPU whose table has no event for any penalty's issue says so (exit $rc): $(grep 'perf metrics' "$TMP/n2-metrics.err" | head -c 200)"
# The Neoverse N1 has a uarch file (uarch/neoverse-n1.txt): its calibration's metrics name its events.
jq '.cpu_model = null | .host.cpu.id = "0x00000000414fd0c1"' results/reference/zen5-vm-calibrate/penalties.json > "$TMP/n1cal/penalties.json"
(hide_host_pmu; $PMUCAL emit --format perf-metrics "$TMP/n1cal" > "$TMP/n1-metrics.json" 2> "$TMP/n1-metrics.err")
rc=$?
jq -r '.[].MetricExpr' "$TMP/n1-metrics.json" 2> /dev/null | grep -o '[A-Za-z_][A-Za-z0-9_.]*' | sort -u > "$TMP/n1-used"
[ $rc -eq 0 ] && grep -qx 'BR_MIS_PRED_RETIRED' "$TMP/n1-used" && grep -qx 'CPU_CYCLES' "$TMP/n1-used"
ok $? "an N1 calibration's metrics name the events of uarch/neoverse-n1.txt (exit $rc): $(tr '\n' ' ' < "$TMP/n1-used" | cut -c1-200) $(head -c 200 "$TMP/n1-metrics.err")"

# Missing tables: exit 2, and the message says where to get them.
where="PMUCAL_EVENTDATA to a Linux checkout's tools/perf/pmu-events/arch, an Intel perfmon checkout"
PMUCAL_EVENTDATA=$TMP/none $PMUCAL events > /dev/null 2> "$TMP/miss.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no amd event tables .* under $TMP/none: pmucal ships them in its eventdata/ folder.*$where" "$TMP/miss.err"
ok $? "no tables at PMUCAL_EVENTDATA: exit $rc, the message names the folder and where tables come from: $(head -c 300 "$TMP/miss.err")"
PMUCAL_EVENTDATA=$TMP/none $PMUCAL tablediff amdzen4 amdzen5 > /dev/null 2> "$TMP/miss2.err"
rc=$?
[ $rc -eq 2 ] && grep -q "'amdzen4' is neither a path nor a table under $TMP/none.*$where" "$TMP/miss2.err"
ok $? "tablediff of a table not there: exit $rc, the message says where tables come from: $(head -c 300 "$TMP/miss2.err")"
PMUCAL_EVENTDATA=$perfmon $PMUCAL events > /dev/null 2> "$TMP/miss3.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no row of $perfmon/mapfile.csv matches CPUID AuthenticAMD-26-2 .*$where" "$TMP/miss3.err"
ok $? "a mapfile without the CPU's row: exit $rc, the message says where tables come from: $(head -c 300 "$TMP/miss3.err")"

# encodings takes a table name as tablediff does (the example its --help gives).
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
emr=$(git hash-object "$perfmon/EMR/events/emeraldrapids_core.json")
grep -q "^revision: .*(commit $commit)" "$TMP/fresh/amd/SOURCE" && grep -q "^amdzen5/load-store.json $blob$" "$TMP/fresh/amd/SOURCE" &&
    grep -q "^revision: .*(commit $(git -C "$perfmon" rev-parse HEAD))" "$TMP/fresh/intel/SOURCE" &&
    grep -q "^EMR/events/emeraldrapids_core.json.gz $emr$" "$TMP/fresh/intel/SOURCE" &&
    grep -q "^EMR/events/emeraldrapids_core.json.gz $emr$" eventdata/intel/SOURCE
ok $? "its SOURCE files name the checkouts' commits and each file's blob (a .gz: its JSON's, as upstream's git has it): $(sed -n 2p "$TMP/fresh/amd/SOURCE")"
scripts/refresh-eventdata.sh --linux "$TMP/none" --out "$TMP/fresh2" 2> "$TMP/refresh2.err"
rc=$?
[ $rc -eq 2 ] && grep -q "no $TMP/none/x86/mapfile.csv: --linux takes a Linux checkout" "$TMP/refresh2.err" && [ ! -e "$TMP/fresh2" ]
ok $? "refresh-eventdata.sh of a folder that is no checkout: exit $rc, one message, nothing written: $(cat "$TMP/refresh2.err")"
done_testing
