#!/bin/sh
# A kernel's PMU driver checked without its hardware: boot a kernel on an emulated machine (QEMU
# TCG, -icount shift=0; scripts/emu-run.sh), run pmucal's matrix there, and bring the guest's whole
# /results back through a virtio disk (not the console). An arm64 kernel boots on the emulated
# Neoverse N1 and runs the AArch64 matrix (scripts/kernel-check.commands: validate, the group and
# multiplexing checks, sampling); a riscv64 kernel boots on QEMU's RISC-V virt machine, whose PMU
# the SBI firmware gives (riscv-pmu-sbi), and runs the RISC-V matrix
# (scripts/kernel-check-riscv64.commands). Compare two such checks with
# 'pmucal compare OUT1/results/*-matrix OUT2/results/*-matrix'.
#
#   scripts/kernel-check.sh --image IMAGE [--modules DIR] | --package NAME [--isa ISA]
#                           [--cpu MODEL] [--out DIR] [--append ARGS] [--timeout SECONDS]
#                           [--commands FILE] [--qemu FILE] [--bios FILE]
#
# --image IMAGE    the Linux kernel's Image: arm64's (arch/arm64/boot/Image, Debian's
#                  /boot/vmlinuz-*, gzip'd or not) or riscv64's (arch/riscv/boot/Image, Debian's
#                  /boot/vmlinux-*, not gzip'd): a regular file of 1 to 256 MiB (gzip'd: once
#                  decompressed) with the boot header's magic, whole (its gzip stream complete,
#                  its PE sections all there); --kernel, its old name, still works with a note
# --modules DIR    where that kernel's virtio_mmio.ko and virtio_blk.ko are (its lib/modules/RELEASE);
#                  without it the kernel must have them built in (CONFIG_VIRTIO_MMIO=y, _BLK=y)
# --package NAME   a Debian kernel package: arm64's from the system's apt (linux-image-6.1.0-47-arm64,
#                  apt-get download NAME:arm64), riscv64's from Debian 13 (trixie) through a
#                  private apt view (linux-image-6.12.117+deb13-riscv64); into build/kernels/NAME/
# --isa ISA        aarch64 or riscv64; without it the image's boot header says which ('ARM\x64'
#                  or 'RSC\x05' at 0x38), and a package's name (riscv64 where it ends in -riscv64)
# --cpu MODEL      QEMU's -cpu (default neoverse-n1, or rv64,sscofpmf=true for riscv64;
#                  neoverse-n1,pmu=off boots without a PMU, rv64,sscofpmf=false with one that
#                  cannot sample nor filter, rv64,pmu-num=0 (QEMU 7.2) or rv64,pmu-mask=0 (10.0)
#                  with no programmable counters)
# --out DIR        the check's folder (default results/kernel-check/NAME-CPU in the repository);
#                  absent or empty; a ',' in it reaches QEMU's -drive doubled, as a character
# --append ARGS    more kernel command line
# --timeout S      QEMU's limit in seconds, 10 to 86400 (default 900)
# --commands FILE  the guest's commands instead of the ISA's scripts/kernel-check*.commands ("@ENV@ "
#                  starts each pmucal line; the last line saves /results onto /dev/vda)
# --qemu FILE      the QEMU binary (default qemu-system-aarch64 or qemu-system-riscv64 from PATH)
# --bios FILE      its -bios firmware (default QEMU's own; QEMU 10's riscv64 wants OpenSBI's
#                  fw_dynamic.bin, build/emu-riscv64/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/)
#
# A relative IMAGE, DIR or FILE is the caller's: it starts from the folder the script was
# started in (PMUCAL_CALLER_DIR when set: make kernel-check sets the folder make was started in).
# Arguments are never shell: each reaches QEMU or apt as one argument. --print-isa checks the
# arguments, prints the ISA they name (aarch64 or riscv64) and stops: make kernel-check builds
# that ISA's pmucal then.
#
# OUT holds console.log (the serial console), console.ktap (the matrix's KTAP as the guest
# printed it), results/ (the run folders, each manifest naming the kernel: release, package,
# flavour, command line, the PMU's sysfs description, perf_user_access) and kcidb-LABEL.json (each
# run folder as a KCIDB report whose checkout and build are that kernel).
#
# Exit status: 0 when the run folders came back (their verdicts are theirs: the matrix's silent
# zeros make it exit 1 inside); 2 bad input (not a kernel Image, one of another ISA than --isa,
# no such package, bad option); 3 a tool is missing; 4 the kernel panicked or never reached
# /init (the message names the console's last line); 5 the guest reached /init but did not
# finish or could not save.
set -eu
ME=kernel-check
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
usage() { sed -n '11,39p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
case ${1:-} in -h|--help) sed -n '11,56p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
image_path= modules= package= isa= cpu= out= append= limit=900 cmds= qemu= bios= print_isa=0 cpu_given=0 isa_given=0
while [ $# -gt 0 ]; do
    [ "$1" = --print-isa ] && { print_isa=1; shift; continue; }
    [ $# -ge 2 ] || { echo "kernel-check: $1 needs a value" >&2; usage; }
    case $1 in
    --image|--kernel)
        # --kernel was this option's name before "kernel" meant only pmucal's microbenchmarks.
        [ -z "$image_path" ] || die 2 "$1 $2: an image is given already ($image_path): give one --image"
        [ "$1" = --kernel ] && echo "kernel-check: note: --kernel IMAGE is now --image IMAGE" >&2
        abs_path "$2"; image_path=$abs ;;
    --modules) abs_path "$2"; modules=$abs ;;
    --package) package=$2 ;;
    --isa) isa=$2 isa_given=1 ;;
    --cpu) cpu=$2 cpu_given=1 ;;
    --out) abs_path "$2"; out=$abs ;;
    --append) append=$2 ;;
    --timeout) limit=$2 ;;
    --commands) abs_path "$2"; cmds=$abs ;;
    --qemu) abs_path "$2"; qemu=$abs ;;
    --bios) abs_path "$2"; bios=$abs ;;
    *) echo "kernel-check: unknown option $1" >&2; usage ;;
    esac
    shift 2
