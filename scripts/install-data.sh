#!/bin/sh
# The data files 'make install' puts in PREFIX/share/pmucal, and 'make uninstall' takes back:
#   install-data.sh install DATADIR EVENTDATA   rule files, jq scripts and the event tables
#                                               the catalog loads (only the core tables the
#                                               mapfiles name, the mapfiles, their SOURCE/LICENSE);
#                                               DATADIR/installed-files lists every file put there
#   install-data.sh uninstall DATADIR           removes exactly the files that list names, then
#                                               the folders they leave empty (a user's file stays)
set -eu
what=$1 datadir=$2
list="$datadir/installed-files"

# Paths under EVENTDATA the catalog reads (events/catalog.c load_by_mapfile): each vendor's
# mapfile.csv, and what its core rows name (perf's format: a folder of JSON; Intel's: a file, shipped
# as NAME.json.gz);
# Arm's architecture tables and RISC-V's SBI firmware events, which the model files refer to by
# ArchStdEvent (sbsa.json: metrics); SOURCE and LICENSE.
eventdata_files() {
    for vendor in amd intel arm riscv; do
        map="$1/$vendor/mapfile.csv"
        [ -f "$map" ] || continue
        echo "$vendor/mapfile.csv"
        for extra in SOURCE LICENSE common-and-microarch.json recommended.json sbsa.json riscv-sbi-firmware.json; do
            [ -f "$1/$vendor/$extra" ] && echo "$vendor/$extra"
        done
        awk -F, 'NR > 1 && ($4 == "core" || $4 == "hybridcore" || $4 == "offcore" || $4 == "fp_arith_inst") { sub(/^\//, "", $3); print $3 }' "$map" |
            sort -u | while read -r named; do
                if [ -d "$1/$vendor/$named" ]; then
                    # A perf folder's uncore-*.json (HiSilicon's) hold uncore units pmucal does not count.
                    (cd "$1/$vendor" && find "$named" -type f \( -name '*.json' -o -name '*.json.gz' \) ! -name 'uncore-*' | sort)
                elif [ -f "$1/$vendor/$named" ]; then
                    echo "$named"
                elif [ -f "$1/$vendor/$named.gz" ]; then   # shipped compressed (events/vendor.c reads both)
                    echo "$named.gz"
                fi
            done | sed "s|^|$vendor/|"
    done
}

case $what in
install)
    mkdir -p "$datadir"
    eventdata=$3
    {
        for f in validate/expect/*.txt; do echo "expect/${f##*/} $f"; done
        for f in uarch/*.txt; do echo "uarch/${f##*/} $f"; done
        for f in scripts/*.jq; do echo "scripts/${f##*/} $f"; done
        if [ -d "$eventdata" ]; then
            eventdata_files "$eventdata" | while read -r f; do echo "eventdata/$f $eventdata/$f"; done
        else
            echo "make install: no event tables at $eventdata (give EVENTDATA=DIR): the installed pmucal" \
                "needs PMUCAL_EVENTDATA or --vendor-json for its event catalog" >&2
        fi
    } > "$list.new"
    while read -r to from; do
        install -D -m 644 "$from" "$datadir/$to"
    done < "$list.new"
    if [ -d "$eventdata" ]; then
        echo "make install: $(grep -c '^eventdata/' "$list.new") event table files from $eventdata" >&2
    fi
    cut -d' ' -f1 "$list.new" > "$list"
    rm -f "$list.new"
    ;;
uninstall)
    [ -f "$list" ] || exit 0
    while read -r f; do rm -f "$datadir/$f"; done < "$list"
    # Each installed file's folder and its parents up to DATADIR, when nothing else is in them. A
    # folder may be gone already: emptied with a subfolder's parents (riscv/ after riscv/andes/ax45).
    dirs=$(sed -n 's|/[^/]*$||p' "$list" | sort -ru)
    rm -f "$list"
    (cd "$datadir" && for d in $dirs; do [ ! -d "$d" ] || rmdir -p --ignore-fail-on-non-empty "$d"; done)
    rmdir --ignore-fail-on-non-empty "$datadir"
    ;;
esac
