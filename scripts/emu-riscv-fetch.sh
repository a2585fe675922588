#!/bin/sh
# scripts/emu-riscv-fetch.sh: the emulated RISC-V host's pieces (tests/77), downloaded, not installed,
# into build/emu-riscv64/:
#   modules/  its virtio_mmio and virtio_blk modules, on which make kernel-check's guest saves its
#             run folders (tests/73)
#   vmlinux   Debian 13 (trixie)'s riscv64 kernel Image (CONFIG_RISCV_PMU_SBI=y, 8250 console built
#             in: no modules), from the package linux-image-riscv64 depends on
#   qemu10/   bookworm-backports' qemu-system-riscv (QEMU 10.0) and opensbi (1.5) unpacked:
#             qemu10/usr/bin/qemu-system-riscv64 and
#             qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin (its -bios)
# make deps runs it unless PMUCAL_TEST_EMU=0. The packages come through a private apt view in a
# scratch folder (its own sources file, lists, cache and status), so the system's apt sources and
# state stay as they are; the system's keyring verifies both suites. PMUCAL_DEBIAN_MIRROR names the
# archive (default http://deb.debian.org/debian).
#
# A machine that cannot reach the archive is no error of the tree: the reason goes to
# build/emu-riscv64/unavailable, which tests/77 prints as its SKIP, and this exits 0 (make deps goes
# on). Anything else (a package without the file it should hold, a QEMU that does not run) exits 1.
set -e
dir=build/emu-riscv64
qemu=$dir/qemu10/usr/bin/qemu-system-riscv64
bios=$dir/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin
mirror=${PMUCAL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
case $mirror in
*[!A-Za-z0-9._~:/%+@=-]*) echo "pmucal: PMUCAL_DEBIAN_MIRROR '$mirror': give the archive's URI (http://..., https://... or file:/...), without spaces or shell characters" >&2; exit 2 ;;
http://?*|https://?*|file:/*) ;;
*) echo "pmucal: PMUCAL_DEBIAN_MIRROR '$mirror': give the archive's URI (http://..., https://... or file:/...)" >&2; exit 2 ;;
esac
[ -s "$dir/vmlinux" ] && [ -s "$dir/modules/virtio_blk.ko.xz" ] && [ -x "$qemu" ] && [ -s "$bios" ] && [ -e "$dir/qemu10/booted" ] && exit 0
mkdir -p "$dir"
for t in apt-get apt-cache dpkg-deb tar; do
    command -v "$t" > /dev/null 2>&1 || { echo "pmucal: $t is missing (Debian's apt and dpkg): cannot fetch the emulated RISC-V host" >&2; exit 1; }
done
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -s "$keyring" ] || { echo "pmucal: $keyring is missing: install debian-archive-keyring" >&2; exit 1; }

tmp=$(mktemp -d) && chmod 755 "$tmp"   # apt-get download drops privileges to _apt
trap 'rm -rf "$tmp"' EXIT
unavailable() { # REASON: the archive is out of reach; tests/77 skips with this reason
    echo "pmucal: the emulated RISC-V host is unavailable: $1" >&2
    echo "$1" > "$dir/unavailable"
    exit 0
}

# view NAME SUITES ARCHS: a private apt view (sources, lists, cache, status) under $tmp/NAME, its
# lists fetched; sets $apt to the options every apt-get/apt-cache call of that view takes.
view() {
    v=$tmp/$1
    mkdir -p "$v/etc" "$v/lists/partial" "$v/cache/archives/partial" "$v/state" "$v/deb"
    chmod 755 "$v/deb"
    : > "$v/state/status"
    printf 'Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nArchitectures: %s\nSigned-By: %s\n' \
        "$mirror" "$2" "$3" "$keyring" > "$v/etc/pmucal.sources"
    arch=${3%% *}
    apt="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$v/etc -o Dir::Etc::Preferences=/dev/null
         -o Dir::Etc::PreferencesParts=/dev/null -o Dir::State::Lists=$v/lists -o Dir::State::status=$v/state/status
         -o Dir::Cache=$v/cache -o APT::Architecture=$arch -o APT::Architectures::=$arch -o Acquire::Retries=1
         -o Acquire::http::Timeout=30"
    # apt-get update exits 0 even when a suite could not be fetched: its warnings say so.
    apt-get $apt update -qq > "$v/update.log" 2>&1 || :
    if grep -q '^[WE]:' "$v/update.log"; then
        unavailable "apt-get update of $mirror $2 ($3) failed: $(grep '^[WE]:' "$v/update.log" | head -n 1 | cut -c1-200)"
    fi
}
# fetch PKG...: apt-get download into the current view's deb/
fetch() {
    (cd "$v/deb" && apt-get $apt download -qq "$@") > "$v/download.log" 2>&1 ||
        unavailable "apt-get download $* from $mirror failed: $(grep '^E:' "$v/download.log" | head -n 1 | cut -c1-200)"
}

