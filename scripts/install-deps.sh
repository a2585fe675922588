#!/bin/sh
# Install the Debian packages pmucal needs to build and test, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and stops, so a user
# never gets a half-built tree with a confusing compiler error instead.
set -e
need="gcc make pkg-config libpfm4-dev libhwloc-dev hwloc valgrind jq libtest-harness-perl binutils gnuplot-nox linux-perf chromium"
missing=""
for p in $need; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "pmucal: installing missing Debian packages:$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "pmucal: missing Debian packages:$missing" >&2
    echo "pmucal: install them with:  sudo apt-get install$missing" >&2
    exit 1
fi
