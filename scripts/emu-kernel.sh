#!/bin/sh
# scripts/emu-kernel.sh: Debian's arm64 Linux kernel for the emulated Arm host (make test's
# tests/72-74, make kernel-check), downloaded, not installed, into build/emu/: vmlinuz, and the
# modules the guest needs. make deps runs it unless PMUCAL_TEST_EMU=0; make run never does.
set -e
# The kernel: the package linux-image-arm64:arm64 depends on names the current ABI
# (linux-image-6.1.0-NN-arm64), which moves between point releases. Beside it its virtio-mmio and
# virtio-blk modules (Debian builds them as modules): scripts/kernel-check.sh brings the guest's
# results back on a virtio disk (tests/73-scripts-kernel-check.t).
dir=build/emu
[ -s "$dir/vmlinuz" ] && [ -s "$dir/modules/virtio_blk.ko" ] && exit 0
mkdir -p "$dir"
pkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n 1)
if [ -z "$pkg" ]; then
    echo "pmucal: cannot resolve the kernel package through linux-image-arm64:arm64 (apt-cache depends);" \
         "run: dpkg --add-architecture arm64 && apt-get update" >&2
    exit 1
fi
tmp=$(mktemp -d) && chmod 755 "$tmp"   # apt-get download drops privileges to _apt
trap 'rm -rf "$tmp"' EXIT
echo "pmucal: downloading $pkg for the emulated Arm host" >&2
(cd "$tmp" && apt-get download -qq "$pkg") || { echo "pmucal: apt-get download $pkg failed" >&2; exit 1; }
dpkg-deb -x "$tmp"/*.deb "$tmp/x"
mkdir -p "$dir/modules"
for m in virtio_mmio virtio_blk; do
    f=$(find "$tmp/x/lib/modules" "$tmp/x/usr/lib/modules" -name "$m.ko*" 2> /dev/null | head -n 1)
    [ -n "$f" ] || { echo "pmucal: $pkg holds no $m.ko" >&2; exit 1; }
    case $f in
    *.xz) xz -dc "$f" > "$dir/modules/$m.ko" ;;
    *.zst) zstd -qdc "$f" > "$dir/modules/$m.ko" ;;
    *) cp "$f" "$dir/modules/$m.ko" ;;
    esac
done
cp "$tmp"/x/boot/vmlinuz-* "$dir/vmlinuz.tmp" && mv "$dir/vmlinuz.tmp" "$dir/vmlinuz"
echo "${pkg%:*}" > "$dir/kernel-package"
