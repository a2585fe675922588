#!/bin/sh
# make bench-load: are the timed figures true on a busy machine, or withheld? Runs calibrate and the
# walker's levels on one CPU: QUIET_RUNS times quiet (default 5), then once with a busy loop pinned
# on the same CPU and once with one on another CPU of the affinity mask (the SMT sibling where there
# is one). Prints, for every penalty: the median of its ok quiet figures, how many of the quiet
# calibrations had it ok and their coefficient of variation; beside it each busy figure, its status
# and its deviation from the quiet median. Then counts the busy figures marked ok that moved by more
# than 2% (issue 25: there should be none), those withheld (unstable or not ok, each with its reason
# in penalties.json), and the quiet CVs over the bound (1% core, 3% memory).
# "Quiet" is only as quiet as the machine: on a shared host say what else ran.
# Usage: scripts/bench-load.sh [CPU]   (default: the last CPU of the mask)
#   QUIET_RUNS        quiet calibrations (default 5)
#   BUSY_RUNS         busy pairs (a calibration beside a busy loop on the same CPU, one beside one on
#                     another CPU), taken in turn (default 1): the host's own state comes and goes
#   BENCH_LOAD_ARGS   extra calibrate options (e.g. --quick for a shorter run)
#   PMUCAL            the binary (default bin/pmucal)
#   BENCH_LOAD_KEEP   a folder to keep the calibrations' run folders in (default: a temporary one)
set -eu
ME=bench-load
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
pmucal=${PMUCAL:-bin/pmucal}
quiet_runs=${QUIET_RUNS:-5}
busy_runs=${BUSY_RUNS:-1}
need_count QUIET_RUNS "$quiet_runs" 1 1000 "a number of runs"
need_count BUSY_RUNS "$busy_runs" 1 1000 "a number of runs"
cpus=$(taskset -pc $$ | sed 's/.*: //')
list=$(echo "$cpus" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }')
cpu=${1:-$(echo "$list" | tail -n 1)}
need_count CPU "$cpu" 0 65535 "a CPU number"
other=$(echo "$list" | grep -vx "$cpu" | head -n 1)
sib=$(cat "/sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list" 2> /dev/null | tr ',' '\n' |
      awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | grep -vx "$cpu" | head -n 1 || true)
other=${sib:-$other}
spin=
if [ -n "${BENCH_LOAD_KEEP:-}" ]; then   # the run folders, kept for a look at why
    tmp=$BENCH_LOAD_KEEP
    if [ -n "$(ls -A "$tmp" 2> /dev/null)" ]; then
        echo "bench-load: BENCH_LOAD_KEEP=$tmp is not empty: its runs would mix with this one's; name a new folder" >&2
        exit 2
    fi
    mkdir -p "$tmp"
    trap '[ -n "$spin" ] && kill "$spin" 2> /dev/null' EXIT
else
    tmp=$(mktemp -d)
    trap '[ -n "$spin" ] && kill "$spin" 2> /dev/null; rm -rf "$tmp"' EXIT
fi

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
                                     median: .cycles.windows.median, split: .cycles.windows.clock_split}'
    done > "$tmp/$1.walk"
    if [ -n "$spin" ]; then
        kill "$spin"
        spin=
    fi
}

for i in $(seq "$quiet_runs"); do phase "quiet$i"; done
[ -n "$other" ] || echo "# one CPU in the mask: no busy loop on another CPU" >&2
busy=
for i in $(seq "$busy_runs"); do
    phase "same$i" "$cpu"
    busy="$busy same$i"
    if [ -n "$other" ]; then
        phase "other$i" "$other"
        busy="$busy other$i"
    fi
done

# The quiet reference: per penalty, the ok figures of the quiet runs, their median and CV.
jq -s '[.[].penalties[]] | group_by(.name) | map({key: .[0].name, value: {
        domain: .[0].domain, n: length, ok: [.[] | select(.status == "ok") | .cycles]}}) | from_entries |
       map_values(. + (if (.ok | length) > 0 then
           (.ok | add / length) as $m | {median: (.ok | sort | .[length / 2 | floor]),
            cv: (if (.ok | length) > 1 then ((.ok | map((. - $m) * (. - $m)) | add / (length - 1)) | sqrt) / $m
                 else null end)} else {median: null, cv: null} end))' "$tmp"/quiet*.json > "$tmp/ref.json"

