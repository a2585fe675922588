#!/bin/sh
# The snoop kernel and pmucal c2c: exact counts under the simulator, a handshake that always
# finishes, clear errors for wrong CPUs, NUMA SKIPs with the reason, the c2c files.
. "$(dirname "$0")/lib.sh"
on_this_machine   # timing: about this machine, never a fixture
ncpu=$($PMUCAL info --json | jq '.topology.pus')

# Exact instruction and load counts of the reader's region under --source sim.
if sim_usable; then
    for mode in hitm shared; do
        timeout 300 $PMUCAL run snoop mode=$mode size=L1 --source sim -e sim::Ir,sim::Dr -r 3 --json > "$TMP/sim-$mode.json"
        ok $? "snoop mode=$mode runs under --source sim within 300 s"
        jq -s -e '[.[] | .model as $m | .events[] | select(.name == "sim::Ir") | .per_iter[] == $m.inst] | length > 0 and all' "$TMP/sim-$mode.json" > /dev/null
        ok $? "mode=$mode: sim::Ir per iteration is exactly inst ($(jq -s -c '[.[].events[] | select(.name == "sim::Ir") | .per_iter[]]' "$TMP/sim-$mode.json"))"
        jq -s -e '[.[] | .model as $m | .events[] | select(.name == "sim::Dr") | .per_iter[] == $m."ld.all"] | length > 0 and all' "$TMP/sim-$mode.json" > /dev/null
        ok $? "mode=$mode: sim::Dr per iteration is exactly ld.all"
    done
else
    for mode in hitm shared; do
        sim_skip_or_fail "snoop mode=$mode under --source sim"
        sim_skip_or_fail "mode=$mode: sim::Ir = inst exactly"
        sim_skip_or_fail "mode=$mode: sim::Dr = ld.all exactly"
    done
fi

if [ "$ncpu" -lt 2 ]; then
    skip "handshake and transfers" "this machine has $ncpu CPU; a transfer needs two"
    done_testing; exit
fi

# The handshake always finishes: natively, and under valgrind where threads take turns.
for mode in hitm shared flush local; do
    timeout 60 $PMUCAL run snoop mode=$mode -e page-faults -r 5 --json > "$TMP/$mode.json" 2> "$TMP/$mode.err"
    rc=$?
    ok $rc "snoop mode=$mode finishes within 60 s (exit $rc; 124 would be a hang)"
done
case "${PMUCAL_OBJDIR:-}" in *san*) san=1 ;; *) san=0 ;; esac
if [ "$san" = 1 ]; then
    skip "handshake under valgrind" "AddressSanitizer builds (SAN=1) cannot run under valgrind"
elif command -v valgrind > /dev/null; then
    timeout 120 valgrind --tool=none -q $PMUCAL run snoop mode=hitm size=64k -e page-faults -r 3 --iters 64 > "$TMP/vg.out" 2>&1
    rc=$?
    [ $rc -eq 0 ] && grep -q '^snoop' "$TMP/vg.out"
    ok $? "snoop's handshake finishes under valgrind (one thread at a time) within 120 s (exit $rc): $(tail -c 300 "$TMP/vg.out" | tr '\n' ' ')"
else
    skip "handshake under valgrind" "valgrind is not installed (Debian package valgrind)"
fi

# The model: one load and three instructions per line; where the line comes from, by mode.
jq -e '.model.inst == 3 and .model."ld.all" == 1 and .model."xsnp.hitm" == 1 and .model."xsnp.hit" == 0 and .model."lines.xfer" == 1' "$TMP/hitm.json" > /dev/null
ok $? "mode=hitm model: inst 3, ld.all 1, xsnp.hitm 1, lines.xfer 1 per iteration"
jq -e '.model."xsnp.hit" == 1 and .model."xsnp.hitm" == 0' "$TMP/shared.json" > /dev/null
ok $? "mode=shared model: xsnp.hit 1, xsnp.hitm 0"
jq -e '.model."ld.dram" == 1 and .model."lines.xfer" == 0' "$TMP/flush.json" > /dev/null
ok $? "mode=flush model: ld.dram 1, nothing transferred"
# A transfer is never cheaper than the same walk over local copies. It usually costs far more
# (~72 cycles here), but a hypervisor may place two vCPUs on SMT siblings of one host core, whose
# shared L2 then serves the "remote" line at L2 latency: the guest cannot see that placement, so
# the check is the physical bound, and the description says which placement was seen.
# The placement can change while make test runs another file beside this one (a HITM median of
# 12.0 cycles against a local minimum of 15.8 once): the pair is measured again, at most twice,
# before the bound is judged broken.
for attempt in 1 2 3; do
    if [ $attempt -gt 1 ]; then
        $PMUCAL run snoop mode=hitm -e page-faults -r 5 --json > "$TMP/hitm.json" 2> /dev/null
        $PMUCAL run snoop mode=local -e page-faults -r 5 --json > "$TMP/local.json" 2> /dev/null
    fi
    hitm=$(jq .cycles.stats.median "$TMP/hitm.json") local=$(jq .cycles.stats.min "$TMP/local.json")
    awk -v a="$hitm" -v b="$local" 'BEGIN { exit !(a >= b - 1) }' && break
