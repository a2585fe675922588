#!/bin/sh
# Refresh the event tables pmucal ships (eventdata/) from their upstream checkouts:
#   scripts/refresh-eventdata.sh [--linux DIR] [--perfmon DIR] [--out DIR]
#   --linux DIR    a Linux checkout (a git clone, or an unpacked source tree such as Debian's
#                  linux-source), or its tools/perf/pmu-events/arch: AMD's tables (arch/x86: the
#                  mapfile and every amdzen* folder) and Arm's (arch/arm64: the mapfile, the
#                  architecture's tables, and every model folder the mapfile's rows name), and
#                  RISC-V's (arch/riscv: the mapfile, the SBI firmware events riscv-sbi-firmware.json
#                  the models' ArchStdEvent entries name, and every model folder the mapfile names)
#   --perfmon DIR  an Intel perfmon checkout (github.com/intel/perfmon): its mapfile, LICENSE, and
#                  every core, hybrid-core, offcore and fp_arith_inst file its mapfile names, each
#                  stored gzip-compressed as NAME.json.gz (gzip -9n: the same bytes from the same
#                  JSON, so a refresh without upstream changes changes nothing)
#   --out DIR      where to write (default: the tree's eventdata/)
# INTEL_MODELS="SKL ICX", ARM_MODELS="arm/neoverse-n1 ..." and RISCV_MODELS="sifive/bullet ..." keep
# only those models. Each
# vendor's SOURCE is written again: the checkout's revision (git describe and commit; for a source
# tree without git, the version its Makefile states) and each file's git blob id, of the JSON as
# upstream has it (a .gz file: of its inflated content), so a table can be traced to its upstream file.
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
    elif [ -f "$1/Makefile" ] && grep -q '^PATCHLEVEL = ' "$1/Makefile"; then
        echo "Linux $(awk '/^VERSION = /{v=$3} /^PATCHLEVEL = /{p=$3} /^SUBLEVEL = /{s=$3} END {print v "." p "." s}' "$1/Makefile") (the Makefile of $1, a source tree without git)"
    else
        echo "unknown: $1 is not a git checkout"
    fi
}
# blobs DIR: "PATH BLOB" per file under DIR (git hash-object needs no repository); a .gz file's
# blob is that of the JSON it holds, as upstream's git names it.
blobs() { (cd "$1" && find . -type f ! -name SOURCE ! -name LICENSE | sed 's|^\./||' | sort | while read -r f; do
    case $f in
    *.gz) echo "$f $(gzip -dc "$f" | git hash-object --stdin)" ;;
    *) echo "$f $(git hash-object "$f")" ;;
    esac; done); }
