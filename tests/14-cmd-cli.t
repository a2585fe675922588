#!/bin/sh
# The command line: every option a command's --help lists is accepted, every command rejects an
# unknown option with exit 2, GNU getopt_long habits work, listings have --json.
. "$(dirname "$0")/lib.sh"

commands=$($PMUCAL --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ -n "$commands" ]
ok $? "pmucal --help lists commands: $(echo $commands)"
first_cpu=$(awk '/^Cpus_allowed_list/ { split($2, a, /[-,]/); print a[1] }' /proc/self/status)
# Two CPUs of the mask for --cpus A,B (run, validate, c2c); on a one-CPU mask the option is refused.
cpu_pair=$(taskset -pc $$ 2> /dev/null | sed 's/.*: //' | tr ',' '\n' |
           awk -F- '{ for (i = $1; i <= (NF == 2 ? $2 : $1); i++) print i }' | head -n 2 | paste -sd, -)

# A value that the option's own check accepts, by option name, else by placeholder.
value_for() { # value_for NAME PLACEHOLDER
    case $1 in
    format) echo c ;; recipe) echo l1_hit ;; cpu) echo "${first_cpu:-0}" ;; cpus) echo "$cpu_pair" ;;
    mode) echo hitm ;;
    size) echo L1 ;; core-ghz) echo 2.4 ;; floor) echo 0.01 ;; events) echo instructions ;;
    uarch | model) echo zen4 ;; base-cpi | tolerance) echo 1 ;;
    threshold) echo 2 ;; alpha) echo 0.01 ;; prefix) echo MYLIB ;; precise) echo 0 ;; ring-pages) echo 4 ;;
    *) case $2 in N | N\|auto) echo 3 ;; MS) echo 5 ;; *) echo x ;; esac ;;
    esac
}

for c in $commands; do
    $PMUCAL "$c" --help > "$TMP/help" 2> "$TMP/err"
    rc=$?
    usage_lines=$(grep -c '^usage:' "$TMP/help")
    [ $rc = 0 ] && [ "$usage_lines" = 1 ] && grep -q '^  -h, --help' "$TMP/help" && [ ! -s "$TMP/err" ]
    ok $? "$c --help: exit 0, one usage line, lists -h/--help (rc $rc, $usage_lines usage lines)"
    # Option lines: "  -x, --name ARG" or "  --name ARG" in the Options section.
    awk '/^Options:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  -/ { print }' "$TMP/help" |
        sed -E 's/^  (-[A-Za-z0-9], )?--([a-z0-9-]+)( ([^ ]+))?.*/\2 \4/' > "$TMP/opts"
    bad=""
    n=0
    while read -r name arg; do
        [ "$name" = help ] && continue
        # --cpus names two CPUs of the mask: a one-CPU mask has no pair to give (31-host-cpu checks the refusal).
        [ "$name" = cpus ] && [ "${cpu_pair#*,}" = "$cpu_pair" ] && continue
        n=$((n + 1))
        if [ -n "$arg" ]; then
            set -- "--$name" "$(value_for "$name" "$arg")"
        else
            set -- "--$name"
        fi
        # Options are handled in order: reaching the unknown option means this one was taken.
        $PMUCAL "$c" "$@" --zz-not-an-option > /dev/null 2> "$TMP/err"
        rc=$?
        if [ $rc != 2 ] || ! grep -q "unknown option --zz-not-an-option" "$TMP/err"; then
            bad="$bad $* (rc $rc: $(head -c 120 "$TMP/err"))"
        fi
    done < "$TMP/opts"
    [ -z "$bad" ]
    ok $? "$c: each of its $n --help options is accepted${bad:+; not:$bad}"
    $PMUCAL "$c" --zz-not-an-option > /dev/null 2> "$TMP/err"
    rc=$?
    [ $rc = 2 ] && grep -q "pmucal: error: $c: unknown option --zz-not-an-option" "$TMP/err" && [ "$(wc -l < "$TMP/err")" = 1 ]
    ok $? "$c --zz-not-an-option: exit 2, one line: $(head -c 120 "$TMP/err")"
    $PMUCAL "$c" -Z > /dev/null 2> "$TMP/err"
    rc=$?
    [ $rc = 2 ] && grep -q "unknown option -Z" "$TMP/err"
    ok $? "$c -Z: exit 2 (got $rc: $(head -c 100 "$TMP/err"))"
done

