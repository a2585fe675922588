#!/bin/sh
# A second real PMU driver in every test run: the riscv64 pmucal (make emu-riscv64) on QEMU's
# RISC-V virt machine (TCG, -cpu rv64,sscofpmf=true, -icount shift=0), counted by Debian 13's
# riscv64 kernel and its riscv-pmu-sbi driver through OpenSBI, under both emulators: bookworm's
# QEMU 7.2 (OpenSBI 1.1) and bookworm-backports' QEMU 10.0 (OpenSBI 1.5, build/emu-riscv64/qemu10,
# scripts/emu-riscv-fetch.sh). One boot each runs tests/emu-riscv64/commands (scripts/emu-run.sh);
# the verdicts come back through the serial console, and so does the matrix run's folder, which
# 'pmucal compare' holds one emulator against the other, as it holds two kernels.
. "$(dirname "$0")/lib.sh"
BIN=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal}
INIT=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}
FETCHED=build/emu-riscv64
Q10=$FETCHED/qemu10/usr/bin/qemu-system-riscv64
Q10_BIOS=$FETCHED/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin

# levels_in_loop SAMPLE-SECTION SHARE: how many of the 4 precise_ip levels of instructions put
# every in-loop sample on its causing instruction (distance 0) and at most SHARE times the
# kernel's share of the count (C - 8000001 of the C counted) outside the loop, rounded up. The
# skid line is read whether pmucal judged it ok or not: at precise_ip 3 a sample outside is
# pmucal's not ok (zero skid promised), which QEMU 7.2's unfiltered counting is allowed here.
levels_in_loop() {
    grep -E 'walker size=16k loads=1 :: instructions precise=[0-3] (rate|skid): ' "$1" |
        awk -v share="$2" '
            / rate: / { p = $0; sub(/.*precise=/, "", p); p = substr(p, 1, 1); c = $0; sub(/.*where the event counted /, "", c); counted[p] = c + 0 }
            / skid: / { p = $0; sub(/.*precise=/, "", p); p = substr(p, 1, 1)
                        if (match($0, /skid: [0-9]+ samples in the loop, distances 0:[0-9]+, mean 0.000; [0-9]+ outside the loop/)) {
                            split(substr($0, RSTART), w, /[ :,;]+/); inl[p] = w[2]; d0[p] = w[9]; out[p] = w[12] } }
            END { n = 0
                  for (p in inl) { extra = counted[p] > 8000001 ? (counted[p] - 8000001) / counted[p] : 0
                                   allowed = share * (inl[p] + out[p]) * extra; allowed = allowed == int(allowed) ? allowed : int(allowed) + 1
                                   if (inl[p] > 0 && d0[p] == inl[p] && out[p] <= allowed) n++ }
                  print n + 0 }'
}
# The check itself, on planted sections: QEMU 7.2's count (8185762, 2.3% the kernel's) allows 6
# of 81 outside, in pmucal's ok and not ok lines alike; 7 outside, a sample off its cause, or
# (under 10.0's exact count) one outside, each costs its level.
plant() { # plant COUNTED OUT3 SKID0 OUT0: the 8 lines of one boot's instructions sampling
    for p in 3 2 1 0; do
        out=0 dist="0:81" mean=0.000 verdict=ok tail=
        [ $p = 3 ] && out=$2
        [ $p = 0 ] && out=$4
        [ $p = 0 ] && [ "$3" != 0 ] && dist="0:80 1:1" mean=0.012
        [ $p = 3 ] && [ "$out" != 0 ] && verdict="not ok" tail=": $out samples off their causing instruction where zero skid is promised"
        echo "ok 1 - walker size=16k loads=1 :: instructions precise=$p rate: 81 samples x 100003 = 8100243 where the event counted $1 (81.9 due)"
        echo "$verdict 2 - walker size=16k loads=1 :: instructions precise=$p skid: 81 samples in the loop, distances $dist, mean $mean; $out outside the loop$tail"
    done
}
planted=$TMP/planted.sample
for row in "8185762 0 0 0 3 4 QEMU 7.2, none outside" "8185762 6 0 0 3 4 QEMU 7.2, 6 outside at precise_ip 3 (pmucal's not ok)" \
           "8185762 7 0 0 3 3 QEMU 7.2, 7 outside at precise_ip 3" "8185762 0 0 6 3 4 QEMU 7.2, 6 outside at precise_ip 0" \
           "8185762 0 1 0 3 3 QEMU 7.2, a sample off its cause at precise_ip 0" "8000001 1 0 0 0 3 QEMU 10.0, one outside" \
           "8000001 0 0 0 0 4 QEMU 10.0, none outside"; do
    set -- $row
    plant "$1" "$2" "$3" "$4" > "$planted"
    got=$(levels_in_loop "$planted" "$5")
    shift 6
    is "$got" "$(echo "$row" | cut -d' ' -f6)" "the landing check on a planted boot: $*"
