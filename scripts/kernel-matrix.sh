#!/bin/sh
# make kernel-matrix: Debian 12's arm64 kernels, each checked on the emulated Neoverse N1
# (scripts/kernel-check.sh) and compared with the first as baseline (pmucal compare, run folder by
# run folder: matrix, split, lead, mux, sample). Besides the kernels: the baseline booted again (the
# noise floor: nothing may change) and the baseline on a CPU without a PMU (-cpu
# neoverse-n1,pmu=off: the planted regression, which must be caught). Prints one table (kernel,
# verdict counts, changes) and keeps everything in OUT (default results/kernel-matrix).
# A riscv64 baseline (a PACKAGE named *-riscv64, such as Debian 13's linux-image-6.12.117+deb13-riscv64)
# boots on QEMU's RISC-V virt machine, and its planted regressions are -cpu rv64,sscofpmf=false
# and rv64,sscofpmf=true,pmu-num=0.
#
#   scripts/kernel-matrix.sh [OUT] [PACKAGE...]
#
# OUT is a folder (made when absent); a relative OUT starts from the folder the script was
# started in (PMUCAL_CALLER_DIR when set: make kernel-matrix sets the folder make was started in).
# Each PACKAGE is a Debian package name, checked before anything is made or removed (its check's
# folder is OUT/PACKAGE).
#
# Minutes: a boot takes 20-60 s of TCG, a download some seconds (cached in build/kernels/).
set -eu
ME=kernel-matrix
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
out=results/kernel-matrix
if [ $# -gt 0 ]; then
    abs_path "$1"; out=$abs
    shift
fi
need_new_folder OUT "$out"
for pkg in "$@"; do need_package_name PACKAGE "$pkg"; done
host_bin=${PMUCAL:-bin/pmucal}
if [ $# -eq 0 ]; then
    # Debian 12's 6.12 LTS: the newest linux-image-6.12.N+deb12 of each flavour the archive holds.
    newest() { apt-cache search --names-only "^linux-image-6\\.12\\.[0-9]+\\+deb12-$1\$" 2> /dev/null | cut -d' ' -f1 | sort -V | tail -n 1; }
    set -- linux-image-6.1.0-47-arm64 linux-image-6.1.0-50-arm64 "$(newest arm64)" \
        linux-image-6.1.0-47-rt-arm64 linux-image-6.1.0-47-cloud-arm64 "$(newest rt-arm64)" "$(newest cloud-arm64)"
fi
base=$1
mkdir -p "$out"
kcidb_py=
[ -d ../shared/tools/kcidb-io/kcidb_io ] && export PYTHONPATH="$PWD/../shared/tools/kcidb-io${PYTHONPATH:+:$PYTHONPATH}"
python3 -c 'import kcidb_io, jsonschema' 2> /dev/null && kcidb_py=python3

# check NAME PACKAGE [CPU]: one kernel-check into OUT/NAME (kept when it already came back).
check() {
    [ -d "$out/$1/results" ] && return 0
    rm -rf "$out/$1"
    scripts/kernel-check.sh --package "$2" ${3:+--cpu "$3"} --out "$out/$1" > "$out/$1.log" 2>&1 || {
        echo "kernel-matrix: $2${3:+ on -cpu $3}: kernel-check failed: $(tail -n 1 "$out/$1.log")" >&2
        return 1
    }
}
names="" status=0
i=0
for pkg in "$@"; do
    i=$((i + 1))
    [ -n "$pkg" ] || { echo "kernel-matrix: kernel $i: no such package in the archive (apt-cache search found none)" >&2; status=1; continue; }
    check "$pkg" "$pkg" || status=1
    names="$names $pkg"
    if [ "$pkg" = "$base" ]; then
        check "$pkg+again" "$pkg" && names="$names $pkg+again"
        case $pkg in
        *-riscv64)
            # RISC-V's planted regressions: a PMU without Sscofpmf (no sampling, no user-only
            # filter), and one without programmable counters (QEMU 7.2's pmu-num=0).
            check "$pkg+sscofpmf=false" "$pkg" rv64,sscofpmf=false && names="$names $pkg+sscofpmf=false"
            check "$pkg+pmu-num=0" "$pkg" rv64,sscofpmf=true,pmu-num=0 && names="$names $pkg+pmu-num=0" ;;
        *) check "$pkg+pmu=off" "$pkg" neoverse-n1,pmu=off && names="$names $pkg+pmu=off" ;;
        esac
    fi
