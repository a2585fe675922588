#!/bin/sh
# Generated code: objdump decodes exactly the intended instructions (golden sequences on small
# sizes, and the assembler's listing agrees line by line); a 64 MiB ifetch kernel is generated
# and its time reported (how fast: scripts/bench-generators.sh); gen's errors name the input and the fix.
. "$(dirname "$0")/lib.sh"

# Mnemonic sequence of a decode, runs collapsed ("movabs*5"); operand-size prefixes dropped.
rle() {
    awk -F'\t' 'NF >= 3 { split($3, w, " "); i = 1; while (w[i] == "data16" || w[i] == "cs") i++; m = w[i]
                 if (m == prev) n++; else { if (prev != "") { out = out sep prev (n > 1 ? "*" n : ""); sep = " " } prev = m; n = 1 } }
                 END { print out sep prev (n > 1 ? "*" n : "") }'
}
# "offset text" per instruction, blanks collapsed: from objdump, and from gen's listing.
from_objdump() {
    awk -F'\t' 'NF >= 3 { off = $1; sub(/^ */, "", off); sub(/:$/, "", off); t = $3; sub(/ *#.*$/, "", t)
                 gsub(/[ ]+/, " ", t); sub(/ $/, "", t); print off " " t }'
}
from_listing() {
    awk '/^#/ { next } { off = $1; sub(/:$/, "", off); i = 2; while ($i ~ /^[0-9a-f][0-9a-f]$/) i++
                 t = $i; for (j = i + 1; j <= NF; j++) t = t " " $j; print off " " t }'
}

# case | the instructions objdump must find, in order
while IFS='|' read -r case want; do
    case=$(echo "$case" | sed 's/ *$//'); want=$(echo "$want" | sed 's/^ *//')
    [ -z "$case" ] && continue
    # shellcheck disable=SC2086
    $PMUCAL gen $case --bin "$TMP/g.bin" --asm "$TMP/g.s" 2>"$TMP/err"
    ok $? "pmucal gen $case writes code and listing"
    objdump -D -b binary -m i386:x86-64 --insn-width=16 "$TMP/g.bin" >"$TMP/g.d"
    is "$(rle <"$TMP/g.d")" "$want" "$case: objdump's instruction sequence"
    from_objdump <"$TMP/g.d" >"$TMP/a"; from_listing <"$TMP/g.s" >"$TMP/b"
    diff "$TMP/a" "$TMP/b" >"$TMP/diff"
    ok $? "$case: gen's listing matches objdump on all $(wc -l <"$TMP/a") instructions$(head -4 "$TMP/diff" | tr '\n' ' ')"
done <<'ROWS'
ifetch size=64                               | movabs*5 sub jae ret jmp
ifetch size=200                              | movabs*19 sub jae ret jmp
ifetch size=192 order=random                 | jmp nopw*5 nopl jmp nopw*5 nopl jmp nopw*5 nopl sub jae ret jmp
branch branches=2 density=4                  | mov and shl add nopw*4 nopl mov nopw bt jb nopw bt jb sub jae ret jmp
branch branches=65 density=4 pattern=random  | mov and shl add nopw*4 nopl mov nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb nopw bt jb mov nopl bt jb sub jae ret jmp
branch kind=uncond branches=3 order=linear   | jmp nopw*2 nopl jmp nopw*2 nopl jmp nopw*2 nopl sub jae ret jmp
branch kind=indirect targets=2               | mov and shl add jmp nopw*4 nop sub jae ret nopw*5 sub jae ret nopw*5 sub jae ret jmp
callchain depth=2                            | call sub jae ret call ret nopw ret jmp
callchain depth=2 kind=indirect              | mov call sub jae ret mov call ret nopw ret jmp
bbexec copy=1 sqrts=1                        | bt jb sqrtsd jmp mov*2 sub jae ret movabs movq jmp
ROWS

# A uncond chain in random order still visits every jump once: each block's jump target is a
# distinct block start or the loop test.
$PMUCAL gen branch kind=uncond branches=64 --bin "$TMP/u.bin" 2>/dev/null
objdump -D -b binary -m i386:x86-64 --insn-width=16 "$TMP/u.bin" | awk -F'\t' '$3 ~ /^jmp/ { split($3, w, " "); print w[2] }' |
    head -64 | sort | uniq -d | wc -l >"$TMP/dups"
