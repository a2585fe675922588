# The checks the scripts share on their arguments, sourced (". scripts/script-args.sh") by
# kernel-check.sh, kernel-matrix.sh, lava-job.sh and the bench scripts BEFORE they change folder:
# a relative path is the caller's, so the caller's folder is taken here, once.
#
# The caller's folder: PMUCAL_CALLER_DIR when set (make sets it to the folder make was started in,
# which make -C leaves behind), else the folder the script was started in. The sourcing script sets
# ME (its name, the prefix of every message) first.
#
# Every refusal is one line on stderr, "ME: ARGUMENT VALUE: what is wrong: the fix", and exit 2.

die() { _code=$1; shift; printf '%s: %s\n' "$ME" "$*" >&2; exit "$_code"; }

# The folder as pwd prints it, a trailing newline of its name kept (a command substitution strips it).
caller_dir=$(pwd && echo .)
caller_dir=${caller_dir%??}
if [ -n "${PMUCAL_CALLER_DIR:-}" ]; then
    case $PMUCAL_CALLER_DIR in
    /*) [ -d "$PMUCAL_CALLER_DIR" ] || die 2 "PMUCAL_CALLER_DIR=$PMUCAL_CALLER_DIR is not a folder: unset it or give the folder relative paths start from" ;;
    *) die 2 "PMUCAL_CALLER_DIR=$PMUCAL_CALLER_DIR is not an absolute path: unset it or give the folder relative paths start from" ;;
    esac
    caller_dir=$PMUCAL_CALLER_DIR
fi

# abs_path PATH: PATH made absolute against the caller's folder (never the repository's). The
# result is in $abs (a command substitution would strip a trailing newline of the name).
abs_path() {
    case $1 in
    /*) abs=$1 ;;
    *) abs=${caller_dir%/}/$1 ;;
    esac
}

# kind_of PATH: what is there, in words ("a regular file", "a folder", "a FIFO", ...).
kind_of() {
    if [ -d "$1" ]; then echo "a folder"
    elif [ -f "$1" ]; then echo "a regular file"
    elif [ -p "$1" ]; then echo "a FIFO"
    elif [ -c "$1" ]; then echo "a character device"
    elif [ -b "$1" ]; then echo "a block device"
    elif [ -S "$1" ]; then echo "a socket"
    elif [ -L "$1" ]; then echo "a dangling symbolic link"
    elif [ -e "$1" ]; then echo "not a file"
    else echo "nothing (no such file)"
    fi
}

# need_file ARG PATH: a regular file (a symbolic link to one counts), readable.
need_file() {
    [ -f "$2" ] || die 2 "$1 $2 is $(kind_of "$2"): give a regular file"
    [ -r "$2" ] || die 2 "$1 $2 is not readable by $(id -un): give a file you can read"
}
# need_folder ARG PATH: an existing folder.
need_folder() {
    [ -d "$2" ] || die 2 "$1 $2 is $(kind_of "$2"): give a folder"
}
# need_new_folder ARG PATH: a folder that may be made there: absent, or a folder already.
need_new_folder() {
    [ -e "$2" ] || [ -L "$2" ] || return 0
    [ -d "$2" ] || die 2 "$1 $2 is $(kind_of "$2"), not a folder: give a folder to write into (absent or a folder)"
}

# need_count ARG VALUE MIN MAX [WHAT]: a whole number in MIN..MAX, digits only and at most 10 of
# them, so that it is never shell arithmetic's expression nor past its range. WHAT names it in the
# message ("whole seconds"; default "a whole number").
need_count() {
    case $2 in
    ''|*[!0-9]*|0?*|???????????*) die 2 "$1 '$2': give ${5:-a whole number} from $3 to $4" ;;
    esac
    [ "$2" -ge "$3" ] && [ "$2" -le "$4" ] || die 2 "$1 $2: out of range: give ${5:-a whole number} from $3 to $4"
}

# need_package_name ARG NAME: a Debian package name (Debian Policy 5.6.1: lower case letters,
# digits, '+', '-', '.'; starts with a letter or digit), so that it is safe as a folder name too.
need_package_name() {
    case $2 in
    *[!a-z0-9.+-]*|[!a-z0-9]*|'') die 2 "$1 '$2': not a Debian package name (letters, digits, '.', '+', '-')" ;;
    esac
}

# The bounds of a kernel image: QEMU decompresses a gzip'd arm64 -kernel into at most 256 MiB
# (LOAD_IMAGE_MAX_GUNZIP_BYTES); the smallest arm64 or riscv64 Image (tinyconfig) is some MiB.
image_min=$((1 << 20))
image_max=$((256 << 20))

# u32 FILE OFFSET / u16 FILE OFFSET: a little-endian number from FILE (empty past its end).
u32() { od -An -tu4 -j"$2" -N4 "$1" 2> /dev/null | tr -d ' \n'; }
u16() { od -An -tu2 -j"$2" -N2 "$1" 2> /dev/null | tr -d ' \n'; }
# pe_end FILE: where the PE/COFF sections of an EFI-stub Image end (0 without a PE header): a
# file shorter than that was cut.
pe_end() {
    [ "$(od -An -c -N2 "$1" 2> /dev/null | tr -d ' \n')" = MZ ] || { echo 0; return; }
    pe=$(u32 "$1" 60)
    [ -n "$pe" ] && [ "$(od -An -tx1 -j"$pe" -N4 "$1" 2> /dev/null | tr -d ' \n')" = 50450000 ] || { echo 0; return; }
    n=$(u16 "$1" $((pe + 6))) opt=$(u16 "$1" $((pe + 20)))
    end=0 i=0
    while [ "$i" -lt "${n:-0}" ] && [ "$i" -lt 96 ]; do
        s=$((pe + 24 + opt + 40 * i))
        raw=$(u32 "$1" $((s + 16))) at=$(u32 "$1" $((s + 20)))
        [ $((${at:-0} + ${raw:-0})) -gt "$end" ] && end=$((${at:-0} + ${raw:-0}))
        i=$((i + 1))
    done
    echo "$end"
}

# need_isa ARG VALUE: an ISA kernel-check and the LAVA job boot, aarch64 or riscv64, where one is
# given (without it the image's header says which).
need_isa() {
    case $2 in
    aarch64|riscv64) ;;
    *) die 2 "$1 '$2': give aarch64 or riscv64, or leave it out: the image's boot header says which" ;;
    esac
}

# need_kernel_image ARG PATH SCRATCH ISA ISA-ARG: PATH is a regular file that can be a kernel
# Image of ISA (aarch64 or riscv64; empty: either, told by its header), what QEMU's -kernel and
# LAVA's kernel take: the boot header's magic at offset 0x38 ("ARM\x64" arm64's, "RSC\x05"
# riscv64's), a size within the bounds above, a gzip stream (arm64 only: QEMU's riscv64 -kernel
# loads a file as it is) that decompresses whole and within them, and no fewer bytes than its PE
# header's sections take. Refused here, an image that cannot boot is named at once, not after the
# whole boot's limit. The ISA found is left in $image_isa. ISA-ARG names the option that gave ISA
# (--isa, ISA=) in a mismatch's message. SCRATCH: a folder for the decompressed header.
need_kernel_image() {
    need_file "$1" "$2"
    image=$2
    what="$1 $2"
    gzipped=0
    if [ "$(od -An -tx1 -N2 "$2" | tr -d ' \n')" = 1f8b ]; then
        # Counted, not kept: a gzip bomb stops at the bound, after image_max + 1 bytes.
        got=$( { _rc=0; gzip -dc < "$2" 2> "$3/gzip.err" || _rc=$?; echo $_rc > "$3/gzip.rc"; } | head -c $((image_max + 1)) | wc -c)
        [ "$got" -gt "$image_max" ] &&
            die 2 "$what: its gzip stream decompresses to more than $((image_max >> 20)) MiB (QEMU's own limit for a gzip'd kernel): a gzip bomb, not a kernel image"
        [ "$(cat "$3/gzip.rc")" = 0 ] ||
            die 2 "$what: its gzip stream is damaged or cut short after $got bytes ($(tail -n 1 "$3/gzip.err" | cut -c1-120)): give the whole image"
        gzip -dc < "$2" 2> /dev/null | head -c 65536 > "$3/header"
        image=$3/header size=$got gzipped=1
        what="$what (gzip'd)"
    else
        size=$(wc -c < "$2")
    fi
    case $(od -An -tx1 -j56 -N4 "$image" 2> /dev/null | tr -d ' \n') in
    41524d64) image_isa=aarch64 name=arm64 a_name='an arm64' ;;
    52534305) image_isa=riscv64 name=riscv64 a_name='a riscv64' ;;
    *) image_isa= ;;
    esac
    first=$(head -c 8 "$2" | od -An -c | tr -s ' \n' ' ' | cut -c1-40)
    if [ -z "$image_isa" ]; then
        case $4 in
        aarch64) die 2 "$1 $2 is not an arm64 kernel Image (no 'ARM\\x64' magic at offset 0x38, in the file or its gzip stream; its first bytes: $first): give arch/arm64/boot/Image or Debian's /boot/vmlinuz-*, not a vmlinux ELF or another architecture's kernel" ;;
        riscv64) die 2 "$1 $2 is not a riscv64 kernel Image (no 'RSC\\x05' magic at offset 0x38, in the file or its gzip stream; its first bytes: $first): give arch/riscv/boot/Image or Debian's /boot/vmlinux-*, not a vmlinux ELF or another architecture's kernel" ;;
        *) die 2 "$1 $2 is not an arm64 kernel Image (no 'ARM\\x64' magic at offset 0x38, in the file or its gzip stream; its first bytes: $first), nor a riscv64 one (no 'RSC\\x05' magic there): give arch/arm64/boot/Image, arch/riscv/boot/Image or Debian's /boot/vmlinuz-* (arm64), /boot/vmlinux-* (riscv64); not a vmlinux ELF or another architecture's kernel" ;;
        esac
    fi
    [ -z "$4" ] || [ "$4" = "$image_isa" ] ||
        die 2 "$what is $a_name kernel Image (its boot header's magic at 0x38), but $5 $4 asks for $4: give a kernel for $4, or $5 $image_isa, or leave $5 out"
    [ "$image_isa" = aarch64 ] || [ $gzipped = 0 ] ||
        die 2 "$1 $2 is a gzip'd riscv64 Image: QEMU's riscv64 -kernel loads a file as it is and decompresses none: give the plain Image (gzip -dc < FILE > Image)"
    [ "$size" -ge "$image_min" ] ||
        die 2 "$what holds $size bytes: too few for $a_name kernel image (at least $((image_min >> 20)) MiB): a cut or made-up image"
    [ "$size" -le "$image_max" ] ||
        die 2 "$what holds $size bytes: more than $((image_max >> 20)) MiB, no $name kernel image is that large"
    end=$(pe_end "$image")
    [ "$size" -ge "$end" ] ||
        die 2 "$what is cut short: its PE header's sections end at byte $end, it holds $size bytes: give the whole image"
}
