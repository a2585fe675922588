#!/bin/sh
# An output never overwrites an input (docs/run-folders.md): a file an output option names (-o,
# --out, --output, --html, --ktap, --svg, --asm, --bin) inside an existing run folder, or the same
# file (device and inode, through links) as a file the command line names, is refused before the
# command reads or measures anything: exit 2, one message naming the option, the path and what to
# do, and every byte of the inputs as it was. Each of issue 46's data losses is a row here; each
# exited 0 and destroyed its input before.
. "$(dirname "$0")/lib.sh"

# Run folders to aim at: copies of a shipped reference run (validate, perf: a manifest, records and
# a validate.tap), so that nothing is measured to make them.
ref=results/reference/zen5-vm-validate-perf
RUN="$TMP/run" BASE="$TMP/base" OTHER="$TMP/other"
for d in "$RUN" "$BASE" "$OTHER"; do cp -r "$ref" "$d"; done
printf '# one snippet\nadd %%rax,%%rax\n' > "$TMP/T.txt"
printf 'add %%rax,%%rax\n' > "$TMP/walk.s"
mkdir "$TMP/dir"
ln -s "$RUN/manifest.json" "$TMP/to-manifest"    # a link whose target lies in a run folder
ln -s "$RUN" "$TMP/run-link"                     # a link to the run folder itself
ln -s "$TMP/T.txt" "$TMP/to-T"                   # a link to an input
ln "$TMP/T.txt" "$TMP/T-hard"                    # a second name of an input
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => $ARGV[0], Listen => 1) or die' "$TMP/sock"

# The bytes of every file of the inputs, before and after each row.
sums() { find "$RUN" "$BASE" "$OTHER" "$TMP/T.txt" "$TMP/walk.s" -type f | sort | xargs sha256sum | sha256sum; }
before=$(sums)
# row WANT DESCRIPTION -- COMMAND...: COMMAND exits 2 with WANT in its one message, writes no run
# folder (it measured nothing) and leaves every input byte-identical.
row() {
    want=$1 what=$2
    shift 3
    "$@" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    after=$(sums)
    [ $rc -eq 2 ] && grep -q -F -- "$want" "$TMP/err" && [ "$(grep -c . "$TMP/err")" -eq 1 ] &&
        [ "$after" = "$before" ] && [ ! -e "$PMUCAL_RESULTS" ]
    ok $? "$what: exit $rc, inputs $([ "$after" = "$before" ] && echo intact || echo CHANGED): $(head -c 400 "$TMP/err")"
}
INSIDE="inside the run folder $(cd "$RUN" && pwd -P) (it holds manifest.json), whose files only the command that measures it writes"

# The six data losses of issue 46.
row "--output $RUN/manifest.json: $INSIDE" "export --kcidb -o RUN/manifest.json RUN" -- \
    $PMUCAL export --kcidb -o "$RUN/manifest.json" "$RUN"
row "--out $RUN/manifest.json: $INSIDE" "report RUN --out RUN/manifest.json" -- \
    $PMUCAL report "$RUN" --out "$RUN/manifest.json"
row "--html $RUN/measurements.ndjson: $INSIDE" "compare BASE RUN --html RUN/measurements.ndjson" -- \
    $PMUCAL compare "$BASE" "$RUN" --html "$RUN/measurements.ndjson"
row "--ktap $OTHER/validate.tap: inside the run folder $(cd "$OTHER" && pwd -P)" \
    "validate --ktap OTHER_RUN/validate.tap (a run folder the command does not read)" -- \
    $PMUCAL validate --case 'walker size=4k' -e page-faults -r 1 --ktap "$OTHER/validate.tap"
row "--output $OTHER/manifest.json: inside the run folder" "code T.txt --output OTHER_RUN/manifest.json" -- \
    $PMUCAL code "$TMP/T.txt" --output "$OTHER/manifest.json"
row "--output $TMP/T.txt: the same file as '$TMP/T.txt' on the command line" "code T.txt --output T.txt" -- \
    $PMUCAL code "$TMP/T.txt" --output "$TMP/T.txt"