# GNU habits: attached values, --opt=value, unique prefixes, '--', a value that looks like an option.
expect_err() { # expect_err STATUS PATTERN DESCRIPTION -- command...
    want=$1 pattern=$2 what=$3
    shift 4
    "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err"
    ok $? "$what: '$*' exits $want naming '$pattern' (got $got: $(head -c 140 "$TMP/err"))"
}
expect_err 2 "-r 0: give a whole number" "attached short value" -- $PMUCAL run walker -r0
expect_err 2 "-r 0: give a whole number" "--long=value" -- $PMUCAL run walker --repetitions=0
expect_err 2 "-r 0: give a whole number" "unique prefix of a long name" -- $PMUCAL run walker --rep 0
expect_err 2 "unknown event '--help'" "a value that looks like an option is a value" -- $PMUCAL run walker -e --help
expect_err 2 "unknown parameter '-e'" "after '--' everything is an operand" -- $PMUCAL run walker -- -e x
expect_err 2 "-r needs a value" "a missing value" -- $PMUCAL run walker -r
expect_err 2 "--json=yes takes no value" "a flag given a value" -- $PMUCAL info --json=yes
expect_err 2 "takes options only" "a stray operand" -- $PMUCAL validate walker
expect_err 2 "unknown option -r" "groups measures nothing: no -r" -- $PMUCAL groups -r 3 -e instructions
expect_err 2 "unknown option --json" "validate writes a folder: no --json" -- $PMUCAL validate --json
expect_err 2 "unknown option --label" "run writes no folder: no --label" -- $PMUCAL run walker --label x
expect_err 2 "--json goes with --list" "calibrate --json alone" -- $PMUCAL calibrate --json

LIBPFM_FORCE_PMU=skl $PMUCAL groups -einstructions,branches --pmu=skl --group-size=1 --names > "$TMP/out" 2> "$TMP/err"
is "$(tr '\n' ' ' < "$TMP/out")" "instructions branches " "groups -eLIST --pmu=skl --group-size=1 --names: one event a group"
$PMUCAL run --iters=64 -r3 -epage-faults walker size=L1 --json > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && jq -e '.iters == 64 and .repetitions == 3' "$TMP/out" > /dev/null 2>&1
ok $? "run with options before and after the kernel, attached values: exit $rc, iters 64 x 3 reps in the JSON"

# --json wherever a listing exists; it parses and has what the text has.
for c in "kernels" "quantities" "calibrate --list" "info" "events --pmu skl"; do
    $PMUCAL $c --json > "$TMP/json" 2> "$TMP/err"
    rc=$?
    $PMUCAL $c > "$TMP/text" 2> /dev/null
    case $c in
    info) jq -e 'type == "object" and has("cpu")' "$TMP/json" > /dev/null 2>&1 ;;
    *) [ "$(jq length "$TMP/json" 2> /dev/null)" -gt 0 ] &&
        jq -r '.[].name' "$TMP/json" | while read -r name; do grep -qF -- "$name" "$TMP/text" || exit 1; done ;;
    esac
    ok $? "$c --json: exit $rc, valid JSON, every name also in the text listing"