if ! [ -s "$dir/vmlinux" ] || ! [ -s "$dir/modules/virtio_blk.ko.xz" ]; then
    view trixie trixie riscv64
    # linux-image-riscv64 depends on the current ABI's package (linux-image-6.12.NN+deb13-riscv64),
    # which moves between point releases.
    pkg=$(apt-cache $apt depends linux-image-riscv64 2> /dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
    [ -n "$pkg" ] || unavailable "trixie's linux-image-riscv64 names no kernel package (apt-cache depends) at $mirror"
    echo "pmucal: downloading $pkg for the emulated RISC-V host" >&2
    fetch "$pkg"
    # The Image and the two virtio modules: the rest of its 113 MB is not needed.
    dpkg-deb --fsys-tarfile "$v"/deb/*.deb | tar -x -C "$v" --wildcards './boot/vmlinux-*'
    img=$(ls "$v"/boot/vmlinux-* 2> /dev/null | head -n 1)
    [ -s "$img" ] || { echo "pmucal: $pkg holds no boot/vmlinux-*" >&2; exit 1; }
    cp "$img" "$dir/vmlinux.tmp" && mv "$dir/vmlinux.tmp" "$dir/vmlinux"
    dpkg-deb --fsys-tarfile "$v"/deb/*.deb | tar -x -C "$v" --wildcards './usr/lib/modules/*/kernel/drivers/virtio/virtio_mmio.ko.xz' \
        './usr/lib/modules/*/kernel/drivers/block/virtio_blk.ko.xz'
    mkdir -p "$dir/modules"
    for m in virtio_mmio virtio_blk; do
        f=$(ls "$v"/usr/lib/modules/*/kernel/drivers/*/$m.ko.xz 2> /dev/null | head -n 1)
        [ -s "$f" ] || { echo "pmucal: $pkg holds no $m.ko.xz" >&2; exit 1; }
        cp "$f" "$dir/modules/"
    done
    echo "${pkg%:*}" > "$dir/kernel-package"
fi

if ! [ -x "$qemu" ] || ! [ -s "$bios" ]; then
    view backports "bookworm bookworm-backports" "amd64 all"
    # The newest versions bookworm-backports has (the view has no preferences, so name them).
    ver() { apt-cache $apt madison "$1" | awk -F'|' '$3 ~ /backports/ { gsub(/ /, "", $2); print $2; exit }'; }
    qv=$(ver qemu-system-riscv) ov=$(ver opensbi)
    [ -n "$qv" ] && [ -n "$ov" ] || unavailable "bookworm-backports at $mirror has no qemu-system-riscv or opensbi"
    echo "pmucal: downloading qemu-system-riscv $qv and opensbi $ov for the emulated RISC-V host" >&2
    fetch "qemu-system-riscv=$qv" "opensbi=$ov"
    rm -rf "$dir/qemu10.tmp" "$dir/qemu10"
    for d in "$v"/deb/*.deb; do dpkg-deb -x "$d" "$dir/qemu10.tmp"; done
    [ -x "$dir/qemu10.tmp/usr/bin/qemu-system-riscv64" ] || { echo "pmucal: qemu-system-riscv $qv holds no usr/bin/qemu-system-riscv64" >&2; exit 1; }
    [ -s "$dir/qemu10.tmp/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin" ] ||
        { echo "pmucal: opensbi $ov holds no usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin" >&2; exit 1; }
    # Its shared libraries are bookworm's own (those of bookworm's qemu-system-misc, which make deps
    # installs): a library the system lacks is named, not guessed at.
    missing=$(ldd "$dir/qemu10.tmp/usr/bin/qemu-system-riscv64" 2> /dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | tr '\n' ' ')
    [ -z "$missing" ] || { echo "pmucal: qemu-system-riscv $qv needs libraries this system lacks: ${missing}(install bookworm's qemu-system-misc, which needs the same ones)" >&2; exit 1; }
    echo "qemu-system-riscv $qv" > "$dir/qemu10.tmp/packages"
    echo "opensbi $ov" >> "$dir/qemu10.tmp/packages"
    "$dir/qemu10.tmp/usr/bin/qemu-system-riscv64" -version > /dev/null 2>&1 ||
        { echo "pmucal: qemu-system-riscv64 $qv -version failed: $("$dir/qemu10.tmp/usr/bin/qemu-system-riscv64" -version 2>&1 | head -n 1)" >&2; exit 1; }
    mv "$dir/qemu10.tmp" "$dir/qemu10"
fi
# That it boots: OpenSBI 1.5 hands over to the kernel, which finds no root and panics (panic=-1
# with -no-reboot ends QEMU), a few seconds. -audiodev none: the backports binary would otherwise
# probe bookworm's QEMU 7.2 audio module, refuse it and abort (scripts/emu-run.sh does the same).
if ! [ -e "$dir/qemu10/booted" ]; then
    timeout -k 5 120 "$qemu" -audiodev none,id=snd0 -M virt -cpu rv64,sscofpmf=true -smp 1 -m 512 -nographic -no-reboot \
        -net none -bios "$bios" -kernel "$dir/vmlinux" -append "console=ttyS0 panic=-1" < /dev/null > "$tmp/boot.log" 2>&1 || :
    if ! grep -q '^OpenSBI v' "$tmp/boot.log" || ! grep -q 'Linux version' "$tmp/boot.log"; then
        echo "pmucal: $qemu did not boot $dir/vmlinux under $bios; its last line: $(tr -d '\r' < "$tmp/boot.log" | sed '/^[[:space:]]*$/d' | tail -n 1 | cut -c1-200)" >&2
        exit 1
    fi
    grep -o '^OpenSBI v[0-9.]*' "$tmp/boot.log" | head -n 1 > "$dir/qemu10/booted"
fi
rm -f "$dir/unavailable"