done

skip_all() { skip "the emulated RISC-V host" "$1"; done_testing; exit; }
[ "${PMUCAL_TEST_EMU:-1}" = 0 ] &&
    skip_all "PMUCAL_TEST_EMU=0: the emulated hosts are left out (this one needs qemu-system-misc, gcc-riscv64-linux-gnu, cpio and what make deps fetches into $FETCHED)"
sanitized_build &&
    skip_all "$PMUCAL is an AddressSanitizer build (make SAN=1); the emulated host runs the plain riscv64 build, which plain 'make test' checks"
[ -f "$FETCHED/unavailable" ] && skip_all "make deps could not fetch its kernel or QEMU 10: $(head -c 300 "$FETCHED/unavailable")"
[ -s "$FETCHED/vmlinux" ] || skip_all "$FETCHED/vmlinux is missing: make deps fetches it (scripts/emu-riscv-fetch.sh)"
[ -x "$BIN" ] || skip_all "$BIN is missing: make emu-riscv64 builds it"
[ -x "$INIT" ] || skip_all "$INIT is missing: make emu-riscv64 builds it"

# The emulator's cost is judged in CPU seconds, which the load does not change (test 72 says why);
# the wall limit only guards against a stall.
f=$(cpu_wait_factor)
limit=$(awk -v f="$f" 'BEGIN { l = 2 * 120 * (f > 1 ? f : 1); printf "%d", (l > 600 ? 600 : l) }')
children_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / hz }' "/proc/$$/stat"; }
cpu_budget=150

# boot NAME QEMU BIOS: one boot of the commands; its console in $TMP/NAME.console. Returns 1
# (after a SKIP) when this emulator is not here.
boot() {
    name=$1 qemu=$2 bios=$3
    start=$(date +%s.%N) cpu0=$(children_cpu)
    PMUCAL_EMU_ISA=riscv64 PMUCAL_EMU_QEMU=$qemu PMUCAL_EMU_BIOS=$bios PMUCAL_EMU_CPU_SECONDS=$cpu_budget \
        scripts/emu-run.sh "$BIN" "$INIT" tests/emu-riscv64/commands "$TMP/$name.raw" "$limit" 2> "$TMP/$name.err"
    rc=$?
    end=$(date +%s.%N) cpu1=$(children_cpu)
    secs=$(echo "$start $end" | awk '{ printf "%.1f", $2 - $1 }')
    cpu=$(echo "$cpu0 $cpu1" | awk '{ printf "%.1f", $2 - $1 }')
    ok $rc "$name: booted, ran tests/emu-riscv64/commands and powered off in ${secs} s wall, ${cpu} s CPU (limits ${cpu_budget} s CPU, ${limit} s wall at load factor $f; exit $rc$( [ $rc = 0 ] || printf ': %s' "$(head -c 400 "$TMP/$name.err")"))"
    echo "# $name: wall ${secs} s, CPU ${cpu} s"
    # The serial console ends lines with CR LF, and a progress line may precede a TAP line.
    tr -d '\r' < "$TMP/$name.raw" | sed 's/.*\x1b\[K//' > "$TMP/$name.console"
    grep -q '^### emu done' "$TMP/$name.console"
    ok $? "$name: the guest ran every command to the end"
}
section() { awk -v n="$2" '$0 ~ "^### emu begin " n ":" { on = 1; next } $0 ~ "^### emu end " n " " { on = 0 } on' "$TMP/$1.console"; }
rc_of() { sed -n "s/^### emu end $2 rc=\([0-9]*\)$/\1/p" "$TMP/$1.console"; }
# verdicts FILE EVENT: the TAP lines of one event
verdicts() { grep -E "^(not )?ok [0-9]+ - .* :: $2( |$)" "$1"; }

