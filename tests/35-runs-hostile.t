#!/bin/bash
# A run folder is untrusted input (issue 24): whoever made one controls every byte and name in it.
# One row a hostile folder or input: links at every file name pmucal writes, a manifest naming
# outside files, non-finite and huge numbers in each field, a folder that is a file, two
# resumers, an unusable environment input. Each row names the command, the exit status and the
# error it must give, and checks that no file outside the folder changed (every link points into
# $OUT, whose files and names are compared before and after). Software events only.
. "$(dirname "$0")/lib.sh"

OUT="$TMP/outside"
mkdir -p "$OUT/dir" && echo 'secret-line-of-an-outside-file' > "$OUT/file" && echo untouched > "$OUT/dir/kept"
mkfifo "$OUT/fifo"
# Every name under $OUT with its type, size, link count and modification time (one process: the
# rows are many, and a process start is slow on a busy VM).
outside_state() { find "$OUT" -printf '%p %y %s %n %T@\n'; }
outside_before=$(outside_state)

# The folders every row starts from (a copy each): two small validate cases, and a calibration
# with the latency curve and one recipe (tables/), both stopped, so --resume takes them.
run_dir() { ls -d "$PMUCAL_RESULTS"/*-"$1" 2> /dev/null | head -n 1; }
$PMUCAL validate --case 'walker size=16k' --case 'walker size=32k' --iters 10000 -r 3 -e page-faults --label v \
    > /dev/null 2> "$TMP/v.err"
$PMUCAL calibrate --recipe l1_hit --quick --points-per-octave 1 --label c > /dev/null 2> "$TMP/c.err"
V=$(run_dir v) C=$(run_dir c)
if [ ! -s "$V/cases.done" ] || [ ! -d "$C/tables" ] || [ ! -s "$C/curve.csv" ]; then
    echo "Bail out! the base runs failed: $(tail -n 2 "$TMP/v.err" "$TMP/c.err" | tr '\n' ' ')"
    exit 1
fi
set_json() { jq -c "$2" "$1" > "$TMP/j" && cat "$TMP/j" > "$1"; }   # set_json FILE JQ-FILTER
stopped() { set_json "$1/manifest.json" '.status="interrupted"'; }
stopped "$V" && stopped "$C"
# record1 D JQ: the first measurement record of D edited
record1() { head -n 1 "$1/measurements.ndjson" | jq -c "$2" > "$TMP/r" && tail -n +2 "$1/measurements.ndjson" >> "$TMP/r" &&
    cat "$TMP/r" > "$1/measurements.ndjson"; }
link() { rm -rf "${1:?}/$2" && ln -s "${3:-$OUT/file}" "$1/$2"; }

# row LINE BASE EXIT 'ERROR-ERE' 'SETUP' CMD...: a copy of BASE (v, c, or a file: f) as $d, SETUP
# run in it, then CMD (D stands for $d, B for an untouched copy of the validate run); the exit
# status must match EXIT (an ERE: a calibration's is 1 when a timed penalty came out unstable),
# stderr must match ERROR-ERE (nothing to match when empty), nothing outside may change.
n=0
row() {
    line=$1 base=$2 want=$3 ere=$4 setup=$5
    shift 5
    n=$((n + 1))
    d="$TMP/row$n" b="$TMP/base$n"
    case $base in
        v) cp -r "$V" "$d" ;;
        c) cp -r "$C" "$d" ;;
        f) echo 'not a folder' > "$d" ;;
    esac
    case " $* " in *" B "*) cp -r "$V" "$b" ;; esac
    (cd "$TMP" && eval "$setup")
    cmd=""
    for a in "$@"; do
        case $a in
            D) a=$d ;;
            B) a=$b ;;
        esac
        cmd="$cmd '$a'"
    done
    (eval "timeout 60 $cmd") > "$TMP/out" 2> "$TMP/err"
    rc=$?
    errs=$(< "$TMP/err") outs=$(< "$TMP/out")
    err=${errs//$'\n'/ }
    err=${err:0:300}
    why=""
    [[ $rc =~ ^($want)$ ]] || why="exit $rc, want $want;"
    [ -z "$ere" ] || [[ $errs =~ $ere ]] || why="$why stderr does not match /$ere/;"
    [[ $errs$outs == *secret-line* ]] && why="$why an outside file's text was printed;"
    [ "$(outside_state)" = "$outside_before" ] || why="$why a file outside the folder changed;"
    [ -z "$why" ]
    ok $? "line $line: $* -> exit $rc${why:+ ($why)}: ${err:-(no error)}"
    rm -rf "$d" "$b"
}

LINK='is a symbolic link|a symbolic link, where a regular file must be'
NUM='give a number from'
# --- links and special files at every name pmucal writes or reads ---
row $LINENO v 0 '' 'link $d validate.tap'                      $PMUCAL validate --resume D
row $LINENO v 2 "$LINK" 'link $d cases.done'                     $PMUCAL validate --resume D
row $LINENO v 0 '' 'rm $d/cases.done; ln $OUT/dir/kept $d/cases.done' $PMUCAL validate --resume D
row $LINENO v 2 'not a regular file|FIFO' 'rm $d/cases.done; mkfifo $d/cases.done' $PMUCAL validate --resume D
row $LINENO v 2 "$LINK" 'link $d measurements.ndjson'            $PMUCAL validate --resume D
row $LINENO v 2 "$LINK" 'link $d manifest.json'                  $PMUCAL validate --resume D
row $LINENO v 0 '' 'link $d .measurements.ndjson.tmp'           $PMUCAL validate --resume D
row $LINENO v 0 '' 'link $d report.html.tmp'                    $PMUCAL report --allow-incomplete D
row $LINENO v 0 '' 'link $d report.html'                        $PMUCAL report --allow-incomplete D
row $LINENO v 2 'cannot write' 'mkdir $d/report.html'          $PMUCAL report --allow-incomplete D
row $LINENO v 0 '' 'link $d compare.html.tmp; link $d compare.html' $PMUCAL report --allow-incomplete --compare B D
row $LINENO v 2 "$LINK" 'link $d manifest.json'                  $PMUCAL report D
row $LINENO v 2 'FIFO' 'rm $d/manifest.json; mkfifo $d/manifest.json' $PMUCAL report D
row $LINENO v 2 "$LINK" 'link $d measurements.ndjson'            $PMUCAL replay D
row $LINENO v 2 "$LINK" 'link $d measurements.ndjson'            $PMUCAL compare B D
row $LINENO v 2 "$LINK" 'link $d validate.tap'                   $PMUCAL report --allow-incomplete D
row $LINENO c 1 'symbolic link.*folder of its own' 'link $d tables $OUT/dir' $PMUCAL calibrate --resume D
row $LINENO c '0|1' '' 'link $d tables/penalties.h; link $d tables/metrics.json' $PMUCAL calibrate --resume D
row $LINENO c '0|1' '' 'for f in curve.csv curve.gp gnuplot.err curve.svg; do link $d $f; done' $PMUCAL calibrate --resume D
row $LINENO c '0|1' '' 'link $d penalties.json; link $d validate.tap' $PMUCAL calibrate --resume D
row $LINENO c 2 "$LINK" 'link $d penalties.json'                 $PMUCAL report --allow-incomplete D
row $LINENO c 2 "$LINK" 'link $d curve.csv'                      $PMUCAL report --allow-incomplete D
row $LINENO v 2 "$LINK" 'link $d c2c.csv'                        $PMUCAL report --allow-incomplete D
row $LINENO v 2 'FIFO' 'mkfifo $d/c2c.csv'                         $PMUCAL report --allow-incomplete D
row $LINENO c 2 "$LINK" 'link $d penalties.json'                 $PMUCAL emit --format csv --allow-incomplete D
row $LINENO c 2 'FIFO' 'rm $d/penalties.json; mkfifo $d/penalties.json' $PMUCAL emit --format csv --allow-incomplete D
row $LINENO c 2 "$LINK" 'link $d penalties.json'                 $PMUCAL cpi --allow-incomplete --case l1_hit D
row $LINENO c 2 "$LINK" 'link $d manifest.json'                  $PMUCAL emit --format csv --allow-incomplete D
# --- a manifest naming files outside the folder: none is opened ---
row $LINENO v 2 "-e '.*/outside/file' names a file, which is not read here" 'set_json $d/manifest.json ".command=[\"pmucal\",\"validate\",\"-e\",\"$OUT/file\"]"' $PMUCAL validate --resume D
row $LINENO v 2 "unknown event" 'set_json $d/manifest.json ".command=[\"pmucal\",\"validate\",\"-e\",\"file\"] | .cwd=\"$OUT\""' $PMUCAL validate --resume D
row $LINENO v 2 "keeps no copy" 'set_json $d/manifest.json ".command=[\"pmucal\",\"validate\",\"--expect\",\"$OUT/file\"]"' $PMUCAL validate --resume D
row $LINENO v 2 "vendor-json.*does not open" 'set_json $d/manifest.json ".command=[\"pmucal\",\"validate\",\"--vendor-json\",\"$OUT/file\"]"' $PMUCAL validate --resume D
row $LINENO v 2 "$LINK" 'echo page-faults > $d/list; set_json $d/manifest.json ".command=[\"pmucal\",\"validate\",\"-e\",\"list\"]"; link $d events.list' $PMUCAL validate --resume D
# --- a manifest holding code (issue 46): a resume runs none and reads no file a folder names ---
# The snippet jumps into a movabs immediate that holds creat("cnry") and exit_group: run in
# $OUT/dir, it would create $OUT/dir/cnry, which the outside check sees. Before the fix, the
# resume exited 0 and made the file.
EVIL=$(printf 'movq\t$0x79726e63,(%%rsi);test\t%%rax,%%rax;jnz\t1f+2;1:\tmovabs\t$0x9003eb050ff78948,%%rcx;movabs\t$0x90050f000000e7b8,%%rcx')
mkdir -p "$TMP/in" && printf '%s\n' "$EVIL" | tr ';' '\n' > "$TMP/in/evil.s"
as -o "$TMP/in/evil.o" "$TMP/in/evil.s" 2> /dev/null || : > "$TMP/in/evil.o"
add_case() { jq -c --arg c "$2" '.command += ["--case", $c]' "$1/manifest.json" > "$TMP/j" && cat "$TMP/j" > "$1/manifest.json"; }
# env -C runs pmucal in $OUT/dir: a relative $PMUCAL is made absolute first
case $PMUCAL in */*) IN_OUT="env -C $OUT/dir $(cd "$(dirname "$PMUCAL")" && pwd)/${PMUCAL##*/}" ;; *) IN_OUT="env -C $OUT/dir $PMUCAL" ;; esac
CODE="its case 'code .*' runs code, and a resume runs no code nor file a run folder names; hand the same snippet again"
row $LINENO v 2 "$CODE" 'add_case $d "code asm=$EVIL init=rax=85 chain=none"' $IN_OUT validate --resume D
row $LINENO v 2 "$CODE" 'add_case $d "code file=$TMP/in/evil.s init=rax=85 chain=none"' $IN_OUT validate --resume D
row $LINENO v 2 "$CODE" 'add_case $d "code object=$TMP/in/evil.o init=rax=85 chain=none"' $IN_OUT validate --resume D
# Handed again, yet the run recorded no digest of it (an edited manifest): still refused.
row $LINENO v 2 "code asm=.*': the run recorded no SHA-256 of its snippet" 'add_case $d "code asm=$EVIL init=rax=85 chain=none"' \
    $IN_OUT validate --resume D --case "code asm=$EVIL init=rax=85 chain=none"
