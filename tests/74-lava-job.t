#!/bin/sh
# The LAVA job of lava/ (what KernelCI's labs run): it passes LAVA's own schema
# (lava_common.schemas.validate, Debian's lava-common), and lava-dispatcher's lava-run runs it
# offline against the device dictionary lava/qemu-neoverse-n1.yaml: the emulated Neoverse N1 boots
# the kernel make deps downloads with pmucal's initramfs, and the job's monitor turns each of
# pmucal's verdicts into a LAVA result. The results LAVA parsed must be pmucal's TAP, line for line:
# (case :: event, pass|fail|skip) from LAVA's log against the TAP the guest printed in the same log.
# The riscv64 job (lava/pmucal-job-riscv64.yaml on lava/qemu-riscv64-virt.yaml) runs the same way
# with Debian 13's riscv64 kernel (build/emu-riscv64), chosen by the image's header: one boot.
. "$(dirname "$0")/lib.sh"
KERNEL=${PMUCAL_EMU_KERNEL:-build/emu/vmlinuz}
RV_KERNEL=build/emu-riscv64/vmlinux
export PMUCAL_EMU_BIN=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} PMUCAL_EMU_INIT=${PMUCAL_EMU_INIT:-build/aarch64/emu-init}
export PMUCAL_EMU_RV_BIN=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal} PMUCAL_EMU_RV_INIT=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}

if [ "${PMUCAL_TEST_EMU:-1}" = 0 ] || sanitized_build || ! /usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null; then
    why="PMUCAL_TEST_EMU=0"
    sanitized_build && why="$PMUCAL is an AddressSanitizer build; the guest runs the plain aarch64 build"
    /usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null || why="no lava_common under /usr/bin/python3 (apt-get install lava-common; make deps does)"
    skip "the LAVA job" "$why"
    done_testing
    exit
fi
# lava_results OUT: LAVA's results (OUT.lava.res) and the TAP the guest printed (OUT.tap.res), each
# "CASE :: EVENT pass|fail|skip" a line, sorted, from OUT/lava.log.
lava_results() {
    # LAVA's log is a YAML flow mapping a line (JSON-like, but with tags such as '! "32956352"'):
    # R lines are the monitor's results, "CASE :: EVENT result"; T lines what the guest printed.
    /usr/bin/python3 -c 'import sys, yaml
for line in open(sys.argv[1]):
    try:
        d = yaml.safe_load(line)
    except yaml.YAMLError:
        continue
    if not isinstance(d, dict):
        continue
    m = d.get("msg")
    if d.get("lvl") == "results" and isinstance(m, dict) and m.get("definition") == "pmucal-validate":
        print("R", m["extra"]["test_case_id"], m["result"])
    elif d.get("lvl") == "target" and isinstance(m, str):
        print("T", m)' "$1/lava.log" > "$1.parsed" 2> "$1.parse.err"
    sed -n 's/^R //p' "$1.parsed" | sort > "$1.lava.res"
    # pmucal's own TAP as the guest printed it (the monitored command's output) in the same log.
    sed -n 's/^T //p' "$1.parsed" |
        awk '/^### emu begin 2: cat/ { on = 1; next } /^### emu end 2 / { on = 0 } on' |
        sed -n 's/^\(not ok\|ok\) [0-9]* - \([^:]* :: [^ ]*\).*/\1|\2|&/p' |
        awk -F'|' '{ r = $1 == "not ok" ? "fail" : ($3 ~ /# SKIP/ ? "skip" : "pass"); print $2 " " r }' | sort > "$1.tap.res"
}

if [ ! -s "$KERNEL" ]; then
    skip "the LAVA job" "no $KERNEL (make deps downloads it)"
