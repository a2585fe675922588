#!/bin/sh
# The LAVA job of lava/ made runnable here: pmucal's initramfs (lava/commands, through
# scripts/emu-run.sh) and the job with file:// URLs of it and IMAGE, checked with LAVA's own
# schema (Debian's lava-common under /usr/bin/python3), and with --run executed offline by
# lava-dispatcher's lava-run against the device dictionary: lava/qemu-neoverse-n1.yaml for an
# arm64 kernel, lava/qemu-riscv64-virt.yaml (QEMU's RISC-V virt machine, lava/pmucal-job-riscv64.yaml,
# lava/commands-riscv64) for a riscv64 one.
#
#   scripts/lava-job.sh [--run] [--isa ISA] IMAGE OUT
#
# IMAGE is the Linux kernel's Image, arm64's (plain or gzip'd) or riscv64's (plain), checked as
# kernel-check.sh checks --image (a regular file of 1 to 256 MiB, the boot header's magic, whole);
# its header says its ISA, which --isa (aarch64 or riscv64) may state: an image of another ISA is
# then refused. OUT is a folder, made when absent.
# A relative IMAGE or OUT starts from the folder the script was started in (PMUCAL_CALLER_DIR
# when set). The job's YAML is written by a YAML writer, each URL a quoted scalar; a path that a
# file:// URL cannot carry as LAVA reads it ('#', '?', ';', a control character, bytes that are
# not UTF-8) is refused.
#
# OUT gets initrd.gz, job.yaml, and with --run lava.log (lava-run's log: a JSON object a line) and
# lava-out/. Exit status: 0 valid (and, with --run, "Job finished correctly"); 1 the schema refused
# the job or the job failed; 2 bad arguments; 3 lava-common or lava-dispatcher is missing.
set -eu
ME=lava-job
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
run=0 isa= isa_given=0
while :; do
    case ${1:-} in
    --run) run=1; shift ;;
    --isa) [ $# -ge 2 ] || die 2 "--isa needs a value: aarch64 or riscv64"; isa=$2 isa_given=1; shift 2 ;;
    *) break ;;
    esac
done
[ $# = 2 ] || die 2 "usage: scripts/lava-job.sh [--run] [--isa ISA] IMAGE OUT"
[ $isa_given = 0 ] || need_isa --isa "$isa"
abs_path "$1"; kernel=$abs
abs_path "$2"; out=$abs
need_new_folder OUT "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
need_kernel_image IMAGE "$kernel" "$scratch" "$isa" --isa
if [ "$image_isa" = aarch64 ]; then
    template=lava/pmucal-job.yaml device=lava/qemu-neoverse-n1.yaml cmds=lava/commands
    bin=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} init=${PMUCAL_EMU_INIT:-build/aarch64/emu-init}
else
    template=lava/pmucal-job-riscv64.yaml device=lava/qemu-riscv64-virt.yaml cmds=lava/commands-riscv64
    # make test hands PMUCAL_EMU_BIN the aarch64 build: riscv64's has names of its own.
    bin=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal} init=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}
fi
# The job, written before anything else is made: a path LAVA would read otherwise is refused here.
# LAVA takes a file:// URL's path as urlparse gives it, not unquoted: the URL holds the path as it
# is, and must parse back to it.
write_job() { # write_job TEMPLATE JOB KERNEL-PATH INITRD-PATH
    /usr/bin/python3 -c 'import json, sys
from urllib.parse import urlparse
template, job, kernel, initrd = sys.argv[1:5]
urls = {}
for name, arg, path in (("@KERNEL@", "IMAGE", kernel), ("@INITRD@", "OUT", initrd)):
    bad = [c for c in path if c in "#?;" or ord(c) < 32 or ord(c) == 127 or 0xdc80 <= ord(c) <= 0xdcff]
    url = "file://" + path
    if bad or urlparse(url).path != path:
        sys.exit("lava-job: %s %s: a file:// URL cannot carry %s as LAVA reads it: give a path without it"
                 % (arg, json.dumps(path), json.dumps("".join(sorted(set(bad))) or path)))
    urls[name] = json.dumps(url)   # a JSON string is a YAML double-quoted scalar
text = open(template).read()
for name, scalar in urls.items():
    field = "url: " + name
    if text.count(field) != 1:
        sys.exit("lava-job: %s holds \"%s\" %d times, not once" % (template, field, text.count(field)))
    text = text.replace(field, "url: " + scalar)
try:
    import yaml
except ImportError:
    sys.exit("lava-job: /usr/bin/python3 cannot import yaml, which reads the job back: apt-get install python3-yaml")
try:
    images = yaml.safe_load(text)["actions"][0]["deploy"]["images"]
    back = (images["kernel"]["url"], images["ramdisk"]["url"])
except (yaml.YAMLError, KeyError, IndexError, TypeError) as e:
    sys.exit("lava-job: the job made from %s does not read back as YAML: %s" % (template, e))
if back != ("file://" + kernel, "file://" + initrd):
    sys.exit("lava-job: the job made from %s reads back other URLs: %s" % (template, json.dumps(back)))
with open(job, "w") as f:
    f.write(text)' "$@"
}
write_job "$template" "$scratch/job.yaml" "$kernel" "$out/initrd.gz" || exit 2
mkdir -p "$out"
cp "$scratch/job.yaml" "$out/job.yaml"
/usr/bin/python3 -c 'import lava_common.schemas' 2> /dev/null ||
    { echo "lava-job: lava_common is not importable by /usr/bin/python3: apt-get install lava-common" >&2; exit 3; }
PMUCAL_EMU_ISA=$image_isa PMUCAL_EMU_INITRD_OUT=$out/initrd.gz scripts/emu-run.sh "$bin" "$init" "$cmds" /dev/null
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
timeout 600 lava-run --job-id "$$" --output-dir "$out/lava-out" --device "$device" "$out/job.yaml" \
    > "$out/lava.log" 2>&1 || rc=$?
grep -q '"msg": "Job finished correctly"' "$out/lava.log" ||
    { echo "lava-job: lava-run exit $rc, the job did not finish correctly: $(grep '"lvl": "error"' "$out/lava.log" | tail -n 1 | cut -c1-300)" >&2; exit 1; }
echo "lava-job: lava-run: Job finished correctly ($(grep -c '"definition": "pmucal-validate"' "$out/lava.log") pmucal results)"