row $LINENO v 2 "--case 'walker size=16k' is not a code case of the run" '' $PMUCAL validate --resume D --case 'walker size=16k'
# The manifest's --ktap is a path the folder names: not written ($OUT stays as it was).
row $LINENO v 0 '' 'set_json $d/manifest.json ".command += [\"--ktap\", \"$OUT/dir/k.tap\"]"' $PMUCAL validate --resume D
# A recorded --ktap whose folder is gone: the resume does not write it, so does not check it.
row $LINENO v 0 '' 'set_json $d/manifest.json ".command += [\"--ktap\", \"$TMP/gone/k.tap\"]"' $PMUCAL validate --resume D
# --- a damaged folder (issue 46): refused as damaged by every reader, naming file and line ---
complete() { set_json "$1/manifest.json" '.status="complete"'; }
DUP="measurements.ndjson:3: a second record of case 'walker size=16k' group 0 \(the first is line 1\): the folder is damaged"
FOREIGN="measurements.ndjson:3: a record of case 'triad', which the run's manifest does not list among its cases"
LOST="measurements.ndjson: the manifest says complete with measurements 2 where measurements.ndjson holds 1: the folder is damaged"
for c in 'replay D' 'compare B D' 'report D' 'export --ktap D' 'export --kcidb D'; do
    row $LINENO v 2 "$DUP" 'complete $d; head -n 1 $d/measurements.ndjson >> $d/measurements.ndjson' $PMUCAL $c
    row $LINENO v 2 "$FOREIGN" "complete \$d; head -n 1 \$d/measurements.ndjson | jq -c '.case=\"triad\"' >> \$d/measurements.ndjson" $PMUCAL $c
    row $LINENO v 2 "$LOST" 'complete $d; sed -i "\$d" $d/measurements.ndjson' $PMUCAL $c