# check NAME: what one boot says; its verdict matrix printed as comments (case: event verdicts).
check() {
    name=$1 c=$TMP/$1
    section "$name" 1 > "$c.cpuinfo"
    section "$name" 2 > "$c.info"
    section "$name" 3 > "$c.events"
    section "$name" 4 > "$c.matrix"
    section "$name" 8 > "$c.firmware"
    section "$name" 9 > "$c.sample"
    grep -q '^isa.*sscofpmf' "$c.cpuinfo"
    ok $? "$name: the guest's CPU has sscofpmf: $(grep -m1 '^isa' "$c.cpuinfo")"
    key=$(awk -F': *' '/^mvendorid/ { v = $2 } /^marchid/ { a = $2 } /^mimpid/ { i = $2 } END { print "mvendorid " v " marchid " a " mimpid " i }' "$c.cpuinfo")
    grep -q "^ident *$key, isa rv64" "$c.info"
    ok $? "$name: info names the CPU as /proc/cpuinfo does ($key): $(grep -m1 '^ident' "$c.info" | cut -c1-120)"
    grep -q "^pmu sysfs *cpu (the Linux kernel.s core PMU, perf type 4)" "$c.info" && grep -q '^hardware *usable' "$c.info"
    ok $? "$name: info finds the kernel's cpu PMU and hardware events usable: $(grep -m1 '^pmu sysfs' "$c.info")"
    grep -q '^tlb walk *measured on .* cached in /cache/tlb-[0-9a-f]*\.json$' "$c.info" && ! grep -q 'measuring this host.s data TLBs' "$c.console"
    ok $? "$name: info takes the recorded TLB walk (tests/emu-riscv64/cache), none measured in the guest: $(grep -m1 '^tlb walk' "$c.info")"
    grep -q '^machine *QEMU -M virt (device tree: riscv-virtio), virtual or emulated$' "$c.info"
    ok $? "$name: info names QEMU's virt machine from the device tree, virtual or emulated: $(grep -m1 '^machine' "$c.info")"

    # events --open: what the virt machine's driver opens, user-only as asked.
    opens=$(awk -F'\t' '$2 == "opens" { print $1 }' "$c.events" | grep -v '^FW_' | tr '\n' ' ')
    fw=$(awk -F'\t' '$2 == "opens" && $1 ~ /^FW_/' "$c.events" | wc -l)
    is "$opens" "cycles instructions dTLB-load-misses dTLB-store-misses iTLB-load-misses " \
        "$name: events --open: of the generic events only cycles, instructions and the three TLB misses open"
    [ "$fw" = 22 ] && awk -F'\t' '$1 == "branches" && $2 == "ENOENT"' "$c.events" | grep -q .
    ok $? "$name: events --open: the 22 SBI firmware events open, branches is refused (ENOENT): $(grep '^# [0-9]* open' "$c.events")"

    # The matrix, as the console printed it: each case, each event's verdict.
    echo "# $name verdict matrix (case: cycles instructions dTLB-read-misses dTLB-write-misses iTLB-read-misses):"
    grep -E '^(not )?ok [0-9]+ - ' "$c.matrix" | sed 's/^\(not ok\|ok\) [0-9]* - \(.*\) :: \([A-Za-z-]*\)\(.*\)$/\2|\1|\4/' |
        awk -F'|' '{ v = $3 ~ /# SKIP/ ? "skip" : $2; if (!($1 in row)) order[n++] = $1; row[$1] = row[$1] " " v }
                   END { for (i = 0; i < n; i++) printf "#   %s:%s\n", order[i], row[order[i]] }'
    for ev in cycles instructions dTLB-read-misses dTLB-write-misses iTLB-read-misses; do
        okn=$(verdicts "$c.matrix" "$ev" | grep -v '# SKIP' | grep -c '^ok ')
        bad=$(verdicts "$c.matrix" "$ev" | grep -c '^not ok')
        sk=$(verdicts "$c.matrix" "$ev" | grep -c '# SKIP')
        echo "# $name: $ev: $okn ok, $bad not ok, $sk skip"
    done
    # Only two cases have no RISC-V measurement, each a SKIP saying why.
    sk=$(verdicts "$c.matrix" instructions | grep -c '# SKIP')
    [ "$sk" = 2 ] && verdicts "$c.matrix" instructions | grep -q '^ok [0-9]* - mixwalk :: instructions # SKIP this machine has no L1 cache' &&
        verdicts "$c.matrix" instructions | grep -q '^ok [0-9]* - divsqrt :: instructions # SKIP divsqrt: no RISC-V version yet'
    ok $? "$name: of the 24 cases only mixwalk (no L1) and divsqrt (no RISC-V version) are SKIPs ($sk)"
    # The TLB refills stay under the emulator's bound (qemu-virt.txt) in every measured case.
    for ev in dTLB-read-misses dTLB-write-misses; do
        n=$(verdicts "$c.matrix" $ev | grep -v '# SKIP' | grep -c '^ok .*(bound, /share/pmucal/emu/qemu-virt.txt')
        all=$(verdicts "$c.matrix" $ev | grep -vc '# SKIP')
        [ "$n" = "$all" ] && [ "$n" -ge 20 ]
        ok $? "$name: $ev within QEMU's software-TLB bound in $n of $all measured cases $(verdicts "$c.matrix" $ev | grep -m1 '^not ok' | cut -c1-200)"
    done
    # SBI firmware events: 0 in user loops, exactly.
    n=$(grep -c '^ok [0-9]* - .* :: FW_[A-Z_]* = 0: measured 0.0000 .*(exact,' "$c.firmware")
    is "$n" 12 "$name: the six SBI firmware events count 0 in both cases, exactly ($(grep -c '^not ok' "$c.firmware") not ok)"
}
# Both emulators; a run folder of each, brought back for compare.
for e in qemu7.2 qemu10.0; do
    case $e in
    qemu7.2)
        if ! command -v qemu-system-riscv64 > /dev/null 2>&1; then
            skip "$e" "qemu-system-riscv64 is not on PATH: install qemu-system-misc (make deps does)"
            continue
        fi
        boot "$e" "" "" ;;
    qemu10.0)
        if ! [ -x "$Q10" ] || ! [ -s "$Q10_BIOS" ]; then
            skip "$e" "$Q10 or its OpenSBI is missing: make deps fetches them (scripts/emu-riscv-fetch.sh)"
            continue
        fi
        boot "$e" "$Q10" "$Q10_BIOS" ;;
    esac
    check "$e"
    m=$TMP/$e.matrix
    case $e in
    qemu10.0)
        # cycles = instructions, case by case (-icount shift=0): the same per-iteration figure.
        pair=$(grep -E '^(not )?ok [0-9]+ - .* :: (cycles|instructions) = inst: measured' "$m" |
            sed 's/^.* - \(.*\) :: [a-z]* = inst: measured \([0-9.]*\) .*/\1|\2/' | sort | uniq -c | awk '$1 != 2' | wc -l)
        is "$pair" 0 "$e: cycles and instructions measure the same per iteration in every case"
        # Exact: the per-iteration instruction count equals the model's in every case, branch
        # kind=uncond branches=8192 density=4 too, whose loop test takes the long form (its body
        # beyond a branch's reach: addi, bltz, j), the model counting what was written.
        exact=$(verdicts "$m" instructions | grep -c ' = inst: measured \([0-9.]*\) expected \1 ')
        is "$exact" 22 "$e: per iteration, instructions equal the model in every measured case"
        far=$(verdicts "$m" instructions | grep -c ' - branch kind=uncond branches=8192 density=4 :: instructions = inst: measured 8195.0000 expected 8195.0000 ')
        is "$far" 1 "$e: branch kind=uncond branches=8192 density=4 counts the long loop test's 8195 instructions, as modelled"
        # Mode filtering works (OpenSBI 1.5, QEMU 10): exact ok everywhere but the first-touch
        # walk, whose page faults leave counts the zero-iteration loop lacks.
        okn=$(verdicts "$m" instructions | grep -c '^ok .*(exact,')
        touch=$(verdicts "$m" instructions | grep -c '^not ok [0-9]* - walker size=1M page=4k phase=touch :: .*counts per measurement are not explained by iterations')
        other=$(verdicts "$m" instructions | grep '^not ok' | grep -vc ' - walker size=1M page=4k phase=touch :: ')
        [ "$okn" -ge 21 ] && [ "$touch" = 1 ] && [ "$other" = 0 ]
        ok $? "$e: instructions exact ok in $okn of 22 measured cases; phase=touch not ok by its zero-iteration loop ($touch), $other other not ok" ;;
    qemu7.2)
        # No mode filtering (OpenSBI 1.1, QEMU 7.2): the kernel's instructions are counted too, so
        # each not ok is counts the zero-iteration loop lacks (the kernel's, in every measurement)
        # or a per-iteration count above the model. Below it only by the kernel's work that the
        # zero-iteration loop's subtraction over-removes (a timer tick it caught and the loop did
        # not), a fraction of 1% at these iteration counts; more than 1% below is not the kernel.
        bad=$(verdicts "$m" instructions | grep -c '^not ok')
        verdicts "$m" instructions | grep '^not ok' | grep -v 'counts per measurement are not explained by iterations' |
            sed -n 's/^not ok [0-9]* - \(.*\) :: .* measured \([0-9.]*\) expected \([0-9.]*\) .*/\2 \3 \1/p' |
            awk '$1 < $2 { print }' > "$TMP/$e.below"
        far=$(awk '$1 < 0.99 * $2' "$TMP/$e.below" | wc -l)
        [ "$bad" -ge 19 ] && [ "$far" = 0 ]
        ok $? "$e: instructions not ok in $bad of 22 measured cases, each by counts added to the loop's ($(wc -l < "$TMP/$e.below") below the model, $far of them by more than 1%): QEMU 7.2 counts the kernel too $(verdicts "$m" instructions | grep -m1 'not explained' | sed 's/.*but //' | cut -c1-100)"
        sed 's/^/# below the model (measured, model, case): /' "$TMP/$e.below" ;;
    esac
    # Sampling (period 100003, 80 samples due a run): every precise_ip level of cycles and
    # instructions judged, and where the samples land (the loop; exclude_kernel keeps the kernel's
    # code out). Until pmucal's control window was a counting event, QEMU read 0 samples of those due.
    s9=$TMP/$e.sample
    counted=$(grep -c '^\(not \)\{0,1\}ok [0-9]* - walker size=16k loads=1 :: \(cycles\|instructions\) precise=[0-3] rate: .* where the event counted 8[0-9]\{6\} ' "$s9")
    [ "$counted" = 8 ]
    ok $? "$e: sample judged cycles and instructions at precise_ip 3..0, each counting the 8,000,001 instructions of the loop ($counted rate lines)"
    # Each level's samples against those due: within one (the period's phase) under 10.0; 7.2's
    # counters add the kernel's instructions, a sample's worth at times, so within two there.
    near=1
    [ "$e" = qemu7.2 ] && near=2
    arrive=$(sed -n 's/^\(not \)\{0,1\}ok [0-9]* - .* precise=[0-3] rate: \([0-9]*\) samples x [0-9]* = [0-9]* where the event counted [0-9]* (\([0-9.]*\) due).*/\2 \3/p' "$s9" |
        awk -v near="$near" '$2 >= 70 && ($1 - $2 <= near && $2 - $1 <= near) { n++ } END { print n + 0 }')
    [ "$arrive" = 8 ]
    ok $? "$e: samples arrive as due (within $near) at all 8 levels: $arrive $(grep -m1 'precise=0 rate' "$s9" | cut -c1-160)"
    # Where the samples land (levels_in_loop): every one in the loop, on the instruction that
    # overflowed. 7.2's counts include the kernel's instructions, and an overflow among them is a
    # sample of wherever user code was, the harness outside the loop too: 4 of 4 levels in the
    # loop at load, 3 of 4 beside two busy loops (one sample outside, of 80). So there, a level
    # may have outside the loop three times the kernel's share of its samples (2.3%: 6 of 81);
    # under 10.0, none.
    share=0
    [ "$e" = qemu7.2 ] && share=3
    inloop=$(levels_in_loop "$s9" "$share")
    [ "$inloop" = 4 ]
    ok $? "$e: instructions samples land on the loop's instructions at precise_ip 3..0, $( [ $share = 0 ] && echo "none outside" || echo "outside at most $share times the kernel's share of the count") ($inloop of 4) $(grep 'instructions precise=[0-3] skid' "$s9" | sed 's/.* precise=\([0-3]\) skid: \([0-9]*\) samples in the loop, distances \([^,]*\), mean [^;]*; \([0-9]*\) outside the loop.*/\1: \2 in (\3), \4 out;/' | tr '\n' ' ')"
    case $e in
    qemu10.0)
        n=$(grep -c '^ok [0-9]* - walker size=16k loads=1 :: \(cycles\|instructions\) precise=[0-3] rate: ' "$s9")
        is "$n" 8 "$e: every rate verdict ok: as many samples as due, none lost, none throttled, instructions on the model $(grep -m1 '^not ok.* rate: ' "$s9" | cut -c1-200)" ;;
    qemu7.2)
        # QEMU 7.2 counts the kernel too: each instructions rate verdict is not ok by the count
        # alone (the samples match it), the emulator's defect, named.
        n=$(grep -c '^not ok [0-9]* - walker size=16k loads=1 :: instructions precise=[0-3] rate: .*; model 8000001 +- 70: the count is off the model$' "$s9")
        is "$n" 4 "$e: instructions rate not ok at all 4 levels by the count alone: QEMU 7.2 counts the kernel's instructions $(grep -m1 'instructions precise=0 rate' "$s9" | sed 's/.*where/where/' | cut -c1-120)" ;;
    esac
    run=$TMP/$e-run
    mkdir -p "$run"
    section "$e" 5 | sed '/^$/d' > "$run/manifest.json"
    section "$e" 6 | sed '/^$/d' > "$run/measurements.ndjson"
    section "$e" 7 | sed '/^$/d' > "$run/validate.tap"
