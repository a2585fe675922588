#!/bin/bash
# Every setting is used or refused with its reason (issue 46, item 5), on every host kind: the
# environment variables that describe the host (PMUCAL_CURVE_FILE, PMUCAL_CACHE_DIR,
# HWLOC_CPUID_PATH, PMUCAL_CPUID, LIBPFM_DISABLED_PMUS) given a missing file, garbage, a device, a
# FIFO, a symbolic-link loop, an empty or an overlong value. A refusal exits 2 naming the variable
# and the fix; a setting that is used shows it was. Rows run under fixtures whose hwloc levels are
# plausible (zen3-vm, zen5-vm-32m: where PMUCAL_CURVE_FILE went unread) and one whose are not.
. "$(dirname "$0")/lib.sh"
export PMUCAL_TEST_HOST= PMUCAL_TEST_HIDE_PMU=
unset PMUCAL_CURVE_FILE PMUCAL_GEOMETRY PMUCAL_CPUID LIBPFM_FORCE_PMU LIBPFM_DISABLED_PMUS

# row LINE STATUS PATTERN FIX -- command...: exits STATUS, and stderr has PATTERN and FIX (the way
# out it names), within 20 s (a FIFO that is opened and waited on fails by the timeout).
row() {
    line=$1 want=$2 pattern=$3 fix=$4
    shift 5
    timeout "${ROW_LIMIT:-20}" "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err" && grep -q -- "$fix" "$TMP/err"
    ok $? "line $line: $(echo "$*" | sed "s|$TMP|\$TMP|g" | cut -c1-150): exit $got (want $want), $(head -c 220 "$TMP/err" | tr '\n' ' ')"
}
fx() { # env $(fx HOST) ...: that fixture's topology
    echo "HWLOC_XMLFILE=$PWD/tests/hosts/$1/hwloc.xml HWLOC_THISSYSTEM=1 HWLOC_THISSYSTEM_ALLOWED_RESOURCES=1"
}

mkfifo "$TMP/fifo"
printf 'bytes,cycles,ns\n4096,4,1\nnot,a,number\n' > "$TMP/garbage.csv"
printf 'bytes,cycles,ns\n4096,4,1\n2048,4,1\n8192,14,3\n16384,40,10\n' > "$TMP/shrinking.csv"
printf '4096,4,1\n8192,4,1,9\n' > "$TMP/fourcols.csv"
printf '4096,4,1\n8192,4,1\0\n16384,14,3\n65536,60,20\n' > "$TMP/nul.csv"
long=$(printf '%05000d' 0)

# PMUCAL_CURVE_FILE: read and checked on every host, plausible hwloc or not.
FIX="unset PMUCAL_CURVE_FILE"
for host in zen3-vm zen5-vm-32m zen5-vm; do
    row $LINENO 2 "PMUCAL_CURVE_FILE=/dev/zero: cannot read /dev/zero: a device" "$FIX" -- env $(fx $host) PMUCAL_CURVE_FILE=/dev/zero $PMUCAL info
    row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/none.csv: cannot read .*No such file" "$FIX" -- env $(fx $host) PMUCAL_CURVE_FILE="$TMP/none.csv" $PMUCAL info
done
row $LINENO 2 "PMUCAL_CURVE_FILE=/dev/zero: cannot read /dev/zero: a device" "$FIX" -- env PMUCAL_CURVE_FILE=/dev/zero $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/fifo: cannot read .*a FIFO" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/fifo" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP: cannot read .*a folder" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/garbage.csv:3: not bytes,cycles,ns" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/garbage.csv" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/shrinking.csv:3: 2048 bytes after 4096: the sizes must grow" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/shrinking.csv" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/fourcols.csv:2: not bytes,cycles,ns" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/fourcols.csv" $PMUCAL info
printf '4096,4,1\n8192,nan,1\n16384,inf,2\n' > "$TMP/nan.csv"
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/nan.csv:2: the point at 8192 bytes: cycles is nan" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/nan.csv" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE=$TMP/nul.csv:2: a NUL byte" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$TMP/nul.csv" $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE is set but empty" "unset it" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE= $PMUCAL info
row $LINENO 2 "PMUCAL_CURVE_FILE: a path of 5000 characters" "$FIX" -- env $(fx zen3-vm) PMUCAL_CURVE_FILE="$long" $PMUCAL info
row $LINENO 2 "cannot measure the cache levels while PMUCAL_CURVE_FILE=" "$FIX" -- env PMUCAL_CURVE_FILE="$PWD/tests/hosts/zen5-vm-32m/curve.csv" $PMUCAL info --measure