is "$(cat "$TMP/dups")" "0" "branch kind=uncond branches=64: no two jumps share a target (one chain through all)"

# ifetch order=random: from the loop test's jae, the jumps visit each of the 64 lines once and end
# at the test, in an order that is not the lines' own (under LRU any order gives the same misses,
# so no count would show a chain laid out in address order).
$PMUCAL gen ifetch size=4096 order=random --bin "$TMP/c.bin" 2>/dev/null
walk=$(objdump -D -b binary -m i386:x86-64 --insn-width=16 "$TMP/c.bin" | awk -F'\t' '
    NF >= 3 { off = $1; sub(/^ */, "", off); sub(/:$/, "", off); split($3, w, " ")
              if (w[1] == "jmp") to[off] = w[2]; if (w[1] == "jae") { first = w[2]; test = off } }
    END { at = first; sub(/^0x/, "", at); n = 0; up = 1
          while (at in to && n < 100) { n++; nx = to[at]; sub(/^0x/, "", nx)
              if (strtonum("0x" nx) < strtonum("0x" at)) up = 0; seen[at]++; at = nx }
          for (k in seen) if (seen[k] > 1) n = -1
          print n, up }')
is "$walk" "64 0" "ifetch size=4096 order=random: the chain from the loop test visits all 64 lines once, not in address order"

# 64 MiB of code, generated and mapped, and the time it took reported. How fast is a benchmark's
# question on a shared machine (scripts/bench-generators.sh: median and spread over 5 runs).
start=$(date +%s%N)
$PMUCAL gen ifetch size=64M --bin /dev/null 2>"$TMP/err"
rc=$?
[ -c /dev/null ]
ok $? "/dev/null is still the device after gen --bin wrote to it"
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
gen_ms=$(sed -n 's/.*generated and mapped in \([0-9.]*\) ms.*/\1/p' "$TMP/err")
bytes=$(sed -n 's/.*\]: \([0-9]*\) bytes, .*/\1/p' "$TMP/err")
ok $rc "pmucal gen ifetch size=64M runs ($(cat "$TMP/err"))"
awk -v g="$gen_ms" -v b="$bytes" 'BEGIN { exit !(g ~ /^[0-9.]+$/ && g > 0 && b >= 64 * 1048576) }'
ok $? "64 MiB ifetch: $bytes bytes generated and mapped, the time reported (${gen_ms} ms; whole command ${ms} ms)"

# Errors name the input and the fix.
out=$($PMUCAL gen walker 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "no generated code"
ok $? "gen walker: exit 2, says walker has no generated code ($out)"
out=$($PMUCAL gen branch pattern=period period=6 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "period=6 is outside its domain 2..1024 pow2"
ok $? "branch period=6 is refused with the rule ($out)"
out=$($PMUCAL gen ifetch --repeat x 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q -- "--repeat x: give a whole number from 1 to"
ok $? "gen --repeat x is refused ($out)"
# --run N is the old spelling of --repeat N: taken, with one note, and shown in no --help.
out=$($PMUCAL gen ifetch size=4k --run 3 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$(echo "$out" | grep -c -- '--run')" -eq 1 ] && echo "$out" | grep -q '^pmucal: gen: --run is now --repeat$' &&
    $PMUCAL gen --help | grep -q -- '^  --repeat N ' && ! $PMUCAL gen --help | grep -q -- '--run'
ok $? "gen --run 3 is --repeat 3 with one note, not in --help (exit $rc): $(echo "$out" | tr '\n' ' ')"
out=$($PMUCAL gen ifetch --asm /nonexistent/dir/x.s 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "/nonexistent/dir/x.s"
ok $? "an unwritable --asm path is named ($out)"
out=$($PMUCAL gen branch kind=indirect pattern=never 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "kind=indirect takes"
ok $? "kind=indirect pattern=never is refused with the choices ($out)"
done_testing
