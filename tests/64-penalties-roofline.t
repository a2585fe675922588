#!/bin/sh
# The roofline: the flops kernel's and the team triad's models exact under sim (instructions,
# loads, stores, branches summed over threads; AVX-512 a SKIP saying why); 'pmucal roofline' on
# this machine (one width, one level: a few seconds) writes its ceilings for 1 thread and a team,
# places a run's cases under them, and the report and 'emit --roofline' carry them; bad input is
# refused before anything is measured. The perf and perfstat sources count every thread of a team:
# each member's first touches (page faults) are summed, as the model says.
. "$(dirname "$0")/lib.sh"
on_this_machine

# --- exact models under sim --------------------------------------------------------------------
if sim_usable; then
    set -- --case 'flops width=scalar op=add' --case 'flops width=sse prec=sp op=mul' --case 'flops' \
        --case 'flops width=avx2 prec=sp op=addmul' --case 'flops width=avx2 chain=latency' --case 'flops width=avx512' \
        --case 'flops width=avx2 threads=2' --case 'triad size=8k threads=2'
    $PMUCAL validate --source sim -r 2 "$@" --label fsim > "$TMP/fsim.tap" 2> "$TMP/fsim.err"
    rc=$?
    ok $rc "validate --source sim: flops' cases and triad threads=2 exit 0 ($rc): $(grep '^not ok' "$TMP/fsim.tap" | head -n 2)"
    # case label | the sim events' verdicts: an exact ok (the model's inst, ld.all, st.all, br.cond), or a SKIP
    while IFS='|' read -r case want; do
        case=$(echo "$case" | sed 's/ *$//')
        [ -z "$case" ] && continue
        for ev in sim::Ir sim::Dr sim::Dw sim::Bc; do
            line=$(grep -F -- "- $case :: $ev " "$TMP/fsim.tap" | head -n 1)
            case "$want" in
            *skip*) echo "$line" | grep -q '# SKIP AVX-512 code cannot be executed under the sim counter source'
                    ok $? "$case :: $ev is a skip saying why: $(echo "$line" | sed 's/.*# SKIP //')" ;;
            *) echo "$line" | grep -q "^ok .*(exact, "
               ok $? "$case :: $ev exact: $line" ;;
            esac
        done
    done <<'EOT'
