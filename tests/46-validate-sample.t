#!/bin/sh
# pmucal sample on this host's software events: page faults of walker's touch phase are taken at
# the faulting store, one sample per page at period 1 (rate exact, skid 0, no instruction shadowed);
# a sample stream altered on purpose (PMUCAL_SAMPLE_PERTURB: records dropped, addresses moved) and
# a ring too small to hold the samples (PERF_RECORD_LOST) are not ok, with how many.
. "$(dirname "$0")/lib.sh"
TOUCH="walker phase=touch size=1M page=4k"
PAGES=256
R=3
N=$((PAGES * R))

$PMUCAL sample $TOUCH -e page-faults --iters $PAGES -r $R --label touch > "$TMP/touch.tap" 2> "$TMP/touch.err"
rc=$?
ok $rc "sample page-faults on the touch phase: exit $rc $(head -c 300 "$TMP/touch.err")"
levels=$(sed -n 's/^# .*:: page-faults: precise_ip levels the Linux kernel takes: //p' "$TMP/touch.tap")
nlev=$(echo "$levels" | wc -w)
[ "$nlev" -ge 1 ]
ok $? "the precise_ip levels the kernel takes are listed: '$levels'"
# verdict | what each level's line must say
while IFS='|' read -r kind says; do
    kind=$(echo "$kind" | tr -d ' '); says=$(echo "$says" | sed 's/^ *//; s/ *$//')
    [ -z "$kind" ] && continue
    got=$(grep -c "^ok .*:: page-faults precise=[0-3] $kind: .*$says" "$TMP/touch.tap")
    [ "$got" = "$nlev" ]
    ok $? "$kind ok at each of the $nlev levels, saying '$says' (got $got): $(grep -m1 " $kind: " "$TMP/touch.tap")"
