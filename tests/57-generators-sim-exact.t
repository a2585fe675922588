#!/bin/sh
# Every generated kernel's model is exact under simulation: valgrind's callgrind counts the
# instructions (Ir), conditional branches (Bc) and indirect jumps and calls (Bi) of the measured
# region, collected only inside gen_measured_region, for N1 and N2 iterations; the difference
# over N2 - N1 is one iteration's worth (the fixed entry/exit and the predictor's warm-up
# cancel) and must equal the model's inst, br.cond and br.indirect exactly. callgrind's simple
# predictor must mispredict nothing where the model says predictable-by-anything (always taken,
# never taken, jump chains, calls) and about half of fair random branches.
# The sim counter source's verdicts on the same kernels: tests/55-sources-sim.t.
. "$(dirname "$0")/lib.sh"
# Sizes named by level (ifetch size=L1) come from a fixture: the bare valgrind runs below would
# otherwise see no caches at all, and the native model run the machine's.
[ -n "${PMUCAL_TEST_HOST:-}" ] || use_host zen4
N1=1000
N2=3000

if ! command -v valgrind >/dev/null 2>&1; then
    skip "callgrind exactness" "valgrind is not installed (apt-get install valgrind)"
    done_testing
    exit
fi
if sanitized_build; then
    skip "callgrind exactness" "$PMUCAL is an AddressSanitizer build (make SAN=1), which valgrind cannot run; plain 'make test' checks it"
    done_testing
    exit
fi

# totals of one collected run: "Ir Bc Bcm Bi Bim"
cg() {
    n=$1; shift
    valgrind --tool=callgrind --branch-sim=yes --cache-sim=no --toggle-collect=gen_measured_region \
        --callgrind-out-file="$TMP/cg.out" "$PMUCAL" gen "$@" --repeat "$n" >/dev/null 2>"$TMP/cg.err" || return 1
    awk '/^events:/ { for (i = 2; i <= NF; i++) col[$i] = i } /^totals:/ { print $col["Ir"], $col["Bc"], $col["Bcm"], $col["Bi"], $col["Bim"] }' "$TMP/cg.out"
}

# case | mispredicts to check: none, conditional (Bcm vs br.mispred within 5%), indirect (Bim vs br.mispred within 5%), skip
while IFS='|' read -r case mis; do
    case=$(echo "$case" | sed 's/ *$//'); mis=$(echo "$mis" | tr -d ' ')
    [ -z "$case" ] && continue
    # shellcheck disable=SC2086
    model=$($PMUCAL run $case --iters 2 -r 1 -e page-faults --json 2>/dev/null | head -1 | jq -c '.model')
    # shellcheck disable=SC2086
    a=$(cg $N1 $case); b=$(cg $N2 $case)
    if [ -z "$a" ] || [ -z "$b" ] || [ -z "$model" ]; then
        ok 1 "$case: callgrind or the model failed: $(tail -2 "$TMP/cg.err")"
        continue
    fi
    per() { # column of "Ir Bc Bcm Bi Bim" per iteration
        echo "$a $b" | awk -v c="$1" -v d=$((N2 - N1)) '{ printf "%.6g", ($(c + 5) - $c) / d }'
    }
    q() { echo "$model" | jq -r ".\"$1\""; }
    is_close "$(per 1)" "$(q inst)" 0 "$case: callgrind Ir per iteration = model inst"
    is_close "$(per 2)" "$(q br.cond)" 0 "$case: callgrind Bc per iteration = model br.cond"
    is_close "$(per 4)" "$(q br.indirect)" 0 "$case: callgrind Bi per iteration = model br.indirect (indirect jumps and calls)"
    # A predictor's warm-up is per run, and where it lands in callgrind's table of 2-bit counters
    # depends on where the code was mapped (ASLR): two runs' warm-ups differ by up to two
    # mispredicts per static branch. The loop holds no more static branches than it executes an
    # iteration (+2 for entry and exit), so that much per N2 - N1 is warm-up; one branch
    # mispredicting every iteration adds 1 per iteration, hundreds of times more.
    warm() { echo "$model" | jq -r --arg k "$1" --argjson d $((N2 - N1)) '2 * (.[$k] + 2) / $d'; }
    case $mis in
        none) is_close "$(per 3)" 0 "$(warm br.cond)" "$case: callgrind's predictor mispredicts no conditional branch beyond warm-up"
              is_close "$(per 5)" 0 "$(warm br.indirect)" "$case: nor any indirect one" ;;
        conditional) m=$(q br.mispred)
              is_close "$(per 3)" "$m" "$(echo "$m" | awk '{ print $1 * 0.05 }')" "$case: callgrind Bcm within 5% of model br.mispred" ;;
        indirect) m=$(q br.mispred)
              is_close "$(per 5)" "$m" "$(echo "$m" | awk '{ print $1 * 0.05 }')" "$case: callgrind Bim within 5% of model br.mispred" ;;
    esac
done <<'ROWS'
ifetch size=1k                                  | none
ifetch size=L1                                  | none
ifetch size=40K order=random                    | none
branch pattern=taken                            | none
branch pattern=never                            | none
branch pattern=random                           | conditional
branch pattern=random branches=100 density=4    | conditional
branch pattern=alternate                        | skip
branch pattern=period period=8 branches=3       | skip
branch kind=uncond branches=64                  | none
branch kind=uncond branches=2000 order=linear   | none
branch kind=indirect pattern=random targets=4   | indirect
branch kind=indirect pattern=period targets=8   | skip
callchain depth=8                               | none
callchain depth=40 kind=indirect                | skip
bbexec                                          | skip
bbexec copy=16 sqrts=4                          | skip
ROWS

# 'pmucal validate --source sim' over these kernels' default cases (every event, exit 0, no 'not
# ok') is tests/55-sources-sim.t's whole default matrix, measured there once.
done_testing