done
[ $isa_given = 0 ] || need_isa --isa "$isa"
[ -n "$image_path" ] && [ -n "$package" ] && die 2 "give --image IMAGE or --package NAME, not both"
[ -z "$image_path" ] && [ -z "$package" ] && die 2 "give the Linux kernel under test: --image IMAGE or --package NAME"
# 0 would be timeout(1)'s "no limit"; a day is more than any boot and check takes under TCG.
need_count --timeout "$limit" 10 86400 "whole seconds"
[ $cpu_given = 0 ] || case $cpu in ''|*[!A-Za-z0-9_.,=-]*) die 2 "--cpu '$cpu': give a QEMU CPU model such as neoverse-n1, neoverse-n1,pmu=off or rv64,sscofpmf=false" ;; esac
[ -z "$cmds" ] || need_file --commands "$cmds"
[ -z "$qemu" ] || need_file --qemu "$qemu"
[ -z "$qemu" ] || [ -x "$qemu" ] || die 2 "--qemu $qemu is not executable: give QEMU's qemu-system-* binary"
[ -z "$bios" ] || need_file --bios "$bios"
[ -z "$modules" ] || need_folder --modules "$modules"
[ -z "$out" ] || need_new_folder --out "$out"
[ -z "$image_path" ] || [ -e "$image_path" ] || [ -L "$image_path" ] || die 2 "--image $image_path: no such file"
if [ -n "$package" ]; then
    need_package_name --package "$package"
    # Debian names a kernel package by its architecture: linux-image-*-riscv64 is riscv64's.
    if [ -z "$isa" ]; then
        case $package in *-riscv64) isa=riscv64 ;; *) isa=aarch64 ;; esac
    fi
    [ $print_isa = 0 ] || { echo "$isa"; exit 0; }
fi

