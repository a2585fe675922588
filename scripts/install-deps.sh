#!/bin/sh
# scripts/install-deps.sh PACKAGE... [--emu PACKAGE...]: the Debian packages given, installed when
# any is missing. The Makefile keeps the lists (make deps-run: what make run's job needs; make deps:
# that and the tests' tools). Those after --emu are the emulated Arm host's (the arm64 architecture,
# the cross compiler, the :arm64 libraries, QEMU, LAVA): PMUCAL_TEST_EMU=0 leaves them out.
# As root it runs apt-get; otherwise it prints the exact command and stops, so a user never gets a
# half-built tree with a confusing compiler error instead.
set -e
emu=${PMUCAL_TEST_EMU:-1}
missing="" emu_names="" in_emu=""
for p in "$@"; do
    if [ "$p" = --emu ]; then
        [ "$emu" = 0 ] && break
        in_emu=yes
    elif ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing="$missing $p"
        if [ -n "$in_emu" ]; then emu_names="$emu_names $p"; fi
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "pmucal: installing missing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    case "$missing" in *:arm64*) dpkg --add-architecture arm64 ;; esac
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
    exit 0
fi
echo "pmucal: missing Debian packages:$missing" >&2
case "$missing" in *:arm64*) echo "pmucal: first: sudo dpkg --add-architecture arm64 && sudo apt-get update" >&2 ;; esac
echo "pmucal: install them with:  sudo apt-get install$missing" >&2
[ -n "$emu_names" ] && echo "pmucal: (or PMUCAL_TEST_EMU=0 to leave the emulated Arm host out:$emu_names)" >&2
exit 1