else
    out=$TMP/lava
    scripts/lava-job.sh "$KERNEL" "$out" > "$TMP/v.out" 2> "$TMP/v.err"
    ok $? "the job passes LAVA's schema: $(cat "$TMP/v.out" "$TMP/v.err" | tail -n 1)"
    # The schema is not a rubber stamp: a job without its actions is refused.
    sed '/^actions:/,$d' "$out/job.yaml" > "$TMP/broken.yaml"
    /usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$TMP/broken.yaml" > /dev/null 2>&1
    [ $? != 0 ]
    ok $? "the same schema refuses the job without its actions"

    if ! command -v lava-run > /dev/null 2>&1; then
        skip "the job under lava-run" "lava-run is missing (apt-get install --no-install-recommends lava-dispatcher; make deps does)"
    else
        start=$(date +%s)
        scripts/lava-job.sh --run "$KERNEL" "$out" > "$TMP/r.out" 2> "$TMP/r.err"
        rc=$?
        ok $rc "lava-run ran the job offline in $(( $(date +%s) - start )) s: $(cat "$TMP/r.out" "$TMP/r.err" | tail -n 1 | cut -c1-300)"
        lava_results "$out"
        n=$(wc -l < "$out.tap.res")
        [ "$n" -ge 10 ] && cmp -s "$out.lava.res" "$out.tap.res"
        ok $? "LAVA's $(wc -l < "$out.lava.res") parsed results are pmucal's $n TAP verdicts, one for one$(diff "$out.tap.res" "$out.lava.res" | head -n 4 | tr '\n' ' ')"
        for r in pass fail skip; do
            c=$(grep -c " $r\$" "$out.lava.res")
            [ "$c" -ge 1 ]
            ok $? "LAVA has $c '$r' results: $(grep -m1 " $r\$" "$out.lava.res")"
        done
        grep -q '^walker :: INST_RETIRED pass$' "$out.lava.res" && grep -q '^walker :: BR_RETIRED fail$' "$out.lava.res" &&
            grep -q '^walker :: branches skip$' "$out.lava.res"
        ok $? "exact INST_RETIRED is pass, BR_RETIRED's silent zero fail, the refused branches skip"
    fi
fi

rv_why=
[ -x "$PMUCAL_EMU_RV_BIN" ] || rv_why="no $PMUCAL_EMU_RV_BIN: make emu-riscv64 builds it"
[ -s "$RV_KERNEL" ] || rv_why="no $RV_KERNEL: make deps fetches it (scripts/emu-riscv-fetch.sh)"
command -v lava-run > /dev/null 2>&1 || rv_why="lava-run is missing (apt-get install --no-install-recommends lava-dispatcher; make deps does)"
if [ -n "$rv_why" ]; then
    skip "the riscv64 job under lava-run" "$rv_why"
else
    out=$TMP/lava-rv
    start=$(date +%s)
    cpu0=$(awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / hz }' "/proc/$$/stat")
    scripts/lava-job.sh --run "$RV_KERNEL" "$out" > "$TMP/rv.out" 2> "$TMP/rv.err"
    rc=$?
    cpu=$(awk -v hz="$(getconf CLK_TCK)" -v c0="$cpu0" '{ sub(/^.*\) /, ""); printf "%.1f", ($14 + $15) / hz - c0 }' "/proc/$$/stat")
    ok $rc "lava-run ran the riscv64 job offline in $(( $(date +%s) - start )) s, ${cpu} s CPU: $(cat "$TMP/rv.out" "$TMP/rv.err" | tail -n 1 | cut -c1-300)"
    /usr/bin/python3 -c 'import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
print(j["context"]["arch"])' "$out/job.yaml" > "$TMP/rv.arch" 2>&1
    grep -qx riscv64 "$TMP/rv.arch" && grep -q 'qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=true' "$out/lava.log" &&
        grep -q '"Boot HART ISA Extensions *: [a-z,]*sscofpmf' "$out/lava.log"
    ok $? "the image's header chose the riscv64 job: context arch $(cat "$TMP/rv.arch"), qemu-system-riscv64 whose OpenSBI gives Sscofpmf: $(grep -a -o -m1 'Boot HART ISA Extensions *: [a-z,]*' "$out/lava.log")"
    lava_results "$out"
    n=$(wc -l < "$out.tap.res")
    [ "$n" -ge 3 ] && cmp -s "$out.lava.res" "$out.tap.res"
    ok $? "LAVA's $(wc -l < "$out.lava.res") parsed results are pmucal's $n TAP verdicts, one for one$(diff "$out.tap.res" "$out.lava.res" | head -n 4 | tr '\n' ' ')"
    grep -q '^branch :: page-faults pass$' "$out.lava.res" && grep -q '^branch :: branches skip$' "$out.lava.res" &&
        grep -q '^branch :: instructions \(pass\|fail\)$' "$out.lava.res"
    ok $? "page-faults pass, instructions judged, branches (refused by riscv-pmu-sbi) skip: $(grep -c ' pass$' "$out.lava.res") pass, $(grep -c ' fail$' "$out.lava.res") fail, $(grep -c ' skip$' "$out.lava.res") skip"
fi
done_testing