done
$PMUCAL kernels --json walker | jq -e 'length == 1 and .[0].name == "walker" and (.[0].params | length) > 0' > /dev/null
ok $? "kernels --json walker: one kernel with its parameters"
# Where a kernel lives: each names the source file that registers it, a file of this tree that
# holds the registration and the kernel's name, in the JSON and the text alike.
$PMUCAL kernels --json | jq -r '.[] | .name + " " + .file' > "$TMP/files"
bad=$(while read -r name file; do
    [ -f "$file" ] && grep -q 'PMUCAL_KERNEL(\|kernel_register(' "$file" && grep -qF "\"$name\"" "$file" &&
        $PMUCAL kernels "$name" | grep -qx "  defined in $file" || echo "$name:$file"
done < "$TMP/files")
[ "$(wc -l < "$TMP/files")" -gt 10 ] && [ -z "$bad" ]
ok $? "kernels names each kernel's source file ($(wc -l < "$TMP/files") kernels; wrong: '$bad')"
grep -qx 'walker microkernels/walker.c' "$TMP/files" && grep -qx 'branch generators/branch.c' "$TMP/files"
ok $? "walker is defined in microkernels/walker.c and branch in generators/branch.c: $(grep -E '^(walker|branch) ' "$TMP/files" | tr '\n' ';')"
# git's habit: "help CMD" is "CMD --help".
[ "$($PMUCAL help calibrate)" = "$($PMUCAL calibrate --help)" ] && [ -n "$($PMUCAL help calibrate)" ]
ok $? "pmucal help calibrate prints calibrate --help"
$PMUCAL help nope > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "help nope: unknown command" "$TMP/err"; ok $? "help of an unknown command exits 2: $(cat "$TMP/err")"
$PMUCAL run walker -e all,page-faults > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "'all' stands alone" "$TMP/err"; ok $? "-e all,page-faults: 'all' is named as the problem: $(cat "$TMP/err")"
# An old spelling is taken, with one note, and shown nowhere: calibrate's --runs is --passes.
$PMUCAL calibrate --runs 2 --runs 3 --list > /dev/null 2> "$TMP/err"; rc=$?
$PMUCAL calibrate --runs 0 > /dev/null 2> "$TMP/err0"; rc0=$?
[ $rc -eq 0 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q '^pmucal: calibrate: --runs is now --passes$' "$TMP/err" &&
    [ $rc0 -eq 2 ] && grep -q -- '--passes 0: give a whole number from 1 to 15' "$TMP/err0" &&
    $PMUCAL calibrate --help | grep -q -- '^  --passes N ' && ! $PMUCAL calibrate --help | grep -q -- '--runs' &&
    $PMUCAL --man | grep -qF '.B \-\-passes ' && ! $PMUCAL --man | grep -qF '.B \-\-runs '
ok $? "calibrate --runs is --passes with one note, in neither --help nor the man page (exit $rc, $rc0): $(cat "$TMP/err" "$TMP/err0" | tr '\n' ' ')"
# Progress: on a terminal only, so that a log of stdout and stderr together holds the TAP and the
# messages alone; PMUCAL_PROGRESS=1 writes it anywhere, 0 nowhere. Errors go to stderr always.
prog() { $PMUCAL validate --case 'walker size=4k' -e page-faults --label prog "$@"; }
env -u CI -u PMUCAL_PROGRESS $PMUCAL validate --case 'walker size=4k' -e page-faults --label prog > "$TMP/prog.tap" 2> "$TMP/log"
rc=$?
[ $rc -eq 0 ] && grep -q '^ok .*walker size=4k' "$TMP/prog.tap" && ! grep -q '\[1/1\]' "$TMP/log"
ok $? "validate with stderr to a file writes no progress line (exit $rc): $(head -c 200 "$TMP/log")"
PMUCAL_PROGRESS=1 prog > /dev/null 2> "$TMP/forced"
grep -qx 'pmucal: \[1/1\] walker size=4k' "$TMP/forced"
ok $? "PMUCAL_PROGRESS=1: a plain line per case in the file: $(head -c 200 "$TMP/forced")"
# A terminal (script(1)'s pty) for stderr alone: stdout still goes to a file.
if command -v script > /dev/null; then
    for v in unset 0; do
        if [ $v = unset ]; then set -- env -u PMUCAL_PROGRESS; else set -- env PMUCAL_PROGRESS=0; fi
        "$@" script -qec "$PMUCAL validate --case 'walker size=4k' -e page-faults --label prog > '$TMP/tty.tap'" /dev/null \
            < /dev/null > "$TMP/tty-$v" 2>&1
        echo $? > "$TMP/tty-$v.rc"
    done
    grep -q 'pmucal: \[1/1\] walker size=4k' "$TMP/tty-unset" && [ "$(cat "$TMP/tty-unset.rc")" = 0 ]
    ok $? "on a terminal the progress line is written (exit $(cat "$TMP/tty-unset.rc")): $(tr -d '\r\033' < "$TMP/tty-unset" | head -c 200)"
    ! grep -q '\[1/1\]' "$TMP/tty-0" && [ "$(cat "$TMP/tty-0.rc")" = 0 ]
    ok $? "on a terminal with PMUCAL_PROGRESS=0 none is (exit $(cat "$TMP/tty-0.rc")): $(tr -d '\r\033' < "$TMP/tty-0" | head -c 200)"
else
    skip "progress on a terminal" "no script(1) (util-linux) to give pmucal a terminal"
    skip "progress on a terminal with PMUCAL_PROGRESS=0" "no script(1) (util-linux) to give pmucal a terminal"
fi
PMUCAL_PROGRESS=yes prog > "$TMP/bad.out" 2> "$TMP/bad.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/bad.out" ] && grep -q '^pmucal: error: PMUCAL_PROGRESS=yes: give 1 .* or 0' "$TMP/bad.err"
ok $? "PMUCAL_PROGRESS=yes is refused, not ignored (exit $rc): $(cat "$TMP/bad.err")"
env -u PMUCAL_PROGRESS $PMUCAL validate --case 'walker size=nope' > /dev/null 2> "$TMP/err.log"
rc=$?
[ $rc -eq 2 ] && grep -q '^pmucal: error: .*size=nope' "$TMP/err.log"
ok $? "an error still goes to stderr in a file (exit $rc): $(head -c 200 "$TMP/err.log")"
done_testing
