#!/bin/sh
# A kernel's PMU driver checked without its hardware: boot an arm64 kernel on the emulated
# Neoverse N1 (QEMU TCG, -icount shift=0; scripts/emu-run.sh), run pmucal's AArch64 matrix there
# (scripts/kernel-check.commands: validate, the group and multiplexing checks, sampling), and bring
# the guest's whole /results back through a virtio disk (not the console). Compare two such
# checks with 'pmucal compare OUT1/results/*-matrix OUT2/results/*-matrix'.
#
#   scripts/kernel-check.sh --image IMAGE [--modules DIR] | --package NAME
#                           [--cpu MODEL] [--out DIR] [--append ARGS] [--timeout SECONDS]
#                           [--commands FILE]
#
# --image IMAGE    the Linux kernel's arm64 Image (arch/arm64/boot/Image, Debian's
#                  /boot/vmlinuz-*, gzip'd or not): a regular file of 1 to 256 MiB (gzip'd: once
#                  decompressed) with the boot header's magic, whole (its gzip stream complete,
#                  its PE sections all there); --kernel, its old name, still works with a note
# --modules DIR    where that kernel's virtio_mmio.ko and virtio_blk.ko are (its lib/modules/RELEASE);
#                  without it the kernel must have them built in (CONFIG_VIRTIO_MMIO=y, _BLK=y)
# --package NAME   a Debian arm64 kernel package (linux-image-6.1.0-47-arm64), fetched as make deps
#                  fetches its kernel (apt-get download NAME:arm64) into build/kernels/NAME/
# --cpu MODEL      QEMU's -cpu (default neoverse-n1; neoverse-n1,pmu=off boots without a PMU)
# --out DIR        the check's folder (default results/kernel-check/NAME-CPU in the repository);
#                  absent or empty; a ',' in it reaches QEMU's -drive doubled, as a character
# --append ARGS    more kernel command line
# --timeout S      QEMU's limit in seconds, 10 to 86400 (default 900)
# --commands FILE  the guest's commands instead of scripts/kernel-check.commands ("@ENV@ " starts
#                  each pmucal line; the last line saves /results onto /dev/vda)
#
# A relative IMAGE, DIR or FILE is the caller's: it starts from the folder the script was
# started in (PMUCAL_CALLER_DIR when set: make kernel-check sets the folder make was started in).
# Arguments are never shell: each reaches QEMU or apt as one argument.
#
# OUT holds console.log (the serial console), console.ktap (the matrix's KTAP as the guest
# printed it), results/ (the run folders, each manifest naming the kernel: release, package,
# flavour, command line, the PMU's sysfs description, perf_user_access) and kcidb-LABEL.json (each
# run folder as a KCIDB report whose checkout and build are that kernel).
#
# Exit status: 0 when the run folders came back (their verdicts are theirs: the matrix's silent
# zeros make it exit 1 inside); 2 bad input (not an arm64 Image, no such package, bad option);
# 3 a tool is missing; 4 the kernel panicked or never reached /init (the message names the
# console's last line); 5 the guest reached /init but did not finish or could not save.
set -eu
ME=kernel-check
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
usage() { sed -n '8,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
case ${1:-} in -h|--help) sed -n '8,40p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
image_path= modules= package= cpu=neoverse-n1 out= append= limit=900 cmds=scripts/kernel-check.commands
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "kernel-check: $1 needs a value" >&2; usage; }
    case $1 in
    --image|--kernel)
        # --kernel was this option's name before "kernel" meant only pmucal's microbenchmarks.
        [ -z "$image_path" ] || die 2 "$1 $2: an image is given already ($image_path): give one --image"
        [ "$1" = --kernel ] && echo "kernel-check: note: --kernel IMAGE is now --image IMAGE" >&2
        abs_path "$2"; image_path=$abs ;;
    --modules) abs_path "$2"; modules=$abs ;;
    --package) package=$2 ;;
    --cpu) cpu=$2 ;;
    --out) abs_path "$2"; out=$abs ;;
    --append) append=$2 ;;
    --timeout) limit=$2 ;;
    --commands) abs_path "$2"; cmds=$abs ;;
    *) echo "kernel-check: unknown option $1" >&2; usage ;;
    esac
    shift 2