# The guest writes its results on a virtio-mmio disk: these modules, in load order, where the
# kernel has them as modules (Debian's: virtio-mmio and virtio-blk; -cloud also virtio itself).
virtio_modules="virtio_ring virtio virtio_mmio virtio_blk"
release=
# unpack_package DEB-FOLDER IMAGE-GLOB: the package's Image, release and virtio modules into $cache.
unpack_package() {
    dpkg-deb -x "$1"/*.deb "$1/x" || die 2 "--package $package: dpkg-deb cannot unpack $(basename "$1"/*.deb)"
    set -- "$1" "$1"/x/boot/$2
    [ -f "$2" ] || die 2 "--package $package holds no boot/$(basename "$2"): not a kernel image package"
    mkdir -p "$cache/modules"
    for m in $virtio_modules; do
        find "$1/x/lib/modules" "$1/x/usr/lib/modules" -name "$m.ko*" -exec cp {} "$cache/modules/" \; 2> /dev/null || true
    done
    basename "$2" | sed 's/^vmlinu[xz]-//' > "$cache/release"
    cp "$2" "$cache/image.tmp" && mv "$cache/image.tmp" "$cache/$kfile"
}
if [ -n "$package" ]; then
    cache=build/kernels/$package
    kfile=vmlinuz
    [ "$isa" = riscv64 ] && kfile=vmlinux
    if [ ! -s "$cache/$kfile" ] && [ "$isa" = aarch64 ]; then
        apt-cache show --no-all-versions "$package:arm64" > /dev/null 2>&1 ||
            die 2 "--package $package: Debian has no such arm64 package (apt-cache show $package:arm64 found none; after dpkg --add-architecture arm64 && apt-get update, apt-cache search '^linux-image-.*-arm64\$' lists them)"
        tmp=$(mktemp -d) && chmod 755 "$tmp"   # apt-get download drops privileges to _apt
        trap 'rm -rf "$tmp"' EXIT
        echo "kernel-check: downloading $package:arm64"
        (cd "$tmp" && apt-get download -qq "$package:arm64" > /dev/null 2>&1) || die 2 "--package $package: apt-get download $package:arm64 failed"
        unpack_package "$tmp" 'vmlinuz-*'
        rm -rf "$tmp"
        trap - EXIT
    elif [ ! -s "$cache/$kfile" ]; then
        # Debian 13 (trixie) ships riscv64; this system's apt knows none of it. A private apt view
        # (its own sources, lists, cache and status in a scratch folder) fetches the package and
        # leaves the system's apt as it is; the system's keyring verifies trixie.
        mirror=${PMUCAL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
        # Written into the view's sources file: no newline nor space may start another field.
        case $mirror in
        *[!A-Za-z0-9._~:/%+@=-]*) die 2 "PMUCAL_DEBIAN_MIRROR '$mirror': give the archive's URI (http://..., https://... or file:/...), without spaces or shell characters" ;;
        http://?*|https://?*|file:/*) ;;
        *) die 2 "PMUCAL_DEBIAN_MIRROR '$mirror': give the archive's URI (http://..., https://... or file:/...)" ;;
        esac
        tmp=$(mktemp -d) && chmod 755 "$tmp"   # apt-get download drops privileges to _apt
        trap 'rm -rf "$tmp"' EXIT
        mkdir -p "$tmp/etc" "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/state" "$tmp/deb"
        chmod 755 "$tmp/deb"
        : > "$tmp/state/status"
        printf 'Types: deb\nURIs: %s\nSuites: trixie\nComponents: main\nArchitectures: riscv64\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            "$mirror" > "$tmp/etc/trixie.sources"
        # One argument each: the view's paths are mktemp's, without spaces.
        set -- -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$tmp/etc" -o Dir::Etc::Preferences=/dev/null \
            -o Dir::Etc::PreferencesParts=/dev/null -o "Dir::State::Lists=$tmp/lists" -o "Dir::State::status=$tmp/state/status" \
            -o "Dir::Cache=$tmp/cache" -o APT::Architecture=riscv64 -o APT::Architectures::=riscv64
        apt-get "$@" update -qq > "$tmp/update.log" 2>&1 || :
        ! grep -q '^[WE]:' "$tmp/update.log" ||
            die 2 "--package $package: apt-get update of trixie (riscv64) at $mirror failed: $(grep -m1 '^[WE]:' "$tmp/update.log" | cut -c1-200)"
        apt-cache "$@" show --no-all-versions "$package" > /dev/null 2>&1 ||
            die 2 "--package $package: Debian 13 (trixie) has no such riscv64 package (apt-cache show found none in $mirror; its kernels are linux-image-*-riscv64, such as the one linux-image-riscv64 depends on)"
        echo "kernel-check: downloading $package (trixie, riscv64)"
        (cd "$tmp/deb" && apt-get "$@" download -qq "$package" > "$tmp/download.log" 2>&1) ||
            die 2 "--package $package: apt-get download $package (trixie, riscv64) failed: $(grep -m1 '^E:' "$tmp/download.log" | cut -c1-200)"
        unpack_package "$tmp/deb" 'vmlinux-*'
        rm -rf "$tmp"
        trap - EXIT
    fi
    image_path=$cache/$kfile modules=$cache/modules release=$(cat "$cache/release")
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
need_kernel_image --image "$image_path" "$scratch" "$isa" --isa
rm -rf "$scratch"
trap - EXIT
isa=$image_isa
[ $print_isa = 0 ] || { echo "$isa"; exit 0; }
host_bin=${PMUCAL:-bin/pmucal}
if [ "$isa" = aarch64 ]; then
    bin=${PMUCAL_EMU_BIN:-build/aarch64/pmucal} init=${PMUCAL_EMU_INIT:-build/aarch64/emu-init} build="make all && make emu"
    cpu=${cpu:-neoverse-n1} cmds=${cmds:-scripts/kernel-check.commands}
    env=HWLOC_XMLFILE=/share/pmucal/emu/hwloc.xml\ HWLOC_THISSYSTEM=1${package:+ PMUCAL_KERNEL_PACKAGE=$package}
else
    # make test hands PMUCAL_EMU_BIN the aarch64 build: riscv64's has names of its own.
    bin=${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal} init=${PMUCAL_EMU_RV_INIT:-build/riscv64/emu-init}
    build="make all && make emu-riscv64"
    cpu=${cpu:-rv64,sscofpmf=true} cmds=${cmds:-scripts/kernel-check-riscv64.commands}
    # QEMU's virt machine states no caches, and a load-latency curve under TCG would measure the
    # emulator, not the kernel under test (the arm64 form takes the N1's topology from a fixture).
    env=PMUCAL_GEOMETRY=hwloc${package:+ PMUCAL_KERNEL_PACKAGE=$package}
fi
for f in "$bin" "$init" "$host_bin"; do
    [ -x "$f" ] || die 3 "$f is missing: run $build"
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
sed "s|@ENV@|$env|" "$cmds" > "$out/commands"

echo "kernel-check: booting ${package:-$image_path}${release:+ ($release)} on QEMU -cpu $cpu (limit ${limit}s)"
# emu-run.sh boots the ISA's QEMU machine; --qemu and --bios replace its binary and firmware.
[ -z "$qemu" ] || export PMUCAL_EMU_QEMU="$qemu"
[ -z "$bios" ] || export PMUCAL_EMU_BIOS="$bios"
start=$(date +%s)
rc=0
PMUCAL_EMU_ISA=$isa PMUCAL_EMU_KERNEL=$image_path PMUCAL_EMU_CPU=$cpu PMUCAL_EMU_APPEND=$append PMUCAL_EMU_MODULES=$kmods PMUCAL_EMU_DISK=$disk \
    scripts/emu-run.sh "$bin" "$init" "$out/commands" "$out/console.raw" "$limit" 2> "$out/emu.err" || rc=$?
secs=$(( $(date +%s) - start ))
# 2: emu-run refused its arguments before QEMU started (there is no console to read).
[ "$rc" = 2 ] && { rm -f "$disk"; die 2 "$(cat "$out/emu.err")"; }
tr -d '\r' < "$out/console.raw" | sed 's/.*\x1b\[K//' > "$out/console.log"
rm -f "$out/console.raw"
# The guest's last line: not QEMU's own note that timeout stopped it.
last=$(sed '/^[[:space:]]*$/d; /^qemu-system-[a-z0-9_]*: terminating on signal/d' "$out/console.log" | tail -n 1 | cut -c1-200)
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