flops width=scalar op=add              | exact
flops width=sse prec=sp op=mul         | exact
flops                                  | exact
flops prec=sp op=addmul                | exact
flops chain=latency                    | exact
flops width=avx512                     | skip
flops threads=2                        | exact
triad size=8k threads=2                | exact
EOT
    # The models' FP work, as the FP-operation rules read it (Intel counts an FMA twice: fp + fma).
    # case | fp quantity | FP instructions | fma | flops quantity | flops (per iteration)
    dir=$(ls -d "$PMUCAL_RESULTS"/*-fsim | head -n 1)
    while IFS='|' read -r case fq fn fma flq fl; do
        case=$(echo "$case" | sed 's/ *$//')
        [ -z "$case" ] && continue
        got=$(jq -r --arg c "$case" --arg fq "$(echo $fq)" --arg flq "$(echo $flq)" --arg fma "$(echo $fq | sed 's/^fp/fma/')" \
            'select(.case == $c) | [.model[$fq], .model[$fma], .model[$flq]] | map(tostring) | join(" ")' "$dir/measurements.ndjson" | head -n 1)
        is "$got" "$(echo $fn) $(echo $fma) $(echo $fl)" "$case: $(echo $fq), its FMAs and $(echo $flq) per iteration"
    done <<'EOT'
flops width=scalar op=add    | fp.scalar_dp | 12 | 0  | flops.dp | 12
flops width=sse prec=sp op=mul | fp.128_sp  | 12 | 0  | flops.sp | 48
flops                        | fp.256_dp    | 12 | 12 | flops.dp | 96
flops prec=sp op=addmul      | fp.256_sp    | 12 | 0  | flops.sp | 96
flops threads=2              | fp.256_dp    | 24 | 24 | flops.dp | 192
EOT
    # The team's counts are both threads': twice one thread's instructions per iteration.
    dir=$(ls -d "$PMUCAL_RESULTS"/*-fsim | head -n 1)
    two=$(jq -r 'select(.case == "flops threads=2") | .events[] | select(.name == "sim::Ir") | .stats.median' "$dir/measurements.ndjson")
    one=$(jq -r 'select(.case == "flops") | .events[] | select(.name == "sim::Ir") | .stats.median' "$dir/measurements.ndjson")
    [ -n "$one" ] && [ -n "$two" ] && [ "$(echo "$two / $one" | bc)" = 2 ]
    ok $? "flops threads=2 counts 2 x one thread's instructions under sim ($two vs $one)"
else
    sim_skip_or_fail "flops and team triad exact under sim"
fi

# --- a team counted whole: every member's thread, summed ----------------------------------------
# Each member of walker phase=touch threads=N first-touches fresh 4 KiB pages of its own: N page
# faults an iteration between them, where counting the measuring thread alone finds 1.
TOUCH='walker size=1M page=4k phase=touch'
if [ "$(nproc)" -lt 2 ]; then
    skip "a team's page faults summed" "a team of 2 needs 2 CPUs; this process may use $(nproc)"
else
    sources=perf
    if command -v perf > /dev/null 2>&1 && perf --version > /dev/null 2>&1; then sources="perf perfstat"
    else skip "perfstat sums a team" "perf is not installed (Debian package linux-perf)"; fi
    for s in $sources; do
        $PMUCAL validate --source $s -e page-faults -r 3 --case "$TOUCH" --case "$TOUCH threads=2" \
            --label "team-$s" > "$TMP/team-$s.tap" 2> "$TMP/team-$s.err"
        rc=$?
        dir=$(ls -d "$PMUCAL_RESULTS"/*-"team-$s" | head -n 1)
        # case | page faults an iteration (each member's own, summed)
        while IFS='|' read -r case want; do
            case=$(echo "$case" | sed 's/ *$//'); want=$(echo $want)
            [ -z "$case" ] && continue
            got=$(jq -r --arg c "$case" 'select(.case == $c) | .events[] | select(.name == "page-faults") |
                "\(.stats.median) \(.verdict.kind)"' "${dir:-$TMP/none}/measurements.ndjson" 2> /dev/null)
            is "$got" "$want ok" "--source $s, $case: page faults an iteration over every thread, and the verdict (exit $rc)"
        done <<EOT
$TOUCH            | 1
$TOUCH threads=2  | 2
EOT
    done
    # On 2 MiB pages a member faults once a page, 1/512 of its iterations: exact over whole pages
    # only, so a run gets whole pages even when fewer iterations are asked (or a pilot slowed by
    # load asks fewer). On 4 KiB pages (no THP here) every iteration faults.
    $PMUCAL run walker size=L1 phase=touch threads=2 -e page-faults --iters 4 --json > "$TMP/huge4.json" 2> "$TMP/huge4.err"
    kind=$(jq -r '.detail | capture("page=(?<k>[^ ]*)").k' "$TMP/huge4.json" 2> /dev/null)
    case $kind in
    2m*) want="512 0.00390625" ;;
    *) want="4 2" ;;
    esac
    # A huge-page fault that waited for compaction on a busy machine makes the pilot's estimate
    # long, and run refuses the 512 iterations (a run is at most 0.5 s): no count to check then.
    # (Either message: "--iters N would make one measured loop last about", or, when even one whole
    # period of 512 is too long, "even 512 iterations ... would make one measured loop longer".)
    if [ ! -s "$TMP/huge4.json" ] && grep -Eq 'would make one measured loop (last about|longer)' "$TMP/huge4.err"; then
        skip "walker phase=touch threads=2 --iters 4 on huge pages" "$(grep -m1 'would make' "$TMP/huge4.err" | tr '#' '%')"
    else
        is "$(jq -r '"\(.iters) \(.events[] | select(.name == "page-faults") | .stats.median)"' "$TMP/huge4.json" 2> /dev/null)" "$want" \
            "walker phase=touch threads=2 --iters 4 on $kind pages: iterations and page faults an iteration, exact ($(head -c 200 "$TMP/huge4.err"))"
    fi
    # shellcheck disable=SC2086
    $PMUCAL sample $TOUCH threads=2 -e page-faults --iters 16 > "$TMP/tsample.tap" 2> "$TMP/tsample.err"; rc=$?
    [ $rc -eq 0 ] && grep -q '# SKIP sampling follows the measuring thread alone' "$TMP/tsample.tap"
    ok $? "sample of a team is a SKIP saying why, not a rate off by the other members (exit $rc): $(grep SKIP "$TMP/tsample.tap")"
fi

# --- bad input: refused before measuring, no folder --------------------------------------------
# args | what the message must name
while IFS='|' read -r args want; do
    args=$(echo "$args" | sed 's/ *$//'); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    $PMUCAL roofline $args --label bad > "$TMP/bad.out" 2> "$TMP/bad.err"; rc=$?
    [ $rc -eq 2 ] && grep -q -- "$want" "$TMP/bad.err" && [ -z "$(ls -d "$PMUCAL_RESULTS"/*-bad 2> /dev/null)" ]
    ok $? "roofline $args: exit 2 naming '$want', no run folder (rc $rc: $(head -c 200 "$TMP/bad.err"))"
done <<'EOT'
--widths avx3                  | 'avx3' is not one of scalar,sse,avx2,avx512
--levels L1,L4                 | 'L4' is not one of L1,L2,L3,DRAM
--threads 100000               | --threads
--run /nonexistent/run         | /nonexistent/run
--ceilings tests/report/roofline | give --run RUN with it
--ceilings /nonexistent --run tests/report/validate | --ceilings /nonexistent: /nonexistent: No such file
--ceilings / --run tests/report/validate | --ceilings /: /roofline.json: No such file
--ceilings tests/report/roofline --run tests/report/validate --levels L1 | give no --widths
EOT
$PMUCAL run flops threads=0 > /dev/null 2> "$TMP/t0.err"; rc=$?
[ $rc -ne 0 ] && grep -q 'threads=0' "$TMP/t0.err"
ok $? "flops threads=0 is refused naming it (rc $rc): $(head -c 200 "$TMP/t0.err")"
$PMUCAL run walker size=L1 threads=2 > /dev/null 2> "$TMP/wt.err"; rc=$?
[ $rc -ne 0 ] && grep -q 'threads=2 is for phase=touch' "$TMP/wt.err"
ok $? "a walk with threads=2 is refused naming phase=touch (rc $rc): $(head -c 200 "$TMP/wt.err")"

# --- ceilings on this machine, a run's cases placed ----------------------------------------------
ncpu=$(nproc)
# A run whose cases have known places: far below the roof (adds at half the FMA peak, a scalar
# triad far below AVX bandwidth), timed by the perf source with software events only.
$PMUCAL validate -e page-faults -r 3 --case 'flops width=scalar op=add' --case 'triad variant=scalar size=L1' \
    --label placed > /dev/null 2> "$TMP/placed.err"
run=$(ls -d "$PMUCAL_RESULTS"/*-placed | head -n 1)
$PMUCAL roofline --widths scalar --levels L1 -r 3 --run "$run" > "$TMP/roof.out" 2> "$TMP/roof.err"; rc=$?
ok $rc "roofline --widths scalar --levels L1 --run RUN exits 0 ($rc): $(tail -n 3 "$TMP/roof.err")"
rdir=$(ls -d "$PMUCAL_RESULTS"/*-roofline | head -n 1)
rj="${rdir:-$TMP/none}/roofline.json"
team=$(jq -r .threads "$rj" 2> /dev/null)
is "$team" "$ncpu" "the team is every allowed CPU"
jq -e --argjson n "$ncpu" '[.compute[] | select(.isa == "scalar") | [.prec, .threads, (.gflops > 0 or (.threads > 1 and (.withheld | type) == "string"))]] | sort ==
    ([["dp", 1, true], ["sp", 1, true]] + (if $n > 1 then [["dp", $n, true], ["sp", $n, true]] else [] end) | sort)' "$rj" > /dev/null
ok $? "compute ceilings: scalar dp and sp, 1 thread and $ncpu, each a positive GFLOP/s: $(jq -c '[.compute[] | [.prec, .threads, .gflops]]' "$rj" 2> /dev/null)"
# The team's ceiling may be withheld, with its reason said, where other work held a member's CPU
# through every timing window (a busy loop on CPU 1); one thread's never is.
jq -e --argjson n "$ncpu" '[.bandwidth[] | select(.level == "L1" and (.gbs > 0 or (.threads > 1 and .gbs == null and (.withheld | type) == "string"))) | .threads] | sort == ([1] + (if $n > 1 then [$n] else [] end))' "$rj" > /dev/null &&
    { ! jq -e '.bandwidth[] | select(.withheld)' "$rj" > /dev/null || grep -q 'roofline: L1 .*: every timing window was disturbed' "$TMP/roof.err"; }
ok $? "bandwidth ceilings: L1, 1 thread and $ncpu (a team's withheld only with its reason): $(jq -c '[.bandwidth[] | [.level, .threads, .gbs, .withheld]]' "$rj" 2> /dev/null)"
jq -e '[.cases[] | select(.under and (.oi == null or .oi > 0) and .gflops > 0 and .roof_gflops > 0) | .case] | sort ==
    ["flops width=scalar op=add", "triad variant=scalar"]' "$rj" > /dev/null
ok $? "the run's two cases are placed under their roofs (flops: no bytes, intensity null): $(jq -c '.cases' "$rj" 2> /dev/null)"
grep -q '^peak GFLOP/s' "$TMP/roof.out" && grep -q '^bandwidth GB/s' "$TMP/roof.out" && grep -q '^  scalar dp fma' "$TMP/roof.out"
ok $? "the tables are printed: $(head -n 4 "$TMP/roof.out" | tr '\n' '|')"
grep -q '<svg' "$rdir/roofline.svg" && grep -q 'L1 1T' "$rdir/roofline.svg" && grep -q 'scalar dp 1T' "$rdir/roofline.svg"
ok $? "roofline.svg labels each ceiling"
$PMUCAL report "$rdir" > /dev/null 2>&1 && grep -q 'id="roofline-svg-0"' "$rdir/report.html"
ok $? "the report of the folder draws the roofline"
# The report draws from roofline.json's numbers: a damaged one is refused naming the file, not drawn.
# jq edit | what the message says after the file's path
while IFS='|' read -r edit want; do
    edit=$(echo "$edit" | sed 's/ *$//'); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$edit" ] && continue
    rm -rf "$TMP/rrep" && cp -R "$(dirname "$0")/report/roofline" "$TMP/rrep" &&
        jq "$edit" "$(dirname "$0")/report/roofline/roofline.json" > "$TMP/rrep/roofline.json"
    $PMUCAL report "$TMP/rrep" --out "$TMP/rrep.html" > /dev/null 2> "$TMP/rrep.err"; rc=$?
    [ $rc -eq 2 ] && grep -q -F -- "$TMP/rrep/roofline.json: $want" "$TMP/rrep.err" && [ ! -e "$TMP/rrep.html" ]
    ok $? "report of a roofline.json with $edit: exit 2 naming '$want' (exit $rc): $(head -c 200 "$TMP/rrep.err")"
done <<'EOT'
.bandwidth[0].threads = 1e300      | bandwidth ceiling 1: "threads" is 1e+300
.threads = -3                      | "threads" is -3
EOT

# --- a whole default run under the ceilings (recorded here by pmucal: tests/report/roofline*) -------
# tests/report/roofline-run is 'pmucal validate -e page-faults -r 3' of the whole default matrix on
# this VM and tests/report/roofline the ceilings of a full 'pmucal roofline' beside it: every case
# with FP work and a time is placed, and each sits at or under the roof that applies to it.
fx="$(dirname "$0")/report"
$PMUCAL roofline --ceilings "$fx/roofline" --run "$fx/roofline-run" --label fxplace > "$TMP/fx.out" 2> "$TMP/fx.err"; rc=$?
fxj="$(ls -d "$PMUCAL_RESULTS"/*-fxplace 2> /dev/null | head -n 1)/roofline.json"
want=$(jq -r 'select(((.model["flops.dp"] // 0) + (.model["flops.sp"] // 0)) > 0 and .cycles.stats.median > 0) | .case' \
    "$fx/roofline-run/measurements.ndjson" | sort -u)
got=$(jq -r '.cases[].case' "$fxj" 2> /dev/null | sort)
[ -n "$want" ] && [ "$got" = "$want" ]
ok $? "every case of the default run with FP work is placed ($(echo "$got" | grep -c .) of $(echo "$want" | grep -c .)): $(echo "$want" | tr '\n' ',' | head -c 300)"
jq -e '(.cases | length) > 0 and ([.cases[] | select(.under and .gflops > 0 and .roof_gflops > 0 and .gflops <= 1.10 * .roof_gflops)] | length) == (.cases | length)' "$fxj" > /dev/null && [ $rc -eq 0 ]
ok $? "each sits under its roof, and the command says so (exit $rc): $(jq -c '[.cases[] | select(.under | not)]' "$fxj" 2> /dev/null) $(grep -c 'ABOVE' "$TMP/fx.out") above"
# case | the ceilings that apply: its widest FP width and precision, the level its data streams from
while IFS='|' read -r case want; do
    case=$(echo "$case" | sed 's/ *$//'); want=$(echo $want)
    [ -z "$case" ] && continue
    got=$(jq -r --arg c "$case" '.cases[] | select(.case == $c) | "\(.compute_ceiling) \(.bandwidth_ceiling)"' "$fxj" 2> /dev/null)
    is "$got" "$want" "$case is placed under the ceilings of its own width and level"
done <<'EOT'
flops width=avx512                 | avx512 dp L1
flops prec=sp op=addmul            | avx2 sp L1
triad size=DRAM                    | avx2 dp DRAM
triad size=L3 variant=sse store=nt | sse dp L3
divsqrt op=fdiv                    | scalar dp L1
EOT
# The same run with one case 100 times faster than it was: above its roof, reported so.
mkdir -p "$TMP/fast" && cp "$fx/roofline-run/manifest.json" "$TMP/fast/"
jq -c 'if .case == "triad" then .cycles.stats.median /= 100 else . end' "$fx/roofline-run/measurements.ndjson" > "$TMP/fast/measurements.ndjson"
$PMUCAL roofline --ceilings "$fx/roofline/roofline.json" --run "$TMP/fast" --label fxfast > "$TMP/fast.out" 2> "$TMP/fast.err"; rc=$?
fj="$(ls -d "$PMUCAL_RESULTS"/*-fxfast 2> /dev/null | head -n 1)/roofline.json"
[ $rc -eq 1 ] && grep -q '^  triad .*ABOVE THE ROOF' "$TMP/fast.out" && [ "$(jq -c '[.cases[] | select(.under | not) | .case]' "$fj")" = '["triad"]' ]
ok $? "a case above its roof is reported, not drawn quietly: exit $rc, $(grep 'ABOVE' "$TMP/fast.out" | tr -s ' ')"
# A team size no team has (1e300 threads) is refused naming the record, never converted to a CPU count.
mkdir -p "$TMP/huge" && cp "$fx/roofline-run/manifest.json" "$TMP/huge/"
jq -c 'if .case == "triad" then .model.threads = 1e300 else . end' "$fx/roofline-run/measurements.ndjson" > "$TMP/huge/measurements.ndjson"
$PMUCAL roofline --ceilings "$fx/roofline" --run "$TMP/huge" --label fxhuge > /dev/null 2> "$TMP/huge.err"; rc=$?
[ $rc -eq 2 ] && grep -q "$TMP/huge/measurements.ndjson:[0-9]*: \"threads\" is 1e+300; give a number from 1 to 1024" "$TMP/huge.err" &&
    [ -z "$(ls -d "$PMUCAL_RESULTS"/*-fxhuge 2> /dev/null)" ]
ok $? "a record whose model has 1e300 threads is refused naming its line (exit $rc): $(head -c 200 "$TMP/huge.err")"

# A ceiling a busy machine withheld (no time survived its windows) stays withheld, with its reason,
# in the table and the JSON of a roofline made from it.
mkdir -p "$TMP/held"
jq '(.bandwidth[] | select(.level == "DRAM" and .threads > 1)) |= (.gbs = null | .withheld = "every timing window was disturbed, in three measurements: a member of the team waited for its CPU, which other work held; withheld, not guessed")' \
    "$fx/roofline/roofline.json" > "$TMP/held/roofline.json"
$PMUCAL roofline --ceilings "$TMP/held/roofline.json" --run "$fx/roofline-run" --label fxheld > "$TMP/held.out" 2> "$TMP/held.err"; rc=$?
hj="$(ls -d "$PMUCAL_RESULTS"/*-fxheld 2> /dev/null | head -n 1)/roofline.json"
grep -q '^  DRAM .* withheld' "$TMP/held.out" && grep -q 'roofline: DRAM [0-9]* threads: every timing window was disturbed' "$TMP/held.err" &&
    [ "$(jq -r '[.bandwidth[] | select(.withheld)] | length' "$hj" 2> /dev/null)" = 1 ]
ok $? "a withheld ceiling is shown as withheld with its reason, never a number (exit $rc): $(grep '^  DRAM' "$TMP/held.out" | tr -s ' ') $(grep -m1 'withheld' "$TMP/held.err")"

# --- emit --roofline ------------------------------------------------------------------------------
$PMUCAL emit --format c --roofline "$rdir" > "$TMP/roof.h"; rc=$?
printf '#include "%s"\n#if !defined(PMUCAL_PEAK_GFLOPS_SCALAR_DP_T1) || !defined(PMUCAL_BW_GBS_L1_T1)\n#error missing\n#endif\nint main(void) { return PMUCAL_PEAK_GFLOPS_SCALAR_DP_T1 > 0 ? 0 : 1; }\n' "$TMP/roof.h" > "$TMP/use.c"
[ $rc -eq 0 ] && cc -Wall -Werror -o "$TMP/use" "$TMP/use.c" && "$TMP/use"
ok $? "emit --format c --roofline: a header that compiles, with the scalar peak and L1 bandwidth: $(grep -c '#define' "$TMP/roof.h") macros"
$PMUCAL emit --format csv --roofline "$rdir/roofline.json" > "$TMP/roof.csv"
head -n 1 "$TMP/roof.csv" | grep -q '^kind,name,precision,threads,value,unit$' && grep -q '^bandwidth,L1,,1,[0-9.]*,GB/s$' "$TMP/roof.csv"
ok $? "emit --format csv --roofline: the ceilings as rows: $(sed -n 2p "$TMP/roof.csv")"
$PMUCAL emit --format perf-metrics --roofline "$rdir" > /dev/null 2> "$TMP/pm.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'no perf-metrics table' "$TMP/pm.err"
ok $? "emit --format perf-metrics --roofline is refused (exit $rc)"
printf '{"compute": [{"isa": "a*/b", "prec": "dp", "threads": 1, "gflops": 3}]}\n' > "$TMP/evil.json"
$PMUCAL emit --format c --roofline "$TMP/evil.json" > /dev/null 2> "$TMP/evil.err"; rc=$?
[ $rc -eq 1 ] && grep -q -- "$TMP/evil.json: compute ceiling 1: \"isa\" is \"a\*/b\": give letters and digits only" "$TMP/evil.err"
ok $? "a ceiling whose name cannot be a macro is refused naming the file (exit $rc): $(cat "$TMP/evil.err")"
# A number of roofline.json is checked (finite, in range) before emit or --ceilings uses it; the
# message names the file, the ceiling and the member.
# jq edit of the recorded ceilings | what the message must say after the file's path
while IFS='|' read -r edit want; do
    edit=$(echo "$edit" | sed 's/ *$//'); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$edit" ] && continue
    mkdir -p "$TMP/badroof" && jq "$edit" "$fx/roofline/roofline.json" > "$TMP/badroof/roofline.json"
    $PMUCAL emit -f c --roofline "$TMP/badroof" > /dev/null 2> "$TMP/be.err"; erc=$?
    $PMUCAL roofline --ceilings "$TMP/badroof/" --run "$fx/roofline-run" --label badroof > /dev/null 2> "$TMP/br.err"; rrc=$?
    [ $erc -eq 1 ] && [ $rrc -eq 2 ] && grep -q -F -- "$TMP/badroof/roofline.json: $want" "$TMP/be.err" &&
        grep -q -F -- "$TMP/badroof/roofline.json: $want" "$TMP/br.err" && [ -z "$(ls -d "$PMUCAL_RESULTS"/*-badroof 2> /dev/null)" ]
    ok $? "roofline.json with $edit: refused by emit (exit $erc) and --ceilings (exit $rrc) naming '$want': $(head -c 200 "$TMP/br.err")"
done <<'EOT'
.compute[0].gflops = -1                 | compute ceiling 1: "gflops" is -1
.compute[1].threads = 2.5               | compute ceiling 2: "threads" is 2.5; give a whole number
.compute[0].core_ghz = 1e300            | compute ceiling 1: "core_ghz" is 1e+300
.bandwidth[0].gbs = "fast"              | bandwidth ceiling 1: "gbs" is not a number
.bandwidth[1].bytes_per_thread = -5     | bandwidth ceiling 2: "bytes_per_thread" is -5
EOT
done_testing
