#!/bin/sh
# The LAVA job of lava/ made runnable here: pmucal's initramfs (lava/commands, through
# scripts/emu-run.sh) and the job with file:// URLs of it and KERNEL, checked with LAVA's own
# schema (Debian's lava-common under /usr/bin/python3), and with --run executed offline by
# lava-dispatcher's lava-run against the device dictionary lava/qemu-neoverse-n1.yaml.
#
#   scripts/lava-job.sh [--run] KERNEL OUT
#
# OUT gets initrd.gz, job.yaml, and with --run lava.log (lava-run's log: a JSON object a line) and
# lava-out/. Exit status: 0 valid (and, with --run, "Job finished correctly"); 1 the schema refused
# the job or the job failed; 3 lava-common or lava-dispatcher is missing.
set -eu
cd "$(dirname "$0")/.."
run=0
[ "${1:-}" = --run ] && { run=1; shift; }
[ $# = 2 ] || { echo "usage: $0 [--run] KERNEL OUT" >&2; exit 2; }
kernel=$(realpath "$1") out=$2
mkdir -p "$out"
out=$(realpath "$out")
/usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null ||
    { echo "lava-job: lava_common is not importable by /usr/bin/python3: apt-get install lava-common" >&2; exit 3; }
PMUCAL_EMU_INITRD_OUT=$out/initrd.gz scripts/emu-run.sh "${PMUCAL_EMU_BIN:-build/aarch64/pmucal}" \
    "${PMUCAL_EMU_INIT:-build/aarch64/emu-init}" lava/commands /dev/null
sed "s|@KERNEL@|file://$kernel|; s|@INITRD@|file://$out/initrd.gz|" lava/pmucal-job.yaml > "$out/job.yaml"
/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$out/job.yaml" 2> "$out/schema.err" ||
    { echo "lava-job: LAVA's schema refuses $out/job.yaml: $(tail -n 1 "$out/schema.err")" >&2; exit 1; }
echo "lava-job: $out/job.yaml passes lava_common.schemas.validate"
[ $run = 1 ] || exit 0
command -v lava-run > /dev/null 2>&1 ||
    { echo "lava-job: lava-run is missing: apt-get install --no-install-recommends lava-dispatcher" >&2; exit 3; }
rm -rf "$out/lava-out"
rc=0
timeout 600 lava-run --job-id "$$" --output-dir "$out/lava-out" --device lava/qemu-neoverse-n1.yaml "$out/job.yaml" \
    > "$out/lava.log" 2>&1 || rc=$?
grep -q '"msg": "Job finished correctly"' "$out/lava.log" ||
    { echo "lava-job: lava-run exit $rc, the job did not finish correctly: $(grep '"lvl": "error"' "$out/lava.log" | tail -n 1 | cut -c1-300)" >&2; exit 1; }
echo "lava-job: lava-run: Job finished correctly ($(grep -c '"definition": "pmucal-validate"' "$out/lava.log") pmucal results)"