done
row $LINENO v 2 "$DUP" 'head -n 1 $d/measurements.ndjson >> $d/measurements.ndjson' $PMUCAL validate --resume D
# A string group: refused by name (it once printed the duplicate message's group from unset bytes).
GROUP="measurements.ndjson:1: a record of case 'walker size=16k' whose group is not a number: the folder is damaged"
row $LINENO v 2 "$GROUP" "complete \$d; record1 \$d '.group=\"AAAA\"'" $PMUCAL replay D
row $LINENO v 2 "$GROUP" "record1 \$d '.group=\"AAAA\"'" $PMUCAL validate --resume D
row $LINENO v 2 "cases_done 1 where its cases are 2: the folder is damaged" 'complete $d; set_json $d/manifest.json ".cases_done=1"' $PMUCAL replay D
# 1e999 is no number (JSON has no infinity): refused with the file, line and key.
for k in raw tsc_hz repetitions; do
    case $k in
        raw) ed='s/"raw":\[\[[0-9]*/"raw":[[1e999/' ;;
        tsc_hz) ed='s/"tsc_hz":[0-9.e+]*/"tsc_hz":1e999/' ;;
        repetitions) ed='s/"repetitions":3/"repetitions":1e999/' ;;
    esac
    for c in 'replay D' 'compare B D' 'report --allow-incomplete D' 'validate --resume D'; do
        row $LINENO v 2 "measurements.ndjson:1.*line 1 column [0-9]+: \"$k\": 1e999 is beyond the range of a number" "sed -i '1$ed' \$d/measurements.ndjson" $PMUCAL $c
    done
