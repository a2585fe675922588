#!/bin/sh
# Boot Debian's arm64 kernel on an emulated Neoverse N1 (QEMU TCG, -icount shift=0: exact
# instruction counts, one cycle an instruction) with an initramfs holding the aarch64 pmucal,
# the libraries it needs, the rule files, the event tables and /init (tests/emu/init.c),
# which runs the lines of COMMANDS and powers off. The serial console goes to LOG.
# PMUCAL_EMU_ISA=riscv64 boots Debian 13's riscv64 kernel on QEMU's RISC-V virt machine instead
# (-cpu rv64,sscofpmf=true: the SBI PMU with sampling), the riscv64 pmucal and its host's files
# (tests/emu-riscv64/, tests/hosts/qemu-riscv64-virt/).
#
#   scripts/emu-run.sh PMUCAL INIT COMMANDS LOG [SECONDS]
#
# QEMU exits 0 whatever ran inside: the caller reads the verdicts from LOG. This script exits
# non-zero only when it cannot boot at all (a missing piece, named with its Debian package) or
# QEMU ran past SECONDS (default 170; the message names the console's last line).
#
# SECONDS is wall time. On a shared machine that is a stall guard: a guest that computes in a loop
# spends CPU, and PMUCAL_EMU_CPU_SECONDS (a whole number; unset = no CPU limit) stops QEMU once it
# has used that much CPU time, however busy the machine, with the same exit and message.
#
# What scripts/kernel-check.sh and tests/77 vary, from the environment:
#   PMUCAL_EMU_ISA      aarch64 (default) or riscv64: the emulated machine, its console (ttyAMA0,
#                       ttyS0), its kernel's default, the binutils that read the binary
#   PMUCAL_EMU_QEMU     the QEMU program (default qemu-system-aarch64 or qemu-system-riscv64 on
#                       PATH; build/emu-riscv64/qemu10/usr/bin/qemu-system-riscv64 is QEMU 10)
#   PMUCAL_EMU_BIOS     the firmware QEMU's -bios loads (default QEMU's own: OpenSBI on riscv64)
#   PMUCAL_EMU_KERNEL   the kernel Image (default build/emu/vmlinuz; riscv64: build/emu-riscv64/vmlinux)
#   PMUCAL_EMU_CPU      QEMU's -cpu (default neoverse-n1; "neoverse-n1,pmu=off" has no PMU;
#                       riscv64: rv64,sscofpmf=true)
#   PMUCAL_EMU_APPEND   more kernel command line after "console=ttyAMA0 rdinit=/init quiet"
#   PMUCAL_EMU_MODULES  kernel modules (.ko, .ko.xz, .ko.zst) /init loads first, in this order,
#                       one path a line (a space is part of a path)
#   PMUCAL_EMU_DISK     a raw image attached as a virtio-mmio disk, /dev/vda in the guest; its
#                       path reaches QEMU's -drive with each ',' doubled (QEMU's option syntax),
#                       so no part of it is read as another option
#   PMUCAL_EMU_INITRD_OUT  write the initramfs (gzip'd newc cpio) there and boot nothing: another
#                       harness (LAVA: lava/) boots it
set -eu
[ $# -ge 4 ] || { echo "usage: $0 PMUCAL INIT COMMANDS LOG [SECONDS]" >&2; exit 2; }
bin=$1 init=$2 cmds=$3 log=$4 limit=${5:-170}
# 0 would be timeout(1)'s "no limit" (sweep-emu.sh asks up to 120 + 3 s a case, 300120 s).
case $limit in ''|0*|*[!0-9]*|????????*) echo "emu-run: SECONDS '$limit': give a whole number of seconds from 1 to 9999999" >&2; exit 2 ;; esac
cpu_limit=${PMUCAL_EMU_CPU_SECONDS:-}
case $cpu_limit in '') ;; 0*|*[!0-9]*|????????*) echo "emu-run: PMUCAL_EMU_CPU_SECONDS '$cpu_limit': give a whole number of seconds from 1 to 9999999, or leave it unset" >&2; exit 2 ;; esac
isa=${PMUCAL_EMU_ISA:-aarch64}
# The ISA's machine: QEMU, -cpu, console, kernel, binutils, the host's own files, perf's tables.
case $isa in
aarch64)
    qemu_default=qemu-system-aarch64 qemu_pkg=qemu-system-arm cpu_default=neoverse-n1 console=ttyAMA0
    kernel_default=build/emu/vmlinuz kernel_pkg="linux-image-arm64:arm64 (make deps downloads it to build/emu/vmlinuz)"
    host_files="tests/hosts/qemu-n1/hwloc.xml" emu_files=tests/emu tables=arm
    ;;