# Used: on a plausible host the curve is read and shown beside hwloc's levels, which stay in use.
curve="$PWD/tests/hosts/zen5-vm-32m/curve.csv"
env $(fx zen5-vm-32m) PMUCAL_CURVE_FILE="$curve" $PMUCAL info --json > "$TMP/used.json" 2> /dev/null
jq -e '(.topology.geometry.curve | test("read from PMUCAL_CURVE_FILE=.*hwloc.s levels pass the checks and are used"))
       and ([.topology.geometry.levels[] | .source] == ["hwloc", "hwloc", "hwloc"])
       and (.topology.geometry.levels[2].bytes == 33554432) and (.topology.geometry.levels[2].measured_bytes > 0)' \
    "$TMP/used.json" > /dev/null
ok $? "line $LINENO: zen5-vm-32m with its curve: shown beside (L3 measured $(jq .topology.geometry.levels[2].measured_bytes "$TMP/used.json")), hwloc's 32M used: $(jq -r .topology.geometry.curve "$TMP/used.json")"
env $(fx zen5-vm-32m) PMUCAL_GEOMETRY=hwloc PMUCAL_CURVE_FILE="$curve" $PMUCAL info --json > "$TMP/hw.json" 2> /dev/null
jq -e '(.topology.geometry.curve | test("not used: PMUCAL_GEOMETRY=hwloc")) and .topology.geometry.levels[2].measured_bytes > 0' \
    "$TMP/hw.json" > /dev/null
ok $? "line $LINENO: PMUCAL_GEOMETRY=hwloc with a curve says it is not used: $(jq -r .topology.geometry.curve "$TMP/hw.json")"
env $(fx zen5-vm) PMUCAL_CURVE_FILE="$PWD/tests/hosts/zen5-vm/curve.csv" $PMUCAL info --json > "$TMP/impl.json" 2> /dev/null
is "$(jq -c '.topology.geometry.levels[2] | [.bytes, .source]' "$TMP/impl.json")" '[12582912,"measured"]' \
    "line $LINENO: on zen5-vm (508M 0-way L3) the curve's L3 replaces hwloc's"

# PMUCAL_CACHE_DIR: a folder, or a path where one can be made; anything else is refused.
FIX="name a folder for measured host facts"
ln -s /dev/urandom "$TMP/urandom"
ln -s "$TMP/loop" "$TMP/loop"
: > "$TMP/plainfile"
row $LINENO 2 "PMUCAL_CACHE_DIR=$TMP/fifo: a FIFO, not a folder" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/fifo" $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR=$TMP/urandom: a device, not a folder" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/urandom" $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR=$TMP/loop: Too many levels of symbolic links, not a folder" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/loop" $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR=$TMP/plainfile: a file, not a folder" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/plainfile" $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR=$TMP/plainfile/sub: Not a directory, not a folder" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/plainfile/sub" $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR is set but empty" "$FIX" -- env PMUCAL_CACHE_DIR= $PMUCAL info
row $LINENO 2 "PMUCAL_CACHE_DIR: a path of 5000 characters" "$FIX" -- env PMUCAL_CACHE_DIR="$long" $PMUCAL info
# XDG_CACHE_HOME and HOME are the desktop's: one whose cache folder cannot be is said, and the
# command goes on without a cache (a HOME of /dev/null must not stop pmucal).
NOCACHE="set PMUCAL_CACHE_DIR to a folder to keep them"
# These two measure the curve and the TLBs, with no cache to find them in: under SAN=1 6.5 s alone
# on the Emerald Rapids guest, 11.5 s where the curve failed its checks and was measured again
# (three attempts at most; the sweep goes on into memory, to 28M there). Beside the other tests
# that passed 20 s: make test SAN=1 failed the second row once. The limit is for a hang.
ROW_LIMIT=90
row $LINENO 0 "XDG_CACHE_HOME=$TMP/fifo: $TMP/fifo/pmucal: Not a directory, not a folder: measured host facts are not cached" "$NOCACHE" -- env -u PMUCAL_CACHE_DIR XDG_CACHE_HOME="$TMP/fifo" $PMUCAL info
row $LINENO 0 "HOME=/dev/null: /dev/null/.cache/pmucal: Not a directory, not a folder: measured host facts are not cached" "$NOCACHE" -- env -u PMUCAL_CACHE_DIR -u XDG_CACHE_HOME HOME=/dev/null $PMUCAL info
ROW_LIMIT=20
# (A 300 MB file as the folder is a file like any other: refused by its kind, never read.)
# A cache file that is not one (a FIFO, garbage, JSON that is not an object) is named, never
# measured over in silence. Its name is the one info gives on a host whose levels pass the checks.
mkdir -p "$TMP/cache2"
if PMUCAL_CACHE_DIR="$TMP/cache2" PMUCAL_GEOMETRY=hwloc $PMUCAL info --json 2> /dev/null |
    jq -e '[.topology.geometry.levels[] | .hwloc_plausible] | all' > /dev/null; then
    f=$(PMUCAL_CACHE_DIR="$TMP/cache2" $PMUCAL info --json 2> /dev/null | jq -r .topology.geometry.curve | sed -n 's/.* into \(.*\))$/\1/p')
    [ -n "$f" ] && [ "$(dirname "$f")" = "$TMP/cache2" ]
    ok $? "line $LINENO: on a plausible host info names the cache file a measured curve would go to: $f"
    FIX="remove it (pmucal measures again"
    for content in 'garbage' '[1,2]' ''; do
        printf '%s' "$content" > "$f"
        row $LINENO 2 "a cache file of measured host facts: $f: not" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/cache2" $PMUCAL info
    done
    rm -f "$f" && mkfifo "$f"
    row $LINENO 2 "a cache file of measured host facts: $f: a FIFO, not a regular file" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/cache2" $PMUCAL info
    rm -f "$f" && ln -s /dev/urandom "$f"
    row $LINENO 2 "a cache file of measured host facts: $f: a device, not a regular file" "$FIX" -- env PMUCAL_CACHE_DIR="$TMP/cache2" $PMUCAL info
    rm -f "$f"
