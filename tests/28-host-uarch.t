#!/bin/sh
# The microarchitecture files (uarch/NAME.txt, docs/grammar.md): each one parses; every event it
# names is in each of its CPUs' vendor tables and, where it gives a libpfm4 name, libpfm4 knows it
# on that PMU; every recipe it names is one; a fixture of tests/hosts/ is recognised as it. Then
# hostile files, each refused with its file:line and exit 2, and a host of two core kinds.
. "$(dirname "$0")/lib.sh"
unset PMUCAL_UARCH_DIR PMUCAL_CPUID LIBPFM_FORCE_PMU
eventdata=${PMUCAL_EVENTDATA:-eventdata}

$PMUCAL calibrate --list --json | jq -r '.[].name' > "$TMP/recipes"
[ "$(wc -l < "$TMP/recipes")" -ge 20 ]; ok $? "calibrate --list names the recipes ($(wc -l < "$TMP/recipes"))"
# Whose passes another thread's load witness leaves out: the branch, fetch (not from DRAM) and
# assist recipes, in the JSON and in the text alike.
fe=$($PMUCAL calibrate --list --json | jq -r '[.[] | select(.front_end == true) | .name] | join(",")')
nt=$($PMUCAL calibrate --list | grep -c "^    front   its cost is the front end's")
[ "$fe" = "mispredict,btb_resteer,ifetch_l2,ifetch_l3,fp_assist_mul,fp_assist_add" ] && [ "$nt" = 6 ]
ok $? "calibrate --list marks the front end's recipes: $fe ($nt in the text)"

# The fixtures' identities: a CPUID dump (HWLOC_CPUID_PATH), else a cpuinfo's or a midr file's
# signature (PMUCAL_CPUID, which stands for every CPU as it does for the vendor tables).
uarch_isa() { awk '$1 == "isa" { print $2; exit }' "$1"; }
fixture_env() { # fixture_env DIR: the environment assignments that make pmucal see it, or nothing
    if [ -d "$1/cpuid" ]; then
        echo "HWLOC_XMLFILE=$PWD/$1/hwloc.xml HWLOC_THISSYSTEM=1 HWLOC_THISSYSTEM_ALLOWED_RESOURCES=1 HWLOC_CPUID_PATH=$PWD/$1/cpuid"
    elif [ -f "$1/midr" ]; then
        echo "PMUCAL_CPUID=$(tr -d ' \n' < "$1/midr")"
    elif [ -f "$1/sys-cpu/cpu0/regs/identification/midr_el1" ]; then   # a mirror of /sys/devices/system/cpu
        echo "PMUCAL_CPUID=$(tr -d ' \n' < "$1/sys-cpu/cpu0/regs/identification/midr_el1")"
    elif [ -f "$1/cpuinfo" ]; then
        awk -F': *' '/^vendor_id/ && !v { v = $2 } /^cpu family/ && f == "" { f = $2 } /^model\t/ && m == "" { m = $2 }
                     /^CPU implementer/ && !i { i = $2 } /^CPU part/ && !p { p = $2 }
                     END { if (v != "") printf "PMUCAL_CPUID=%s-%d-%X\n", v, f, m;
                           else if (i != "") printf "PMUCAL_CPUID=0x%08x\n", strtonum(i) * 16777216 + 983040 + strtonum(p) * 16 }' "$1/cpuinfo"
    fi
}
: > "$TMP/recognised"
for d in tests/hosts/*/; do
    d=${d%/}
    e=$(fixture_env "$d")
    [ -n "$e" ] || continue
    env $e "$PMUCAL" info --json 2> /dev/null | jq -r '.uarchs[] | select(.uarch) | .uarch' | sort -u |
        while read -r u; do echo "$u ${d##*/}"; done >> "$TMP/recognised"
done

