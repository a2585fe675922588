# Events whose count, verdict or encoding changed between two runs, one tab-separated line each:
#   jq -n -r --slurpfile base BASE/measurements.ndjson --slurpfile new NEW/measurements.ndjson \
#      [--argjson threshold 0.02] -f scripts/changed.jq
# Columns: case, event, what changed (count|verdict|encoding|support, comma-joined), BASE median,
# NEW median, relative change. A count changed when the medians differ by more than threshold
# (relative, default 2%) and 0.01 per iteration. No noise test: 'pmucal compare' has one.
def points($run): [$run[] | .case as $c | .events[] | {key: "\($c)\t\(.name)", value: .}] | from_entries;
def attr: .attr | tostring;
($ARGS.named.threshold // 0.02) as $t
| points($base) as $b
| points($new) as $n
| $b | keys_unsorted[] as $k
| select($n[$k])
| $b[$k] as $x | $n[$k] as $y
| ($x.stats.median // null) as $mx | ($y.stats.median // null) as $my
| [ (if $mx != null and $my != null and (($my - $mx) | fabs) > ([$t * ($mx | fabs), 0.01] | max) then "count" else empty end),
    (if ($x.verdict.kind // null) != ($y.verdict.kind // null) then "verdict" else empty end),
    (if ($x | attr) != ($y | attr) then "encoding" else empty end),
    (if ($x.unsupported == null) != ($y.unsupported == null) then "support" else empty end) ] as $what
| select($what | length > 0)
| [$k, ($what | join(",")), $mx, $my,
   (if $mx != null and $my != null and $mx != 0 then (($my - $mx) / ($mx | fabs) * 10000 | round / 10000) else null end)]
| map(tostring) | join("\t")
