#!/bin/sh
# A real PMU driver in every test run: the aarch64 pmucal (make emu) on an emulated Arm Neoverse
# N1 (QEMU TCG, -icount shift=0), counted by Debian's arm64 kernel and its armv8_pmuv3 driver. One
# boot runs tests/emu/commands (scripts/emu-run.sh); the verdicts come back through the serial
# console. Under -icount instruction counts are exact, and this PMU has real defects (events that
# open and count nothing), so the checks below hold pmucal's hardware path to both: exact ok
# verdicts, silent zeros not ok exactly where the model wants counts, refused events SKIP, a group
# larger than the counters split and measured again, counters held by another user reported as
# multiplexing (never scaled, never a silent zero), the perturbing source caught.
. "$(dirname "$0")/lib.sh"
BIN=${PMUCAL_EMU_BIN:-build/aarch64/pmucal}
INIT=${PMUCAL_EMU_INIT:-build/aarch64/emu-init}

if [ "${PMUCAL_TEST_EMU:-1}" = 0 ]; then
    skip "the emulated Neoverse N1" "PMUCAL_TEST_EMU=0: the emulated Arm host is left out (it needs qemu-system-arm, gcc-aarch64-linux-gnu, libpfm4-dev:arm64, libhwloc-dev:arm64, zlib1g-dev:arm64, cpio and the arm64 kernel that make deps installs)"
    done_testing
    exit
fi
if sanitized_build; then
    skip "the emulated Neoverse N1" "$PMUCAL is an AddressSanitizer build (make SAN=1); the emulated host runs the plain aarch64 build, which plain 'make test' checks"
    done_testing
    exit
fi

# The emulator's cost is judged in CPU seconds, which the load does not change: QEMU is stopped
# after 180 s of its own CPU time (a guest that loops), and its wall limit, 170 s of a quiet
# machine's stretched by the load measured now and doubled, only guards against a stall: the load
# can rise after it is measured (other tests, other users), and a busy machine is no failure.
f=$(cpu_wait_factor)
limit=$(awk -v f="$f" 'BEGIN { l = 2 * 170 * (f > 1 ? f : 1); printf "%d", (l > 900 ? 900 : l) }')
start=$(date +%s.%N) cpu0=$(children_cpu)
PMUCAL_EMU_CPU_SECONDS=180 scripts/emu-run.sh "$BIN" "$INIT" tests/emu/commands "$TMP/console.raw" "$limit" 2> "$TMP/emu.err"
rc=$?
end=$(date +%s.%N) cpu1=$(children_cpu)
secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
cpu=$(echo "$cpu0 $cpu1" | awk '{ printf "%.1f", $2 - $1 }')
ok $rc "the emulated N1 booted, ran tests/emu/commands and powered off in ${secs} s wall, ${cpu} s CPU (limits 180 s CPU, ${limit} s wall at load factor $f; exit $rc$( [ $rc = 0 ] || printf ': %s' "$(head -c 400 "$TMP/emu.err")"))"
# The serial console ends lines with CR LF, and a progress line may precede a TAP line.
tr -d '\r' < "$TMP/console.raw" | sed 's/.*\x1b\[K//' > "$TMP/console"
is_close "$cpu" 0 180 "the emulated part takes at most 3 minutes of CPU time"
grep -q '^### emu done' "$TMP/console"
ok $? "the guest ran every command to the end"
section() { awk -v n="$1" '$0 ~ "^### emu begin " n ":" { on = 1; next } $0 ~ "^### emu end " n " " { on = 0 } on' "$TMP/console"; }
rc_of() { sed -n "s/^### emu end $1 rc=\([0-9]*\)$/\1/p" "$TMP/console"; }
for n in 2 3 5 7; do
    section $n > "$TMP/s$n"
    grep -Eq '^1\.\.[0-9]+$' "$TMP/s$n"
    ok $? "command $n printed a TAP plan (a guest that printed none failed): $(sed -n "s/^### emu begin $n: .*--label \([a-z]*\).*/\1/p" "$TMP/console")"