# replace FROM TO: TO becomes a copy of the JSON files of FROM (a folder gone upstream goes here too).
replace() { rm -rf "$2" && mkdir -p "$2" && cp "$1"/*.json "$2"/; }

if [ -n "$linux" ]; then
    arch=$linux
    [ -d "$linux/tools/perf/pmu-events/arch" ] && arch=$linux/tools/perf/pmu-events/arch
    for need in x86/mapfile.csv arm64/mapfile.csv arm64/common-and-microarch.json riscv/mapfile.csv \
        riscv/riscv-sbi-firmware.json; do
        [ -f "$arch/$need" ] || { echo "refresh-eventdata.sh: no $arch/$need: --linux takes a Linux checkout or its tools/perf/pmu-events/arch" >&2; exit 2; }
    done
    mkdir -p "$out/amd" "$out/arm"
    cp "$arch/x86/mapfile.csv" "$out/amd/mapfile.csv"
    for d in "$arch"/x86/amdzen*/; do replace "$d" "$out/amd/$(basename "$d")"; done
    cp "$arch/arm64/mapfile.csv" "$arch/arm64/common-and-microarch.json" "$arch/arm64/recommended.json" "$out/arm/"
    # sbsa.json: the architecture's metrics, which model metrics.json files take by ArchStdEvent (Linux 6.6 on).
    [ -f "$arch/arm64/sbsa.json" ] && cp "$arch/arm64/sbsa.json" "$out/arm/"
    # Every core model the mapfile names (its rows: MIDR,version,folder,type); folders it no longer
    # names go.
    models=${ARM_MODELS:-$(awk -F, '$1 ~ /^0x/ && $4 == "core" { print $3 }' "$arch/arm64/mapfile.csv" | sort -u)}
    for d in "$out"/arm/*/; do [ -d "$d" ] && rm -rf "$d"; done
    for m in $models; do
        [ -d "$arch/arm64/$m" ] || { echo "refresh-eventdata.sh: no Arm model $arch/arm64/$m" >&2; exit 2; }
        replace "$arch/arm64/$m" "$out/arm/$m"
    done
    # RISC-V: rows MVENDORID-MARCHID-MIMPID,version,folder,type; the firmware events at the top,
    # (later Linux) the generic events too.
    mkdir -p "$out/riscv"
    rm -f "$out"/riscv/*.json
    cp "$arch/riscv/mapfile.csv" "$arch/riscv/riscv-sbi-firmware.json" "$out/riscv/"
    [ -f "$arch/riscv/riscv-generic.json" ] && cp "$arch/riscv/riscv-generic.json" "$out/riscv/"
    models=${RISCV_MODELS:-$(awk -F, '$1 ~ /^0x/ && $4 == "core" { print $3 }' "$arch/riscv/mapfile.csv" | sort -u)}
    for d in "$out"/riscv/*/; do [ -d "$d" ] && rm -rf "$d"; done
    for m in $models; do
        [ -d "$arch/riscv/$m" ] || { echo "refresh-eventdata.sh: no RISC-V model $arch/riscv/$m" >&2; exit 2; }
        replace "$arch/riscv/$m" "$out/riscv/$m"
    done
    rev=$(revision "$linux")
    for v in amd:x86 arm:arm64 riscv:riscv; do
        { echo "Linux kernel tools/perf/pmu-events/arch/${v#*:} event tables (GPL-2.0 data files of the Linux kernel)"
          echo "revision: $rev"
          echo "files (path under ${v%%:*}/, git blob id):"
          blobs "$out/${v%%:*}"; } > "$out/${v%%:*}/SOURCE"
    done
    for v in amd arm riscv; do
        [ -f "$out/$v/LICENSE" ] || cp "$tree/eventdata/$v/LICENSE" "$out/$v/LICENSE"
    done
fi

if [ -n "$perfmon" ]; then
    [ -f "$perfmon/mapfile.csv" ] || { echo "refresh-eventdata.sh: no $perfmon/mapfile.csv: --perfmon takes an Intel perfmon checkout" >&2; exit 2; }
    mkdir -p "$out/intel"
    cp "$perfmon/mapfile.csv" "$out/intel/mapfile.csv"
    [ -f "$perfmon/LICENSE" ] && cp "$perfmon/LICENSE" "$out/intel/LICENSE"
    # The core tables of every model the mapfile names (hybrid parts: each core type's), as
    # /MODEL/events/FILE.json in its Filename column; folders it no longer names go.
    core_rows='NR > 1 && ($4 == "core" || $4 == "hybridcore" || $4 == "offcore" || $4 == "fp_arith_inst")'
    models=${INTEL_MODELS:-$(awk -F, "$core_rows"' { split($3, p, "/"); print p[2] }' "$perfmon/mapfile.csv" | sort -u)}
    for d in "$out"/intel/*/; do [ -d "$d" ] && rm -rf "$d"; done
    for m in $models; do
        files=$(awk -F, -v m="/$m/" "$core_rows"' && index($3, m) == 1 { print $3 }' "$perfmon/mapfile.csv" | sort -u)
        [ -n "$files" ] || { echo "refresh-eventdata.sh: $perfmon/mapfile.csv names no core table of model $m" >&2; exit 2; }
        mkdir -p "$out/intel/$m/events"
        for f in $files; do
            [ -f "$perfmon$f" ] || { echo "refresh-eventdata.sh: $perfmon/mapfile.csv names $f, which is not in $perfmon" >&2; exit 2; }
            gzip -9nc "$perfmon$f" > "$out/intel$f.gz"
        done
    done
    { echo "Intel perfmon event tables (BSD-3-Clause, LICENSE)"
      echo "revision: $(revision "$perfmon")"
      echo "files (path under intel/, git blob id):"
      blobs "$out/intel"; } > "$out/intel/SOURCE"
fi
echo "refresh-eventdata.sh: tables written to $out; review with git diff and note the revision in the commit" >&2
