#!/bin/sh
# pmucal report: one offline HTML page per run. On the synthetic run folders in tests/report/
# (validate with hostile event and case names, calibrate, c2c) and on a real quick validate run:
# the page is well-formed, holds every section (an absent one says so), escapes what the run
# folder holds, refuses corrupt folders; then headless Chromium renders it (DOM checked, JS ran,
# a screenshot taken) where chromium is installed.
. "$(dirname "$0")/lib.sh"

FX=tests/report
out="$TMP/pages"
mkdir -p "$out"

# Well-formed: tags nest and close (void elements aside), no stray '<' or bare '&' in text.
wellformed() {
    perl -0777 -ne '
        s{<(script|style)>.*?</\1>}{}gs;
        s{^<!DOCTYPE html>}{};
        my %void = map { $_ => 1 } qw(meta input br img hr link);
        my @stack; my $bad = "";
        while (/<(\/?)([a-zA-Z][\w:-]*)((?:[^>"]|"[^"]*")*)>|(<)|(&(?![a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#x[0-9a-fA-F]+;))/g) {
            if (defined $4) { $bad = "a raw < in text"; last }
            if (defined $5) { $bad = "a bare & in text"; last }
            my ($close, $tag, $attr) = ($1, lc $2, $3);
            next if $void{$tag} || $attr =~ m{/\s*$};
            if ($close) {
                my $top = pop @stack;
                if (!defined $top || $top ne $tag) { $bad = "</$tag> closes <" . ($top // "nothing") . ">"; last }
            } else { push @stack, $tag }
        }
        $bad ||= "unclosed <$stack[-1]>" if @stack > 1 || (@stack == 1 && $stack[0] ne "html");
        print $bad;' "$1"
}

for kind in validate calibrate c2c; do
    "$PMUCAL" report "$FX/$kind" --out "$out/$kind.html" > "$TMP/stdout" 2> "$TMP/err"
    ok $? "report of the $kind fixture exits 0 ($(cat "$TMP/err"))"
    is "$(cat "$TMP/stdout")" "$out/$kind.html" "report prints the path of the page it wrote"
    bad=$(wellformed "$out/$kind.html")
    is "$bad" "" "the $kind page is well-formed"
    n=0
    for s in host matrix summary curve penalties c2c; do
        grep -q "<section class=\"sec\" id=\"$s-0\"" "$out/$kind.html" && n=$((n + 1))
    done
    is "$n" 6 "the $kind page has all six sections"
    is "$(grep -c 'https\?://' "$out/$kind.html")" 0 "the $kind page names no network address"
done

# Absent data: one line each, naming what is missing.
grep -q 'No penalties: this run has no penalties.json' "$out/validate.html"; ok $? "validate page: penalties absent, said"
grep -q 'No latency curve: this run has no curve.csv' "$out/c2c.html"; ok $? "c2c page: curve absent, said"
grep -q 'No verdicts: validate.tap of this run is empty' "$out/c2c.html"; ok $? "c2c page: empty validate.tap, said"
grep -q 'No core-to-core heatmap: this run has no c2c.csv' "$out/calibrate.html"; ok $? "calibrate page: c2c absent, said"

# Escaping: the fixture's event '<script>alert("x")</script>', case 'walker <img src=x ...>' and
# CPU brand '<b>CPU</b>' reach the page only as text; the page's own script is the only one.
v="$out/validate.html"
is "$(grep -o '<script' "$v" | wc -l)" 1 "one <script> element: the page's own"
is "$(grep -c '<img' "$v")" 0 "no <img> element from a case label"
is "$(grep -c '<b>CPU</b>' "$v")" 0 "no markup from the CPU brand"
grep -q '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' "$v"; ok $? "the hostile event name is shown as text"
grep -q 'walker &lt;img src=x onerror=alert(1)&gt;' "$v"; ok $? "the hostile case label is shown as text"

# The matrix from validate.tap: 5 events x 4 cases, each verdict in its colour and with its rule.
is "$(grep -o '<td class="cell [a-z]*"' "$v" | sort | uniq -c | awk '{printf "%s=%s ", $4, $1}')" \
   'info"=3 nok"=3 none"=1 ok"=8 skip"=4 todo"=1 ' "matrix cells by verdict (20 = 5 events x 4 cases)"
grep -q 'title="walker size=DRAM :: sim::Dr&#10;verdict: not ok&#10;measured 4.5000, expected 4.0000 per iteration&#10;tolerance: exact&#10;rule: ld.all at validate/expect/sim.txt:8' "$v"
ok $? "a not-ok cell states measured, expected, tolerance and the rule file:line"
grep -q '<span class="badge ok">clean</span>' "$v"; ok $? "the classifier's reading is in the summary"

c="$out/calibrate.html"
grep -q 'measured L2 5.66M' "$c"; ok $? "the curve marks the measured L2 boundary"
grep -q 'hwloc L3 508M' "$c"; ok $? "the curve marks hwloc's L3 size"
grep -q '<tr class="regress"><td>L3</td><td class="num" data-v="4194304">4096 KiB</td><td>measured</td>' "$c"
ok $? "the manifest's geometry: L3 taken from the curve, the row marked where hwloc disagrees"
grep -q 'implausible &lt;ways&gt;: hwloc' "$c"; ok $? "a geometry finding is shown, escaped"
grep -q '17.9&ndash;18.9 <span class="count">-6%</span><br><span class="count">full-width operands; uops table' "$c"
ok $? "a penalty's reference range, deviation, note and source"
grep -q '14 <span class="badge nok">+228% far off</span><br><span class="count">AMD &lt;Zen 5&gt; guide' "$c"
ok $? "a large deviation from the reference is marked (the source escaped)"
is "$(grep -o '<rect class="ref"' "$c" | wc -l)" 3 "the bar chart marks the 3 references"
grep -q -- '-100.96: not drawn on a log scale' "$c"; ok $? "a negative penalty is said, not drawn"
grep -q 'kernel &lt;i&gt;x&lt;/i&gt; not built' "$c"; ok $? "a skipped penalty's reason, escaped"
is "$(grep -c '<g class="c2c-cell">' "$out/c2c.html")" 12 "the heatmap has a cell for each of the 12 pairs"

# A comparison: NEW has a regression (ok -> not ok) and an improvement; regressions come first.
cp -r "$FX/validate" "$TMP/new"
sed -i -e 's/^ok 1 - walker size=L1 :: sim::Ir = inst: measured 7.0000/not ok 1 - walker size=L1 :: sim::Ir = inst: measured 9.0000/' \
       -e 's/^not ok 10 - walker size=DRAM :: sim::Dr = ld.all: measured 4.5000/ok 10 - walker size=DRAM :: sim::Dr = ld.all: measured 4.0000/' \
       "$TMP/new/validate.tap"
"$PMUCAL" report --compare "$FX/validate" "$TMP/new" > "$TMP/stdout" 2> "$TMP/err"
ok $? "report --compare exits 0 ($(cat "$TMP/err"))"
cmp="$TMP/new/compare.html"
is "$(wellformed "$cmp")" "" "the comparison page is well-formed"
first=$(sed -n '/<table id="cmp-v">/,/<\/table>/p' "$cmp" | grep -m1 '<tr data-kinds')
echo "$first" | grep -q 'regression.*walker size=L1.*sim::Ir.*+28.57%'; ok $? "the first row is the regression, with its change"
grep -q '1 regressions.*1 improvements' "$cmp"; ok $? "the comparison counts one regression and one improvement"

# Refused: folders that are not runs or hold corrupt files; each message names the file.
refused() { # refused DIR PATTERN DESCRIPTION
    "$PMUCAL" report "$1" --out "$TMP/x.html" > /dev/null 2> "$TMP/err"
    rc=$?
    grep -q -- "$2" "$TMP/err" && [ "$rc" -eq 2 ] && [ ! -e "$TMP/x.html" ]
    ok $? "$3 (exit $rc: $(cat "$TMP/err"))"
}
refused "$TMP/none" "cannot read run folder" "a missing folder"
mkdir -p "$TMP/empty"; refused "$TMP/empty" "no manifest.json" "a folder without manifest.json"
mkdir -p "$TMP/c1"; echo '{"cpu": ' > "$TMP/c1/manifest.json"
refused "$TMP/c1" "manifest.json.*line 2" "a corrupt manifest.json"
cp -r "$FX/calibrate" "$TMP/c2"; printf '{"penalties": [1,]}' > "$TMP/c2/penalties.json"
refused "$TMP/c2" "penalties.json.*column" "a corrupt penalties.json"
cp -r "$FX/validate" "$TMP/c3"; sed -i '3s/^/garbage /' "$TMP/c3/validate.tap"
refused "$TMP/c3" "validate.tap:3: corrupt run folder" "a validate.tap line that is not TAP"
cp -r "$FX/c2c" "$TMP/c4"; sed -i '1s/from_cpu/cpu/' "$TMP/c4/c2c.csv"
refused "$TMP/c4" "c2c.csv:1: corrupt" "a c2c.csv with another header"
cp -r "$FX/calibrate" "$TMP/c5"; sed -i '3s/,[^,]*$/,x/' "$TMP/c5/curve.csv"
refused "$TMP/c5" "curve.csv:3: corrupt" "a curve.csv row that is not numbers"
"$PMUCAL" report "$FX/validate" "$FX/c2c" > /dev/null 2> "$TMP/err"
is "$?" 2 "several runs without --out: a usage error"

# A real quick run (software events, walker and triad) and its page.
"$PMUCAL" validate --case 'walker size=L1' --case 'triad' -r 3 --target-ms 2 \
    -e instructions,page-faults,context-switches,cpu-migrations --label quick > "$TMP/quick.tap" 2> "$TMP/err"
quick=$(ls -d "$PMUCAL_RESULTS"/*-quick 2> /dev/null | head -n 1)
"$PMUCAL" report "$quick" > /dev/null 2> "$TMP/err"
ok $? "report of a real validate run ($(cat "$TMP/err"))"
# Points of a (case, event) are matrix cells; others (the one SKIP block for hardware events where
# none can be counted) are listed outside it.
points=$(grep -c '^\(not \)\{0,1\}ok [0-9]* - .* :: ' "$quick/validate.tap")
others=$(grep '^\(not \)\{0,1\}ok [0-9]' "$quick/validate.tap" | grep -vc ' :: ')
cells=$(grep -o '<td class="cell [a-z]*"' "$quick/report.html" | grep -vc none)
is "$cells" "$points" "every (case, event) point of the real run is a matrix cell"
[ "$points" -ge 6 ]; ok $? "the real run has at least its 6 software-event points (2 cases x 3 events; got $points)"
listed=$(sed -n '/Verdicts outside the matrix/,/<\/table>/p' "$quick/report.html" | grep -c '<tr><td><span class="badge')
is "$listed" "$others" "its other points are listed outside the matrix"

# Its comparison as 'pmucal compare' judges it: a copy with one page fault more per iteration in
# the triad case is the one regression, on top; 'compare --html' writes the same page.
mod="$TMP/quick-mod"
mkdir -p "$mod"
cp "$quick/manifest.json" "$quick/validate.tap" "$mod/"
jq -c 'if (.case | startswith("triad")) then (.events[] | select(.name == "page-faults") | .per_iter) |= map(. + 1)
       else . end' "$quick/measurements.ndjson" > "$mod/measurements.ndjson"
"$PMUCAL" compare --json "$quick" "$mod" --html "$TMP/judged.html" > "$TMP/judged.json"
is "$?" 1 "compare --html: exit 1 on the regression"
npoints=$(jq '.summary.points' "$TMP/judged.json")
rows=$(sed -n '/<table id="cmp-j">/,/<\/table>/p' "$TMP/judged.html" | grep -c '<tr data-kinds')
is "$rows" "$npoints" "the page has a row for each of compare's points"
first=$(sed -n '/<table id="cmp-j">/,/<\/table>/p' "$TMP/judged.html" | grep -m1 '<tr data-kinds')
echo "$first" | grep -q 'regression <span class="badge nok">count</span></td><td>triad</td><td>page-faults</td>'
ok $? "the regression is the first row, with its flag, case and event"
is "$(wellformed "$TMP/judged.html")" "" "the judged comparison page is well-formed"

# The pages together, as 'make run' writes them.
"$PMUCAL" report "$FX/validate" "$FX/calibrate" "$FX/c2c" --out "$out/all.html" > /dev/null 2> "$TMP/err"
ok $? "one page of three runs"
is "$(wellformed "$out/all.html")" "" "the page of three runs is well-formed"

# A real browser: Debian's chromium, headless, with a fresh profile and no network.
# PMUCAL_CHROMIUM names another browser binary; set empty, it shows the run without one.
browser=${PMUCAL_CHROMIUM-$(command -v chromium || command -v chromium-browser)}
chrome() { # chrome URL ARGS...: the DOM after scripts ran, on stdout
    prof=$(mktemp -d "$TMP/profile.XXXXXX")
    url=$1; shift
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$prof" "$@" "$url" 2> "$TMP/chrome.err"
}
if [ -z "$browser" ]; then
    skip "headless Chromium renders the pages" "chromium is not installed (apt-get install chromium)"
else
    # One page holds the three runs (sections -0 validate, -1 calibrate, -2 c2c): one start of the
    # browser checks them all.
    chrome "file://$out/all.html" --dump-dom > "$out/all.dom"
    ok $? "chromium renders the page of the validate, calibrate and c2c runs ($(tail -n 1 "$TMP/chrome.err"))"
    for i in 0 1 2; do
        n=0
        for s in host matrix summary curve penalties c2c; do
            grep -q "id=\"$s-$i\"" "$out/all.dom" && n=$((n + 1))
        done
        is "$n" 6 "the rendered run $i has all six sections"
    done
    d="$out/all.dom"
    is "$(grep -o '<td class="cell [a-z]*"' "$d" | grep -vc none)" 19 "rendered matrix: 19 verdict cells"
    grep -q 'id="mx-0-count">5 of 5 rows' "$d"; ok $? "the page's script ran (row count filled in)"
    is "$(grep -c '<img' "$d")" 0 "no <img> element in the rendered DOM"
    is "$(grep -o '<script' "$d" | wc -l)" 1 "one <script> element in the rendered DOM"
    grep -q '<svg class="plot" id="curve-svg-1"' "$d" && grep -q '<polyline' "$d"; ok $? "rendered latency curve (SVG polyline)"
    is "$(grep -o 'class="bar"' "$d" | wc -l)" 8 "rendered penalty bars: one per penalty with a figure"
    is "$(grep -o 'class="c2c-cell"' "$d" | wc -l)" 12 "rendered heatmap cells"
    # The filter and the order, as a link carries them: 'sim::D' leaves sim::Dr and sim::D1mr, and
    # sorting by the not-ok column, descending, puts sim::Dr (2) before sim::D1mr (1) and the rest.
    chrome "file://$v#q=sim::D&sort=1&desc=1" --dump-dom > "$out/filtered.dom"
    grep -q 'id="mx-0-count">2 of 5 rows' "$out/filtered.dom"; ok $? "searching the matrix for sim::D leaves 2 of 5 rows"
    is "$(grep -o '<tr [^>]*style="display: none;"' "$out/filtered.dom" | wc -l)" 3 "the 3 other rows are hidden"
    order=$(grep -o '<tr data-kinds="[^"]*" data-text="[^ "]*' "$out/filtered.dom" | sed 's/.*data-text="//' | head -n 3 | tr '\n' ' ')
    is "$order" "sim::Dr sim::D1mr sim::Ir " "rows sorted by not-ok count, descending"
    chrome "file://$out/all.html" --screenshot="$out/report.png" --window-size=1400,2000 > /dev/null
    [ -s "$out/report.png" ] && [ "$(head -c 8 "$out/report.png" | od -An -c | tr -d ' ')" = '211PNG\r\n032\n' ]
    ok $? "a PNG screenshot of the page ($(wc -c < "$out/report.png") bytes)"
    [ -n "${PMUCAL_REPORT_SHOTS:-}" ] && cp "$out"/*.png "$PMUCAL_REPORT_SHOTS"/ 2> /dev/null
fi
# The job's page (scripts/main-job.sh: the calibration, then the validate run) opens with the
# verdict over both runs, then the calibration's penalties: the reference calibration's one real
# failure is named there, its TODO points fail nothing.
$PMUCAL report results/reference/zen5-vm-calibrate results/reference/zen5-vm-validate-perf --out "$TMP/job.html" > /dev/null 2> "$TMP/job.err"
rc=$?
first=$(grep -o '<section class="sec" id="[a-z0-9-]*"' "$TMP/job.html" | head -n 2 | sed 's/.*id="//; s/"$//' | tr '\n' ' ')
is "$first" "conclusion-0 penalties-0 " "the page of a calibration and a validate run opens with the conclusion, then the penalties (exit $rc) $(head -c 200 "$TMP/job.err")"
fails=$(grep -c '^not ok' results/reference/zen5-vm-calibrate/validate.tap | tr -d ' ')
real=$(grep '^not ok' results/reference/zen5-vm-calibrate/validate.tap | grep -vc ' # TODO ' | tr -d ' ')
grep -q "FAIL</span> $real point.* not ok" "$TMP/job.html" && grep -q 'not ok:</span> penalty fp_assist_add: within noise of zero' "$TMP/job.html" &&
    grep -q "$((fails - real)) todo" "$TMP/job.html"
ok $? "the verdict counts $real real failure(s) of $fails 'not ok' lines (the rest are TODO) and names fp_assist_add's"
done_testing