done <<ROWS
rate   | $N samples x 1 = $N where the event counted $N ($N.0 due); model $N
skid   | $N samples in the loop, distances 0:$N, mean 0.000; 0 outside the loop
shadow | $N samples over 1 causing instruction $N\$
ROWS
RUN=$(ls -d "$PMUCAL_RESULTS"/*-touch | head -n 1)
jq -s -e --argjson n $N --argjson l "$nlev" 'length == $l and all(.[];
    .kind == "sample" and .samples == $n and .count == $n and .lost == 0 and .outside == 0
    and ([.histogram[] | select(.samples > 0)] == [{inst: 0, what: "store", offset: 0, weight: 1, samples: $n}])
    and (.histogram | length) == 4 and .skid[0] == $n)' "$RUN/measurements.ndjson" > /dev/null
ok $? "each record keeps the address histogram: all $N samples on instruction 0, the store; none elsewhere"
jq -e '.status == "complete" and .sample.period == 0' "$RUN/manifest.json" > /dev/null
ok $? "the run folder's manifest: complete, the sampling settings"
grep -q "^# .*precise=0 overhead -\{0,1\}[0-9]* ns per sample" "$TMP/touch.tap"
ok $? "the overhead per sample is reported: $(grep -m1 'overhead' "$TMP/touch.tap")"

# The stream perturbed: PMUCAL_SAMPLE_PERTURB | verdict not ok | it says | verdicts still ok
while IFS='|' read -r env bad says good; do
    env=$(echo "$env" | tr -d ' '); bad=$(echo "$bad" | tr -d ' '); good=$(echo "$good" | sed 's/^ *//; s/ *$//')
    says=$(echo "$says" | sed 's/^ *//; s/ *$//')
    [ -z "$env" ] && continue
    PMUCAL_SAMPLE_PERTURB=$env $PMUCAL sample $TOUCH -e page-faults --iters $PAGES -r $R --precise 0 \
        > "$TMP/p.tap" 2> "$TMP/p.err"
    prc=$?
    nbad=$(grep -c "^not ok .* $bad: .*$says" "$TMP/p.tap")
    ngood=0
    for g in $good; do ngood=$((ngood + $(grep -c "^ok .* $g: " "$TMP/p.tap"))); done
    [ $prc = 1 ] && [ "$nbad" = 1 ] && [ "$ngood" = "$(echo $good | wc -w)" ] && [ "$(grep -c '^not ok' "$TMP/p.tap")" = 1 ]
    ok $? "PMUCAL_SAMPLE_PERTURB=$env: $bad not ok saying '$says', $good ok (exit $prc): $(grep -m1 '^not ok' "$TMP/p.tap")"
done <<ROWS
drop=10 | rate | $((N - N / 10)) samples x 1 = $((N - N / 10)) where the event counted $N ($N.0 due): $((N / 10)) missing | skid shadow
move=8  | skid | $((N / 8)) samples off their causing instruction where zero skid is promised | rate shadow
ROWS

# compare of two sampling runs: BASE clean, NEW clean or perturbed.
$PMUCAL sample $TOUCH -e page-faults --iters $PAGES -r $R --precise 0 --label base > /dev/null 2>&1
BASE=$(ls -d "$PMUCAL_RESULTS"/*-base | head -n 1)
# PMUCAL_SAMPLE_PERTURB of NEW | compare's exit | what its one point says
while IFS='|' read -r env want says; do
    env=$(echo "$env" | tr -d ' '); want=$(echo "$want" | tr -d ' '); says=$(echo "$says" | sed 's/^ *//; s/ *$//')
    [ -z "$want" ] && continue
    lbl=new-${env:-clean}; lbl=$(echo "$lbl" | tr '=' '-')
    PMUCAL_SAMPLE_PERTURB=$env $PMUCAL sample $TOUCH -e page-faults --iters $PAGES -r $R --precise 0 --label "$lbl" > /dev/null 2>&1
    $PMUCAL compare "$BASE" "$(ls -d "$PMUCAL_RESULTS"/*-"$lbl" | head -n 1)" > "$TMP/cmp.tap" 2> "$TMP/cmp.err"
    crc=$?
    [ $crc = "$want" ] && [ "$(grep -c '^\(not \)\{0,1\}ok' "$TMP/cmp.tap")" = 1 ] && grep -q -- "$says" "$TMP/cmp.tap"
    ok $? "compare BASE with NEW ${env:-unaltered}: exit $crc, '$says': $(grep -m1 '^\(not \)\{0,1\}ok' "$TMP/cmp.tap") $(head -c 200 "$TMP/cmp.err")"
done <<ROWS
        | 0 | ^ok 1 - .* page-faults precise=0 same: rate 1.0000 -> 1.0000, skid mean 0.000 -> 0.000\$
drop=10 | 1 | ^not ok 1 - .* changed: .*rate 1.0000 -> 0.9010 samples per due sample ($((N - N / 10)) where $N expected)
move=1  | 1 | ^not ok 1 - .* changed: .*skid distribution changed .*; newly shadowed: inst 0 store ($N due, $N before)
ROWS
$PMUCAL compare "$BASE" "$RUN" > /dev/null 2> "$TMP/cmp.err"
crc=$?
$PMUCAL compare "$BASE" results/reference/zen5-vm-validate-perf > /dev/null 2> "$TMP/cmp2.err"
crc2=$?
[ $crc = 0 ] && [ $crc2 = 2 ] && grep -q "made by 'pmucal sample'" "$TMP/cmp2.err"
ok $? "compare: a sampling run against one at every level (exit $crc: the levels BASE lacks SKIP), and against a validate run: exit $crc2, $(head -c 200 "$TMP/cmp2.err")"

# The report of a sampling run: the sample map (the moved samples off the store, on the add) and
# the skid histogram; a validate run's page has no such section.
MOVED=$(ls -d "$PMUCAL_RESULTS"/*-new-move-1 | head -n 1)
$PMUCAL report "$MOVED" --out "$TMP/sample.html" > /dev/null 2> "$TMP/rep.err"
rrc=$?
[ $rrc = 0 ] && grep -q '<h2>Samples: where they land</h2>' "$TMP/sample.html" &&
    grep -q "<td>store</td><td class=\"num\">1.0000</td><td class=\"num\">0</td>" "$TMP/sample.html" &&
    grep -q "<td>add</td><td class=\"num\">0.0000</td><td class=\"num\">$N</td>" "$TMP/sample.html" &&
    grep -q "<tr><td class=\"num\">1</td><td class=\"num\">$N</td>" "$TMP/sample.html"
ok $? "report of a sampling run: the map (store weight 1, 0 samples; add weight 0, $N) and skid 1: $N (exit $rrc) $(head -c 200 "$TMP/rep.err")"
$PMUCAL report results/reference/zen5-vm-validate-perf --out "$TMP/validate.html" > /dev/null 2>&1
[ -s "$TMP/validate.html" ] && ! grep -q 'Samples: where they land' "$TMP/validate.html"
ok $? "a validate run's page has no sampling section"

# A ring of one page cannot hold 1024 samples: the kernel's PERF_RECORD_LOST is counted.
$PMUCAL sample walker phase=touch size=4M page=4k -e page-faults --iters 1024 -r 1 --precise 0 --ring-pages 1 \
    > "$TMP/lost.tap" 2> "$TMP/lost.err"
rc=$?
[ $rc = 1 ] && grep -q '^not ok .* rate: .* missing; 922 lost ([0-9]* PERF_RECORD_LOST)' "$TMP/lost.tap"
ok $? "a one-page ring: rate not ok, the lost samples counted (exit $rc): $(grep -m1 ' rate: ' "$TMP/lost.tap")"

# A kernel without an instruction map, and an event this host may not sample.
$PMUCAL sample stlf -e page-faults,instructions --iters 1000 -r 1 --precise 0 > "$TMP/nomap.tap" 2> "$TMP/nomap.err"
grep -q '^ok .* :: page-faults precise=0 skid and shadow # SKIP stlf states no instruction map' "$TMP/nomap.tap"
ok $? "a kernel that states no map: skid and shadow SKIP saying so"
inst=$(grep ':: instructions' "$TMP/nomap.tap" | grep -v '^#')
echo "$inst" | grep -q '^ok [0-9]* - stlf :: instructions # SKIP .' || echo "$inst" | grep -q ':: instructions precise=[0-3] rate: '
ok $? "instructions: a SKIP with the reason where the host cannot count or sample it, else a rate verdict: $inst"

# Bad input: one message naming it, exit 2.
while IFS='|' read -r env args says; do
    args=$(echo "$args" | sed 's/^ *//; s/ *$//'); says=$(echo "$says" | sed 's/^ *//; s/ *$//'); env=$(echo "$env" | tr -d ' ')
    [ -z "$args" ] && continue
    env ${env:+"$env"} $PMUCAL sample $args > /dev/null 2> "$TMP/bad.err"
    brc=$?
    [ $brc = 2 ] && grep -q -- "$says" "$TMP/bad.err"
    ok $? "sample $args ${env:+($env)}: exit $brc, '$(head -c 200 "$TMP/bad.err")'"
done <<'ROWS'
PMUCAL_SAMPLE_PERTURB=skip=3 | walker -e page-faults                                | PMUCAL_SAMPLE_PERTURB='skip=3': 'skip=3' is not drop=K or move=K
                             | walker -e page-faults --ring-pages 3                 | --ring-pages 3 is not a power of two
                             | walker -e page-faults --precise 4                    | --precise
                             | walker phase=touch size=1M page=4k -e page-faults --iters 300 | at most 256 iterations
                             | -e page-faults                                       | name a kernel
ROWS

# A full disk (a file size limit: pmucal ignores SIGXFSZ, so the write fails with EFBIG). The limit,
# in the shell's 512-byte blocks, holds this host's manifest (an earlier run's, 2K to spare) but
# not the 16 records of about 1K each: the run
# stops with the record it could not write left out whole, the manifest says failed, and --resume
# measures only the (event, level) pairs not kept, so the folder ends with each of them once.
evs=page-faults,minor-faults,task-clock,cpu-clock
blocks=$(( ($(wc -c < "$RUN/manifest.json") + 2048) / 512 + 1 ))
(ulimit -f $blocks; $PMUCAL sample walker phase=touch size=1M page=4k -e $evs --iters 256 --label full) > "$TMP/full.tap" 2> "$TMP/full.err"
rc=$?
d=$(ls -d "$PMUCAL_RESULTS"/*-full 2> /dev/null | head -n 1)
lines=$(wc -l 2> /dev/null < "$d/measurements.ndjson" || echo 0)
[ $rc = 1 ] && [ "$lines" -ge 1 ] && [ "$lines" -lt 16 ] && jq -e . "$d/measurements.ndjson" > /dev/null 2>&1 &&
    [ "$(tail -c 1 "$d/measurements.ndjson" | od -An -c | tr -d ' ')" = '\n' ] &&
    grep -q 'cannot append to .*measurements.ndjson' "$TMP/full.err" &&
    jq -e '.status == "failed" and .status_reason == "a record could not be written"' "$d/manifest.json" > /dev/null
ok $? "sample, disk full: exit $rc, $lines whole records kept, the run failed: $(grep -m1 'cannot append' "$TMP/full.err" | head -c 120)"
# Its records are data: a precise level that is not whole is refused; a verdict the writer never
# writes (todo, which would fail nothing) makes the record not kept, so its level is measured again.
rm -rf "$TMP/frac" "$TMP/todo" && cp -R "$d" "$TMP/frac" && cp -R "$d" "$TMP/todo"
jq -c 'if input_line_number == 1 then .precise_ip = 2.5 else . end' "$d/measurements.ndjson" > "$TMP/frac/measurements.ndjson"
$PMUCAL sample --resume "$TMP/frac" > /dev/null 2> "$TMP/frac.err"
rc=$?
[ $rc = 2 ] && grep -q 'measurements.ndjson:1 .*a whole precise_ip' "$TMP/frac.err"
ok $? "sample --resume refuses a record whose precise_ip is 2.5 (exit $rc): $(head -c 200 "$TMP/frac.err")"
jq -c 'if input_line_number == 1 then .verdicts.rate = "todo" else . end' "$d/measurements.ndjson" > "$TMP/todo/measurements.ndjson"
$PMUCAL sample --resume "$TMP/todo" > /dev/null 2> "$TMP/todo.err"
rc=$?
[ $rc -le 1 ] && jq -e --argjson k "$lines" '.resumed[0].records_kept == $k - 1 and .resumed[0].records_dropped == 1' "$TMP/todo/manifest.json" > /dev/null
ok $? "sample --resume measures again a record whose rate verdict says todo (exit $rc): $(jq -c .resumed "$TMP/todo/manifest.json" 2> /dev/null)"
$PMUCAL sample --resume "$d" > "$TMP/full2.tap" 2> "$TMP/full2.err"
rc=$?
keys=$(jq -r '"\(.event) \(.precise_ip)"' "$d/measurements.ndjson" 2> /dev/null | sort)
[ $rc -le 1 ] && [ "$(echo "$keys" | wc -l)" = 16 ] && [ -z "$(echo "$keys" | uniq -d)" ] &&
    jq -e --argjson k "$lines" '.status == "complete" and .resumed[0].records_kept == $k' "$d/manifest.json" > /dev/null
ok $? "sample --resume after the full disk: $lines records kept, every (event, level) once in the end (exit $rc, $(jq -c .resumed "$d/manifest.json" 2> /dev/null))"
done_testing