done
section 1 > "$TMP/info"
grep -q '^ident *MIDR_EL1 0x414fd0c1' "$TMP/info"
ok $? "info names the CPU by its MIDR: $(grep '^ident' "$TMP/info")"
grep -q '^uarch *neoverse-n1 (CPU.*uarch/neoverse-n1.txt, MIDR implementer 0x41 part 0xd0c)' "$TMP/info"
ok $? "info names the CPU's uarch by its MIDR: $(grep '^uarch' "$TMP/info")"
grep -q '^pmu *arm_n1 ' "$TMP/info"
ok $? "libpfm4 finds arm_n1 inside: $(grep '^pmu ' "$TMP/info")"
grep -q '^pmu sysfs *armv8_pmuv3' "$TMP/info"
ok $? "info names the kernel's core PMU: $(grep '^pmu sysfs' "$TMP/info")"
grep -q '^machine *QEMU -M virt.*, virtual or emulated$' "$TMP/info"
ok $? "info says the host is emulated: $(grep '^machine' "$TMP/info")"

# The matrix names its cases (its DRAM ones at 4M, tests/emu/commands says why): they must stay the
# AArch64 build's default matrix, so that a case added to a kernel is run here too. qemu-user runs
# the same binary on this machine to print that matrix.
if command -v qemu-aarch64 > /dev/null && [ -d /usr/aarch64-linux-gnu ]; then
    want=$(HWLOC_XMLFILE="$PWD/tests/hosts/qemu-n1/hwloc.xml" HWLOC_THISSYSTEM=1 qemu-aarch64 -L /usr/aarch64-linux-gnu "$BIN" kernels |
        sed -n 's/^    \([a-z].*\)/\1/p' | sed 's/ *$//; s/size=DRAM$/size=4M/')
    got=$(grep -- '--label matrix' tests/emu/commands | grep -o "\-\-case '[^']*'" | sed "s/--case '//; s/'\$//")
    printf '%s\n' "$want" > "$TMP/matrix.want"; printf '%s\n' "$got" > "$TMP/matrix.got"
    [ -n "$want" ] && [ "$want" = "$got" ]
    ok $? "the emulated matrix is the AArch64 default matrix, size=DRAM at 4M ($(grep -c . "$TMP/matrix.got") cases$(diff "$TMP/matrix.want" "$TMP/matrix.got" | grep '^[<>]' | head -3 | tr '\n' ' ' | sed 's/^./; differs: &/'))"
else
    skip "the emulated matrix against the AArch64 default matrix" "qemu-aarch64 (qemu-user) or /usr/aarch64-linux-gnu (libc6-dev-arm64-cross) is missing: make deps installs them"
fi

# verdicts FILE EVENT: the TAP lines of one event, "ok", "not ok" or "skip" and the reason
verdicts() { grep -E "^(not )?ok [0-9]+ - .* :: $2( |$)" "$1"; }
count() { verdicts "$1" "$2" | grep -c "$3"; }
m="$TMP/s2"
# event | exact ok at least | what every one of its lines must say
while IFS='|' read -r ev want says; do
    ev=$(echo "$ev" | tr -d ' '); want=$(echo "$want" | tr -d ' '); says=$(echo "$says" | sed 's/^ *//; s/ *$//')
    [ -z "$ev" ] && continue
    total=$(verdicts "$m" "$ev" | grep -cv '# SKIP size=L3\|# SKIP .*: no AArch64 version\|# SKIP fpassist\|# SKIP .*writer_cpu')
    good=$(verdicts "$m" "$ev" | grep -v '# SKIP size=L3\|# SKIP .*: no AArch64 version\|# SKIP fpassist\|# SKIP .*writer_cpu' | grep -c -- "$says")
    [ "$total" -ge "$want" ] && [ "$good" = "$total" ]
    ok $? "matrix: $ev: $good of $total measured cases say '$says' (want every one, at least $want)"
