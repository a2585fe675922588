#!/bin/sh
# Refresh the event tables pmucal ships (eventdata/) from their upstream checkouts:
#   scripts/refresh-eventdata.sh [--linux DIR] [--perfmon DIR] [--out DIR]
#   --linux DIR    a Linux checkout, or its tools/perf/pmu-events/arch: AMD's tables (arch/x86: the
#                  mapfile and every amdzen* folder) and Arm's (arch/arm64: the mapfile, the
#                  architecture's tables, and the model folders pmucal ships)
#   --perfmon DIR  an Intel perfmon checkout (github.com/intel/perfmon): its mapfile, LICENSE, and
#                  the core, offcore and fp_arith_inst files its mapfile names for the models pmucal
#                  ships
#   --out DIR      where to write (default: the tree's eventdata/)
# The Intel and Arm models kept are the folders the tree's eventdata/ has (INTEL_MODELS="SKL ICX"
# and ARM_MODELS="arm/cortex-a76-n1 ..." choose others). Each vendor's SOURCE is written again:
# the checkout's revision (git describe and commit, when it is a git checkout) and each file's git
# blob id, so a table can be traced to the upstream file it is.
set -eu
tree=$(cd "$(dirname "$0")/.." && pwd)
linux="" perfmon="" out="$tree/eventdata"
while [ $# -gt 0 ]; do
    case $1 in
    --linux) linux=$2; shift 2 ;;
    --perfmon) perfmon=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "refresh-eventdata.sh: unknown argument '$1'; give --linux DIR, --perfmon DIR, --out DIR" >&2; exit 2 ;;
    esac
done
if [ -z "$linux$perfmon" ]; then
    echo "refresh-eventdata.sh: give --linux DIR (a Linux checkout) and/or --perfmon DIR (an Intel perfmon checkout)" >&2
    exit 2
fi

# revision DIR: what the checkout is, for SOURCE.
revision() {
    if git -C "$1" rev-parse HEAD > /dev/null 2>&1; then
        echo "$(git -C "$1" describe --tags --always 2> /dev/null) (commit $(git -C "$1" rev-parse HEAD))"
    else
        echo "unknown: $1 is not a git checkout"
    fi
}
# blobs DIR: "PATH BLOB" per file under DIR (git hash-object needs no repository).
blobs() { (cd "$1" && find . -type f ! -name SOURCE ! -name LICENSE | sed 's|^\./||' | sort | while read -r f; do
    echo "$f $(git hash-object "$f")"; done); }
# replace FROM TO: TO becomes a copy of the JSON files of FROM (a folder gone upstream goes here too).
replace() { rm -rf "$2" && mkdir -p "$2" && cp "$1"/*.json "$2"/; }

if [ -n "$linux" ]; then
    arch=$linux
    [ -d "$linux/tools/perf/pmu-events/arch" ] && arch=$linux/tools/perf/pmu-events/arch
    for need in x86/mapfile.csv arm64/mapfile.csv arm64/common-and-microarch.json; do
        [ -f "$arch/$need" ] || { echo "refresh-eventdata.sh: no $arch/$need: --linux takes a Linux checkout or its tools/perf/pmu-events/arch" >&2; exit 2; }
    done
    mkdir -p "$out/amd" "$out/arm"
    cp "$arch/x86/mapfile.csv" "$out/amd/mapfile.csv"
    for d in "$arch"/x86/amdzen*/; do replace "$d" "$out/amd/$(basename "$d")"; done
    cp "$arch/arm64/mapfile.csv" "$arch/arm64/common-and-microarch.json" "$arch/arm64/recommended.json" "$out/arm/"
    models=${ARM_MODELS:-$(cd "$tree/eventdata/arm" && ls -d */*/ | sed 's|/$||')}
    for m in $models; do
        [ -d "$arch/arm64/$m" ] || { echo "refresh-eventdata.sh: no Arm model $arch/arm64/$m" >&2; exit 2; }
        replace "$arch/arm64/$m" "$out/arm/$m"
    done
    rev=$(revision "$linux")
    for v in amd:x86 arm:arm64; do
        { echo "Linux kernel tools/perf/pmu-events/arch/${v#*:} event tables (GPL-2.0 data files of the Linux kernel)"
          echo "revision: $rev"
          echo "files (path under ${v%%:*}/, git blob id):"
          blobs "$out/${v%%:*}"; } > "$out/${v%%:*}/SOURCE"
    done
    for v in amd arm; do
        [ -f "$out/$v/LICENSE" ] || cp "$tree/eventdata/$v/LICENSE" "$out/$v/LICENSE"
    done
fi

if [ -n "$perfmon" ]; then
    [ -f "$perfmon/mapfile.csv" ] || { echo "refresh-eventdata.sh: no $perfmon/mapfile.csv: --perfmon takes an Intel perfmon checkout" >&2; exit 2; }
    mkdir -p "$out/intel"
    cp "$perfmon/mapfile.csv" "$out/intel/mapfile.csv"
    [ -f "$perfmon/LICENSE" ] && cp "$perfmon/LICENSE" "$out/intel/LICENSE"
    models=${INTEL_MODELS:-$(cd "$tree/eventdata/intel" && ls -d */ | sed 's|/$||')}
    for m in $models; do
        files=$(awk -F, -v m="/$m/" 'NR > 1 && index($3, m) == 1 && ($4 == "core" || $4 == "offcore" || $4 == "fp_arith_inst") { print $3 }' "$perfmon/mapfile.csv" | sort -u)
        [ -n "$files" ] || { echo "refresh-eventdata.sh: $perfmon/mapfile.csv names no core table of model $m" >&2; exit 2; }
        rm -rf "$out/intel/$m" && mkdir -p "$out/intel/$m/events"
        for f in $files; do cp "$perfmon$f" "$out/intel$f"; done
    done
    { echo "Intel perfmon event tables (BSD-3-Clause, LICENSE)"
      echo "revision: $(revision "$perfmon")"
      echo "files (path under intel/, git blob id):"
      blobs "$out/intel"; } > "$out/intel/SOURCE"
fi
echo "refresh-eventdata.sh: tables written to $out; review with git diff and note the revision in the commit" >&2