done

# compare: each (case, event) whose verdict or count differs between the emulators, named.
if [ -s "$TMP/qemu7.2-run/manifest.json" ] && [ -s "$TMP/qemu10.0-run/manifest.json" ]; then
    $PMUCAL compare "$TMP/qemu7.2-run" "$TMP/qemu10.0-run" > "$TMP/cmp.tap" 2> "$TMP/cmp.err"
    rc=$?
    $PMUCAL compare --json "$TMP/qemu7.2-run" "$TMP/qemu10.0-run" > "$TMP/cmp.json" 2>> "$TMP/cmp.err"
    differ=$(jq -r '[.points[] | select(.result != "same")] | length' "$TMP/cmp.json" 2> /dev/null)
    points=$(jq -r '.points | length' "$TMP/cmp.json" 2> /dev/null)
    [ "$rc" -le 1 ] && [ -n "$points" ] && [ "$points" -gt 0 ]
    ok $? "compare qemu7.2 qemu10.0 ran (exit $rc): $points points, $differ differ $(head -c 200 "$TMP/cmp.err")"
    # What differs is the emulator's counting, not pmucal's: QEMU 7.2's counters add the
    # kernel's instructions to every measurement (the intercept), and the CPU's identity.
    icpt=$(jq -r '[.points[] | select(.event == "instructions" and (.flags | index("intercept")))] | length' "$TMP/cmp.json" 2> /dev/null)
    ident=$(jq -r '[.facts[]? | select(.fact == "cpu.brand")] | length' "$TMP/cmp.json" 2> /dev/null)
    [ "${icpt:-0}" -ge 19 ] && [ "$ident" = 1 ]
    ok $? "compare names QEMU 7.2's unfiltered counts in $icpt instructions points and the CPU's identity as a changed fact"
    jq -r '.points[] | select(.result != "same") | "# differs: \(.case) :: \(.event): \(.result) [\(.flags | join(","))] \(.why // "")"' "$TMP/cmp.json" 2> /dev/null | cut -c1-300
    jq -r '.facts[]? | "# fact differs: \(.fact): \(.base) -> \(.new)"' "$TMP/cmp.json" 2> /dev/null | cut -c1-300
else
    skip "compare qemu7.2 qemu10.0" "a run folder of each emulator is needed; one boot did not bring one back"
fi
done_testing