done
for c in 'replay D' 'compare B D' 'report --allow-incomplete D' 'validate --resume D' 'export --ktap D'; do
    row $LINENO v 2 'manifest.json: line 1 column [0-9]+: "repetitions": 1e999 is beyond the range of a number' \
        "sed -i 's/\"repetitions\":3/\"repetitions\":1e999/' \$d/manifest.json" $PMUCAL $c
done
# Two runs with no case in common: nothing to compare, never 'same settings' over 0 points.
for c in 'compare --allow-incomplete' 'report --allow-incomplete --compare'; do
    row $LINENO v 2 'have no \(case, event\) measured in both \(2 in BASE only, 2 in NEW only\): there is nothing to compare' \
        "jq -c '.case += \" seed=9\"' \$d/measurements.ndjson > \$d/m && mv \$d/m \$d/measurements.ndjson; set_json \$d/manifest.json '.case_labels |= map(. + \" seed=9\")'" \
        $PMUCAL $c B D
done
# --- numbers: non-finite, huge, negative, in each field a reader converts ---
for f in 'iters=1e300' 'iters=-1' 'iters=0.5e-300' 'repetitions=-3' 'repetitions=1e300' 'time_enabled=-1' \
    'time_running=1e300' 'cycles.clock_redone=1e300' 'noise.redone=-5' 'events[0].attr.config=1e300' \
    'events[0].attr.type=-1' 'events[0].attr.config2=18446744073709551616' 'cycles.windows.count=1e300' \
    'cycles.windows.iters=-1' 'cycles.windows.clock_split=-5' 'cycles.windows.load_whole=-5' \
    'cycles.windows.load_median=1e300' 'cycles.windows.front_fastest=-5' 'cycles.windows.front_fastest=0' \
    'cycles.windows.front_median=1e300'; do
    key=${f%%=*} val=${f#*=}
    row $LINENO v 2 "measurements.ndjson:1: .*${key##*.}.* $NUM" "record1 \$d '.$key=$val'" $PMUCAL replay D
    # compare reads records through the same reader: a field of each kind is enough there.
    case $f in iters=1e300|repetitions=-3|events*config=1e300)
        row $LINENO v 2 "measurements.ndjson:1: .*${key##*.}.* $NUM" "record1 \$d '.$key=$val'" $PMUCAL compare B D ;;
    esac