done <<'ROWS'
INST_RETIRED    | 15 | ^ok .*(exact,
instructions    | 15 | ^ok .*(exact,
CPU_CYCLES      | 15 | ^ok .*(exact, /share/pmucal/emu/icount.txt
cycles          | 15 | ^ok .*(exact, /share/pmucal/emu/icount.txt
branches        | 15 | # SKIP refused by the Linux kernel
branch-misses   | 15 | # SKIP refused by the Linux kernel
BR_RETIRED      | 15 | ^not ok .*counts nothing: silent zero
ROWS
# Silent zeros only where the model wants counts: where it wants none (ifetch reads no data, and
# walker's lines stay in L1D), 0 is right.
for ev in L1D_CACHE_REFILL L1D_CACHE MEM_ACCESS; do
    bad=$(verdicts "$m" $ev | grep -v '# SKIP' | grep -v '^ok .*expected 0.0000' | grep -vc '^not ok .*silent zero')
    neg=$(verdicts "$m" $ev | grep -c '^ok .*expected 0.0000')
    pos=$(verdicts "$m" $ev | grep -c '^not ok .*silent zero')
    [ "$bad" = 0 ] && [ "$neg" -ge 1 ] && [ "$pos" -ge 1 ]
    ok $? "matrix: $ev is ok in the $neg cases whose model wants 0 and a silent zero in the $pos that want counts ($bad other lines)"
done
grep -q '^#   BR_RETIRED .*each a silent zero: the PMU.s defect' "$m"
ok $? "the summary names BR_RETIRED's silent zeros as the PMU's defect"
grep -q '# SKIP [a-z]*: no AArch64 version yet' "$m"
ok $? "a kernel without an AArch64 version is a SKIP saying so: $(grep -o '# SKIP [a-z]*: no AArch64 version yet' "$m" | sort -u | tr '\n' ' ')"
# The code-shaped kernels generated by the A64 assembler run, and their instruction models are exact.
for c in "callchain" "callchain kind=indirect" "callchain depth=64" "ifetch" "ifetch size=L2" "ifetch size=4M" "bbexec" "bbexec copy=16 sqrts=4" "branch" "branch pattern=random" "branch kind=uncond branches=8192 density=4" "branch kind=indirect pattern=random"; do   # labels leave defaults out
    verdicts "$m" INST_RETIRED | grep -q "^ok [0-9]* - $c :: INST_RETIRED = inst: .*(exact,"
    ok $? "generated A64 code, $c: INST_RETIRED exact: $(verdicts "$m" INST_RETIRED | grep -- "- $c ::" | cut -c1-150)"
done
is "$(rc_of 2)" 1 "validate exits 1 on the silent zeros"

s="$TMP/s3"
grep -q '^# learned: {INST_RETIRED,.*} cannot be measured as one group: .* no free counter' "$s"
ok $? "8 events without the cycle counter: the group is split and what was learned recorded: $(grep -m1 '^# learned: {' "$s" | cut -c1-160)"
[ "$(count "$s" INST_RETIRED '^ok .*(exact,')" = 1 ] && ! grep -q '# SKIP the Linux kernel rejected' "$s"
ok $? "after the split INST_RETIRED is exact and no member is lost as a rejected encoding"
section 4 | grep '"INST_RETIRED"' | head -n 1 > "$TMP/rec"
raw=$(jq -c '{iters, part, raw: [.events[] | select(.name == "INST_RETIRED") | .raw][0]}' "$TMP/rec" 2> /dev/null)
echo "# raw counts of walker (size=L1, 16 loads an iteration: model inst 18), [count(N), count(0)] per repetition: $raw"
n=$(echo "$raw" | jq -r '.iters // empty' 2> /dev/null)
c=$(echo "$raw" | jq -r '.raw[0] | .[0] - .[1]' 2> /dev/null)
is_close "$c" "$(( ${n:-0} * 18 ))" 0 "raw INST_RETIRED: count(N) - count(0) = 18 x N exactly"

a="$TMP/s5"
grep -q 'validate: 1 cases x 114 events' "$a"
ok $? "-e all lists the 114 events libpfm4's arm_n1 has"
nz=$(grep -c '^not ok' "$a"); sz=$(grep -c '^not ok .*silent zero' "$a")
[ "$nz" -ge 1 ] && [ "$nz" = "$sz" ]
ok $? "-e all: every not ok ($nz) is a silent zero ($sz)"

x=$(section 6)
echo "$x" | grep -q '^ok [0-9]* - .*arm_n1.txt:[0-9]*: INST_RETIRED = inst exact' && ! echo "$x" | grep -q '^not ok'
ok $? "expect check inside: arm_n1.txt's rules encode for arm_n1 ($(echo "$x" | grep -c '^ok .*arm_n1.txt:') ok lines, $(echo "$x" | grep -c '^not ok') not ok)"

p="$TMP/s7"
[ "$(count "$p" INST_RETIRED '^not ok')" = 1 ] && [ "$(count "$p" instructions '^not ok')" = 1 ]
ok $? "the perturbing source (x1.01) turns the exact verdicts not ok"

# Counters held by another user: multiplexing with real counters, reported, never scaled.
for n in 13 14; do
    section $n > "$TMP/s$n"
    grep -Eq '^1\.\.[0-9]+$' "$TMP/s$n" && grep -q '^### emu: 6 of 6 .* events hold counters' "$TMP/s$n"
    ok $? "command $n ran beside six events of another user holding the counters: $(grep '^### emu: ' "$TMP/s$n" | head -n 1)"
done
x="$TMP/s13"
# The kernel decides whether such a group gets part of the time (multiplexed) or none of the
# code's (never scheduled: the emulator's 6.1 kernel gives a task's group no turn beside CPU-wide
# events that fill the counters; it holds them a few us a run, as long without iterations).
unsched='the group was \(multiplexed (running [0-9]* of [0-9]* ns)\|never scheduled (time_running [0-9]* of [0-9]* ns\)'
grep -q "^# learned: {INST_RETIRED,.*} cannot be measured as one group: $unsched" "$x"
ok $? "a group beside the other user's events is split, and what was learned recorded: $(grep -m1 '^# learned: {' "$x" | cut -c1-200)"
mux=$(grep -c "^not ok [0-9]* - walker :: [A-Za-z0-9_-]*: $unsched.*\(never scaled\|counted nothing of the measured loops\)" "$x")
[ "$mux" = 3 ] && ! grep -q 'silent zero' "$x" && grep -q '^# info walker :: CPU_CYCLES measured' "$x"
ok $? "split to the last single event: INST_RETIRED, L1D_CACHE_RD and instructions not ok as multiplexed or never scheduled ($mux lines), never a silent zero, never scaled; CPU_CYCLES measured on its own counter"
y="$TMP/s14"
[ "$(grep -c '^not ok .*the group was \(multiplexed\|never scheduled\)' "$y")" = 2 ] && ! grep -q 'silent zero' "$y"
ok $? "beside six pinned events: INST_RETIRED and L1D_CACHE_RD reported as not scheduled or multiplexed, not as zeros: $(grep -m1 '^not ok' "$y" | cut -c1-160)"
is "$(rc_of 13)" 1 "validate exits 1 when its counts were multiplexed"

# Six events of pmucal's own task, rotated with its groups through the counters while the code
# runs: multiplexed for real (running part of each run with iterations), split to single events
# that stay multiplexed, reported so: never scaled, never a silent zero, never "never scheduled".
s="$TMP/s19"
section 19 > "$s"
grep -q '^### emu: 6 of 6 shared events count on the command.s task' "$s"
ok $? "command 19 ran with six events of its own task: $(grep -m1 '^### emu: ' "$s")"
grep -q '^# learned: {INST_RETIRED,instructions,CPU_CYCLES} cannot be measured as one group: the group was multiplexed (running [1-9][0-9]* of [0-9]* ns)' "$s"
ok $? "the group is caught as multiplexed while the code ran: $(grep -m1 '^# learned: {' "$s" | cut -c1-200)"
mux=$(grep -c '^not ok [0-9]* - walker :: [A-Za-z_]*: the group was multiplexed (running [1-9][0-9]* of [0-9]* ns): .*not comparable and never scaled' "$s")
[ "$mux" = 2 ] && ! grep -q 'silent zero\|never scheduled' "$s"
ok $? "INST_RETIRED and instructions, alone, still multiplexed: not ok so ($mux lines), never a silent zero or never scheduled"
part=$(sed -n 's/^# split walker :: INST_RETIRED: .*raw counts of repetition 1: \([0-9]*\) (\([0-9]*\) iterations), \([0-9]*\) (0).*/\1 \2 \3/p' "$s" | head -n 1)
echo "$part" | awk '{ exit !($1 - $3 > 0 && $1 - $3 < 18 * $2) }'
ok $? "the multiplexed raw count is a part of the run's, not scaled up to it: count(N) count(0) of N iterations: $part (18 x N is the whole)"
is "$(rc_of 19)" 1 "validate exits 1 when its counts were multiplexed"

# perf's {a,b,c} groups, led by their first event (created disabled): seven INST_RETIRED open, as
# armv8_pmuv3 leaves a disabled leader out of its counter check, and are never scheduled; eight
# are refused (EINVAL on the seventh member).
l="$TMP/s17"
section 17 > "$l"
section 18 | sed '/^$/d' > "$TMP/lead.ndjson"
seven=INST_RETIRED,INST_RETIRED,INST_RETIRED,INST_RETIRED,INST_RETIRED,INST_RETIRED,INST_RETIRED
grep -q "^# learned: {$seven} cannot be measured as one group: the group was never scheduled (time_running [0-9]* of [0-9]* ns" "$l"
ok $? "a hardware-led group of 7 INST_RETIRED is caught as never scheduled: $(grep -m1 "^# learned: {$seven}" "$l" | cut -c1-300)"
never=$(grep -c '^# split walker :: INST_RETIRED: the group was never scheduled .*counted nothing of the measured loops;.*; raw counts of repetition 1: 0 ([0-9]* iterations), 0 (0); not judged' "$l")
is "$never" 7 "each of its 7 events is reported as never scheduled (raw counts 0 kept as a comment), not judged as counts"
grep -q "^# learned: {$seven,INST_RETIRED} cannot be measured as one group: 1 of 8 events found no free counter" "$l"
ok $? "a hardware-led group of 8 the kernel refuses splits as before: $(grep -m1 "^# learned: {$seven,INST_RETIRED}" "$l" | cut -c1-200)"
[ "$(count "$l" INST_RETIRED '^ok .*(exact,')" = 15 ] && ! grep -q '^not ok\|silent zero' "$l"
ok $? "re-measured in parts, all 15 INST_RETIRED are exact ok, none a silent zero or not ok ($(count "$l" INST_RETIRED '^ok .*(exact,') ok)"
is "$(rc_of 17)" 0 "validate exits 0: the split groups' parts were judged"
parts=$(jq -r -s -c 'map("\(.group):\(.part):\(.events | length):\([.events[] | select(.leader)] | length):\(.time_running == .time_enabled)") | join(" ")' "$TMP/lead.ndjson" 2> /dev/null)
is "$parts" "0:1/2:4:1:true 0:2/2:3:1:true 1:1/2:4:1:true 1:2/2:4:1:true" "the records: group:part:events:leaders:ran throughout, each part led by its first event"
jq -s -e 'map(select(.group == 0)) | length == 2 and all(.[]; .learned | startswith("the group was never scheduled (time_running"))' "$TMP/lead.ndjson" > /dev/null 2>&1
ok $? "the parts of the never-scheduled group say why they were split: $(jq -r -s '.[0].learned' "$TMP/lead.ndjson" 2> /dev/null | cut -c1-200)"
# Off by none, of at least one repetition read (no records is no check).
bad=$(jq -r -s '[.[] | .iters as $n | .events[] | .raw[] | (.[0] - .[1] == 18 * $n)] | "\(map(select(not)) | length) of \(length)"' "$TMP/lead.ndjson" 2> /dev/null)
[ "${bad%% of *}" = 0 ] && [ "${bad##* of }" -gt 0 ] 2> /dev/null
ok $? "every repetition of every part: count(N) - count(0) = 18 x N exactly (off in $bad repetitions' counts)"
echo "# the 7-member group: $(grep -m1 '^# split walker :: INST_RETIRED' "$l")"
echo "# its parts' raw INST_RETIRED [count(N), count(0)] of repetition 1, an event each: $(jq -r -s -c 'map(select(.group == 0) | {part, iters, raw: [.events[] | .raw[0]]})' "$TMP/lead.ndjson" 2> /dev/null)"

# perf's arm64 table by the guest's own MIDR, where libpfm4's arm_n1 is hidden.
if [ -f "${PMUCAL_EVENTDATA:-eventdata}/arm/mapfile.csv" ]; then
    is "$(section 11 | sed '/^$/d' | tail -n 1)" "{r8:u,r21:u,r3:u}" "inside, the N1's perf table resolves ArchStdEvent names to their codes"
    section 12 | head -n 1 | grep -q "arm/arm/neoverse-n1 (CPUID 0x00000000414fd0c1 matches row '0x00000000410fd0c0'"
    ok $? "inside, the table is chosen by the MIDR: $(section 12 | head -n 1 | cut -c1-160)"
else
    skip "perf's arm64 tables inside" "no tables at ${PMUCAL_EVENTDATA:-eventdata}/arm"
fi

# Sampling (section 15, its records in 16) on walker loads=1: 3 instructions an iteration.
smp="$TMP/s15"
section 15 > "$smp"
section 16 | sed '/^$/d' > "$TMP/sample.ndjson"
lev=$(sed -n 's/^# .*:: CPU_CYCLES: precise_ip levels the Linux kernel takes: //p' "$smp" | wc -w)
while IFS='|' read -r ev kind says; do
    ev=$(echo "$ev" | tr -d ' '); kind=$(echo "$kind" | tr -d ' '); says=$(echo "$says" | sed 's/^ *//; s/ *$//')
    [ -z "$ev" ] && continue
    got=$(grep -Ec "$says" "$smp")
    [ "$lev" -ge 1 ] && [ "$got" = "$lev" ]
    ok $? "sampling $ev $kind at each of the $lev precise levels: $(grep -Em1 "$says" "$smp" | cut -c1-240)"
done <<'ROWS'
CPU_CYCLES   | rate   | ^ok .*:: CPU_CYCLES precise=[0-3] rate: 799 samples x 10007 = .* \(799\.[0-9] due\)
CPU_CYCLES   | shadow | ^ok .*:: CPU_CYCLES precise=[0-3] shadow: 799 samples over 3 causing instructions [0-9]+ [0-9]+ [0-9]+, chi-square
INST_RETIRED | rate   | ^not ok .*:: INST_RETIRED precise=[0-3] rate: [0-9]+ samples x 10007 = .*: [0-9]+ missing
ROWS
# The missing samples named in each not ok line are the record's own: count / period - samples.
jq -r 'select(.event == "INST_RETIRED") | "\(.precise_ip) \((.count / .period | round) - .samples) \(.samples)"' \
    "$TMP/sample.ndjson" > "$TMP/missing" 2> /dev/null
bad=0
while read -r lvl miss got; do
    grep -q "^not ok .*:: INST_RETIRED precise=$lvl rate: $got samples .*: $miss missing" "$smp" && [ "$miss" -gt 100 ] || bad=$((bad + 1))
done < "$TMP/missing"
[ -s "$TMP/missing" ] && [ $bad = 0 ]
ok $? "INST_RETIRED: the overflow interrupt is late or lost: $(head -n 1 "$TMP/missing" | awk '{ print $2 " missing, " $3 " sampled at precise=" $1 }') (every level's figure from its record)"
jq -s -e 'map(select(.event == "CPU_CYCLES")) | length >= 1 and all(.[]; (.histogram | map(.samples) | min) >= 250 and .outside == 0)' \
    "$TMP/sample.ndjson" > /dev/null 2>&1
ok $? "CPU_CYCLES's histograms: $(jq -r -s 'map(select(.event == "CPU_CYCLES"))[0].histogram | map(.samples) | join("/")' "$TMP/sample.ndjson" 2> /dev/null) over the loop's 3 instructions, none outside"
is "$(rc_of 15)" 1 "sample exits 1 on INST_RETIRED's missing samples"

# The matrix run's folder, made on AArch64, read by this host's build.
run="$TMP/arm/2026-01-01-qemu-n1-matrix"
# The user's own code inside (sections 20, 21): snippets assembled on the host (tests/emu/*.s,
# binutils' aarch64 as), 64 copies and the 2-instruction loop test an iteration, counted exactly
# by the kernel's PMU driver; under -icount a copy is one instruction's time.
for n in 20 21; do
    section $n > "$TMP/code$n"
    grep -Eq '^  INST_RETIRED +66\.0000 +66\.0000 +0\.0000 +66\.0000  inst exact  ok$' "$TMP/code$n" &&
        grep -Eq '^  cycles per copy of the snippet: 1\.0[0-9]* ' "$TMP/code$n"
    ok $? "code object=$(sed -n 's/^### emu begin.*object=\/share\/pmucal\/emu\/\([a-z-]*\.o\).*/\1/p' "$TMP/console" | sed -n "$((n - 19))p"): INST_RETIRED exact, 66 an iteration (64 copies + 2), about 1 cycle a copy: $(grep -E 'INST_RETIRED|per copy' "$TMP/code$n" | tr -s ' ' | tr '\n' ';')"
done
grep -Eq '^  instructions +66\.0000 .* inst exact  ok$' "$TMP/code20"
ok $? "the generic instructions event agrees: $(grep '^  instructions' "$TMP/code20" | tr -s ' ')"

# The sweep inside (section 22): cases drawn from the kernels' domains, each INST_RETIRED and
# CPU_CYCLES exact, or the case refused by its kernel or without an AArch64 version (a SKIP).
w="$TMP/s22"
section 22 > "$w"
inst=$(grep -c '^ok [0-9]* - .* :: INST_RETIRED = inst: .*(exact,' "$w")
cyc=$(grep -c '^ok [0-9]* - .* :: CPU_CYCLES = inst: .*(exact, /share/pmucal/emu/icount.txt' "$w")
cases=$(grep '^ok [0-9]* - .* :: INST_RETIRED = inst: .*(exact,' "$w" | sed 's/^ok [0-9]* - //; s/ :: .*//' | sort -u | wc -l)
skips=$(grep -c '^ok [0-9]* - .* :: INST_RETIRED # SKIP' "$w")
grep -q '^# sweep: 24 cases drawn from the kernels. declared domains with seed 41' "$w" && [ "$cases" -ge 6 ] &&
    [ "$inst" = "$cyc" ] && [ $((inst + skips)) = 24 ] && ! grep -q '^not ok' "$w" && [ "$(rc_of 22)" = 0 ]
ok $? "the sweep inside (seed 41, 24 cases): INST_RETIRED and CPU_CYCLES exact in $inst and $cyc cases ($cases distinct), $skips refused or without an AArch64 version, $(grep -c '^not ok' "$w") not ok, exit $(rc_of 22) $(grep -m 2 '^not ok' "$w" | cut -c1-200)"
echo "# the sweep's cases inside: $(grep '^ok [0-9]* - .* :: INST_RETIRED' "$w" | sed 's/^ok [0-9]* - //; s/ :: INST_RETIRED = inst: measured \([0-9.]*\).*/ (\1)/; s/ :: INST_RETIRED # SKIP \(.\{0,60\}\).*/ SKIP \1/' | tr '\n' ';')"

# calibrate inside (section 23): the uarch file's references stand beside the figures, the check
# (l1_hit 4) and the indicative (mispredict 11); under -icount the figures are the emulator's.
section 23 > "$TMP/cal"
grep -q '^# references: neoverse-n1;' "$TMP/cal" && grep -Eq '^# l1_hit .* 4 +[-+][0-9]+%' "$TMP/cal" &&
    grep -Eq '^# mispredict .* 11\*? ' "$TMP/cal"
ok $? "calibrate inside names uarch/neoverse-n1.txt's references (exit $(rc_of 23)): $(grep -E '^# (references|l1_hit|mispredict) ' "$TMP/cal" | cut -c1-140 | tr '\n' ';')"

mkdir -p "$run"
section 8 | sed '/^$/d' > "$run/manifest.json"
section 9 | sed '/^$/d' > "$run/measurements.ndjson"
section 10 | sed '/^$/d' > "$run/validate.tap"
is "$(jq -r '[.status, .cpu.ident, .pmu.sysfs_name, .machine.virtual] | join(" ")' "$run/manifest.json" 2> /dev/null)" \
    "complete MIDR_EL1 0x414fd0c1 (sysfs) armv8_pmuv3 true" "the AArch64 manifest: status, MIDR, the kernel's PMU, emulated"
$PMUCAL report "$run" --out "$TMP/arm.html" > /dev/null 2> "$TMP/report.err" && grep -q 'Neoverse N1' "$TMP/arm.html" &&
    grep -q 'counts nothing: silent zero' "$TMP/arm.html"
ok $? "report renders the AArch64 run (its CPU and silent zeros on the page) $(head -c 300 "$TMP/report.err")"
$PMUCAL compare "$run" "$run" > "$TMP/cmp.tap" 2>&1
ok $? "compare takes the AArch64 run: $(tail -n 1 "$TMP/cmp.tap")"
$PMUCAL replay "$run" --expect tests/emu/icount.txt > "$TMP/replay.tap" 2>&1
[ $? = 1 ] && grep -q '; 0 verdicts differ from the stored ones' "$TMP/replay.tap"
ok $? "replay judges it again with this build's rules (and the emulator's, given again), the same verdicts (exit 1: its silent zeros): $(tail -n 1 "$TMP/replay.tap")"
done_testing