done
seen=$(awk -v a="$hitm" -v b="$local" 'BEGIN { print (a > b + 5) ? "a cross-core transfer" : "an L2-latency handover (the vCPUs share a host core)" }')
awk -v a="$hitm" -v b="$local" 'BEGIN { exit !(a >= b - 1) }'
ok $? "a HITM line ($hitm cycles, median) is not cheaper than a local one ($local, min): $seen (attempt $attempt of 3)"
timeout 60 $PMUCAL run snoop mode=hitm -e page-faults -r 3 > "$TMP/pen.out" 2>&1
# Which CPU reads and which writes is the least loaded one's choice (issue 25): any two of them.
sed -n 's/.*penalty snoop.hitm (CPU \([0-9]*\) -> CPU \([0-9]*\), .*/\1 \2/p' "$TMP/pen.out" | awk '$1 != $2 { f = 1 } END { exit !f }'
ok $? "pmucal run snoop reports the HITM penalty per line: $(grep 'penalty' "$TMP/pen.out")"

# Wrong CPUs: one clear line naming the parameter, non-zero exit.
expect() { # expect STATUS PATTERN command...
    want=$1 pattern=$2
    shift 2
    "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err" && [ "$(wc -l < "$TMP/err")" -eq 1 ]
    ok $? "'$*' exits $want: $(head -c 200 "$TMP/err")"
}
expect 2 "writer_cpu=4096 is not a CPU" $PMUCAL run snoop writer_cpu=4096
expect 2 "run_cpu=-1 is not a CPU" $PMUCAL run snoop run_cpu=-1
expect 1 "writer_cpu=0 and run_cpu=0 are the same CPU" $PMUCAL run snoop writer_cpu=0 run_cpu=0
# A mask of one CPU on a machine of more: the mask is named, not "only one CPU" (issue 48).
expect 0 "writer_cpu=1 by default, but this process may use only CPU 0 of the machine's $ncpu (its affinity mask)" \
    taskset -c 0 $PMUCAL run snoop
expect 2 "'99' is not a CPU of this machine" $PMUCAL c2c --cpus 0,99
expect 2 "needs at least two CPUs" $PMUCAL c2c --cpus 0
expect 2 "--mode sideways: give hitm or shared" $PMUCAL c2c --mode sideways

# NUMA: remote placement needs a second node, else SKIP with the reason.
nodes=$($PMUCAL info --json | jq '.topology.numa_nodes // 1')
$PMUCAL validate --case 'snoop mode=flush numa=remote' -e page-faults > "$TMP/numa.tap" 2> "$TMP/numa.err"
if [ "$nodes" -lt 2 ]; then
    grep -q "^ok 1 - snoop mode=flush numa=remote :: page-faults # SKIP numa=remote needs a second NUMA node; this machine has 1" "$TMP/numa.tap"
    ok $? "numa=remote SKIPs with the reason on a one-node machine: $(grep '^ok' "$TMP/numa.tap")"
else
    grep -q "^ok 1 - snoop mode=flush numa=remote :: page-faults = pf.minor" "$TMP/numa.tap"
    ok $? "numa=remote runs on a $nodes-node machine"
fi

# c2c: a CSV row per ordered pair, an SVG cell per pair when gnuplot exists.
timeout 120 $PMUCAL c2c -r 3 --label t > "$TMP/c2c.out" 2> "$TMP/c2c.err"
ok $? "pmucal c2c finishes within 120 s"
dir=$(ls -d "$PMUCAL_RESULTS"/*-t | head -n 1)
pairs=$((ncpu * (ncpu - 1)))
is "$(head -n 1 "$dir/c2c.csv")" "from_cpu,to_cpu,relation,cycles_median,cycles_min,cycles_mad,ns_median,repetitions" "c2c.csv header"
is "$(tail -n +2 "$dir/c2c.csv" | cut -d, -f1,2 | sort -u | wc -l)" "$pairs" "c2c.csv has one row per ordered pair"
is "$(tail -n +2 "$dir/c2c.csv" | awk -F, '$1 == $2 || !($4 > 0) || $3 == ""' | wc -l)" "0" "no diagonal rows, every pair labelled with a positive latency"
is "$(jq -r '.topology | type' "$dir/manifest.json")" "object" "the run folder has a manifest with the topology"
if command -v gnuplot > /dev/null; then
    grep -q '</svg>' "$dir/c2c.svg"
    ok $? "c2c.svg is written"
    is "$(grep -o '>[0-9]*\.[0-9]</tspan>' "$dir/c2c.svg" | wc -l)" "$pairs" "c2c.svg has one labelled cell per pair"
else
    skip "c2c.svg" "gnuplot is not installed (Debian package gnuplot-nox)"
    skip "c2c.svg cells" "gnuplot is not installed"
fi
done_testing