# The same through other spellings and other names of the same file.
row "--output ./T.txt: the same file as 'T.txt'" "code T.txt --output=./T.txt (relative, --opt=VALUE)" -- \
    sh -c 'cd "$1" && exec "$2" code T.txt --output=./T.txt' sh "$TMP" "$(cd "$(dirname "$PMUCAL")" && pwd)/$(basename "$PMUCAL")"
row "the same file as '$TMP/T.txt'" "code T.txt --output LINK, a symbolic link to T.txt" -- \
    $PMUCAL code "$TMP/T.txt" --output "$TMP/to-T"
row "the same file as '$TMP/T.txt'" "code T.txt --output HARDLINK, a second name of T.txt" -- \
    $PMUCAL code "$TMP/T.txt" --output "$TMP/T-hard"
row "--ktap $TMP/walk.s: the same file as '$TMP/walk.s'" "validate --case 'code file=S' --ktap S (a path inside a case)" -- \
    $PMUCAL validate --case "code file=$TMP/walk.s" -e page-faults -r 1 --ktap "$TMP/walk.s"
row "a link to $(cd "$RUN" && pwd -P)/manifest.json, inside the run folder" "export -o LINK, a link into a run folder" -- \
    $PMUCAL export --ktap -o "$TMP/to-manifest" "$RUN"
row "$INSIDE" "export -o RUNLINK/validate.tap, through a link to the run folder" -- \
    $PMUCAL export --ktap -o "$TMP/run-link/validate.tap" "$BASE"
row "$INSIDE" "export -o RUN/../run/validate.tap" -- \
    $PMUCAL export --ktap -o "$RUN/../run/validate.tap" "$BASE"
mkdir "$RUN/sub"
row "$INSIDE" "cpi --svg RUN/sub/x.svg (a subfolder of a run folder)" -- \
    $PMUCAL cpi --case mixwalk --svg "$RUN/sub/x.svg" results/reference/zen5-vm-calibrate
rmdir "$RUN/sub"
row "--asm $OTHER/validate.tap: inside the run folder" "gen branch --asm OTHER_RUN/validate.tap" -- \
    $PMUCAL gen branch --asm "$OTHER/validate.tap"
row "--output $RUN/validate.tap: inside the run folder" "emit -o RUN/validate.tap" -- \
    $PMUCAL emit --format c -o "$RUN/validate.tap" results/reference/zen5-vm-calibrate
row "--out $RUN/new: $INSIDE; a new run folder goes outside any other" "validate --out RUN/new (a run folder made inside another)" -- \
    $PMUCAL validate --case 'walker size=4k' -e page-faults -r 1 --out "$RUN/new"

# A run folder is told by its manifest, as every reader tells one: a damaged one is still a run,
# another program's manifest.json (a web app's) is not.
mkdir "$TMP/damaged" "$TMP/site"
printf '{"status": "complete", "comm' > "$TMP/damaged/manifest.json"
printf '{"name": "my site", "start_url": "/"}\n' > "$TMP/site/manifest.json"
row "--output $TMP/damaged/x.ktap: inside the run folder $(cd "$TMP/damaged" && pwd -P) (it holds manifest.json)" \
    "export -o DAMAGED_RUN/x (its manifest.json cut short)" -- $PMUCAL export --ktap -o "$TMP/damaged/x.ktap" "$RUN"
$PMUCAL export --ktap -o "$TMP/site/x.ktap" "$RUN" 2> "$TMP/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^KTAP version 1' "$TMP/site/x.ktap"
ok $? "export -o into a folder whose manifest.json is not a pmucal run's writes it (exit $rc): $(head -c 300 "$TMP/err")"