else
    for n in 1 2 3 4 5 6; do
        skip "a damaged cache file is named" "this host's hwloc levels are implausible: info would measure the curve (tests/45-host-geometry.t covers the cache there)"
    done
fi

# HWLOC_CPUID_PATH: a folder hwloc-gather-cpuid wrote, read before hwloc sees it; anything else is
# refused (hwloc ignored it and described this machine, while info said the dump described it).
if [ "$(uname -m)" = x86_64 ]; then
    FIX="give a folder written by hwloc-gather-cpuid"
    mkdir -p "$TMP/nopu0" "$TMP/emptypu0" "$TMP/garbagepu0" "$TMP/nosummary" "$TMP/noleaf1"
    for d in nopu0 emptypu0 garbagepu0 noleaf1; do echo "Architecture: x86" > "$TMP/$d/hwloc-cpuid-info"; done
    : > "$TMP/emptypu0/pu0"
    { head -n 3 tests/hosts/zen3-vm/cpuid/pu0; echo 'this is not a leaf'; } > "$TMP/garbagepu0/pu0"
    grep -v '^1 1 ' tests/hosts/zen3-vm/cpuid/pu0 > "$TMP/noleaf1/pu0"
    cp tests/hosts/zen3-vm/cpuid/pu0 "$TMP/nosummary/"
    row $LINENO 2 "HWLOC_CPUID_PATH=/dev/zero: cannot read /dev/zero/pu0: Not a directory" "$FIX" -- env HWLOC_CPUID_PATH=/dev/zero $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/fifo: cannot read" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/fifo" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/nopu0: cannot read $TMP/nopu0/pu0: No such file" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/nopu0" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/emptypu0: .*has no CPUID leaves 0 and 1" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/emptypu0" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/noleaf1: .*has no CPUID leaves 0 and 1" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/noleaf1" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/garbagepu0: $TMP/garbagepu0/pu0 line 4: not a leaf" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/garbagepu0" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=$TMP/nosummary: cannot read hwloc's summary" "$FIX" -- env HWLOC_CPUID_PATH="$TMP/nosummary" $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=: set but empty" "$FIX" -- env HWLOC_CPUID_PATH= $PMUCAL info
    row $LINENO 2 "HWLOC_CPUID_PATH=/dev/zero: cannot read" "$FIX" -- env HWLOC_CPUID_PATH=/dev/zero $PMUCAL run walker size=4k -e page-faults -r 1
    # Used: info says what the dump describes and what stays this machine's.
    HWLOC_CPUID_PATH="$PWD/tests/hosts/zen5-vm-32m/cpuid" $PMUCAL info > "$TMP/dump.txt" 2> "$TMP/dump.err"
    rc=$?
    [ $rc -eq 0 ] && grep -q "^cpuid      replayed from $PWD/tests/hosts/zen5-vm-32m/cpuid/pu0: .*hwloc's levels .* are that CPU's; the cpu, features and libpfm4 pmu lines are this machine's" "$TMP/dump.txt" &&
        grep -q '^dtlb       4k first level  96 entries, from CPUID leaf 0x80000005' "$TMP/dump.txt" && ! grep -q 'Ignoring' "$TMP/dump.err"
    ok $? "line $LINENO: a usable dump is used (the zen5-vm-32m TLBs, 96 entries) and info says what it describes: $(grep '^cpuid' "$TMP/dump.txt" | cut -c1-200)"