# One column a busy calibration: its figure, status and deviation from the quiet median.
for b in $busy; do cat "$tmp/$b.json"; done > "$tmp/busy.all"
# shellcheck disable=SC2086
jq -n -r --slurpfile r "$tmp/ref.json" --argjson names "$(printf '%s\n' $busy | jq -R . | jq -s .)" \
    --slurpfile busy "$tmp/busy.all" '
    def r2: . * 100 | round / 100 | tostring;
    def pad(n): tostring | . + " " * ([n - length, 0] | max);
    def cell(p; q): if p == null then "-" else
        ((if p.cycles == null then "-" else (p.cycles | r2) end) + " " + p.status +
         (if p.cycles == null or q == null or q == 0 then "" else " " + ((p.cycles / q - 1) * 1000 | round / 10 | tostring) + "%" end)) end;
    $r[0] as $R | [$busy[] | .penalties | map({key: .name, value: .}) | from_entries] as $B |
    "penalty               quiet median ok/n  CV     | " + ([$names[] | pad(24)] | join(" | ")),
    ($busy[0].penalties[] | .name as $n | $R[$n] as $q |
     "\($n | pad(21)) \(if $q.median == null then "-" else ($q.median | r2) end | pad(12)) \("\($q.ok | length)/\($q.n)" | pad(5)) \(if $q.cv == null then "-" else ($q.cv * 1000 | round / 10 | tostring) + "%" end | pad(6)) | " +
     ([$B[] | cell(.[$n]; $q.median) | pad(24)] | join(" | ")))'
echo
# The walker's levels: quiet, the median of the quiet runs whose clock references agreed (a core of
# its own, as calibrate counts a run); a busy figure says when its references disagreed.
for b in $busy; do
    jq -s -r --arg b "$b" --slurpfile s "$tmp/$b.walk" '
        def r2: . * 100 | round / 100 | tostring;
        def shared: (.split // 0) > 0.01;
        def fig: (.cycles | r2) + (if shared then " (core shared: references \(.split * 1000 | round / 10)% apart)" else "" end);
        group_by(.name) as $g | $s | to_entries[] | .key as $i | .value.name as $n |
        ([$g[] | select(.[0].name == $n)][0]) as $runs | ([$runs[] | select(shared | not) | .cycles] | sort) as $clean |
        "\($n): quiet \(if ($clean | length) > 0 then ($clean[($clean | length) / 2 | floor] | r2) else "-" end) cycles per load (\($clean | length) of \($runs | length) runs clean); \($b) \($s[$i] | fig) (windows p10 \($s[$i].q // 0 | round), median \($s[$i].median // 0 | round) per 16 loads)"' "$tmp"/quiet*.walk
done
echo
for p in $busy; do
    jq -n -r --arg p "$p" --slurpfile r "$tmp/ref.json" --slurpfile s "$tmp/$p.json" '
        $r[0] as $R |
        [$s[0].penalties[] | select(.status == "ok") | . as $x | $R[$x.name] | select(.median != null) |
         select(($x.cycles / .median - 1 | fabs) > 0.02) | $x.name] as $moved |
        [$s[0].penalties[] | select(.status == "unstable" or .status == "not_ok") | .name] as $held |
        "\($p): \([$s[0].penalties[] | select(.status == "ok")] | length) ok, of which \($moved | length) more than 2% from the quiet median\(if ($moved | length) > 0 then " (" + ($moved | join(", ")) + ")" else "" end); \($held | length) withheld: \($held | join(", "))"'
done
jq -r --argjson n "$quiet_runs" '
    [to_entries[] | select(.value.cv != null) | select(.value.cv > (if .value.domain == "memory" then 0.03 else 0.01 end)) |
     "\(.key) \(.value.cv * 1000 | round / 10)%"] as $over |
    [to_entries[] | select((.value.ok | length) == $n)] as $all |
    "quiet: \($all | length) penalties ok in all \($n) calibrations; CV over the bound (1% core, 3% memory): \(if ($over | length) > 0 then $over | join(", ") else "none" end)"' "$tmp/ref.json"
# Why each busy figure was withheld, as penalties.json says.
for p in $busy; do
    jq -r --arg p "$p" '.penalties[] | select(.status == "unstable" or .status == "not_ok") |
        "\($p) \(.name) \(.status): \(.reason | .[0:160])"' "$tmp/$p.json"
done
