#!/bin/sh
# The code kernel and 'pmucal code': the user's snippet assembled, looped and counted exactly
# under sim; every class of bad code refused or caught with its reason, the rest of a table kept.
. "$(dirname "$0")/lib.sh"

if ! command -v as > /dev/null; then
    skip "the code kernel" "binutils' as is not installed (Debian package binutils)"
    done_testing
    exit
fi

# Text that does not assemble: the assembler's message, on the snippet's own line.
$PMUCAL run code 'add %rcx, %rax
bogus %rax' -e page-faults > "$TMP/asm.out" 2> "$TMP/asm.err"
rc=$?
[ $rc -ne 0 ] && grep -q "does not assemble: line 2: .*bogus" "$TMP/asm.err"
ok $? "bad text: exit $rc and the assembler's message with the snippet's line: $(head -c 300 "$TMP/asm.err")"

# A branch out of the snippet, to a symbol or past its end, and a call: refused before running.
$PMUCAL run code 'jmp elsewhere' -e page-faults > /dev/null 2> "$TMP/out1.err"
rc=$?
[ $rc -ne 0 ] && grep -q "refers to 'elsewhere' outside itself" "$TMP/out1.err"
ok $? "a jump to a symbol outside: refused (exit $rc): $(head -c 300 "$TMP/out1.err")"
$PMUCAL run code 'jmp .+64; nop' -e page-faults > /dev/null 2> "$TMP/out2.err"
rc=$?
[ $rc -ne 0 ] && grep -q "branches out of the snippet" "$TMP/out2.err"
ok $? "a jump past the snippet's end: refused (exit $rc): $(head -c 300 "$TMP/out2.err")"
$PMUCAL run code 'ret' -e page-faults > /dev/null 2> "$TMP/out3.err"
rc=$?
[ $rc -ne 0 ] && grep -q "leaves the snippet" "$TMP/out3.err"
ok $? "a return: refused (exit $rc)"
$PMUCAL run code 'push %rax' -e page-faults > /dev/null 2> "$TMP/out4.err"
rc=$?
[ $rc -ne 0 ] && grep -q "stack pointer" "$TMP/out4.err"
ok $? "a push: refused, the stack is the loop's (exit $rc)"
$PMUCAL run code 'add %rdi, %rax' -e page-faults > /dev/null 2> "$TMP/out5.err"
rc=$?
[ $rc -ne 0 ] && grep -q "names %rdi, which the loop keeps" "$TMP/out5.err"
ok $? "the loop's counter named: refused (exit $rc)"

# A snippet with no way to chain: its output read by nothing, or a zeroing idiom.
for s in 'mov $1, %rax' 'xor %eax, %eax' 'cmp %rcx, %rax'; do
    $PMUCAL run code "$s" -e page-faults > /dev/null 2> "$TMP/chain.err"
    rc=$?
    [ $rc -ne 0 ] && grep -q "cannot chain" "$TMP/chain.err"
    ok $? "'$s' cannot chain: refused (exit $rc): $(head -c 200 "$TMP/chain.err")"
done

# Faults in the measured code: caught, named with the instruction; a table keeps the other rows.
cat > "$TMP/bad.txt" <<'ROWS'
# faulting rows between good ones
good1 | add %rcx, %rax | mode=latency
ud    | ud2; add %rcx, %rax | chain=rax mode=latency
wild  | mov (%rax), %rax | mode=latency
priv  | hlt; add %rcx, %rax | chain=rax mode=latency
good2 | imul %rax, %rax | mode=latency
ROWS
$PMUCAL code "$TMP/bad.txt" -e page-faults -r 3 --target-ms 5 > "$TMP/bad.tap" 2> "$TMP/bad.err"
rc=$?
[ $rc -eq 1 ]; ok $? "a table with faulting rows exits 1, not a crash (exit $rc)"
grep -q "^ok .* good1 latency: [0-9.]* cycles" "$TMP/bad.tap" && grep -q "^ok .* good2 latency: [0-9.]* cycles" "$TMP/bad.tap"
ok $? "the good rows before and after the faults are measured: $(grep -c '^ok' "$TMP/bad.tap") ok lines"
grep -q "^not ok .* ud latency.*SIGILL .*'ud2'" "$TMP/bad.tap"
ok $? "ud2: SIGILL named with the instruction: $(grep ' ud latency' "$TMP/bad.tap" | head -c 300)"
grep -q "^not ok .* wild latency.*SIGSEGV .*'mov (%rax),%rax'" "$TMP/bad.tap"
ok $? "a wild load: SIGSEGV named with the instruction"
grep -q "^not ok .* priv latency.*SIGSEGV .*'hlt'" "$TMP/bad.tap"
ok $? "a privileged instruction: caught and named: $(grep ' priv latency' "$TMP/bad.tap" | head -c 300)"