done
row $LINENO v 2 "measurements.ndjson:1 .*iters.* $NUM" "record1 \$d '.iters=1e300'" $PMUCAL validate --resume D
# --- a stored verdict that is none pmucal writes: compare would rank it, replay set it against today's ---
VKIND="measurements.ndjson:1: event 1: verdict.kind 'passed' is none of ok, not ok, skip, todo, info"
row $LINENO v 2 "$VKIND" "record1 \$d '.events[0].verdict.kind=\"passed\"'" $PMUCAL replay D
row $LINENO v 2 "$VKIND" "record1 \$d '.events[0].verdict.kind=\"passed\"'" $PMUCAL compare B D
row $LINENO v 2 "verdict.kind '\(missing\)'" "record1 \$d '.events[0].verdict.kind=null'" $PMUCAL replay D
# The source's floor and slack are every later verdict's tolerance: checked when the manifest is read.
# An older folder's source_slack_per_run is checked as today's key is.
for f in 'source_slack_per_loop=1e300' 'source_slack_per_loop=-1' 'source_exact_floor=1e300' 'source_slack_per_run=-5'; do
    row $LINENO v 2 "manifest.json: .*${f%%=*}.* $NUM" "set_json \$d/manifest.json 'del(.source_slack_per_loop) | .${f%%=*}=${f#*=}'" $PMUCAL replay D
    row $LINENO v 2 "manifest.json: .*${f%%=*}.* $NUM" "set_json \$d/manifest.json 'del(.source_slack_per_loop) | .${f%%=*}=${f#*=}'" $PMUCAL compare B D
done
row $LINENO v 2 "resumed\[0\]: .*cases_kept.* $NUM" 'set_json $d/manifest.json ".resumed=[{\"at\":\"x\",\"cases_kept\":1e300}]"' $PMUCAL validate --resume D
row $LINENO v 2 "classify.json: .*cases.* (is not a number|$NUM)" 'echo "{\"cases\":\"x\"}" > $d/classify.json' $PMUCAL report --allow-incomplete D
row $LINENO v 2 "classify.json: .*cases.* $NUM" 'echo "{\"cases\":1e300}" > $d/classify.json' $PMUCAL report --allow-incomplete D
for v in nan inf -inf 1e300 -5; do
    row $LINENO c 2 "curve.csv:2: .*cycles_per_load is .* $NUM" "sed -i '2s/^\([^,]*\),[^,]*/\1,$v/' \$d/curve.csv" $PMUCAL report --allow-incomplete D
