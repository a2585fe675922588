#!/bin/sh
# The scripts take no shell from their arguments (issue 46, item 3): make's variables reach the
# scripts as arguments, a path reaches QEMU's -drive with its commas doubled, relative paths start
# from the caller's folder, a device, FIFO or folder where a file is wanted (and the reverse) is
# refused by kind, --timeout has a range, an image that cannot be a kernel is named before any
# boot, and the LAVA job is written by a YAML writer. Nothing boots here: a fake
# qemu-system-aarch64 on PATH records the argv it was given and, as QEMU does, writes the guest's
# disk where the last file= of -drive says.
. "$(dirname "$0")/lib.sh"
REPO=$PWD
H=$TMP/h
mkdir -p "$H/in" "$H/bin" "$H/emu"
canary=$H/CANARY
# refused RC WANT-RC ERRFILE EXACT-MESSAGE DESCRIPTION: the refusal is that one line, that exit status.
refused() {
    [ "$1" = "$2" ] && [ "$(wc -l < "$3")" = 1 ] && [ "$(cat "$3")" = "$4" ]
    ok $? "$5: exit $1, '$(head -c 300 "$3")'"
}

# A made-up arm64 Image: the boot header's magic, a PE header whose one section ends at the file's
# end (SIZE bytes); cut to fewer bytes with CUT. FAKE_MAGIC=riscv64 makes a riscv64 one ('RSC\x05').
fake_image() { # fake_image FILE SIZE [CUT]
    FAKE_MAGIC=${FAKE_MAGIC:-} /usr/bin/python3 -c 'import os, struct, sys
size = int(sys.argv[2]); b = bytearray(size)
magic = b"RSC\x05" if os.environ["FAKE_MAGIC"] == "riscv64" else b"ARM\x64"
b[0:2] = b"MZ"; b[0x38:0x3c] = magic; struct.pack_into("<I", b, 0x3c, 64); b[64:68] = b"PE\0\0"
struct.pack_into("<H", b, 64 + 6, 1); struct.pack_into("<H", b, 64 + 20, 0)
struct.pack_into("<II", b, 64 + 24 + 16, size - 4096, 4096)
open(sys.argv[1], "wb").write(b[:int(sys.argv[3]) if len(sys.argv) > 3 else size])' "$@"
}
fake_image "$H/in/Image" 2097152
FAKE_MAGIC=riscv64 fake_image "$H/in/rvImage" 2097152
# The fake QEMU: its argv one a line in $FAKE_QEMU_LOG, the initramfs's names in $FAKE_QEMU_LOG.cpio,
# and "TAR STREAM" written where QEMU would write the disk (-drive split at single commas, ",," a
# comma, the last file= taken).
cat > "$H/bin/qemu-system-aarch64" << 'EOF'
#!/usr/bin/python3
import os, subprocess, sys
args = sys.argv[1:]
with open(os.environ["FAKE_QEMU_LOG"], "w") as f:
    f.write("".join(a + "\n" for a in args))
with open(os.environ["FAKE_QEMU_LOG"] + ".argv0", "w") as f:
    f.write(os.path.basename(sys.argv[0]) + "\n")
if "-pidfile" in args:
    with open(args[args.index("-pidfile") + 1], "w") as f:
        f.write("%d\n" % os.getpid())
while os.environ.get("FAKE_QEMU_SPIN"):   # a guest that computes for ever
    pass
for i, a in enumerate(args):
    if a == "-initrd":
        with open(os.environ["FAKE_QEMU_LOG"] + ".cpio", "w") as f:
            subprocess.run("gzip -dc | cpio -t --quiet", shell=True, stdin=open(args[i + 1]), stdout=f)
    if a == "-drive":
        disk_log = os.environ["FAKE_QEMU_LOG"] + ".disk"
        parts, cur, s, j = [], "", args[i + 1], 0
        while j < len(s):
            if s[j] == "," and s[j + 1:j + 2] == ",":
                cur += ","; j += 2; continue
            if s[j] == ",":
                parts.append(cur); cur = ""; j += 1; continue
            cur += s[j]; j += 1
        parts.append(cur)
        target = [p[5:] for p in parts if p.startswith("file=")][-1]
        with open(target, "w") as f:
            f.write("TAR STREAM\n")
        with open(disk_log, "w") as f:
            f.write(target + "\n")