# The snippet file's grammar: a bad line is named with its number.
printf 'ok1 | add %%rcx, %%rax\nbad name | add %%rcx,%%rax | mode=latency\n' > "$TMP/gram.txt"
$PMUCAL code "$TMP/gram.txt" > /dev/null 2> "$TMP/gram.err"
rc=$?
[ $rc -eq 2 ] && grep -q "gram.txt:2: the name 'bad name'" "$TMP/gram.err"
ok $? "a bad name: exit $rc naming the file and line: $(cat "$TMP/gram.err")"
printf 'x | add %%rcx, %%rax | speed=fast\n' > "$TMP/opt.txt"
$PMUCAL code "$TMP/opt.txt" > /dev/null 2> "$TMP/opt.err"
rc=$?
[ $rc -eq 2 ] && grep -q "opt.txt:1: 'speed=fast' is not an option" "$TMP/opt.err"
ok $? "an unknown option: exit $rc: $(cat "$TMP/opt.err")"

if ! command -v valgrind > /dev/null || sanitized_build; then
    skip "the snippet's counts under sim" "valgrind is missing or this is an ASan build"
    done_testing
    exit
fi
# Counts exact under sim: instructions from the object, loads and stores from the operands,
# jumps followed (the nop jumped over is not counted), both modes.
cat > "$TMP/sim.txt" <<'ROWS'
add_rr   | add %rcx, %rax
load_add | add (%rsi), %rax
st_ld    | mov %rax, 8(%rsi); mov 8(%rsi), %rax | mode=latency
jumped   | jmp 1f; nop; 1: imul %rax, %rax | mode=latency
zmm      | vaddpd %zmm1, %zmm0, %zmm0 | mode=latency
ROWS
$PMUCAL code "$TMP/sim.txt" --source sim -e sim::Ir,sim::Dr,sim::Dw,sim::Bc --format json > "$TMP/sim.json" 2> "$TMP/sim.err"
rc=$?
[ $rc -eq 0 ]; ok $? "the sim table exits 0 (exit $rc): $(grep -v 'geometry\|SKIP' "$TMP/sim.err" | head -c 300)"
n=$(jq '[.snippets[].counts[] | select(.verdict == "ok")] | length' "$TMP/sim.json")
bad=$(jq '[.snippets[].counts[] | select(.verdict != "ok")] | length' "$TMP/sim.json")
[ "$n" = 24 ] && [ "$bad" = 0 ]
ok $? "every count exact under sim: $n ok, $bad not (want 24 and 0)"
ir=$(jq '.snippets[] | select(.name == "jumped") | .counts[] | select(.event == "sim::Ir") | .measured' "$TMP/sim.json")
cp=$(jq '.snippets[] | select(.name == "jumped") | .copies' "$TMP/sim.json")
[ -n "$ir" ] && [ "$(echo "$ir $cp" | awk '{ print ($1 == 2 * $2 + 2) }')" = 1 ]
ok $? "a jump followed: $ir instructions an iteration for $cp copies of jmp + imul, the nop skipped"
dr=$(jq '.snippets[] | select(.name == "st_ld") | .counts[] | select(.event == "sim::Dr") | .measured' "$TMP/sim.json")
dw=$(jq '.snippets[] | select(.name == "st_ld") | .counts[] | select(.event == "sim::Dw") | .measured' "$TMP/sim.json")
cp=$(jq '.snippets[] | select(.name == "st_ld") | .copies' "$TMP/sim.json")
[ -n "$dr" ] && [ "$dr" = "$cp" ] && [ "$dw" = "$cp" ]
ok $? "a store and a load a copy: Dr $dr, Dw $dw for $cp copies"
jq -e '.snippets[] | select(.name == "zmm") | .status == "skip" and (.reason | test("AVX-512"))' "$TMP/sim.json" > /dev/null
ok $? "an AVX-512 snippet where it cannot run is a SKIP saying so: $(jq -r '.snippets[] | select(.name == "zmm") | .reason' "$TMP/sim.json")"
# sim counts but does not time: no row is ok, and the C header defines no constant (a cycles
# figure it never measured would be NaN), each withheld with the reason.
ran=$(jq '[.snippets[] | select(.name != "zmm")] | length' "$TMP/sim.json")
jq -e '[.snippets[] | select(.name != "zmm") | .status == "withheld" and (.reason | test("no timing"))] | length >= 4 and all' "$TMP/sim.json" > /dev/null
ok $? "under sim every snippet that ran is withheld, counts only: $(jq -c '[.snippets[] | .status]' "$TMP/sim.json")"
$PMUCAL code "$TMP/sim.txt" --source sim -e sim::Ir --format c > "$TMP/sim.h" 2> /dev/null
rc=$?
[ $rc -eq 0 ] && ! grep -q '^#define PMUCAL_CODE_[A-Z0-9_]* ' "$TMP/sim.h" && [ "$(grep -c 'not defined: withheld: no timing under the sim source' "$TMP/sim.h")" = "$ran" ]
ok $? "the sim header defines no constant, $ran withheld (exit $rc): $(grep -m1 'not defined' "$TMP/sim.h")"
done_testing