done

run_of() { ls -d "$out/$1"/results/*-"$2" 2> /dev/null | head -n 1; }
row() { printf '%-42s %-12s %-14s %-21s %-8s %s\n' "$@"; }
{
    echo "baseline: $base ($(jq -r '(.linux_kernel // .kernel) | "\(.release), \(.version)"' "$(run_of "$base" matrix)/manifest.json" 2> /dev/null))"
    row kernel flavour "PMU/counters" "matrix ok/notok/skip" "not ok" "changes (vs baseline: kernel PMU description; (case, event) not ok per run)"
    for n in $names; do
        m=$(run_of "$n" matrix)
        [ -n "$m" ] || { row "$n" - - - - "no run folder came back: $(tail -n 1 "$out/$n.log" 2> /dev/null)"; continue; }
        k=$(jq -r '(.linux_kernel // .kernel) | "\(.flavour // "-") \(.pmu.name // "none")/\(.pmu.counters // "?")"' "$m/manifest.json")
        counts=$(grep -E '^(not )?ok ' "$m/validate.tap" | awk '/# SKIP/ { s++; next } /^not ok/ { n++; next } { o++ }
            END { printf "%d/%d/%d", o, n, s }')
        changes="" total=0
        if [ "$n" != "$base" ]; then
            for label in matrix split lead mux sample; do
                b=$(run_of "$base" $label) x=$(run_of "$n" $label)
                [ -n "$b" ] && [ -n "$x" ] || continue
                "$host_bin" compare "$b" "$x" > "$out/$n.compare-$label.tap" 2> "$out/$n.compare-$label.err" || true
                if [ $label = matrix ]; then
                    kp=$(grep '^not ok [0-9]* - kernel PMU :: ' "$out/$n.compare-$label.tap" | sed 's/^not ok [0-9]* - kernel PMU :: //' | tr '\n' ';' | sed 's/;$//')
                    ka=$(grep '^ok [0-9]* - kernel PMU :: ' "$out/$n.compare-$label.tap" | sed 's/^ok [0-9]* - kernel PMU :: //' | tr '\n' ';' | sed 's/;$//')
                    [ -n "$kp" ] && changes="$changes PMU lost/changed: $kp."
                    [ -n "$ka" ] && changes="$changes PMU added: $ka."
                fi
                # EVENT(regressed cases/cases), and where when it is one or two cases.
                ev=$(sed -n 's/^#   \([^ ]*\)  *CHANGED in \([0-9]*\) of \([0-9]*\) cases: \(.*\)$/\1 \2 \3 \4/p' "$out/$n.compare-$label.tap" |
                    awk '{ w = $0; sub(/^[^ ]* [^ ]* [^ ]* /, "", w); printf "%s%s(%s/%s%s)", sep, $1, $2, $3, $2 <= 2 ? ": " w : ""; sep = " " }')
                sm=$(grep -c '^not ok [0-9]* - [^k].* precise=' "$out/$n.compare-$label.tap" || true)
                # The PMU's description is in every run's compare: counted once, with the matrix's.
                r=$(grep '^not ok [0-9]* - ' "$out/$n.compare-$label.tap" | grep -vc ' - kernel PMU :: ' || true)
                [ $label = matrix ] && r=$((r + $(grep -c '^not ok [0-9]* - kernel PMU :: ' "$out/$n.compare-$label.tap" || true)))
                total=$((total + r))
                [ -n "$ev" ] && changes="$changes $label: $ev."
                [ $label = sample ] && [ "$sm" -gt 0 ] && changes="$changes sample: $sm not ok."
            done
        fi
        row "$n" ${k% *} "${k#* }" "$counts" "$total" "${changes:- none}"
    done
    if [ -n "$kcidb_py" ]; then
        bad=0 all=0
        for f in "$out"/*/kcidb-*.json; do
            all=$((all + 1))
            "$kcidb_py" -c 'import json, sys, kcidb_io
kcidb_io.schema.LATEST.validate(json.load(open(sys.argv[1])))' "$f" > /dev/null 2>&1 || { bad=$((bad + 1)); echo "KCIDB: $f does not validate"; }
        done
        echo "KCIDB: $((all - bad)) of $all exports validate with kcidb-io (schema v5.3)"
    else
        echo "KCIDB: not validated: kcidb-io is not importable (../shared/tools/kcidb-io, or PYTHONPATH) or python3-jsonschema is missing"
    fi
} | tee "$out/table.txt"
exit $status