riscv64)
    qemu_default=qemu-system-riscv64 qemu_pkg=qemu-system-misc cpu_default=rv64,sscofpmf=true console=ttyS0
    kernel_default=build/emu-riscv64/vmlinux kernel_pkg="linux-image-riscv64 from Debian 13 (make deps downloads it to build/emu-riscv64/vmlinux: scripts/emu-riscv-fetch.sh)"
    host_files=$(ls tests/hosts/qemu-riscv64-virt/hwloc.xml 2> /dev/null || :) emu_files=tests/emu-riscv64 tables=riscv ;;
*)
    echo "emu-run: PMUCAL_EMU_ISA '$isa': give aarch64 or riscv64" >&2
    exit 2 ;;
esac
qemu=${PMUCAL_EMU_QEMU:-$qemu_default}
case $qemu in
*/*) [ -f "$qemu" ] && [ -x "$qemu" ] || { echo "emu-run: PMUCAL_EMU_QEMU '$qemu': no such program: give a QEMU binary (or leave it unset for $qemu_default on PATH)" >&2; exit 2; } ;;
esac
bios=${PMUCAL_EMU_BIOS:-}
if [ -n "$bios" ] && ! [ -f "$bios" ]; then
    echo "emu-run: PMUCAL_EMU_BIOS '$bios': no such file: give QEMU's -bios firmware (build/emu-riscv64/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin for QEMU 10), or leave it unset for QEMU's own" >&2
    exit 2
fi
kernel=${PMUCAL_EMU_KERNEL:-$kernel_default}
eventdata=${PMUCAL_EVENTDATA:-eventdata}   # the tree's own tables (eventdata/)
libdir=/usr/lib/$isa-linux-gnu
need() { # FILE-OR-COMMAND PACKAGE
    case $1 in
    /*|*/*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
    esac || { echo "emu-run: $1 is missing: install the Debian package $2 (make deps does)" >&2; exit 3; }
}
need "$qemu" "$qemu_pkg"
need cpio cpio
need $isa-linux-gnu-readelf binutils-$isa-linux-gnu
need "$kernel" "$kernel_pkg"
if [ "$isa" = aarch64 ]; then
    need "$bin" "gcc-aarch64-linux-gnu (make emu builds it)"
    need "$init" "gcc-aarch64-linux-gnu (make emu builds it)"
else
    need "$bin" "gcc-riscv64-linux-gnu (make emu-riscv64 builds it)"
    need "$init" "gcc-riscv64-linux-gnu (make emu-riscv64 builds it)"
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/bin" "$root/etc" "$root/lib" "$root/proc" "$root/sys" "$root/dev" "$root/tmp" \
         "$root/share/pmucal" "$root/results" "$root/$libdir"
