#!/bin/sh
# Every 'bin/pmucal' example of README.md and of docs/ (every .md under it) runs as written, in
# whichever page it now lives: it exits 0, or 1 where the example
# shows a difference or a verdict (tablediff, a cross-model encodings), never 2 (bad input) or a
# signal. A placeholder the reader fills (RUN, BASE NEW, results/<run>, my-events.txt, a perfmon
# or Linux checkout) gets a stand-in from the repository; an example that measures for minutes, or
# needs what this host lacks, is a SKIP saying so. An example this test does not know fails it, so
# a new example gets a row here. An example is a line that starts with 'bin/pmucal ' inside a
# fenced code block; a line written 'pmucal ...' (a --help page's examples) is prose, not run.
. "$(dirname "$0")/lib.sh"
tree=$PWD bin=$PWD/$PMUCAL
ref=$tree/results/reference
cd "$TMP" || exit 1
cp -R "$ref/zen5-vm-validate-perf" base && cp -R "$ref/zen5-vm-validate-perf" new && cp -R "$ref/zen5-vm-calibrate" cal
printf 'INST_RETIRED.ANY_P\nBR_INST_RETIRED.ALL_BRANCHES\n' > my-events.txt   # Skylake's, as the examples read it
# emit and cpi without RUN read the newest calibration under $PMUCAL_RESULTS.
mkdir -p "$PMUCAL_RESULTS" && cp -R "$ref/zen5-vm-calibrate" "$PMUCAL_RESULTS/"
cp "$tree/tests/data/perf-stat-zen5.csv" counts.csv
# A recorded roofline (ceilings and a run placed under them), where the pages name it.
mkdir -p tests/report && cp -R "$tree/tests/report/roofline" "$tree/tests/report/roofline-run" tests/report/
mkdir -p perfmon linux/tools/perf/pmu-events/arch && cp -R "$tree/eventdata/intel/SKL" perfmon/ &&
    cp -R "$tree/eventdata/amd" linux/tools/perf/pmu-events/arch/x86
ncpu=$(nproc)
# The examples run in $TMP (the files they write stay out of the tree); from the tree's root, as
# the pages mean them, pmucal finds validate/expect beside bin/: say where it is from here.
export PMUCAL_EXPECT_DIR="$tree/validate/expect"
# The cache levels from a recorded curve: info and the L-sized cases measure none (seconds each).
export PMUCAL_CURVE_FILE="$tree/tests/hosts/zen5-vm/curve.csv"

# Rows: a pattern (grep -E) over the example, then what applies: SKIP and the reason; NEED_CPUS (a
# SKIP on a host without them); HOST intel or amd: a vendor's events, run on every host under a
# forced one (Intel: libpfm4's skl PMU; AMD: the Zen 5 VM's CPUID with the host's own libpfm4 PMU
# hidden, so its perf table names the events); REFUSED and what the message must say (the example
# shows a refusal: exit 2); RUN and the stand-ins (a sed expression) for its placeholders. Fields
# are split at '@'; the first matching row applies.
rows() {
    cat << 'EOF'
^bin/pmucal (sample|c2c) --resume @SKIP@needs a stopped run of the command; tests/36-runs-resume.t stops and resumes one
^bin/pmucal sample @RUN@s/$//
^bin/pmucal info --measure$@SKIP@measures the load-latency curve (tens of seconds on this VM); tests/timing/40-latency.t measures it
^bin/pmucal c2c$@SKIP@a transfer latency for every CPU pair (minutes); tests/63-microkernels-snoop.t runs c2c on two CPUs
^bin/pmucal validate$@SKIP@the whole default matrix (minutes); tests/10-sources-perf.t and 'make run' run it
^bin/pmucal validate --source (perfstat|sim)$@SKIP@the whole default matrix (minutes); tests/42-sources-perfstat.t and tests/55-sources-sim.t run the source on chosen cases
^bin/pmucal validate --resume @SKIP@needs a stopped validate run; tests/36-runs-resume.t stops and resumes one
^bin/pmucal calibrate$@SKIP@every recipe and the curve (minutes); tests/51-penalties-calibrate.t runs it quick, 'make run' in full
^bin/pmucal calibrate --source sim$@SKIP@every recipe under callgrind (minutes); tests/52-penalties-calibrate-sim.t runs chosen recipes
^bin/pmucal calibrate --resume @SKIP@needs a stopped calibration; tests/36-runs-resume.t stops and resumes one
^bin/pmucal calibrate --(curve|recipe)@SKIP@measures for tens of seconds; tests/37-runs-incomplete.t and tests/51-penalties-calibrate.t run them
^bin/pmucal run walker size=DRAM@SKIP@a DRAM-sized buffer (16 x the last level) 9 times over (tens of seconds); tests/10-sources-perf.t runs DRAM cases
--source sim@SKIP@callgrind (tens of seconds); tests/55-sources-sim.t runs the sim source
^bin/pmucal roofline --ceilings tests/report/@RUN@
^bin/pmucal roofline@SKIP@measures every ceiling on 1 thread and all CPUs (about 30 s); tests/64-penalties-roofline.t measures a part and places a run's cases
--roofline results/<roofline-run>@RUN@s|results/<roofline-run>|tests/report/roofline|
^bin/pmucal run triad size=DRAM threads=2@SKIP@DRAM-sized arrays on each of two threads (seconds); tests/64-penalties-roofline.t runs a team under sim
writer_cpu=2 run_cpu=5@NEED_CPUS@6
MEM_LOAD_RETIRED|INST_RETIRED.ANY_P@HOST@intel
ls_dispatch|ex_ret_instr@HOST@amd
--uarch zen4 RUN$@REFUSED@was calibrated on zen5; its penalties are not zen4's: .*--force-uarch
^bin/pmucal events \[--pmu skl\]$@RUN@s/\[--pmu skl\]/--pmu skl/
\[--table\]@RUN@s/ \[--table\]/ --table/
results/<run>@RUN@s|results/<run>|base|
 BASE NEW@RUN@s| BASE NEW| base new|
RUN1 RUN2@RUN@s|RUN1 RUN2|cal base|
 RUN$@RUN@s| RUN$| cal|
^bin/pmucal @RUN@
EOF
}
# A SKIP reason sends the reader to the tests that run the example instead: each one it names exists.
named=$(rows | awk -F@ '$2 == "SKIP"' | grep -o 'tests/[a-z0-9/-]*\.t' | sort -u)
missing=$(for t in $named; do [ -f "$tree/$t" ] || printf '%s ' "$t"; done)
[ -n "$named" ] && [ -z "$missing" ]
ok $? "the $(echo $named | wc -w) tests the SKIP reasons name exist${missing:+; missing: $missing}"
host_pmu=$("$bin" info 2> /dev/null | awk '$1 == "pmu" && $2 != "sysfs" && $2 != "libpfm4" { print $2; exit }')
# Every page: the README, then docs/ and its subfolders in name order.
pages=$(cd "$tree" && { echo README.md; find docs -name '*.md' | LC_ALL=C sort; })
for page in $pages; do
    awk -v page="$page" '/^```/ { inb = !inb; next } inb && /^bin\/pmucal / { print page ":" FNR "\t" $0 }' "$tree/$page"
