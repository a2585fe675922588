#!/bin/sh
# The LAVA job of lava/ (what KernelCI's labs run): it passes LAVA's own schema
# (lava_common.schemas.validate, Debian's lava-common), and lava-dispatcher's lava-run runs it
# offline against the device dictionary lava/qemu-neoverse-n1.yaml: the emulated Neoverse N1 boots
# the kernel make deps downloads with pmucal's initramfs, and the job's monitor turns each of
# pmucal's verdicts into a LAVA result. The results LAVA parsed must be pmucal's TAP, line for line:
# (case :: event, pass|fail|skip) from LAVA's log against the TAP the guest printed in the same log.
. "$(dirname "$0")/lib.sh"
KERNEL=${PMUCAL_EMU_KERNEL:-build/emu/vmlinuz}
export PMUCAL_EMU_BIN=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} PMUCAL_EMU_INIT=${PMUCAL_EMU_INIT:-build/aarch64/emu-init}

if [ "${PMUCAL_TEST_EMU:-1}" = 0 ] || sanitized_build || [ ! -s "$KERNEL" ] || ! /usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null; then
    why="PMUCAL_TEST_EMU=0"
    sanitized_build && why="$PMUCAL is an AddressSanitizer build; the guest runs the plain aarch64 build"
    [ -s "$KERNEL" ] || why="no $KERNEL (make deps downloads it)"
    /usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null || why="no lava_common under /usr/bin/python3 (apt-get install lava-common; make deps does)"
    skip "the LAVA job" "$why"
    done_testing
    exit
fi

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
    done_testing
    exit
fi
start=$(date +%s)
scripts/lava-job.sh --run "$KERNEL" "$out" > "$TMP/r.out" 2> "$TMP/r.err"
rc=$?
ok $rc "lava-run ran the job offline in $(( $(date +%s) - start )) s: $(cat "$TMP/r.out" "$TMP/r.err" | tail -n 1 | cut -c1-300)"
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
        print("T", m)' "$out/lava.log" > "$TMP/lava.parsed" 2> "$TMP/parse.err"
sed -n 's/^R //p' "$TMP/lava.parsed" | sort > "$TMP/lava.res"
# pmucal's own TAP as the guest printed it (the monitored command's output) in the same log.
sed -n 's/^T //p' "$TMP/lava.parsed" |
    awk '/^### emu begin 2: cat/ { on = 1; next } /^### emu end 2 / { on = 0 } on' |
    sed -n 's/^\(not ok\|ok\) [0-9]* - \([^:]* :: [^ ]*\).*/\1|\2|&/p' |
    awk -F'|' '{ r = $1 == "not ok" ? "fail" : ($3 ~ /# SKIP/ ? "skip" : "pass"); print $2 " " r }' | sort > "$TMP/tap.res"
n=$(wc -l < "$TMP/tap.res")
[ "$n" -ge 10 ] && cmp -s "$TMP/lava.res" "$TMP/tap.res"
ok $? "LAVA's $(wc -l < "$TMP/lava.res") parsed results are pmucal's $n TAP verdicts, one for one$(diff "$TMP/tap.res" "$TMP/lava.res" | head -n 4 | tr '\n' ' ')"
for r in pass fail skip; do
    c=$(grep -c " $r\$" "$TMP/lava.res")
    [ "$c" -ge 1 ]
    ok $? "LAVA has $c '$r' results: $(grep -m1 " $r\$" "$TMP/lava.res")"
done
grep -q '^walker :: INST_RETIRED pass$' "$TMP/lava.res" && grep -q '^walker :: BR_RETIRED fail$' "$TMP/lava.res" &&
    grep -q '^walker :: branches skip$' "$TMP/lava.res"
ok $? "exact INST_RETIRED is pass, BR_RETIRED's silent zero fail, the refused branches skip"
done_testing