cp "$init" "$root/init"
cp "$bin" "$root/bin/pmucal"
cp "$cmds" "$root/etc/emu-commands"
# Modules uncompressed here: the kernel's own decompression (CONFIG_MODULE_DECOMPRESS) is not
# in every kernel, and /init then needs no flag for it.
: > "$root/etc/emu-modules"
nl='
'
set -f
IFS=$nl
for ko in ${PMUCAL_EMU_MODULES:-}; do
    need "$ko" "the kernel package's modules"
    mkdir -p "$root/lib/modules"
    name=$(basename "$ko")
    case $ko in
    *.xz) xz -dc "$ko" > "$root/lib/modules/${name%.xz}"; name=${name%.xz} ;;
    *.zst) zstd -qdc "$ko" > "$root/lib/modules/${name%.zst}"; name=${name%.zst} ;;
    *.gz) gzip -dc "$ko" > "$root/lib/modules/${name%.gz}"; name=${name%.gz} ;;
    *) cp "$ko" "$root/lib/modules/$name" ;;
    esac
    echo "/lib/modules/$name" >> "$root/etc/emu-modules"
done
IFS=' 	
'
set +f
cp -r validate/expect "$root/share/pmucal/expect"
cp -r uarch "$root/share/pmucal/uarch"   # the uarch files: the emulated core's references
# The emulated host's own files: its topology (tests/hosts/qemu-n1; the RISC-V host has none,
# hwloc has no riscv64 build) and rules (tests/emu/*.txt, tests/emu-riscv64/*.txt).
mkdir -p "$root/share/pmucal/emu"
for f in $host_files $emu_files/*.txt; do
    [ -e "$f" ] && cp "$f" "$root/share/pmucal/emu/"
done
# The guest's cache folder (/init's PMUCAL_CACHE_DIR) starts with the emulated host's recorded
# page-stride TLB walks (tests/emu-riscv64/cache, one per QEMU: the key holds its mimpid and the
# kernel's release): RISC-V states no TLB sizes, and the walk cost each boot half a minute of
# emulation. Another kernel or QEMU misses them and walks as a real machine does.
mkdir -p "$root/cache"
for f in $emu_files/cache/*.json; do
    [ -e "$f" ] && cp "$f" "$root/cache/"
done
# The guest has no assembler: the snippets the code kernel measures there (object=) are
# assembled here by binutils' 'as' for the ISA.
for s in $emu_files/*.s; do
    [ -e "$s" ] || continue
    need $isa-linux-gnu-as binutils-$isa-linux-gnu
    $isa-linux-gnu-as -o "$root/share/pmucal/emu/$(basename "$s" .s).o" "$s"
done
# Perf's tables for the ISA (eventdata/arm, eventdata/riscv), where there are some: the binary
# finds them through PMUCAL_EVENTDATA=/share/pmucal/eventdata (the commands say so where they use them).
if [ -d "$eventdata/$tables" ]; then
    mkdir -p "$root/share/pmucal/eventdata"
    cp -r "$eventdata/$tables" "$root/share/pmucal/eventdata/$tables"
fi
# The shared libraries the binary needs, and theirs, resolved by their NEEDED entries.
# A static binary (the riscv64 build) has no dynamic section: nothing to copy.
todo=$($isa-linux-gnu-readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
done_libs=""
while [ -n "$todo" ]; do
    set -- $todo
    [ $# -gt 0 ] || break
    lib=$1
    shift
    todo=$*
    case " $done_libs " in *" $lib "*) continue ;; esac
    done_libs="$done_libs $lib"
    src=$libdir/$lib
    [ -e "$src" ] || src=/lib/$isa-linux-gnu/$lib
    if [ "$isa" = aarch64 ]; then
        need "$src" "the :arm64 library package holding $lib (libpfm4-dev:arm64, libhwloc-dev:arm64, zlib1g-dev:arm64)"
    else
        need "$src" "libc6-riscv64-cross, or build pmucal static (make emu-riscv64 does)"
    fi
    cp -L "$src" "$root/$libdir/$lib"
    todo="$todo $($isa-linux-gnu-readelf -d "$src" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
done
interp=$($isa-linux-gnu-readelf -l "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
[ -n "$interp" ] && { mkdir -p "$root/$(dirname "$interp")"; cp -L "$libdir/$(basename "$interp")" "$root/$interp"; }
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$root.cpio.gz"
trap 'rm -rf "$root" "$root.cpio.gz"' EXIT
if [ -n "${PMUCAL_EMU_INITRD_OUT:-}" ]; then
    cp "$root.cpio.gz" "$PMUCAL_EMU_INITRD_OUT"
    exit 0
fi
# -net none: without it QEMU looks for efi-virtio.rom (ipxe-qemu) and stops.
# QEMU splits -drive at single commas and reads ",," as one: a path's commas doubled stay in the
# path (else "OUT,file=ELSEWHERE" would write the guest's disk ELSEWHERE: the last file= wins).
qemu_escape() {
    escaped= _rest=$1
    while :; do
        case $_rest in
        *,*) escaped=$escaped${_rest%%,*},, _rest=${_rest#*,} ;;
        *) escaped=$escaped$_rest; return ;;
        esac
    done
}
set --
if [ -n "${PMUCAL_EMU_DISK:-}" ]; then
    qemu_escape "$PMUCAL_EMU_DISK"
    set -- -drive "file=$escaped,format=raw,if=none,id=out" -device virtio-blk-device,drive=out
fi
[ -z "$bios" ] || set -- -bios "$bios" "$@"
# -audiodev none: bookworm-backports' QEMU 10 otherwise probes bookworm's QEMU 7.2 audio module,
# refuses it as another build's and aborts.
[ "$isa" = aarch64 ] || set -- -audiodev none,id=snd0 "$@"
rc=0
timeout --foreground -k 5 "$limit" "$qemu" -M virt -cpu "${PMUCAL_EMU_CPU:-$cpu_default}" -smp 1 -m 1024 \
    -nographic -no-reboot -net none -icount shift=0 -kernel "$kernel" -initrd "$root.cpio.gz" "$@" \
    -pidfile "$root/qemu.pid" \
    -append "console=$console rdinit=/init quiet${PMUCAL_EMU_APPEND:+ $PMUCAL_EMU_APPEND}" </dev/null >"$log" 2>&1 &
guarded=$!
# A background job ignores the terminal's SIGINT: a stop of this script stops QEMU too.
trap 'kill "$guarded" 2>/dev/null || :; exit 143' TERM
trap 'kill "$guarded" 2>/dev/null || :; exit 130' INT
if [ -n "$cpu_limit" ]; then
    # QEMU's own user and system time (fields 14 and 15 of /proc/PID/stat, after the command name).
    hz=$(getconf CLK_TCK)
    while kill -0 "$guarded" 2>/dev/null; do
        sleep 1
        pid=$(cat "$root/qemu.pid" 2>/dev/null) || continue
        used=$(awk -v hz="$hz" '{ sub(/^.*\) /, ""); printf "%d", ($12 + $13) / hz }' "/proc/$pid/stat" 2>/dev/null) || continue
        if [ -n "$used" ] && [ "$used" -ge "$cpu_limit" ]; then
            : > "$root/cpu-spent"
            kill "$pid" 2>/dev/null || :
            break
        fi
    done
fi
wait "$guarded" || rc=$?
if [ -e "$root/cpu-spent" ] || [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    last=$(tr -d '\r' < "$log" | sed 's/.*\x1b\[K//; /^[[:space:]]*$/d; /^'"$(basename "$qemu")"': terminating on signal/d' | tail -n 1 | cut -c1-200)
    if [ -e "$root/cpu-spent" ]; then
        what="used ${cpu_limit}s of CPU time"
    else
        what="ran past ${limit}s"
    fi
    echo "emu-run: QEMU $what: stopped; the console's last line: '${last:-(nothing printed)}' (all of it in $log)" >&2
    exit 4
fi
[ "$rc" = 0 ] || { echo "emu-run: $(basename "$qemu") exited $rc (see $log)" >&2; exit 5; }