done > examples
[ "$(wc -l < examples)" -ge 75 ]; ok $? "README.md and docs/ have their examples ($(wc -l < examples) 'bin/pmucal' lines in code blocks over $(echo $pages | wc -w) pages)"
n=$(grep -c '^README\.md:' examples)
[ "$n" -ge 5 ]; ok $? "README.md shows a command for each of the five tasks ($n examples)"
while IFS="$(printf '\t')" read -r line text; do
    cmd=$(printf '%s' "$text" | sed 's/  *# .*$//')
    row=$(rows | while IFS='@' read -r pat what arg; do
        printf '%s\n' "$cmd" | grep -Eq -- "$pat" && { printf '%s@%s\n' "$what" "$arg"; break; }; done)
    what=${row%%@*} arg=${row#*@} forced=
    case $what in
    SKIP) skip "$line: $cmd" "$arg"; continue ;;
    NEED_CPUS) [ "$ncpu" -lt "$arg" ] && { skip "$line: $cmd" "needs $arg CPUs (names CPU $((arg - 1))); this host has $ncpu"; continue; } ;;
    HOST) case $arg in
        intel) forced="LIBPFM_FORCE_PMU=skl" ;;
        amd) forced="LIBPFM_DISABLED_PMUS=$host_pmu HWLOC_CPUID_PATH=$tree/tests/hosts/zen5-vm/cpuid" ;;
        esac
        ;;
    RUN) [ -n "$arg" ] && cmd=$(printf '%s\n' "$cmd" | sed "$arg") ;;
    REFUSED) cmd=$(printf '%s\n' "$cmd" | sed 's| RUN$| cal|') ;;
    *) ok 1 "$line: '$cmd' matches no row of this test: add one"; continue ;;
    esac
    # As written, from $TMP: bin/pmucal is the tree's binary; a '> file' redirection stays one.
    start=$(date +%s)
    env $forced sh -c "$(printf '%s\n' "$cmd" | sed "s|^bin/pmucal|\"$bin\"|")" > out 2> err
    rc=$?
    if [ "$what" = REFUSED ]; then
        [ "$rc" -eq 2 ] && grep -q -- "$arg" err
        ok $? "$line: $cmd is refused as its example says (exit $rc): $(head -c 200 err)"
        continue
    fi
    [ "$rc" -le 1 ]
    ok $? "$line: ${forced:+$forced }$cmd (exit $rc, $(($(date +%s) - start)) s)$([ "$rc" -gt 1 ] && printf ': %s' "$(head -c 250 err)")"
done < examples
done_testing