else
    skip "HWLOC_CPUID_PATH rows" "the dumps are x86 CPUID; this machine is $(uname -m)"
fi

# PMUCAL_CPUID of another ISA than this build's: its table is listed and grouped labelled as that
# CPU's, and its events are never counted here as this CPU's own.
if [ "$(uname -m)" = x86_64 ]; then
    row $LINENO 0 "PMUCAL_CPUID=0x414fd0c1 is an Arm CPU's MIDR, and this pmucal is built for x86-64: the table neoverse-n1 speaks for that CPU's perf" \
        "never counted here" -- env LIBPFM_DISABLED_PMUS=amd64,intel,skl,icl PMUCAL_CPUID=0x414fd0c1 $PMUCAL groups -e INST_RETIRED,CPU_CYCLES
    is "$(cat "$TMP/out")" "{r8:u,r11:u}" "line $LINENO: groups still prints the N1's encodings, for perf on an N1"
    PMUCAL_CPUID=0x414fd0c1 $PMUCAL run walker size=4k -e INST_RETIRED,page-faults -r 1 > "$TMP/arm.out" 2> "$TMP/arm.err"
    rc=$?
    grep -q "^  INST_RETIRED  *-  PMUCAL_CPUID=0x414fd0c1 is an Arm CPU's MIDR" "$TMP/arm.out"
    ok $? "line $LINENO: run -e INST_RETIRED with an Arm MIDR: unsupported with the reason, never counted (exit $rc): $(grep INST_RETIRED "$TMP/arm.out" | head -n 1 | cut -c1-160)"
    row $LINENO 2 "PMUCAL_CPUID=0xzz is not an Arm MIDR" "VENDOR-FAMILY-MODEL" -- env LIBPFM_DISABLED_PMUS=amd64,intel,skl,icl PMUCAL_CPUID=0xzz $PMUCAL groups -e INST_RETIRED
else
    skip "PMUCAL_CPUID of another ISA" "the rows name an Arm MIDR on an x86 build; this machine is $(uname -m)"
fi
# Its form is checked before any command runs: a command that never looks a table up, on a host
# whose PMU libpfm4 knows (forced here so every machine is one), refuses a malformed value too.
row $LINENO 2 "PMUCAL_CPUID=zz is not VENDOR-FAMILY-MODEL" "fix it or unset PMUCAL_CPUID" -- env LIBPFM_FORCE_PMU=amd64_fam19h_zen3 PMUCAL_CPUID=zz $PMUCAL info
row $LINENO 2 "PMUCAL_CPUID=0x1234567890 is not an Arm MIDR" "fix it or unset PMUCAL_CPUID" -- env PMUCAL_CPUID=0x1234567890 $PMUCAL kernels