done
row $LINENO c 2 "curve.csv:2: .*bytes is -5; $NUM" "sed -i '2s/^[^,]*/-5/' \$d/curve.csv" $PMUCAL report --allow-incomplete D
row $LINENO v 2 "c2c.csv:2: .*from_cpu is nan; $NUM" 'printf "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions\nnan,1,smt,1,1,1,1,1\n" > $d/c2c.csv' $PMUCAL report --allow-incomplete D
row $LINENO v 2 "c2c.csv:2: corrupt run folder: the CPUs and repetitions are whole numbers, not 0.7, 1, 1" 'printf "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions\n0.7,1,smt,1,1,1,1,1\n" > $d/c2c.csv' $PMUCAL report --allow-incomplete D
row $LINENO v 2 "a line of [0-9]+ bytes; a measurement record is at most 1 MiB" "head -c 1100000 /dev/zero | tr '\\\\0' ' ' > \$d/measurements.ndjson; echo >> \$d/measurements.ndjson" $PMUCAL replay D
# --- a run folder that is a file, or of a command the reader does not read ---
row $LINENO f 2 'not a run folder|not a folder|Not a directory' ''  $PMUCAL report D
row $LINENO f 2 'Not a directory|not a' ''                        $PMUCAL replay D
row $LINENO f 2 'Not a directory|not a' ''                        $PMUCAL compare B D
row $LINENO f 2 'Not a directory|not a' ''                        $PMUCAL validate --resume D
row $LINENO f 2 'Not a directory|not a' ''                        $PMUCAL calibrate --resume D
row $LINENO v 2 "made by 'pmucal c2c'" 'set_json $d/manifest.json ".command=[\"pmucal\",\"c2c\"]"' $PMUCAL replay D
row $LINENO v 2 "names no command" 'set_json $d/manifest.json "del(.command)"' $PMUCAL compare B D
row $LINENO v 2 "made by 'pmucal c2c'" 'set_json $d/manifest.json ".command=[\"pmucal\",\"c2c\"]"' $PMUCAL classify --allow-incomplete D
row $LINENO v 2 "names no command" 'set_json $d/manifest.json "del(.command)"' $PMUCAL classify --allow-incomplete D
row $LINENO c 2 "made by 'pmucal c2c'" 'set_json $d/manifest.json ".command=[\"pmucal\",\"c2c\"]"' $PMUCAL cpi --allow-incomplete --case l1_hit D
row $LINENO c 2 "made by 'pmucal info'" 'set_json $d/manifest.json ".command=[\"pmucal\",\"info\"]"' $PMUCAL cpi --allow-incomplete --case l1_hit D
# --- two processes: the folder's lock names its holder ---
row $LINENO v 2 'in use by process [0-9]+ \(flock' '(flock -x $d sleep 5 &) ; sleep 0.3' $PMUCAL validate --resume D
# --- environment inputs: an unusable file is an error, never this machine instead ---
row $LINENO v 2 'HWLOC_XMLFILE=.*an empty file' ': > $OUT/../empty.xml' env HWLOC_XMLFILE="$TMP/empty.xml" $PMUCAL info
row $LINENO v 2 'HWLOC_XMLFILE=.*No such file' '' env HWLOC_XMLFILE="$TMP/missing.xml" $PMUCAL info
row $LINENO v 2 'HWLOC_XMLFILE=/dev/zero: .*a device' '' env HWLOC_XMLFILE=/dev/zero $PMUCAL info
row $LINENO v 2 'HWLOC_XMLFILE=.*FIFO' '' env HWLOC_XMLFILE="$OUT/fifo" $PMUCAL info
row $LINENO v 2 'PMUCAL_CURVE_FILE=.*:2: .*cycles is 0; '"$NUM" 'printf "bytes,cycles,ns\n4096,0,1\n8192,4,1\n16384,4,1\n65536,12,3\n" > $TMP/c0.csv' \
    env PMUCAL_GEOMETRY=auto PMUCAL_CURVE_FILE="$TMP/c0.csv" HWLOC_XMLFILE="$PWD/tests/hosts/zen5-vm/hwloc.xml" $PMUCAL info
row $LINENO v 2 'PMUCAL_CURVE_FILE=.*:2: .*cycles is inf' 'printf "bytes,cycles,ns\n4096,inf,1\n8192,4,1\n16384,4,1\n65536,12,3\n" > $TMP/ci.csv' \
    env PMUCAL_GEOMETRY=auto PMUCAL_CURVE_FILE="$TMP/ci.csv" HWLOC_XMLFILE="$PWD/tests/hosts/zen5-vm/hwloc.xml" $PMUCAL info
row $LINENO v 2 'PMUCAL_CURVE_FILE=.*:2: bytes is -5' 'printf "bytes,cycles,ns\n-5,4,1\n8192,4,1\n16384,4,1\n65536,12,3\n" > $TMP/cn.csv' \
    env PMUCAL_GEOMETRY=auto PMUCAL_CURVE_FILE="$TMP/cn.csv" HWLOC_XMLFILE="$PWD/tests/hosts/zen5-vm/hwloc.xml" $PMUCAL info
row $LINENO v 2 'Counter "Fixed counter 99999999999" names no fixed counter' \
    'echo "[{\"EventName\":\"X\",\"EventCode\":\"0x3c\",\"Counter\":\"Fixed counter 99999999999\"}]" > $TMP/vt.json' \
    $PMUCAL events --vendor-json "$TMP/vt.json"

