#!/bin/sh
# Install the Debian packages pmucal needs to build and test, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and stops, so a user
# never gets a half-built tree with a confusing compiler error instead.
# The emulated Arm host of the test suite (tests/72-arch-emu-n1.t) needs more: the arm64 architecture,
# the cross compiler, the :arm64 libraries, QEMU, cpio and Debian's arm64 kernel (downloaded,
# not installed, into build/emu/). PMUCAL_TEST_EMU=0 leaves all of that out.
set -e
# zlib1g-dev: the event tables ship gzip-compressed (base/gzfile.c). clang and its runtime: the
# libFuzzer harnesses (tests/90-fuzz.t); python3-jsonschema: the KCIDB validator of
# ../shared/tools/kcidb-io (tests/67-runs-kcidb.t).
need="gcc make pkg-config libpfm4-dev libhwloc-dev zlib1g-dev hwloc valgrind jq libtest-harness-perl binutils gnuplot-nox linux-perf chromium clang libclang-rt-dev python3-jsonschema"
emu=${PMUCAL_TEST_EMU:-1}
if [ "$emu" != 0 ]; then
    need="$need qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross libpfm4-dev:arm64 libhwloc-dev:arm64 zlib1g-dev:arm64 cpio"
    # LAVA's schema and dispatcher: tests/74-lava-job.t validates and runs the job of lava/ offline.
    need="$need lava-common lava-dispatcher"
fi
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "pmucal: installing missing Debian packages:$missing" >&2
        export DEBIAN_FRONTEND=noninteractive
        case "$missing" in *:arm64*) dpkg --add-architecture arm64 ;; esac
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends $missing >/dev/null
    else
        echo "pmucal: missing Debian packages:$missing" >&2
        case "$missing" in *:arm64*) echo "pmucal: first: sudo dpkg --add-architecture arm64 && sudo apt-get update" >&2 ;; esac
        echo "pmucal: install them with:  sudo apt-get install$missing" >&2
        [ "$emu" != 0 ] && echo "pmucal: (or PMUCAL_TEST_EMU=0 to leave the emulated Arm host out)" >&2
        exit 1
    fi
fi
[ "$emu" = 0 ] && exit 0
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