# LIBPFM_DISABLED_PMUS: a PMU it disables is named as disabled by it; a list libpfm4 would match
# against nothing (a space) is refused.
FIX="take it out of LIBPFM_DISABLED_PMUS"
row $LINENO 2 "--pmu skl: LIBPFM_DISABLED_PMUS=skl disables it" "$FIX" -- env LIBPFM_DISABLED_PMUS=skl $PMUCAL events --pmu skl
row $LINENO 2 "--pmu skl: LIBPFM_DISABLED_PMUS=skl disables it" "$FIX" -- env LIBPFM_DISABLED_PMUS=skl $PMUCAL groups -e INST_RETIRED --pmu skl
row $LINENO 2 "LIBPFM_FORCE_PMU=skl: LIBPFM_DISABLED_PMUS=icl,sk disables it" "$FIX" -- env LIBPFM_DISABLED_PMUS=icl,sk LIBPFM_FORCE_PMU=skl $PMUCAL events
row $LINENO 2 "LIBPFM_DISABLED_PMUS=skl, icl: not a list of libpfm4 PMU names" "unset LIBPFM_DISABLED_PMUS" -- env "LIBPFM_DISABLED_PMUS=skl, icl" $PMUCAL info
row $LINENO 2 "LIBPFM_DISABLED_PMUS=0000.*at most 1024 characters" "unset LIBPFM_DISABLED_PMUS" -- env LIBPFM_DISABLED_PMUS="$long" $PMUCAL info
row $LINENO 2 "--pmu nosuchpmu: libpfm4 has no such PMU" "examples: skl" -- env LIBPFM_DISABLED_PMUS=skl $PMUCAL events --pmu nosuchpmu
# Used: the host's own PMU hidden, info says the variable hid it (not that libpfm4 lacks it).
if [ "$(uname -m)" = x86_64 ]; then
    LIBPFM_DISABLED_PMUS=amd64_fam19h_zen3 HWLOC_CPUID_PATH="$PWD/tests/hosts/zen3-vm/cpuid" $PMUCAL info > "$TMP/hidden.txt" 2> /dev/null
    grep -q "^pmu  .*vendor table amdzen3 .*libpfm4's PMU for it, amd64_fam19h_zen3, is hidden: LIBPFM_DISABLED_PMUS=amd64_fam19h_zen3 disables it" "$TMP/hidden.txt"
    ok $? "line $LINENO: zen3-vm's CPUID with its libpfm4 PMU disabled: info names the variable: $(grep '^pmu ' "$TMP/hidden.txt" | sed 's/.*; libpfm4/libpfm4/' | cut -c1-160)"
fi

# PMUCAL_EXPECT_DIR: a folder, even where a rule file is optional (-e page-faults with libpfm4's
# PMU), where a missing one was passed over.
FIX="unset PMUCAL_EXPECT_DIR"
row $LINENO 2 "PMUCAL_EXPECT_DIR=/dev/zero: not a folder" "$FIX" -- env PMUCAL_EXPECT_DIR=/dev/zero $PMUCAL run walker size=4k -e page-faults -r 1
row $LINENO 2 "PMUCAL_EXPECT_DIR=$TMP/none: No such file" "$FIX" -- env PMUCAL_EXPECT_DIR="$TMP/none" $PMUCAL run walker size=4k -e page-faults -r 1
row $LINENO 2 "PMUCAL_EXPECT_DIR=: set but empty" "$FIX" -- env PMUCAL_EXPECT_DIR= $PMUCAL run walker size=4k -e page-faults -r 1

# PMUCAL_SYSFS (a tree laid out as /sys, read for uncore units): a folder, or refused; a device read
# as a machine with no uncore units.
FIX="unset PMUCAL_SYSFS"
UNC="env LIBPFM_DISABLED_PMUS=amd64,intel,skl,icl PMUCAL_CPUID=AuthenticAMD-26-2"
row $LINENO 2 "PMUCAL_SYSFS=/dev/zero: not a folder" "$FIX" -- $UNC PMUCAL_SYSFS=/dev/zero $PMUCAL run walker size=4k -e umc_cas_cmd.rd -r 1
row $LINENO 2 "PMUCAL_SYSFS=: set but empty" "$FIX" -- $UNC PMUCAL_SYSFS= $PMUCAL run walker size=4k -e umc_cas_cmd.rd -r 1

# PMUCAL_MIDR (the AArch64 build's stand-in for this CPU's MIDR): read whole or refused.
if [ "$(uname -m)" = aarch64 ]; then
    row $LINENO 2 "PMUCAL_MIDR=zz: not an MIDR" "unset PMUCAL_MIDR" -- env PMUCAL_MIDR=zz $PMUCAL info
    row $LINENO 2 "PMUCAL_MIDR=0x414fd0c1junk: not an MIDR" "unset PMUCAL_MIDR" -- env PMUCAL_MIDR=0x414fd0c1junk $PMUCAL info
else
    skip "PMUCAL_MIDR rows" "the AArch64 build reads it; this machine is $(uname -m) (arch/aarch64/cpu.c)"
fi
done_testing
