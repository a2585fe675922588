#!/bin/sh
# pmucal export --kcidb: a run as a KCIDB I/O report (schema v5.3). Its shape is checked here with
# jq on every host; the schema itself with KernelCI's database's own validator (kcidb-io,
# GPL-2.0): ../shared/tools/kcidb-io beside the tree (as CI has it), else one python3 can import
# (installed, or a checkout on PYTHONPATH), under a python3 with jsonschema (Debian's
# python3-jsonschema, which make deps installs). This repository does not carry kcidb-io, so
# without one those checks SKIP saying how to get it.
. "$(dirname "$0")/lib.sh"
ref=results/reference
[ -d ../shared/tools/kcidb-io/kcidb_io ] && export PYTHONPATH="../shared/tools/kcidb-io${PYTHONPATH:+:$PYTHONPATH}"
py=
for p in python3 /usr/bin/python3; do
    command -v "$p" > /dev/null 2>&1 && "$p" -c 'import kcidb_io, jsonschema' 2> /dev/null && { py=$p; break; }
done
validator() { "$py" -c 'import json, sys, kcidb_io
kcidb_io.schema.LATEST.validate(json.load(open(sys.argv[1])))' "$1"; }
have_validator=${py:+1}
why="the KCIDB validator kcidb-io is not importable by python3 (../shared/tools/kcidb-io, pip install kcidb-io, or PYTHONPATH=a checkout of github.com/kernelci/kcidb-io), or jsonschema is missing (apt-get install python3-jsonschema)"
for run in zen5-vm-validate-perf zen5-vm-validate-sim zen5-vm-calibrate; do
    $PMUCAL export --kcidb -o "$TMP/$run.json" "$ref/$run" 2> "$TMP/err"
    rc=$?
    verdicts=$(grep -cE '^(not )?ok [0-9]+ - |^# info ' "$ref/$run/validate.tap")
    jq -e --argjson n "$verdicts" '.version == {"major": 5, "minor": 3} and (.tests | length) == $n and
        (.checkouts | length) == 1 and (.builds | length) == 1 and .builds[0].checkout_id == .checkouts[0].id and
        all(.checkouts[], .builds[], .tests[]; .origin == "pmucal" and (.id | startswith("pmucal:"))) and
        all(.tests[]; (.path | test("^pmucal\\.[a-z]+(\\.[A-Za-z0-9_-]+)+$")) and
            (.status | IN("PASS", "FAIL", "SKIP", "ERROR", "DONE")) and .build_id == $b and
            (.environment.misc | .cpu_id and .kernel and .libpfm4 and .perf)) and
        ([.tests[].id] | unique | length) == $n' --arg b "$(jq -r '.builds[0].id' "$TMP/$run.json" 2> /dev/null)" \
        "$TMP/$run.json" > /dev/null
    ok $? "$run: export --kcidb (exit $rc): one checkout and build, a test per verdict and info line ($verdicts), ids 'pmucal:...', paths and statuses as KCIDB takes them $(head -c 200 "$TMP/err")"
    if [ -n "$have_validator" ]; then
        validator "$TMP/$run.json" > /dev/null 2> "$TMP/v.err"
        ok $? "$run: kcidb-io validates the report against KCIDB schema v5.3: $(tail -n 3 "$TMP/v.err" | tr '\n' ' ' | head -c 300)"
    else
        skip "$run: kcidb-io validates the report against KCIDB schema v5.3" "$why"
    fi
done
# The figures and statuses are the run's: a failing verdict is FAIL, an unstable penalty ERROR.
jq -e '[.tests[] | select(.path == "pmucal.calibrate.penalty_fp_assist_add")][0].status == "FAIL" and
       [.tests[] | select(.path == "pmucal.calibrate.penalty_l3_hit")][0].status == "ERROR" and
       ([.tests[] | select(.path == "pmucal.calibrate.penalty_l1_hit")][0].status == "PASS")' \
    "$TMP/zen5-vm-calibrate.json" > /dev/null
ok $? "a calibration's penalties: fp_assist_add FAIL, l3_hit (unstable) ERROR, l1_hit PASS"
jq -e '[.tests[] | select(.path == "pmucal.validate.walker_size_L2.page-faults")][0] | .status == "PASS" and .number.value == 0' \
    "$TMP/zen5-vm-validate-perf.json" > /dev/null
ok $? "a validate verdict: its path pmucal.validate.<case>.<event>, status, and the measured figure as its number"
# The validator refuses what KCIDB refuses (a check that cannot fail proves nothing).
if [ -n "$have_validator" ]; then
    jq '.tests[0].id = "no-origin-prefix"' "$TMP/zen5-vm-calibrate.json" > "$TMP/bad.json"
    ! validator "$TMP/bad.json" > /dev/null 2>&1
    ok $? "kcidb-io refuses a test id without the 'origin:' prefix"
else
    skip "kcidb-io refuses a test id without the 'origin:' prefix" "$why"
fi
done_testing
