#!/bin/sh
# make bench-load: are the timed figures true on a busy machine, or withheld? Runs calibrate and the
# walker's levels three times on one CPU: quiet, with a busy loop pinned on the same CPU, and with
# one on another CPU of the affinity mask (the SMT sibling where there is one). Prints every
# penalty and level beside its quiet figure, its deviation and status, and counts the figures
# marked ok that moved by more than 2% from quiet (issue 25: there should be none) and those
# withheld (unstable or not ok, each with its reason in penalties.json).
# "Quiet" is only as quiet as the machine: on a shared host say what else ran.
# Usage: scripts/bench-load.sh [CPU]   (default: the last CPU of the mask)
#   BENCH_LOAD_ARGS   extra calibrate options (e.g. --quick for a shorter run)
#   PMUCAL            the binary (default bin/pmucal)
set -eu
cd "$(dirname "$0")/.."
pmucal=${PMUCAL:-bin/pmucal}
cpus=$(taskset -pc $$ | sed 's/.*: //')
list=$(echo "$cpus" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }')
cpu=${1:-$(echo "$list" | tail -n 1)}
other=$(echo "$list" | grep -vx "$cpu" | head -n 1)
sib=$(cat "/sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list" 2> /dev/null | tr ',' '\n' |
      awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | grep -vx "$cpu" | head -n 1 || true)
other=${sib:-$other}
tmp=$(mktemp -d)
spin=
trap '[ -n "$spin" ] && kill "$spin" 2> /dev/null; rm -rf "$tmp"' EXIT

# phase NAME [SPIN_CPU]: calibrate and the walker levels, with a busy loop on SPIN_CPU if given.
phase() {
    if [ -n "${2:-}" ]; then
        taskset -c "$2" sh -c 'while :; do :; done' &
        spin=$!
    fi
    echo "# $1: calibrate on CPU $cpu${2:+, a busy loop on CPU $2}; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    # shellcheck disable=SC2086
    "$pmucal" calibrate --cpu "$cpu" --out "$tmp" --label "$1" ${BENCH_LOAD_ARGS:-} > "$tmp/$1.tap" 2> "$tmp/$1.err" || true
    cp "$(ls -d "$tmp"/*-"$1" | head -n 1)/penalties.json" "$tmp/$1.json"
    for level in L1 L2 L3 DRAM; do
        "$pmucal" run walker "size=$level" order=random -e page-faults --cpu "$cpu" --json 2> /dev/null |
            jq -c --arg l "$level" '{name: ("walker " + $l), cycles: (.cycles.stats.median / 16), q: .cycles.windows.q,
                                     median: .cycles.windows.median}'
    done > "$tmp/$1.walk"
    if [ -n "$spin" ]; then
        kill "$spin"
        spin=
    fi
}

phase quiet
[ -n "$other" ] || echo "# one CPU in the mask: no busy loop on another CPU" >&2
phase same "$cpu"
[ -n "$other" ] && phase other "$other"

# name quiet | same-CPU value status dev | other-CPU value status dev
jq -n -r --slurpfile q "$tmp/quiet.json" --slurpfile s "$tmp/same.json" \
    --slurpfile o "$( [ -n "$other" ] && echo "$tmp/other.json" || echo "$tmp/same.json")" '
    def fig(p): if p.cycles == null then "-" else (p.cycles * 100 | round / 100 | tostring) end;
    def dev(p; q): if p.cycles == null or q.cycles == null or q.cycles == 0 then "" else
        ((p.cycles / q.cycles - 1) * 1000 | round / 10 | tostring) + "%" end;
    ($q[0].penalties | map({key: .name, value: .}) | from_entries) as $Q |
    ($o[0].penalties | map({key: .name, value: .}) | from_entries) as $O |
    "penalty                quiet           | busy loop on the same CPU      | busy loop on another CPU",
    ($s[0].penalties[] | . as $p | $Q[$p.name] as $qp | $O[$p.name] as $op |
     [$p.name, fig($qp), ($qp.status // "-"), fig($p), $p.status, dev($p; $qp), fig($op), ($op.status // "-"), dev($op; $qp)]
     | "\(.[0] | .[0:22] | . + " " * (22 - length)) \(.[1] | . + " " * (8 - length)) \(.[2] | . + " " * (8 - length))| \(.[3] | . + " " * (9 - length)) \(.[4] | . + " " * (9 - length)) \(.[5] | . + " " * (9 - length)) | \(.[6] | . + " " * (9 - length)) \(.[7] | . + " " * (9 - length)) \(.[8])")'
echo
jq -s -r --slurpfile s "$tmp/same.walk" --slurpfile o "$tmp/$( [ -n "$other" ] && echo other || echo same).walk" '
    . as $q | range(0; $q | length) as $i |
    "\($q[$i].name): quiet \($q[$i].cycles * 100 | round / 100) cycles per load; same CPU \($s[$i].cycles * 100 | round / 100) (windows p10 \($s[$i].q // 0 | round), median \($s[$i].median // 0 | round) per 16 loads); other CPU \($o[$i].cycles * 100 | round / 100)"' "$tmp/quiet.walk"
echo
for p in same other; do
    [ -f "$tmp/$p.json" ] || continue
    jq -n -r --arg p "$p" --slurpfile q "$tmp/quiet.json" --slurpfile s "$tmp/$p.json" '
        ($q[0].penalties | map({key: .name, value: .}) | from_entries) as $Q |
        [$s[0].penalties[] | select(.status == "ok") | . as $x | $Q[$x.name] | select(.status == "ok") |
         select(($x.cycles / .cycles - 1 | fabs) > 0.02) | $x.name] as $moved |
        [$s[0].penalties[] | select(.status == "unstable" or .status == "not_ok") | .name] as $held |
        "\($p): \([$s[0].penalties[] | select(.status == "ok")] | length) ok, of which \($moved | length) more than 2% from an ok quiet figure\(if ($moved | length) > 0 then " (" + ($moved | join(", ")) + ")" else "" end); \($held | length) withheld: \($held | join(", "))"'
done