done
[ -n "$image_path" ] && [ -n "$package" ] && die 2 "give --image IMAGE or --package NAME, not both"
[ -z "$image_path" ] && [ -z "$package" ] && die 2 "give the Linux kernel under test: --image IMAGE or --package NAME"
# 0 would be timeout(1)'s "no limit"; a day is more than any boot and check takes under TCG.
need_count --timeout "$limit" 10 86400 "whole seconds"
case $cpu in ''|*[!A-Za-z0-9_.,=-]*) die 2 "--cpu '$cpu': give a QEMU CPU model such as neoverse-n1 or neoverse-n1,pmu=off" ;; esac
need_file --commands "$cmds"
[ -z "$modules" ] || need_folder --modules "$modules"
[ -z "$out" ] || need_new_folder --out "$out"
[ -z "$image_path" ] || [ -e "$image_path" ] || [ -L "$image_path" ] || die 2 "--image $image_path: no such file"
bin=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} init=${PMUCAL_EMU_INIT:-build/aarch64/emu-init} host_bin=${PMUCAL:-bin/pmucal}

# The guest writes its results on a virtio-mmio disk: these modules, in load order, where the
# kernel has them as modules (Debian's: virtio-mmio and virtio-blk; -cloud also virtio itself).
virtio_modules="virtio_ring virtio virtio_mmio virtio_blk"
release=
if [ -n "$package" ]; then
    need_package_name --package "$package"
    cache=build/kernels/$package
    if [ ! -s "$cache/vmlinuz" ]; then
        apt-cache show --no-all-versions "$package:arm64" > /dev/null 2>&1 ||
            die 2 "--package $package: Debian has no such arm64 package (apt-cache show $package:arm64 found none; after dpkg --add-architecture arm64 && apt-get update, apt-cache search '^linux-image-.*-arm64\$' lists them)"
        tmp=$(mktemp -d) && chmod 755 "$tmp"   # apt-get download drops privileges to _apt
        trap 'rm -rf "$tmp"' EXIT
        echo "kernel-check: downloading $package:arm64"
        (cd "$tmp" && apt-get download -qq "$package:arm64" > /dev/null 2>&1) || die 2 "--package $package: apt-get download $package:arm64 failed"
        dpkg-deb -x "$tmp"/*.deb "$tmp/x" || die 2 "--package $package: dpkg-deb cannot unpack $(basename "$tmp"/*.deb)"
        set -- "$tmp"/x/boot/vmlinuz-*
        [ -f "$1" ] || die 2 "--package $package holds no boot/vmlinuz-*: not a kernel image package"
        mkdir -p "$cache/modules"
        for m in $virtio_modules; do
            find "$tmp/x/lib/modules" "$tmp/x/usr/lib/modules" -name "$m.ko*" -exec cp {} "$cache/modules/" \; 2> /dev/null || true
        done
        basename "$1" | sed 's/^vmlinuz-//' > "$cache/release"
        cp "$1" "$cache/vmlinuz.tmp" && mv "$cache/vmlinuz.tmp" "$cache/vmlinuz"
        rm -rf "$tmp"
        trap - EXIT
    fi
    image_path=$cache/vmlinuz modules=$cache/modules release=$(cat "$cache/release")
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
need_arm64_image --image "$image_path" "$scratch"
rm -rf "$scratch"
trap - EXIT
for f in "$bin" "$init" "$host_bin"; do
    [ -x "$f" ] || die 3 "$f is missing: run make all && make emu"
done
kmods= nl='
'
if [ -n "$modules" ]; then
    [ -d "$modules" ] || die 2 "--modules $modules: no such folder"
    for m in $virtio_modules; do
        f=$(find "$modules" -name "$m.ko*" -type f | head -n 1)
        # virtio and virtio_ring are modules only where the flavour builds them so (-cloud).
        case $m in virtio|virtio_ring) [ -n "$f" ] || continue ;; esac
        [ -n "$f" ] || die 2 "--modules $modules holds no $m.ko: give the kernel's lib/modules/RELEASE"
        # One a line: a folder's name may hold spaces (emu-run.sh splits at newlines only).
        kmods="$kmods${kmods:+$nl}$f"
    done
fi

name=${package:-$(basename "$image_path")}
out=${out:-results/kernel-check/$name-$(echo "$cpu" | tr ',=' '-_')}
[ -e "$out" ] && [ -n "$(ls -A "$out" 2> /dev/null)" ] && die 2 "--out $out exists and is not empty: give another or remove it"
mkdir -p "$out"
disk=$out/disk.img
rm -f "$disk"
truncate -s 256M "$disk"   # sparse; the guest writes a tar stream from its first byte
env=HWLOC_XMLFILE=/share/pmucal/emu/hwloc.xml\ HWLOC_THISSYSTEM=1${package:+ PMUCAL_KERNEL_PACKAGE=$package}
sed "s|@ENV@|$env|" "$cmds" > "$out/commands"

echo "kernel-check: booting ${package:-$image_path}${release:+ ($release)} on QEMU -cpu $cpu (limit ${limit}s)"
start=$(date +%s)
rc=0
PMUCAL_EMU_KERNEL=$image_path PMUCAL_EMU_CPU=$cpu PMUCAL_EMU_APPEND=$append PMUCAL_EMU_MODULES=$kmods PMUCAL_EMU_DISK=$disk \
    scripts/emu-run.sh "$bin" "$init" "$out/commands" "$out/console.raw" "$limit" 2> "$out/emu.err" || rc=$?
secs=$(( $(date +%s) - start ))
# 2: emu-run refused its arguments before QEMU started (there is no console to read).
[ "$rc" = 2 ] && { rm -f "$disk"; die 2 "$(cat "$out/emu.err")"; }
tr -d '\r' < "$out/console.raw" | sed 's/.*\x1b\[K//' > "$out/console.log"
rm -f "$out/console.raw"
# The guest's last line: not QEMU's own note that timeout stopped it.
last=$(sed '/^[[:space:]]*$/d; /^qemu-system-aarch64: terminating on signal/d' "$out/console.log" | tail -n 1 | cut -c1-200)
last=${last:-(nothing printed)}
[ "$rc" = 3 ] && { rm -f "$disk"; die 3 "$(cat "$out/emu.err")"; }
if ! grep -q '^### emu init' "$out/console.log"; then
    rm -f "$disk"
    panic=$(grep -m1 'Kernel panic' "$out/console.log" | cut -c1-200 || true)
    [ -n "$panic" ] && die 4 "the kernel panicked before reaching /init: '$panic' (console in $out/console.log)"
    [ "$rc" = 4 ] && die 4 "the kernel never reached /init within ${limit}s; the console's last line: '$last' (console in $out/console.log)"
    die 4 "the kernel stopped before reaching /init (QEMU exit $rc); the console's last line: '$last' (console in $out/console.log)"
fi
if ! grep -q '^### emu done' "$out/console.log"; then
    rm -f "$disk"
    began=$(grep '^### emu begin' "$out/console.log" | tail -n 1 | cut -c1-160)
    how="QEMU exit $rc"
    [ "$rc" = 4 ] && how="stopped past ${limit}s"
    die 5 "the guest reached /init but did not finish ($how); last command begun: '$began'; the console's last line: '$last'"
fi
grep -q '^### emu: save /results onto /dev/vda: done' "$out/console.log" ||
    { rm -f "$disk"; die 5 "the guest could not write its results onto the virtio disk: $(grep -m1 '^### emu: \(save\|module\)' "$out/console.log" || echo "no save line")"; }
tar -xf "$disk" -C "$out" || die 5 "the virtio disk holds no readable tar archive ($disk kept)"
rm -f "$disk"
# The matrix's KTAP as the guest printed it.
awk '/^### emu begin [0-9]*: pmucal export --ktap/ { on = 1; next } /^### emu end / { on = 0 } on' "$out/console.log" |
    sed '/^$/d' > "$out/console.ktap"
summary=
for run in "$out"/results/*/; do
    run=${run%/}
    [ -f "$run/manifest.json" ] || continue
    label=${run##*-}
    "$host_bin" export --kcidb -o "$out/kcidb-$label.json" "$run" 2>> "$out/emu.err" ||
        echo "kernel-check: no KCIDB export of $run (see $out/emu.err)" >&2
    tap=$run/validate.tap
    [ -f "$tap" ] || tap=$run/sample.tap
    counts=$(grep -E '^(not )?ok ' "$tap" 2> /dev/null | awk '/# SKIP/ { s++; next } /^not ok/ { n++; next } { o++ }
        END { printf "%d ok, %d not ok, %d skip", o, n, s }')
    summary="$summary
  $label: $counts"
done
[ -n "$summary" ] || die 5 "the virtio disk held no run folder"
kr=$(jq -r '(.linux_kernel // .kernel) | "\(.release) (\(.flavour // "no flavour")), PMU \(.pmu.name // "none"), \(.pmu.counters // "?") counters, \(.pmu.events // {} | length) sysfs events, perf_user_access \(.perf_user_access // "absent")"' "$out"/results/*-matrix/manifest.json 2> /dev/null || echo "?")
echo "kernel-check: $kr; ${secs}s; run folders in $out/results:$summary"