# --- the text formats (issue 39, docs/grammar.md): each input outside its grammar refused by file, line and field ---
row $LINENO v 2 'vendor-json .*/empty: no core events found in 0 JSON file' 'mkdir -p $TMP/empty' $PMUCAL events --vendor-json "$TMP/empty"
row $LINENO v 2 'div0.txt:1: division by a constant 0' 'echo "page-faults pf.minor/0 exact" > $TMP/div0.txt' \
    $PMUCAL validate --case 'walker size=16k' --iters 10000 -r 3 -e page-faults --expect "$TMP/div0.txt"
row $LINENO v 1 'skl.txt:1: division by a constant 0' 'mkdir -p $TMP/x; echo "page-faults (pf.minor+1)/(2-2) exact" > $TMP/x/skl.txt' \
    $PMUCAL expect check "$TMP/x/skl.txt"
row $LINENO v 2 "unk.txt:1: the rule's event no_such_event is unknown to the perf source" 'echo "no_such_event pf.minor exact" > $TMP/unk.txt' \
    $PMUCAL validate --case 'walker size=16k' --iters 10000 -r 3 -e page-faults --expect "$TMP/unk.txt"
row $LINENO v 0 "other.txt:1: the rule for instructions applies to no event of this run" 'echo "instructions inst exact" > $TMP/other.txt' \
    $PMUCAL validate --case 'walker size=16k' --iters 10000 -r 3 -e page-faults --expect "$TMP/other.txt"
row $LINENO v 2 'dup.txt:2: a second rule for (page-faults|PAGE-FAULTS) \(the first is at .*dup.txt:1\)' 'printf "page-faults pf.minor exact\nPAGE-FAULTS 0 exact\n" > $TMP/dup.txt' \
    $PMUCAL validate --case 'walker size=16k' --iters 10000 -r 3 -e page-faults --expect "$TMP/dup.txt"
row $LINENO v 2 'dup.list:3: cycles is listed already \(.*dup.list:1\)' 'printf "cycles\n# again\ncycles\n" > $TMP/dup.list' $PMUCAL groups -e "$TMP/dup.list"
row $LINENO v 2 '-e: cycles is listed already' '' $PMUCAL groups -e cycles,instructions,cycles
row $LINENO v 0 '' '' $PMUCAL groups -e '{cycles,instructions},{cycles,branches}'
row $LINENO v 2 "vt.json: event X: Counter \"0,1,2,3,99,-5,abc\" has '99' where a counter number 0..31" \
    'echo "[{\"EventName\":\"X\",\"EventCode\":\"0x3c\",\"Counter\":\"0,1,2,3,99,-5,abc\"}]" > $TMP/vt.json' $PMUCAL events --vendor-json "$TMP/vt.json"
row $LINENO v 2 'vt.json: event X: Counter "0,1,1" lists counter 1 twice' \
    'echo "[{\"EventName\":\"X\",\"EventCode\":\"0x3c\",\"Counter\":\"0,1,1\"}]" > $TMP/vt.json' $PMUCAL events --vendor-json "$TMP/vt.json"
row $LINENO v 2 'dup.json: event a is in the table twice' \
    'echo "[{\"EventName\":\"A\",\"EventCode\":\"1\"},{\"EventName\":\"a\",\"EventCode\":\"2\"}]" > $TMP/dup.json' $PMUCAL events --vendor-json "$TMP/dup.json"
row $LINENO v 2 'nul.json: line 1 column [0-9]+: \\u0000 \(a NUL character\) inside a string' \
    'echo "[{\"EventName\":\"a\\u0000b\",\"EventCode\":\"0x3c\",\"Counter\":\"0,1\"}]" > $TMP/nul.json' $PMUCAL events --vendor-json "$TMP/nul.json"
