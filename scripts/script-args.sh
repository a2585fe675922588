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

# The bounds of an arm64 kernel image: QEMU decompresses a gzip'd -kernel into at most 256 MiB
# (LOAD_IMAGE_MAX_GUNZIP_BYTES); the smallest arm64 Image (tinyconfig) is some MiB.
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

# need_arm64_image ARG PATH SCRATCH: PATH is a regular file that can be an arm64 kernel Image,
# plain or gzip'd (what QEMU's -kernel and LAVA's kernel take): the boot header's magic
# "ARM\x64" at offset 0x38, a size within the bounds above, a gzip stream that decompresses
# whole and within them, and no fewer bytes than its PE header's sections take. Refused here, an
# image that cannot boot is named at once, not after the whole boot's limit. SCRATCH: a folder
# for the decompressed header.
need_arm64_image() {
    need_file "$1" "$2"
    image=$2
    what="$1 $2"
    if [ "$(od -An -tx1 -N2 "$2" | tr -d ' \n')" = 1f8b ]; then
        # Counted, not kept: a gzip bomb stops at the bound, after image_max + 1 bytes.
        got=$( { _rc=0; gzip -dc < "$2" 2> "$3/gzip.err" || _rc=$?; echo $_rc > "$3/gzip.rc"; } | head -c $((image_max + 1)) | wc -c)
        [ "$got" -gt "$image_max" ] &&
            die 2 "$what: its gzip stream decompresses to more than $((image_max >> 20)) MiB (QEMU's own limit for a gzip'd kernel): a gzip bomb, not a kernel image"
        [ "$(cat "$3/gzip.rc")" = 0 ] ||
            die 2 "$what: its gzip stream is damaged or cut short after $got bytes ($(tail -n 1 "$3/gzip.err" | cut -c1-120)): give the whole image"
        gzip -dc < "$2" 2> /dev/null | head -c 65536 > "$3/header"
        image=$3/header size=$got
        what="$what (gzip'd)"
    else
        size=$(wc -c < "$2")
    fi
    [ "$(od -An -tx1 -j56 -N4 "$image" 2> /dev/null | tr -d ' \n')" = 41524d64 ] ||
        die 2 "$1 $2 is not an arm64 kernel Image (no 'ARM\\x64' magic at offset 0x38, in the file or its gzip stream; its first bytes: $(head -c 8 "$2" | od -An -c | tr -s ' \n' ' ' | cut -c1-40)): give arch/arm64/boot/Image or Debian's /boot/vmlinuz-*, not a vmlinux ELF or another architecture's kernel"
    [ "$size" -ge "$image_min" ] ||
        die 2 "$what holds $size bytes: too few for an arm64 kernel image (at least $((image_min >> 20)) MiB): a cut or made-up image"
    [ "$size" -le "$image_max" ] ||
        die 2 "$what holds $size bytes: more than $((image_max >> 20)) MiB, no arm64 kernel image is that large"
    end=$(pe_end "$image")
    [ "$size" -ge "$end" ] ||
        die 2 "$what is cut short: its PE header's sections end at byte $end, it holds $size bytes: give the whole image"
}