# An input the command line does not name, read while the command runs (the rule file the sim
# source loads by itself), is refused when the output is written: the run is kept, the rule
# file is not replaced.
if sim_usable; then
    mkdir "$TMP/expect" && cp validate/expect/sim.txt "$TMP/expect/"
    rules=$(sha256sum < "$TMP/expect/sim.txt")
    PMUCAL_EXPECT_DIR="$TMP/expect" PMUCAL_RESULTS="$TMP/sim-results" $PMUCAL validate --source sim \
        --case 'walker size=4k' -e sim::Ir -r 1 --ktap "$TMP/expect/sim.txt" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    want="error: cannot write $TMP/expect/sim.txt: this command read it as an input, and an output never replaces one"
    [ $rc -eq 2 ] && grep -q -F "$want" "$TMP/err" && [ "$(sha256sum < "$TMP/expect/sim.txt")" = "$rules" ] &&
        grep -q '^ok 1 ' "$TMP"/sim-results/*/validate.tap
    ok $? "validate --ktap onto the rule file it loaded by itself: exit $rc, the rules intact, the run kept: $(grep error "$TMP/err" | head -c 300)"
else
    sim_skip_or_fail "validate --ktap onto the rule file it loaded by itself"
fi

# Outputs of the wrong kind, refused by kind as the readers refuse inputs.
row "--output $TMP/dir: a folder, not a regular file; name a file in it" "export -o FOLDER" -- \
    $PMUCAL export --ktap -o "$TMP/dir" "$RUN"
row "--output $TMP/sock: a socket, not a regular file" "export -o SOCKET" -- \
    $PMUCAL export --ktap -o "$TMP/sock" "$RUN"
blk=$(find /dev -maxdepth 1 -type b 2> /dev/null | head -n 1)
if [ -n "$blk" ]; then
    row "--output $blk: a block device, not a regular file" "export -o a block device ($blk)" -- \
        $PMUCAL export --ktap -o "$blk" "$RUN"
else
    skip "export -o a block device" "this machine has no block device under /dev"
fi
row "no folder $TMP/none to write it in (No such file or directory); make it first" "export -o NOFOLDER/x" -- \
    $PMUCAL export --ktap -o "$TMP/none/x.ktap" "$RUN"

# What stays allowed: a new file outside every run folder, /dev/null (written in place, a device
# still), report's own default page inside the run it shows, stdout.
$PMUCAL export --ktap -o "$TMP/run.ktap" "$RUN" 2> "$TMP/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^KTAP version 1' "$TMP/run.ktap" && [ "$(sums)" = "$before" ]
ok $? "export -o FILE outside the run folder writes it (exit $rc): $(head -c 300 "$TMP/err")"
$PMUCAL export --ktap -o /dev/null "$RUN" 2> "$TMP/err"
rc=$?
[ $rc -eq 0 ] && [ -c /dev/null ]
ok $? "export -o /dev/null writes through the device (exit $rc): $(head -c 300 "$TMP/err")"
$PMUCAL report "$RUN" --allow-incomplete > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc -eq 0 ] && [ -s "$RUN/report.html" ] && [ "$(cat "$TMP/out")" = "$RUN/report.html" ]
ok $? "report RUN still writes its own default page RUN/report.html (exit $rc): $(head -c 300 "$TMP/err")"
rm -f "$RUN/report.html"
[ "$(sums)" = "$before" ]
ok $? "and nothing else of the run changed"
# report's page goes through the same writer as every named output: a FIFO (standing in for
# /dev/null, which a page renamed over replaced when pmucal ran as root) is written through.
mkfifo "$TMP/fifo"
timeout 20 cat "$TMP/fifo" > "$TMP/fifo.html" &   # never waits for ever on a writer that does not come
reader=$!
$PMUCAL report "$RUN" --out "$TMP/fifo" > /dev/null 2> "$TMP/err"
rc=$?
wait $reader
[ $rc -eq 0 ] && [ -p "$TMP/fifo" ] && grep -q '^<!DOCTYPE html>' "$TMP/fifo.html"
ok $? "report --out FIFO writes the page through it and leaves it a FIFO (exit $rc): $(head -c 300 "$TMP/err")"
$PMUCAL export --ktap -o - "$RUN" > "$TMP/stdout.ktap" 2> "$TMP/err"
rc=$?
[ $rc -eq 0 ] && cmp -s "$TMP/stdout.ktap" "$TMP/run.ktap"
ok $? "export -o - writes the same to stdout (exit $rc): $(head -c 300 "$TMP/err")"
done_testing