row $LINENO v 2 'walker: block=0 is outside its domain 1\.\.4096; give a value in it \(default 16\)' '' $PMUCAL run walker size=16k order=block block=0 -e page-faults -r 1 --iters 1000
row $LINENO v 2 'walker: parameter size is given twice' '' $PMUCAL run walker size=16k size=32k -e page-faults -r 1 --iters 1000
row $LINENO v 2 "c2c: --size L3: the segment must stay in the writer's private caches" '' $PMUCAL c2c --cpus 0,1 --size L3 -r 1
row $LINENO v 2 "NEW .* by 'pmucal calibrate': compare takes two runs of one kind" 'rm -rf $d; cp -r $C $d' $PMUCAL compare --allow-incomplete B D
row $LINENO v 2 "by 'pmucal calibrate': compare takes two runs of one kind" 'rm -rf $d; cp -r $C $d' $PMUCAL report --allow-incomplete --compare B D
row $LINENO v 2 'LIBPFM_FORCE_PMU=bogus: libpfm4 has no PMU by that name' '' env LIBPFM_FORCE_PMU=bogus $PMUCAL info
row $LINENO v 2 'LIBPFM_FORCE_PMU=a{64}\.\.\.: not a libpfm4 PMU name' '' env LIBPFM_FORCE_PMU="$(printf 'a%.0s' $(seq 100000))" $PMUCAL info
row $LINENO v 2 "-e: 'cpu/event=0x29': an unclosed '/'" '' $PMUCAL groups -e cpu/event=0x29
row $LINENO v 2 "raw event 'r1ffffffffffffffffffff': the code .* is more than 64 bits" '' $PMUCAL groups -e r1ffffffffffffffffffff
row $LINENO v 2 "'page-faults:uk:u:k:u': modifier 'u' is given twice" '' $PMUCAL groups -e page-faults:uk:u:k:u
row $LINENO v 1 "skl.txt:1: number '4' runs into 'Ki': a rule's numbers are plain decimals" 'mkdir -p $TMP/x; echo "page-faults 4Ki/page exact" > $TMP/x/skl.txt' \
    $PMUCAL expect check "$TMP/x/skl.txt"
row $LINENO v 2 "cannot read perf stat CSV .* /dev/zero: a device" '' $PMUCAL cpi /dev/zero

# Two resumers started together: one measures, the other is refused (in use, or nothing left).
d="$TMP/two" && cp -r "$V" "$d" && rm "$d/cases.done" && : > "$d/measurements.ndjson"
$PMUCAL validate --resume "$d" > /dev/null 2> "$TMP/e1" & p1=$!
$PMUCAL validate --resume "$d" > /dev/null 2> "$TMP/e2" & p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
lines=$(wc -l < "$d/cases.done")
[ "$(printf '%s\n' $r1 $r2 | sort | tr '\n' ' ')" = "0 2 " ] && [ "$lines" = 2 ] &&
    cat "$TMP/e1" "$TMP/e2" | grep -Eq 'in use by process|complete: nothing to resume|resumed it while'
ok $? "line $LINENO: two validate --resume at once: exits $r1 and $r2, cases.done $lines lines for 2 cases: $(cat "$TMP/e1" "$TMP/e2" | grep error | head -c 200)"

# A folder replaced by a link while it is written: the process keeps writing into the folder it
# made (held open from its making), never into the link's target.
rm -rf "$TMP/swap" && mkdir -p "$TMP/swap/out" "$TMP/swap/elsewhere"
# (branch's ten cases: a few seconds, long enough to be caught between cases; the walker's matrix
# took minutes beside another job)
PMUCAL_RESULTS="$TMP/swap/out" $PMUCAL validate --label swap --kernel branch -e task-clock > /dev/null 2> "$TMP/swap.err" & p=$!
run=""
for _i in $(seq 1 600); do
    run=$(ls -d "$TMP/swap/out"/*-swap 2> /dev/null | head -n 1)
    [ -n "$run" ] && [ -s "$run/cases.done" ] && break
    sleep 0.05
done
[ -n "$run" ] && mv "$run" "$run.real" && ln -s "$TMP/swap/elsewhere" "$run"
wait $p; rc=$?
n=$(grep -c . "$run.real/cases.done" 2> /dev/null)
points=$(grep -Ec '^(not )?ok [0-9]+ |^# info ' "$run.real/validate.tap" 2> /dev/null)
[ -n "$run" ] && [ -z "$(ls -A "$TMP/swap/elsewhere")" ] && jq -e '.status == "complete"' "$run.real/manifest.json" > /dev/null &&
    [ "$n" -ge 2 ] && [ "$points" -ge "$n" ] && [ $rc -le 1 ] && tail -n 1 "$run.real/validate.tap" | grep -q '^1\.\.'
ok $? "line $LINENO: a run folder replaced by a link mid-run: nothing written through it ($(ls -A "$TMP/swap/elsewhere" | tr '\n' ' ')), the moved folder complete with $n cases done, $points verdict and info lines in its validate.tap, exit $rc: $(head -c 200 "$TMP/swap.err")"
done_testing