files=$(ls uarch/*.txt)
[ -n "$files" ]; ok $? "uarch/ holds files: $(echo $files)"
for f in $files; do
    name=$(basename "$f" .txt)
    mkdir -p "$TMP/one-$name" && cp "$f" "$TMP/one-$name/"
    PMUCAL_UARCH_DIR="$TMP/one-$name" $PMUCAL info > /dev/null 2> "$TMP/one.err"
    rc=$?
    [ $rc -eq 0 ] && [ ! -s "$TMP/one.err" ]; ok $? "$f parses (exit $rc$( [ -s "$TMP/one.err" ] && printf ': %s' "$(head -c 200 "$TMP/one.err")"))"
    # Its lines, comments dropped: the cycles event, the CPUs (table, PMU), the recipe events.
    sed 's/#.*//' "$f" > "$TMP/lines"
    cycles_perf=$(awk '$1 == "cycles" { for (i = 2; i <= NF; i++) if ($i ~ /^perf=/) print substr($i, 6) }' "$TMP/lines")
    cycles_pfm=$(awk '$1 == "cycles" { for (i = 2; i <= NF; i++) if ($i ~ /^pfm=/) print substr($i, 5) }' "$TMP/lines")
    awk '$1 == "event" { perf = pfm = "-"; for (i = 3; i <= NF; i++) { if ($i ~ /^perf=/) perf = substr($i, 6); if ($i ~ /^pfm=/) pfm = substr($i, 5) } print $2, perf, pfm }' "$TMP/lines" > "$TMP/events"
    awk '$1 == "reference" { print $2 }' "$TMP/lines" > "$TMP/refs"
    missing=$(cut -d' ' -f1 "$TMP/events" "$TMP/refs" | sort -u | grep -vxF -f "$TMP/recipes" | tr '\n' ' ')
    [ -z "$missing" ] && [ -s "$TMP/events" ]; ok $? "$f: its $(wc -l < "$TMP/events") events and $(wc -l < "$TMP/refs") references name recipes${missing:+; not recipes: $missing}"
    awk '$1 == "cpu" { t = p = "-"; for (i = 3; i <= NF; i++) { if ($i ~ /^table=/) t = substr($i, 7); if ($i ~ /^pfm=/) p = substr($i, 5) } print $2, t, p }' "$TMP/lines" > "$TMP/cpus"
    while read -r cpu table pfm; do
        $PMUCAL events --vendor-json "$eventdata/$table" 2> "$TMP/t.err" | grep -v '^#' | awk '{ print $1 }' > "$TMP/names"
        notin=$( { echo "$cycles_perf"; cut -d' ' -f2 "$TMP/events"; } | grep -vxF -f "$TMP/names" | tr '\n' ' ')
        [ -s "$TMP/names" ] && [ -z "$notin" ]
        ok $? "$f cpu $cpu: cycles and every recipe event are EventNames of $table ($(wc -l < "$TMP/names") there)${notin:+; not there: $notin}$( [ -s "$TMP/t.err" ] && printf '; %s' "$(head -c 160 "$TMP/t.err")")"
        [ "$pfm" = - ] && continue
        # An event libpfm4 lists by its unit masks (CPU_CLK_UNHALTED:THREAD) is known by its name too.
        $PMUCAL events --pmu "$pfm" 2> /dev/null | sed 's/^[^:]*:://' > "$TMP/pfm.listed"
        wanted=$( { [ -n "$cycles_pfm" ] && echo "$cycles_pfm"; awk '$3 != "-" { print $3 }' "$TMP/events"; } | tr . : | cut -d: -f1 | sort -u)
        if [ ! -s "$TMP/pfm.listed" ] && [ "$(uarch_isa "$f")" = aarch64 ]; then
            # This x86 build's libpfm4 has no Arm PMU; the arm64 libpfm4 the emulated N1 runs
            # (libpfm4-dev:arm64) holds the event names of its tables as strings.
            lib=$(ls /usr/lib/aarch64-linux-gnu/libpfm.so.4.* 2> /dev/null | head -n 1)
            if [ -z "$lib" ]; then
                skip "$f cpu $cpu: libpfm4's $pfm names" "this libpfm4 has no $pfm and libpfm4-dev:arm64 is not installed"
                continue
            fi
            strings "$lib" | sort -u > "$TMP/pfm.strings"
            unknown=$(echo "$wanted" | grep -vxF -f "$TMP/pfm.strings" | tr '\n' ' ')
            [ -n "$wanted" ] && [ -z "$unknown" ]
            ok $? "$f cpu $cpu: every pfm= name is an event name in the arm64 libpfm4 ($lib; this libpfm4 has no $pfm)${unknown:+; not: $unknown}"
            continue
        fi
        # (into another file: cut appending to the file it reads would never end)
        { cat "$TMP/pfm.listed"; cut -d: -f1 "$TMP/pfm.listed"; } > "$TMP/pfm"
        unknown=$( { [ -n "$cycles_pfm" ] && echo "$cycles_pfm"; awk '$3 != "-" { print $3 }' "$TMP/events"; } | tr . : | grep -vxF -f "$TMP/pfm" | tr '\n' ' ')
        [ -s "$TMP/pfm" ] && [ -z "$unknown" ]
        ok $? "$f cpu $cpu: libpfm4's $pfm knows every pfm= name$( [ -n "$unknown" ] && printf '; not: %s' "$unknown")"
    done < "$TMP/cpus"
    fixtures=$(awk -v u="$name" '$1 == u { print $2 }' "$TMP/recognised" | tr '\n' ' ')
    if [ -n "$fixtures" ]; then
        ok 0 "$f is recognised in a fixture of tests/hosts/: $fixtures"
    else
        ok 1 "$f is recognised in a fixture of tests/hosts/: none is; add tests/hosts/NAME/ with a cpuid/ dump (hwloc-gather-cpuid), a cpuinfo or a midr file of a $name CPU"
    fi
done

# An x86 cpu line claims only CPUID models perf's mapfile gives its table (the first core or
# hybrid-core row a model matches, as perf reads it), and every model a row names literally: no
# Lunar Lake under Alder Lake's ranges, no Comet Lake left out of Skylake's. A catch-all pattern
# (zen4's AuthenticAMD-25-[[:xdigit:]]+) may be narrowed to the models the file knows.
for f in $(ls uarch/*.txt); do
    sed 's/#.*//' "$f" | awk '$1 == "cpu" { v = fa = mo = t = ""; for (i = 3; i <= NF; i++) { split($i, kv, "=")
            if (kv[1] == "vendor") v = kv[2]; if (kv[1] == "family") fa = kv[2]; if (kv[1] == "model") mo = kv[2]; if (kv[1] == "table") t = kv[2] }
            if (v != "") print $2, v, fa, mo, t }' > "$TMP/x86cpus"
    while read -r cpu vendor family models table; do
        vendor_dir=${table%%/*} path=${table#*/}
        path=${path%.gz}
        echo "$models" | tr , '\n' | awk '{ n = split($0, r, "-"); lo = strtonum(r[1]); hi = strtonum(r[n]); for (m = lo; m <= hi; m++) print m }' |
            sort -n > "$TMP/claimed"
        # Each model 0-255: "all" when the first row it matches is this table's, "literal" too when that row is no pattern.
        awk -F, -v fam="$(printf '%d' "$family")" -v ven="$vendor" -v p="$path" '
            NR > 1 && ($4 == "core" || $4 == "hybridcore") { n++; pat[n] = $1; hyb[n] = $4 == "hybridcore"; q = $3; sub(/^\//, "", q)
                mine[n] = (q == p || index(q, p "/") == 1) }
            END { for (m = 0; m < 256; m++) { id = sprintf("%s-%d-%X", ven, fam, m)
                    for (i = 1; i <= n; i++) if (id ~ ("^(" pat[i] ")(-.*)?$")) break
                    # A hybrid part has a row per core type: any of the first pattern'"'"'s rows.
                    for (j = i; i <= n && j <= n && !mine[j] && hyb[i]; j++) if (!(hyb[j] && pat[j] == pat[i])) { j = n + 1; break }
                    if (i <= n && (mine[i] || (j <= n && mine[j]))) print m, (pat[i] ~ /[][()*+?|]/ ? "pattern" : "literal") } }' \
            "$eventdata/$vendor_dir/mapfile.csv" > "$TMP/mapped"
        beyond=$(cut -d' ' -f1 "$TMP/mapped" | grep -vxF -f - "$TMP/claimed" | paste -sd' ' -)
        left=$(awk '$2 == "literal" { print $1 }' "$TMP/mapped" | grep -vxF -f "$TMP/claimed" | paste -sd' ' -)
        [ -s "$TMP/claimed" ] && [ -s "$TMP/mapped" ] && [ -z "$beyond" ] && [ -z "$left" ]
        ok $? "$f cpu $cpu: its $(wc -l < "$TMP/claimed") models are $table's in perf's $vendor_dir mapfile${beyond:+; claimed beyond it: $beyond}${left:+; its rows name, left out: $left}"
    done < "$TMP/x86cpus"
done

# Hostile files: each refused, exit 2, one message naming FILE:LINE (or the file) and the fix, and
# nothing on stdout (info reads the files before it prints).
# line | what the message says | the file's text (\n between lines); the file is bad.txt
head='uarch bad\nisa x86_64\ncycles perf=ls_not_halted_cyc\n'
cpu='cpu bad vendor=AuthenticAMD family=0x30 model=0x00 table=amd/amdzen5\n'
while IFS='|' read -r line want text; do
    [ -z "$line" ] && continue
    rm -rf "$TMP/bad" && mkdir "$TMP/bad"
    printf "$text" > "$TMP/bad/bad.txt"
    PMUCAL_UARCH_DIR="$TMP/bad" $PMUCAL info > "$TMP/bad.out" 2> "$TMP/bad.err"
    rc=$?
    at="$TMP/bad/bad.txt:$line:"; [ "$line" = - ] && at="no uarch line in $TMP/bad/bad.txt;"
    [ $rc -eq 2 ] && grep -qF "pmucal: error: $at" "$TMP/bad.err" && grep -q -- "$want" "$TMP/bad.err" && [ "$(wc -l < "$TMP/bad.err")" -eq 1 ] && [ ! -s "$TMP/bad.out" ]
    ok $? "$(printf '%s' "$text" | sed 's/\\n/ \/ /g' | cut -c1-60): exit $rc, $(head -c 220 "$TMP/bad.err" | sed "s|$TMP/bad/||")"
done <<ROWS
-|a microarchitecture file begins uarch NAME|# nothing but a comment\n
1|the first line must be uarch NAME|isa x86_64\nuarch bad\n
1|begins with a UTF-8 byte order mark; save the file without it|\357\273\277${head}$cpu
1|uarch other, but the file is bad.txt; make them the same|uarch other\nisa x86_64\n
1|has no isa line|uarch bad\ncycles perf=x\n$cpu
2|write isa x86_64, isa aarch64 or isa riscv64|uarch bad\nisa sparc\n
4|isa given twice (line 2)|${head}isa x86_64\n
1|has no cycles line|uarch bad\nisa x86_64\n$cpu
3|cycles: perf= is missing; add perf=|uarch bad\nisa x86_64\ncycles pfm=CYCLES\n$cpu
3|cycles: unknown key \"speed\"|uarch bad\nisa x86_64\ncycles perf=a speed=3\n$cpu
3|cycles: \"perf\" is not KEY=VALUE|uarch bad\nisa x86_64\ncycles perf\n$cpu
4|cycles given twice|${head}cycles perf=b\n$cpu
1|has no cpu line|${head}
4|unknown keyword \"frequency\"|${head}frequency 3\n$cpu
4|a second uarch line|${head}uarch bad\n$cpu
4|cpu bad: vendor= is missing|${head}cpu bad family=0x30 model=0 table=amd/amdzen5\n
4|vendor=Cyrix is not a CPUID vendor|${head}cpu bad vendor=Cyrix family=0x30 model=0 table=amd/amdzen5\n
4|family=0x1z is not a CPUID display family|${head}cpu bad vendor=AuthenticAMD family=0x1z model=0 table=amd/amdzen5\n
4|family=010x is not|${head}cpu bad vendor=AuthenticAMD family=010x model=0 table=amd/amdzen5\n
4|\"0x20-0x10\" is not a model or range|${head}cpu bad vendor=AuthenticAMD family=0x30 model=0x20-0x10 table=amd/amdzen5\n
4|\"0x100\" is not a model or range|${head}cpu bad vendor=AuthenticAMD family=0x30 model=0x100 table=amd/amdzen5\n
4|model= is missing|${head}cpu bad vendor=AuthenticAMD family=0x30 table=amd/amdzen5\n
4|table= is missing|${head}cpu bad vendor=AuthenticAMD family=0x30 model=1\n
4|core=big is not a core type; write core=atom or core=core|${head}cpu bad vendor=GenuineIntel family=6 model=0x97 core=big table=intel/ADL\n
4|table=../../etc is not a path under eventdata/|${head}cpu bad vendor=AuthenticAMD family=0x30 model=1 table=../../etc\n
4|table=/etc is not a path under eventdata/|${head}cpu bad vendor=AuthenticAMD family=0x30 model=1 table=/etc\n
4|unknown key \"implementer\"|${head}cpu bad vendor=AuthenticAMD family=0x30 model=1 implementer=0x41 table=t\n
4|family= given twice|${head}cpu bad vendor=AuthenticAMD family=0x30 family=0x31 model=1 table=t\n
4|cpu: no name|${head}cpu vendor=AuthenticAMD family=0x30 model=1 table=t\n
4|cpu Bad: not a name|${head}cpu Bad vendor=AuthenticAMD family=0x30 model=1 table=t\n
5|cpu bad: named twice (line 4)|${head}${cpu}${cpu}
5|cpu two recognises AuthenticAMD family 0x30 model 0x5, as cpu bad (line 4) does|${head}cpu bad vendor=AuthenticAMD family=0x30 model=0-9 table=t\ncpu two vendor=AuthenticAMD family=0x30 model=5 table=t\n
4|part= is missing|uarch bad\nisa aarch64\ncycles perf=CPU_CYCLES\ncpu bad implementer=0x41 table=arm/arm/neoverse-n1\n
4|implementer=0x141 is not an MIDR implementer|uarch bad\nisa aarch64\ncycles perf=CPU_CYCLES\ncpu bad implementer=0x141 part=0xd0c table=t\n
4|\"0x1000\" is not an MIDR part number|uarch bad\nisa aarch64\ncycles perf=CPU_CYCLES\ncpu bad implementer=0x41 part=0xd0c,0x1000 table=t\n
4|unknown key \"vendor\"|uarch bad\nisa aarch64\ncycles perf=CPU_CYCLES\ncpu bad vendor=AuthenticAMD implementer=0x41 part=0xd0c table=t\n
4|marchid= is missing|uarch bad\nisa riscv64\ncycles perf=cycles\ncpu bad mvendorid=0x489 table=t\n
4|mimpid=0xg is not a 64-bit number|uarch bad\nisa riscv64\ncycles perf=cycles\ncpu bad mvendorid=0x489 marchid=0x8000000000000007 mimpid=0xg table=t\n
5|event nosuch: no such recipe|${head}${cpu}event nosuch perf=x\n
5|event l1_hit: perf= is missing|${head}${cpu}event l1_hit pfm=X\n
6|event l1_hit: given twice (line 5)|${head}${cpu}event l1_hit perf=a\nevent l1_hit perf=b\n
5|event: no recipe|${head}${cpu}event perf=a\n
5|source sog is not defined above|${head}${cpu}reference l1_hit 4 check penalty sog\n
6|figure \"0\" is not a number|${head}${cpu}source s Some guide\nreference l1_hit 0 check penalty s\n
6|figure \"5-4\" is not a number|${head}${cpu}source s Some guide\nreference l1_hit 5-4 check penalty s\n
6|figure \"1e3\" is not a number|${head}${cpu}source s Some guide\nreference l1_hit 1e3 check penalty s\n
6|figure \"inf\" is not a number|${head}${cpu}source s Some guide\nreference l1_hit inf check penalty s\n
6|\"sure\" is not a kind; write check or indicative|${head}${cpu}source s Some guide\nreference l1_hit 4 sure penalty s\n
6|\"all\" is not a part; write penalty or whole|${head}${cpu}source s Some guide\nreference l1_hit 4 check all s\n
6|reference: 5 fields|${head}${cpu}source s Some guide\nreference l1_hit 4 check penalty\n
7|reference l1_hit: given twice (line 6)|${head}${cpu}source s Some guide\nreference l1_hit 4 check penalty s\nreference l1_hit 5 check penalty s\n
6|reference nosuch: no such recipe|${head}${cpu}source s Some guide\nreference nosuch 4 check penalty s\n
6|source s: defined twice (line 5)|${head}${cpu}source s Some guide\nsource s Another\n
5|source: write source ID TEXT|${head}${cpu}source s\n
ROWS

# A NUL byte: a file that is not text.
rm -rf "$TMP/bad" && mkdir "$TMP/bad"
printf 'uarch bad\nisa x86_64\000\n' > "$TMP/bad/bad.txt"
PMUCAL_UARCH_DIR="$TMP/bad" $PMUCAL info > /dev/null 2> "$TMP/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "bad.txt:2: a NUL byte" "$TMP/bad.err"; ok $? "a NUL byte: exit $rc, $(head -c 160 "$TMP/bad.err")"

# PMUCAL_UARCH_DIR that is not a folder.
: > "$TMP/plain"
for v in "$TMP/plain" "$TMP/absent" ""; do
    PMUCAL_UARCH_DIR=$v $PMUCAL info > /dev/null 2> "$TMP/dir.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "PMUCAL_UARCH_DIR=.*: \(not a folder\|No such file or directory\|set but empty\); name the folder of microarchitecture files" "$TMP/dir.err"
    ok $? "PMUCAL_UARCH_DIR='$v' (not a folder): exit $rc, $(head -c 200 "$TMP/dir.err")"
done

# Two files claiming one CPU; a CPU named as another file's uarch.
rm -rf "$TMP/two" && mkdir "$TMP/two"
cp uarch/zen5.txt "$TMP/two/"
printf 'uarch zen5b\nisa x86_64\ncycles perf=ls_not_halted_cyc\ncpu turin vendor=AuthenticAMD family=0x1a model=0x11 table=amd/amdzen5\n' > "$TMP/two/zen5b.txt"
PMUCAL_UARCH_DIR="$TMP/two" $PMUCAL info > /dev/null 2> "$TMP/two.err"
rc=$?
[ $rc -eq 2 ] && grep -q "zen5b.txt:4: cpu turin claims AuthenticAMD family 0x1a model 0x11, as cpu zen5 does at .*zen5.txt:[0-9]*" "$TMP/two.err"
ok $? "two files claiming one CPU: exit $rc, $(head -c 250 "$TMP/two.err" | sed "s|$TMP/two/||g")"
printf 'uarch zen5b\nisa x86_64\ncycles perf=ls_not_halted_cyc\ncpu zen5 vendor=AuthenticAMD family=0x30 model=0x11 table=amd/amdzen5\n' > "$TMP/two/zen5b.txt"
PMUCAL_UARCH_DIR="$TMP/two" $PMUCAL info > /dev/null 2> "$TMP/two.err"
rc=$?
[ $rc -eq 2 ] && grep -q "zen5b.txt:4: cpu zen5 has the name of the uarch of .*zen5.txt" "$TMP/two.err"
ok $? "a CPU with another file's uarch name: exit $rc, $(head -c 250 "$TMP/two.err" | sed "s|$TMP/two/||g")"
# The file's name and its uarch line.
rm -rf "$TMP/name" && mkdir "$TMP/name" && cp uarch/zen4.txt "$TMP/name/zen-4.txt"
PMUCAL_UARCH_DIR="$TMP/name" $PMUCAL calibrate --uarch zen4 --recipe l1_hit > /dev/null 2> "$TMP/name.err"
rc=$?
[ $rc -eq 2 ] && grep -q "zen-4.txt:[0-9]*: uarch zen4, but the file is zen-4.txt; make them the same" "$TMP/name.err"
ok $? "a file named other than its uarch line: exit $rc, $(head -c 200 "$TMP/name.err" | sed "s|$TMP/name/||")"
# An empty folder: nothing recognised, and --uarch says where none were found.
mkdir -p "$TMP/empty"
PMUCAL_UARCH_DIR="$TMP/empty" $PMUCAL cpi --uarch zen4 tests/data/perf-stat-zen5.csv > /dev/null 2> "$TMP/empty.err"
rc=$?
[ $rc -eq 2 ] && grep -q "uarch zen4: give one of none: no uarch/\*.txt in $TMP/empty" "$TMP/empty.err"
ok $? "an empty PMUCAL_UARCH_DIR: --uarch zen4 is refused saying where no file was found (exit $rc: $(head -c 200 "$TMP/empty.err"))"
PMUCAL_UARCH_DIR="$TMP/empty" $PMUCAL info 2> /dev/null | grep '^uarch' > "$TMP/empty.info"
grep -q "no uarch files (\*.txt) in $TMP/empty, so none recognises them" "$TMP/empty.info"
ok $? "info says the folder holds no uarch files, not that none recognises the CPU: $(head -c 200 "$TMP/empty.info")"
PMUCAL_CPUID=AuthenticAMD-23-31 $PMUCAL info 2> /dev/null | grep '^uarch' > "$TMP/zen2.info"
grep -q "family 23 model 0x31: none of the $(ls uarch/*.txt | wc -l) uarch files in .*uarch recognises them" "$TMP/zen2.info"
ok $? "a CPU no file claims: how many files were read, and where: $(head -c 200 "$TMP/zen2.info")"

# A host of two core kinds: CPU 0 a Zen 4, CPU 1 a Zen 5 (two fixtures' CPUID dumps joined). info
# says which CPUs are which; calibrate takes the uarch of the CPU it measures.
mix=$TMP/mix && mkdir -p "$mix"
cp tests/hosts/zen4-vm/cpuid/hwloc-cpuid-info tests/hosts/zen4-vm/cpuid/pu0 "$mix/" && cp tests/hosts/zen5-vm/cpuid/pu1 "$mix/pu1"
hide_host_pmu
export HWLOC_XMLFILE=$PWD/tests/hosts/zen4-vm/hwloc.xml HWLOC_THISSYSTEM=1 HWLOC_THISSYSTEM_ALLOWED_RESOURCES=1 HWLOC_CPUID_PATH=$mix
got=$($PMUCAL info --json | jq -r '[.uarchs[] | "\(.uarch) \(.cpus)"] | join(", ")')
is "$got" "zen4 0, zen5 1" "info --json on a host of two kinds says which CPUs are which uarch"
$PMUCAL info | grep '^uarch' > "$TMP/mix.txt"
[ "$(wc -l < "$TMP/mix.txt")" -eq 2 ] && grep -q '^uarch      zen4 (CPU 0: cpu zen4 of .*, AuthenticAMD family 25 model 0x' "$TMP/mix.txt" &&
    grep -q '^uarch      zen5 (CPU 1: ' "$TMP/mix.txt"
ok $? "info says it in two lines: $(tr '\n' ';' < "$TMP/mix.txt" | cut -c1-250)"
# A dump whose pu1 lacks leaf 1: CPU 1's identity cannot be read, and info says why (the reason
# once came from a buffer nothing had written).
sed -i '/^[0-9a-f]* 1 0 0 0 =>/d' "$mix/pu1"
$PMUCAL info 2> /dev/null | grep '^uarch' > "$TMP/nol1.txt"
grep -qx "uarch      CPU 1: no CPUID leaves 0 and 1 in $mix" "$TMP/nol1.txt"
ok $? "a CPU whose dump lacks leaf 1: its identity is not read, and info says so: $(tr '\n' ';' < "$TMP/nol1.txt" | cut -c1-250)"
cp tests/hosts/zen5-vm/cpuid/pu1 "$mix/pu1"
if [ "$(nproc)" -ge 2 ]; then
    for c in 0:zen4 1:zen5; do
        got=$($PMUCAL calibrate --cpu "${c%%:*}" --recipe div64_latency --no-curve --passes 1 -r 3 --out "$TMP/cal-mix" 2> /dev/null |
              sed -n 's/^# references: \([a-z0-9]*\);.*/\1/p')
        is "$got" "${c#*:}" "calibrate --cpu ${c%%:*} takes the uarch of CPU ${c%%:*}"
    done
else
    skip "calibrate on each CPU of a two-kind host" "one CPU here"
fi
rm -rf "$TMP/cal-mix"

# A hybrid part: one family and model, two core types (CPUID 7 EDX bit 15, 0x1A EAX[31:24]). The EMR
# dump made an Alder Lake (0x97) whose CPU 0 is a Core and CPU 1 an Atom: goldencove's alderlake
# line (core=core) claims CPU 0 alone, and a gracemont file's core=atom line CPU 1, no clash.
hyb=$TMP/hyb && mkdir -p "$hyb/u" && cp -r tests/hosts/emr-vm/cpuid "$hyb/cpuid" && cp uarch/*.txt "$hyb/u/"
for pu in 0 1; do
    type=$([ $pu = 0 ] && echo 40000000 || echo 20000000)
    sed -i "s/^1 1 0 0 0 => [0-9a-f]* /1 1 0 0 0 => 90672 /; s/^5 7 0 0 0 => \(.*\) 20000010\$/5 7 0 0 0 => \\1 20008010/; s/^5 1a 0 0 0 => 0 /5 1a 0 0 0 => $type /" "$hyb/cpuid/pu$pu"
done
printf 'uarch gracemont\nisa x86_64\ncycles perf=CPU_CLK_UNHALTED.CORE\ncpu alderlake-e vendor=GenuineIntel family=6 model=0x97 core=atom table=intel/ADL/events/alderlake_gracemont_core.json.gz\n' > "$hyb/u/gracemont.txt"
HWLOC_XMLFILE=$PWD/tests/hosts/emr-vm/hwloc.xml HWLOC_CPUID_PATH=$hyb/cpuid PMUCAL_UARCH_DIR=$hyb/u $PMUCAL info 2> "$TMP/hyb.err" | grep '^uarch' > "$TMP/hyb.txt"
grep -q '^uarch      goldencove (CPU 0: cpu alderlake of .*model 0x97 core=core)$' "$TMP/hyb.txt" &&
    grep -q '^uarch      gracemont (CPU 1: cpu alderlake-e of .*model 0x97 core=atom)$' "$TMP/hyb.txt" && [ ! -s "$TMP/hyb.err" ]
ok $? "a hybrid part's P-core and E-core are two uarchs by CPUID 0x1A: $(tr '\n' ';' < "$TMP/hyb.txt" | cut -c1-300) $(head -c 200 "$TMP/hyb.err")"
sed -i 's/ core=atom / /' "$hyb/u/gracemont.txt"
HWLOC_XMLFILE=$PWD/tests/hosts/emr-vm/hwloc.xml HWLOC_CPUID_PATH=$hyb/cpuid PMUCAL_UARCH_DIR=$hyb/u $PMUCAL info > /dev/null 2> "$TMP/hyb.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'gracemont.txt:4: cpu alderlake-e claims GenuineIntel family 0x6 model 0x97, as cpu alderlake does' "$TMP/hyb.err"
ok $? "without core=, the E-core line claims the P-cores too: refused (exit $rc: $(head -c 200 "$TMP/hyb.err"))"
on_this_machine
# A run folder of before the word uarch (cpu_model) still names its uarch's events.
$PMUCAL emit -f perf-metrics results/reference/zen5-vm-calibrate > "$TMP/old.json" 2> "$TMP/old.err"
rc=$?
jq -e 'length > 0 and ([.[].MetricExpr] | any(test("ls_dispatch.ld_dispatch")))' "$TMP/old.json" > /dev/null && [ $rc -eq 0 ]
ok $? "an old run folder (cpu_model zen5) still takes zen5's event names (exit $rc $(head -c 100 "$TMP/old.err"))"
done_testing