EOF
chmod +x "$H/bin/qemu-system-aarch64"
ln -s qemu-system-aarch64 "$H/bin/qemu-system-riscv64"
# Stand-ins for the aarch64 pmucal and /init (emu-run.sh only copies them).
printf '#!/bin/sh\n' > "$H/emu/pmucal" && printf '#!/bin/sh\n' > "$H/emu/init" && chmod +x "$H/emu/pmucal" "$H/emu/init"
export PATH="$H/bin:$PATH" FAKE_QEMU_LOG="$H/qemu.argv" PMUCAL_EMU_BIN="$H/emu/pmucal" PMUCAL_EMU_INIT="$H/emu/init"
case $PMUCAL in /*) ;; *) export PMUCAL="$REPO/$PMUCAL" ;; esac
kc() { timeout 60 "$REPO/scripts/kernel-check.sh" "$@" > "$H/out" 2> "$H/err"; }

# make: IMAGE (and KERNEL, its old name), PACKAGE, MATRIX_OUT with ';' and backquotes. MAKE=true stands for the build the
# recipes start first; -o deps skips the package check: only the script's own line runs.
mk() { (cd "$H" && timeout 60 make -s -C "$REPO" -o deps MAKE=true "$@") > "$H/out" 2> "$H/err"; }
for v in "IMAGE=x;touch $canary" "PACKAGE=linux-image-x;touch $canary;" "IMAGE=\`touch $canary\`" "KERNEL=x;touch $canary" \
    "PACKAGE=linux-image-x-riscv64;touch $canary;" "ISA=riscv64;touch $canary"; do
    mk kernel-check "$v"
    rc=$?
    [ $rc != 0 ] && [ ! -e "$canary" ] && grep -q "^kernel-check: --\(image\|package\|isa\) .*touch $canary" "$H/err"
    ok $? "make kernel-check '$v': nothing ran, the value reached the script whole (exit $rc): $(grep '^kernel-check' "$H/err" | head -c 200)"
    rm -f "$canary"
done
# (A relative name to touch: the recipe's shell would run in the repository.)
: > "$H/in/m;touch Q7CANARY"
mk kernel-matrix "MATRIX_OUT=in/m;touch Q7CANARY"
rc=$?
[ ! -e "$REPO/Q7CANARY" ] && [ ! -e "$H/Q7CANARY" ] && grep -qx "kernel-matrix: OUT $H/in/m;touch Q7CANARY is a regular file, not a folder: give a folder to write into (absent or a folder)" "$H/err"
ok $? "make kernel-matrix MATRIX_OUT='in/m;touch ...': nothing ran; a file refused as OUT, from the caller's folder (exit $rc): $(head -c 200 "$H/err")"
# Every recipe that takes a user's variable: the value is nowhere in the shell text make runs.
leaks=
for tv in kernel-check:IMAGE kernel-check:KERNEL kernel-check:MODULES kernel-check:PACKAGE kernel-check:CPU kernel-check:OUT \
    kernel-check:TIMEOUT kernel-check:ISA kernel-check:QEMU kernel-check:BIOS kernel-matrix:MATRIX_OUT sweep:SWEEP_HOSTS sweep:SWEEP_CASES sweep:SWEEP_SEED \
    sweep-emu:EMU_SWEEP_CASES sweep-emu:SWEEP_SEED bench-roofline:RUNS bench-walker:SIZES fuzz-run:FUZZ_SECONDS \
    install:PREFIX install:DESTDIR install:EVENTDATA uninstall:PREFIX uninstall:DESTDIR test:TESTS test:TESTS_FIRST; do
    (cd "$REPO" && make -n -o deps -o all -o emu -o fuzz -o bin/pmucal -o build/opt/pmucal.1 -o build/opt/gen/commit.h MAKE=true \
        "${tv%%:*}" "${tv#*:}=Q7MARK") > "$H/n.out" 2>&1 ||
        leaks="$leaks ${tv%%:*}: make -n failed: $(head -c 80 "$H/n.out");"
    # The recipe was printed (a target whose recipe make did not show proves nothing).
    [ -s "$H/n.out" ] || leaks="$leaks ${tv%%:*}: make -n printed no recipe;"
    grep -q Q7MARK "$H/n.out" && leaks="$leaks ${tv%%:*} ${tv#*:}: $(grep -m1 Q7MARK "$H/n.out" | cut -c1-80);"
done
is "$leaks" "" "no recipe puts a user's variable into its shell text, and make -n printed each recipe"
mk all "OBJDIR=x;touch $canary"
rc=$?
[ $rc != 0 ] && [ ! -e "$canary" ] && grep -q "OBJDIR='x;touch $canary': a build folder holds no space nor any of" "$H/err"
ok $? "a build folder with shell characters (OBJDIR) is refused by make itself (exit $rc): $(head -c 160 "$H/err")"

# --out with ',file=': QEMU gets the commas doubled; the victim outside OUT keeps its bytes.
mkdir -p "$H/in/victim" "$H/kc"
echo "the victim's own bytes" > "$H/in/victim/disk.img"
sum=$(cksum < "$H/in/victim/disk.img")
kc --image "$H/in/Image" --out "$H/kc/d09,file=$H/in/victim" --timeout 10
rc=$?
[ "$(cksum < "$H/in/victim/disk.img")" = "$sum" ] && [ "$(cat "$H/qemu.argv.disk")" = "$H/kc/d09,file=$H/in/victim/disk.img" ] &&
    grep -qx -- "file=$H/kc/d09,,file=$H/in/victim/disk.img,format=raw,if=none,id=out" "$H/qemu.argv"
ok $? "--out 'd09,file=VICTIM': -drive file= has the commas doubled, the disk is OUT's, the victim unchanged (exit $rc): $(grep '^file=' "$H/qemu.argv")"

# Relative paths start from the caller's folder: the script called from 'a/b c/c' (a space in it), and make -C from there.
mkdir -p "$H/a/b c/c" "$H/a/b c/mods"
cp "$H/in/Image" "$H/a/b c/Image"
echo ko > "$H/a/b c/mods/virtio_mmio.ko" && echo ko > "$H/a/b c/mods/virtio_blk.ko"
(cd "$H/a/b c/c" && timeout 60 "$REPO/scripts/kernel-check.sh" --image ../Image --modules ../mods --out ../x --timeout 10) > /dev/null 2>&1
[ -f "$H/a/b c/x/console.log" ] && [ ! -e "$REPO/../x" ] && grep -qx -- "$H/a/b c/c/../Image" "$H/qemu.argv" &&
    grep -qx 'lib/modules/virtio_blk.ko' "$H/qemu.argv.cpio" && [ "$(cat "$H/qemu.argv.disk")" = "$H/a/b c/c/../x/disk.img" ]
ok $? "kernel-check from 'a/b c/c' with --image ../Image --modules ../mods --out ../x: all three in 'a/b c': $(grep -A1 '^-kernel' "$H/qemu.argv" | tail -n 1)"
(cd "$H/a/b c/c" && timeout 60 make -s -C "$REPO" -o deps MAKE=true kernel-check IMAGE=../Image OUT=../y TIMEOUT=10) > /dev/null 2>&1
[ -f "$H/a/b c/y/console.log" ] && [ ! -e "$REPO/../y" ] && grep -qx -- "$H/a/b c/c/../Image" "$H/qemu.argv"
ok $? "make -C REPO kernel-check IMAGE=../Image OUT=../y from 'a/b c/c': from the folder make was started in: $(ls -d "$H/a/b c/y" 2> /dev/null)"
# The old spellings, make's KERNEL= and the script's --kernel, still work, each with a one-line note.
(cd "$H/a/b c/c" && timeout 60 make -s -C "$REPO" -o deps MAKE=true kernel-check KERNEL=../Image OUT=../z TIMEOUT=10) > /dev/null 2> "$H/old.err"
[ -f "$H/a/b c/z/console.log" ] && grep -qx -- "$H/a/b c/c/../Image" "$H/qemu.argv" &&
    [ "$(grep -c 'note: KERNEL=FILE is now IMAGE=FILE' "$H/old.err")" = 1 ]
ok $? "make kernel-check KERNEL=../Image: booted that image, one note: $(grep -m1 note "$H/old.err")"
kc --kernel "$H/a/b c/Image" --out "$H/kc/old" --timeout 10
rc=$?
[ -f "$H/kc/old/console.log" ] && grep -qx -- "$H/a/b c/Image" "$H/qemu.argv" && [ "$(grep -c 'note: --kernel IMAGE is now --image IMAGE' "$H/err")" = 1 ]
ok $? "kernel-check --kernel IMAGE: booted that image, one note (exit $rc): $(grep -m1 note "$H/err")"
kc --image "$H/a/b c/Image" --kernel "$H/in/Image" --out "$H/kc/two"
refused $? 2 "$H/err" "kernel-check: --kernel $H/in/Image: an image is given already ($H/a/b c/Image): give one --image" "--image and --kernel both"

# Refused by kind, the argument named.
mkfifo "$H/in/fifo"
mkdir -p "$H/in/dir"
echo 'echo' > "$H/in/commands"
kc --image /dev/zero --out "$H/o1"
refused $? 2 "$H/err" "kernel-check: --image /dev/zero is a character device: give a regular file" "--image /dev/zero"
kc --image "$H/in/fifo" --out "$H/o1"
refused $? 2 "$H/err" "kernel-check: --image $H/in/fifo is a FIFO: give a regular file" "--image FIFO (never opened)"
kc --image "$H/in/dir" --out "$H/o1"
refused $? 2 "$H/err" "kernel-check: --image $H/in/dir is a folder: give a regular file" "--image a folder"
kc --image "$H/in/Image" --modules "$H/in/Image" --out "$H/o1"
refused $? 2 "$H/err" "kernel-check: --modules $H/in/Image is a regular file: give a folder" "--modules a file"
kc --image "$H/in/Image" --out "$H/in/fifo"
refused $? 2 "$H/err" "kernel-check: --out $H/in/fifo is a FIFO, not a folder: give a folder to write into (absent or a folder)" "--out a FIFO"
kc --image "$H/in/Image" --out "$H/in/commands"
refused $? 2 "$H/err" "kernel-check: --out $H/in/commands is a regular file, not a folder: give a folder to write into (absent or a folder)" "--out a file"
kc --image "$H/in/Image" --commands /dev/zero --out "$H/o1"
refused $? 2 "$H/err" "kernel-check: --commands /dev/zero is a character device: give a regular file" "--commands /dev/zero"
[ ! -e "$H/o1" ]
ok $? "no refusal made its OUT"

# --timeout has a range, said in --help.
for t in 0 0900 9 86401 -5 1e3 99999999999; do
    kc --image "$H/in/Image" --out "$H/o2" --timeout "$t"
    rc=$?
    [ $rc = 2 ] && grep -qx "kernel-check: --timeout \('$t'\|$t: out of range\): give whole seconds from 10 to 86400" "$H/err"
    ok $? "--timeout $t refused (exit $rc): $(cat "$H/err")"
done
"$REPO/scripts/kernel-check.sh" --help | grep -q -- '--timeout S .* 10 to 86400 (default 900)'
ok $? "--help gives --timeout's range: $("$REPO/scripts/kernel-check.sh" --help | grep -- '--timeout S')"

# Images that cannot be a kernel, named before anything boots.
fake_image "$H/in/cut" 2097152 1048576
kc --image "$H/in/cut" --out "$H/o3"
refused $? 2 "$H/err" "kernel-check: --image $H/in/cut is cut short: its PE header's sections end at byte 2097152, it holds 1048576 bytes: give the whole image" "a cut Image"
gzip -1 < "$H/in/Image" | head -c 1500 > "$H/in/cut.gz"
kc --image "$H/in/cut.gz" --out "$H/o3"
rc=$?
[ $rc = 2 ] && grep -q "^kernel-check: --image $H/in/cut.gz: its gzip stream is damaged or cut short after [0-9]* bytes (gzip: stdin: unexpected end of file): give the whole image\$" "$H/err"
ok $? "a cut gzip'd Image (exit $rc): $(cat "$H/err")"
head -c $((300 << 20)) /dev/zero | gzip -1 > "$H/in/bomb.gz"
kc --image "$H/in/bomb.gz" --out "$H/o3"
refused $? 2 "$H/err" "kernel-check: --image $H/in/bomb.gz: its gzip stream decompresses to more than 256 MiB (QEMU's own limit for a gzip'd kernel): a gzip bomb, not a kernel image" "a gzip bomb"
fake_image "$H/in/tiny" 4096
kc --image "$H/in/tiny" --out "$H/o3"
refused $? 2 "$H/err" "kernel-check: --image $H/in/tiny holds 4096 bytes: too few for an arm64 kernel image (at least 1 MiB): a cut or made-up image" "a 4 KiB Image"
[ ! -e "$H/o3" ] && [ ! -e "$H/qemu.argv.o3" ]
ok $? "none of them made OUT"

# The ISA: the image's boot header says it; --isa (make's ISA=) states it, and an image of the
# other ISA is refused by name, as is an ISA the scripts do not boot.
isa_of() { timeout 60 "$REPO/scripts/kernel-check.sh" --print-isa "$@" 2> "$H/err"; }
is "$(isa_of --image "$H/in/Image") $(isa_of --image "$H/in/rvImage") $(isa_of --package linux-image-6.12.117+deb13-riscv64) $(isa_of --package linux-image-6.1.0-47-arm64) $(isa_of --package linux-image-x-riscv64 --isa aarch64)" \
    "aarch64 riscv64 riscv64 aarch64 aarch64" "the ISA from the image's header ('ARM\\x64', 'RSC\\x05' at 0x38), a package's name, or --isa"
kc --image "$H/in/rvImage" --isa aarch64 --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --image $H/in/rvImage is a riscv64 kernel Image (its boot header's magic at 0x38), but --isa aarch64 asks for aarch64: give a kernel for aarch64, or --isa riscv64, or leave --isa out" "a riscv64 Image with --isa aarch64"
kc --image "$H/in/Image" --isa riscv64 --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --image $H/in/Image is an arm64 kernel Image (its boot header's magic at 0x38), but --isa riscv64 asks for riscv64: give a kernel for riscv64, or --isa aarch64, or leave --isa out" "an arm64 Image with --isa riscv64"
for bad in x86_64 arm64 'riscv64;x' ''; do
    kc --image "$H/in/rvImage" --isa "$bad" --out "$H/o4"
    refused $? 2 "$H/err" "kernel-check: --isa '$bad': give aarch64 or riscv64, or leave it out: the image's boot header says which" "--isa '$bad'"
done
kc --image /etc/passwd --isa riscv64 --out "$H/o4"
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$H/err")" = 1 ] && grep -q "^kernel-check: --image /etc/passwd is not a riscv64 kernel Image (no 'RSC\\\\x05' magic at offset 0x38" "$H/err"
ok $? "--isa riscv64 and a file that is no Image: refused naming riscv64's magic (exit $rc): $(head -c 160 "$H/err")"
kc --image /etc/passwd --out "$H/o4"
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$H/err")" = 1 ] && grep -q "^kernel-check: --image /etc/passwd is not an arm64 kernel Image (no 'ARM\\\\x64' magic at offset 0x38, .*), nor a riscv64 one (no 'RSC\\\\x05' magic there)" "$H/err"
ok $? "no --isa and a file that is no Image: both magics named (exit $rc): $(head -c 300 "$H/err")"
gzip -1 < "$H/in/rvImage" > "$H/in/rvImage.gz"
kc --image "$H/in/rvImage.gz" --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --image $H/in/rvImage.gz is a gzip'd riscv64 Image: QEMU's riscv64 -kernel loads a file as it is and decompresses none: give the plain Image (gzip -dc < FILE > Image)" "a gzip'd riscv64 Image"
FAKE_MAGIC=riscv64 fake_image "$H/in/rvtiny" 4096
kc --image "$H/in/rvtiny" --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --image $H/in/rvtiny holds 4096 bytes: too few for a riscv64 kernel image (at least 1 MiB): a cut or made-up image" "a 4 KiB riscv64 Image"
# A riscv64 package name with apt's syntax in it (a version, a pattern, an option) is no name:
# refused before the private apt view is made.
for bad in 'linux-image-6.12.117+deb13-riscv64=6.12.117-1' 'linux-image-*-riscv64' '?name(linux)-riscv64' \
    '-oDir::Etc::SourceParts=/tmp-riscv64' 'linux-image-6.12.117+deb13-riscv64:riscv64' 'linux-image-x-riscv64/trixie'; do
    kc --package "$bad" --out "$H/o4"
    refused $? 2 "$H/err" "kernel-check: --package '$bad': not a Debian package name (letters, digits, '.', '+', '-')" "--package '$bad'"
done
# The archive a riscv64 package comes from goes into the private view's sources file: one field.
PMUCAL_DEBIAN_MIRROR="http://x/ Suites: sid" kc --package linux-image-x-riscv64 --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: PMUCAL_DEBIAN_MIRROR 'http://x/ Suites: sid': give the archive's URI (http://..., https://... or file:/...), without spaces or shell characters" "PMUCAL_DEBIAN_MIRROR with a space and another field"
kc --image "$H/in/rvImage" --qemu "$H/in/dir" --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --qemu $H/in/dir is a folder: give a regular file" "--qemu a folder"
kc --image "$H/in/rvImage" --bios /dev/zero --out "$H/o4"
refused $? 2 "$H/err" "kernel-check: --bios /dev/zero is a character device: give a regular file" "--bios /dev/zero"
PMUCAL_EMU_RV_BIN=$H/absent kc --image "$H/in/rvImage" --out "$H/o4"
refused $? 3 "$H/err" "kernel-check: $H/absent is missing: run make all && make emu-riscv64" "a riscv64 Image without the riscv64 pmucal: exit 3, naming its build"
[ ! -e "$H/o4" ]
ok $? "none of them made OUT"
# A riscv64 Image boots on the RISC-V virt machine: its QEMU, -cpu, console, modules; --qemu and --bios reach QEMU.
mkdir -p "$H/rvmods" && echo ko > "$H/rvmods/virtio_mmio.ko" && echo ko > "$H/rvmods/virtio_blk.ko"
cp "$H/in/Image" "$H/in/fw.bin"
if command -v riscv64-linux-gnu-readelf > /dev/null; then
    PMUCAL_EMU_RV_BIN="$H/emu/pmucal" PMUCAL_EMU_RV_INIT="$H/emu/init" kc --image "$H/in/rvImage" --modules "$H/rvmods" --out "$H/kc/rv" \
        --cpu rv64,sscofpmf=false --timeout 10
    rc=$?
    line=$(tr '\n' ' ' < "$FAKE_QEMU_LOG")
    [ "$(cat "$FAKE_QEMU_LOG.argv0")" = qemu-system-riscv64 ] && [ -f "$H/kc/rv/console.log" ] &&
        grep -qx 'lib/modules/virtio_blk.ko' "$FAKE_QEMU_LOG.cpio" &&
        case $line in "-M virt -cpu rv64,sscofpmf=false "*"-kernel $H/in/rvImage "*"-append console=ttyS0 rdinit=/init quiet ") true ;; *) false ;; esac
    ok $? "kernel-check of a riscv64 Image: qemu-system-riscv64 -M virt -cpu rv64,sscofpmf=false, ttyS0, the modules in the initramfs (exit $rc): $(cat "$FAKE_QEMU_LOG.argv0") $line"
    cp "$H/bin/qemu-system-aarch64" "$H/in/qemu-10"
    PMUCAL_EMU_RV_BIN="$H/emu/pmucal" PMUCAL_EMU_RV_INIT="$H/emu/init" kc --image "$H/in/rvImage" --out "$H/kc/rv10" \
        --qemu "$H/in/qemu-10" --bios "$H/in/fw.bin" --timeout 10
    rc=$?
    line=$(tr '\n' ' ' < "$FAKE_QEMU_LOG")
    [ "$(cat "$FAKE_QEMU_LOG.argv0")" = qemu-10 ] &&
        case $line in "-M virt -cpu rv64,sscofpmf=true "*"-bios $H/in/fw.bin "*) true ;; *) false ;; esac
    ok $? "--qemu and --bios reach emu-run: that QEMU with that -bios (exit $rc): $(cat "$FAKE_QEMU_LOG.argv0") $(echo "$line" | cut -c1-160)"
else
    skip "a riscv64 Image's QEMU line" "riscv64-linux-gnu-readelf is missing (binutils-riscv64-linux-gnu, make deps installs it)"
fi
# make kernel-check builds the pmucal of the image's ISA (MAKE stands for the build and says what it was asked).
PMUCAL_EMU_RV_BIN=$H/absent mk kernel-check IMAGE=in/rvImage OUT=o5 "MAKE=echo BUILD"
grep -qx 'BUILD all emu-riscv64' "$H/out"
ok $? "make kernel-check IMAGE=riscv64-Image builds emu-riscv64: $(grep BUILD "$H/out")"
mk kernel-check IMAGE=in/Image ISA=riscv64 OUT=o5 "MAKE=echo BUILD"
rc=$?
grep -qx 'BUILD all emu' "$H/out" && [ $rc != 0 ] && grep -q "^kernel-check: --image $H/in/Image is an arm64 kernel Image .*but --isa riscv64 asks for riscv64" "$H/err"
ok $? "make kernel-check ISA=riscv64 with an arm64 Image: refused by the script, one message (exit $rc): $(head -c 200 "$H/err")"

# lava-job.sh: the kernel checked by kind and as an Image; the YAML written by a writer.
lj() { timeout 120 "$REPO/scripts/lava-job.sh" "$@" > "$H/out" 2> "$H/err"; }
lj /etc/passwd "$H/l1"
rc=$?
[ $rc = 2 ] && grep -q "^lava-job: IMAGE /etc/passwd is not an arm64 kernel Image (no 'ARM\\\\x64' magic" "$H/err" && [ ! -e "$H/l1" ]
ok $? "lava-job /etc/passwd: refused, not 'passes' (exit $rc): $(head -c 160 "$H/err")"
lj "$H/in/dir" "$H/l1"
refused $? 2 "$H/err" "lava-job: IMAGE $H/in/dir is a folder: give a regular file" "lava-job with a folder as the kernel"
lj "$H/in/Image" "$H/in/fifo"
refused $? 2 "$H/err" "lava-job: OUT $H/in/fifo is a FIFO, not a folder: give a folder to write into (absent or a folder)" "lava-job with a FIFO as OUT"
odd="$H/in/k&a|b 'c\" d:"
mkdir -p "$odd"
cp "$H/in/Image" "$odd/Image"
lj "$odd/Image" "$odd/out"
rc=$?
got=$(/usr/bin/python3 -c 'import sys, yaml
i = yaml.safe_load(open(sys.argv[1]))["actions"][0]["deploy"]["images"]
print(i["kernel"]["url"]); print(i["ramdisk"]["url"])' "$odd/out/job.yaml" 2>&1)
is "$got" "file://$odd/Image
file://$odd/out/initrd.gz" "lava-job: '&', '|', quotes, ':' in the paths: the job's URLs read back as the paths (exit $rc)"
for bad in "$H/in/h #x" "$H/in/n
l"; do
    mkdir -p "$bad" && cp "$H/in/Image" "$bad/Image"
    lj "$bad/Image" "$H/l2"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l < "$H/err")" = 1 ] && grep -q "^lava-job: IMAGE \".*\": a file:// URL cannot carry \"" "$H/err" && [ ! -e "$H/l2" ]
    ok $? "lava-job refuses a kernel path a file:// URL cannot carry (exit $rc): $(cat "$H/err")"
done
(cd "$H/a/b c/c" && timeout 120 "$REPO/scripts/lava-job.sh" ../Image ../lj) > /dev/null 2>&1
grep -q "url: \"file://$H/a/b c/c/../Image\"" "$H/a/b c/lj/job.yaml" 2> /dev/null
ok $? "lava-job ../Image ../lj from 'a/b c/c': both from the caller's folder: $(grep 'url:' "$H/a/b c/lj/job.yaml" 2> /dev/null | head -n 1)"

# lava-job.sh's riscv64 form: chosen by the image's header, or --isa, which a mismatch contradicts.
lj --isa riscv64 "$H/in/Image" "$H/l3"
refused $? 2 "$H/err" "lava-job: IMAGE $H/in/Image is an arm64 kernel Image (its boot header's magic at 0x38), but --isa riscv64 asks for riscv64: give a kernel for riscv64, or --isa aarch64, or leave --isa out" "lava-job --isa riscv64 with an arm64 Image"
lj --isa 'rv64;x' "$H/in/rvImage" "$H/l3"
refused $? 2 "$H/err" "lava-job: --isa 'rv64;x': give aarch64 or riscv64, or leave it out: the image's boot header says which" "lava-job --isa 'rv64;x'"
lj "$H/in/rvImage.gz" "$H/l3"
refused $? 2 "$H/err" "lava-job: IMAGE $H/in/rvImage.gz is a gzip'd riscv64 Image: QEMU's riscv64 -kernel loads a file as it is and decompresses none: give the plain Image (gzip -dc < FILE > Image)" "lava-job with a gzip'd riscv64 Image"
[ ! -e "$H/l3" ]
ok $? "none of them made OUT"
PMUCAL_EMU_RV_BIN="$H/emu/pmucal" PMUCAL_EMU_RV_INIT="$H/emu/init" lj "$H/in/rvImage" "$H/l4"
rc=$?
got=$(/usr/bin/python3 -c 'import sys, yaml
j = yaml.safe_load(open(sys.argv[1]))
print(j["context"]["arch"], j["actions"][0]["deploy"]["images"]["kernel"]["url"])' "$H/l4/job.yaml" 2>&1)
is "$got" "riscv64 file://$H/in/rvImage" "lava-job with a riscv64 Image writes the riscv64 job (exit $rc)"

# The other scripts' counts: numbers in a range, never shell arithmetic.
SWEEP_CASES='a[$(touch '"$canary"')]' timeout 20 "$REPO/scripts/sweep-emu.sh" "$H/emu/pmucal" "$H/emu/init" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "sweep-emu: SWEEP_CASES 'a[\$(touch $canary)]': give a number of cases from 1 to 100000" "sweep-emu: SWEEP_CASES an expression"
timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" 0 > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "emu-run: SECONDS '0': give a whole number of seconds from 1 to 9999999" "emu-run SECONDS 0 (timeout's 'no limit')"
PMUCAL_EMU_CPU_SECONDS='1;x' timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "emu-run: PMUCAL_EMU_CPU_SECONDS '1;x': give a whole number of seconds from 1 to 9999999, or leave it unset" "emu-run PMUCAL_EMU_CPU_SECONDS='1;x'"
# The emulated machine's inputs (PMUCAL_EMU_ISA, PMUCAL_EMU_QEMU, PMUCAL_EMU_BIOS): one message, exit 2.
PMUCAL_EMU_ISA=bogus timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "emu-run: PMUCAL_EMU_ISA 'bogus': give aarch64 or riscv64" "emu-run PMUCAL_EMU_ISA=bogus"
PMUCAL_EMU_ISA=riscv64 PMUCAL_EMU_QEMU="$H/no such qemu" timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "emu-run: PMUCAL_EMU_QEMU '$H/no such qemu': no such program: give a QEMU binary (or leave it unset for qemu-system-riscv64 on PATH)" "emu-run PMUCAL_EMU_QEMU a missing path"
PMUCAL_EMU_ISA=riscv64 PMUCAL_EMU_BIOS="$H/in" timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "emu-run: PMUCAL_EMU_BIOS '$H/in': no such file: give QEMU's -bios firmware (build/emu-riscv64/qemu10/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin for QEMU 10), or leave it unset for QEMU's own" "emu-run PMUCAL_EMU_BIOS a folder"
# The RISC-V machine's line, read from the fake QEMU: its -cpu, console, -bios; a firmware path
# with a comma stays one argument (-bios takes a file name, not options).
if command -v riscv64-linux-gnu-readelf > /dev/null; then
    echo 'pmucal info' > "$H/in/rv-commands"
    cp "$H/in/Image" "$H/in/fw,x.bin"
    PMUCAL_EMU_ISA=riscv64 PMUCAL_EMU_QEMU="$H/bin/qemu-system-aarch64" PMUCAL_EMU_BIOS="$H/in/fw,x.bin" PMUCAL_EMU_KERNEL="$H/in/Image" \
        timeout 20 "$REPO/scripts/emu-run.sh" "$H/emu/pmucal" "$H/emu/init" "$H/in/rv-commands" "$H/log" > /dev/null 2> "$H/err"
    rc=$?
    line=$(tr '\n' ' ' < "$FAKE_QEMU_LOG")
    case $line in
    "-M virt -cpu rv64,sscofpmf=true "*"-audiodev none,id=snd0 -bios $H/in/fw,x.bin "*"-append console=ttyS0 rdinit=/init quiet ") r=0 ;;
    *) r=1 ;;
    esac
    [ $rc = 0 ]
    ok $(( $? | r )) "PMUCAL_EMU_ISA=riscv64: the virt machine with sscofpmf, ttyS0, the -bios given (exit $rc): $line"
else
    skip "PMUCAL_EMU_ISA=riscv64's QEMU line" "riscv64-linux-gnu-readelf is missing (binutils-riscv64-linux-gnu, make deps installs it)"
fi
# The RISC-V host's fetch: a mirror that is no URI is refused before anything is fetched, even
# with everything already there; an archive out of reach is no failure of make deps but the
# reason the RISC-V test prints as its SKIP.
PMUCAL_DEBIAN_MIRROR='http://x/debian;touch '"$canary" timeout 20 "$REPO/scripts/emu-riscv-fetch.sh" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "pmucal: PMUCAL_DEBIAN_MIRROR 'http://x/debian;touch $canary': give the archive's URI (http://..., https://... or file:/...), without spaces or shell characters" "emu-riscv-fetch PMUCAL_DEBIAN_MIRROR with a shell command"
PMUCAL_DEBIAN_MIRROR=ftp.debian.org timeout 20 "$REPO/scripts/emu-riscv-fetch.sh" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "pmucal: PMUCAL_DEBIAN_MIRROR 'ftp.debian.org': give the archive's URI (http://..., https://... or file:/...)" "emu-riscv-fetch PMUCAL_DEBIAN_MIRROR without a scheme"
mkdir -p "$H/nofetch"
(cd "$H/nofetch" && PMUCAL_DEBIAN_MIRROR=http://127.0.0.1:9/debian timeout 60 "$REPO/scripts/emu-riscv-fetch.sh") > /dev/null 2> "$H/err"
rc=$?
[ $rc = 0 ] && grep -q "^apt-get update of http://127.0.0.1:9/debian trixie (riscv64) failed: " "$H/nofetch/build/emu-riscv64/unavailable" &&
    grep -q '^pmucal: the emulated RISC-V host is unavailable: ' "$H/err" && [ ! -e "$H/nofetch/build/emu-riscv64/vmlinux" ]
ok $? "emu-riscv-fetch with the archive out of reach: exit $rc, the reason kept for the test's SKIP: $(head -c 200 "$H/nofetch/build/emu-riscv64/unavailable" 2> /dev/null)"
# A guest that computes for ever is stopped by its CPU time, whatever the machine's load, and by
# the wall limit where no CPU limit is given.
t0=$(date +%s)
FAKE_QEMU_SPIN=1 PMUCAL_EMU_CPU_SECONDS=2 PMUCAL_EMU_KERNEL="$H/in/Image" timeout 100 "$REPO/scripts/emu-run.sh" \
    "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" 90 > /dev/null 2> "$H/err"
rc=$? t=$(( $(date +%s) - t0 ))
[ $rc = 4 ] && grep -q "^emu-run: QEMU used 2s of CPU time: stopped; the console's last line: " "$H/err" && [ $t -lt 90 ]
ok $? "a spinning guest is stopped after 2 s of its CPU, not the 90 s wall limit: exit $rc after $t s: $(head -c 200 "$H/err")"
FAKE_QEMU_SPIN=1 PMUCAL_EMU_KERNEL="$H/in/Image" timeout 60 "$REPO/scripts/emu-run.sh" \
    "$H/emu/pmucal" "$H/emu/init" "$H/in/commands" "$H/log" 2 > /dev/null 2> "$H/err"
rc=$?
[ $rc = 4 ] && grep -q "^emu-run: QEMU ran past 2s: stopped" "$H/err"
ok $? "with no CPU limit the wall limit stops it: exit $rc: $(head -c 200 "$H/err")"
timeout 20 "$REPO/scripts/compare-likwid.sh" 0 > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "compare-likwid: RUNS 0: out of range: give a number of runs from 1 to 1000" "compare-likwid 0 runs"
timeout 20 "$REPO/scripts/bench-calibrate.sh" '2;x' > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "bench-calibrate: RUNS '2;x': give a number of runs from 1 to 100" "bench-calibrate RUNS '2;x'"
RUNS='1;x' timeout 20 "$REPO/scripts/bench-sample.sh" > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "bench-sample: RUNS '1;x': give a number of runs from 1 to 1000" "bench-sample RUNS='1;x'"
timeout 20 "$REPO/scripts/bench-load.sh" ../../x > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "bench-load: CPU '../../x': give a CPU number from 0 to 65535" "bench-load with a path as its CPU"
timeout 20 "$REPO/scripts/fuzz.sh" 0 > /dev/null 2> "$H/err"
refused $? 2 "$H/err" "fuzz: SECONDS 0: out of range: give whole seconds from 1 to 604800" "fuzz.sh 0 seconds (libFuzzer's 'no limit')"
timeout 20 "$REPO/scripts/fuzz.sh" 1 ../../x > /dev/null 2> "$H/err"
rc=$?
[ $rc = 2 ] && grep -q "^fuzz: NAME '../../x': not a harness name: give one of " "$H/err"
ok $? "fuzz.sh with a path as a harness name (exit $rc): $(head -c 120 "$H/err")"
[ ! -e "$canary" ]
ok $? "no canary anywhere"
done_testing
