# Runs of one host merged into one table: for every (case, event) the newest run's measurement.
#   jq -n -c -f scripts/merge-host.jq R1/manifest.json R1/measurements.ndjson R2/manifest.json ...
# Each run folder's manifest.json must come before its measurements.ndjson. Output: one JSON line
# per (case, event): {case, event, run, started, median, mad, verdict, attr, unsupported}, in case
# and event order. Runs of different hosts (hostname or CPU id) are an error naming both.
def dir: sub("/[^/]*$"; "");
reduce inputs as $x ({runs: {}, rec: []};
    (input_filename | dir) as $d
    | if (input_filename | endswith("manifest.json")) then .runs[$d] = $x
      elif .runs[$d] == null then error("\(input_filename): give \($d)/manifest.json before it")
      else .rec += [{run: $d, r: $x}] end)
| .runs as $runs
| ($runs | to_entries | map({run: .key, host: "\(.value.hostname) \(.value.cpu.id)"})) as $hosts
| if ($hosts | map(.host) | unique | length) > 1
  then error("runs of different hosts: " + ($hosts | map("\(.run) is \(.host)") | join(", ")))
  else . end
| [.rec[] | .run as $d | .r as $r | $r.events[]
   | {case: $r.case, event: .name, run: $d, started: ($runs[$d].started // $runs[$d].date),
      median: .stats.median, mad: .stats.mad, verdict: .verdict.kind, attr, unsupported}]
| group_by([.case, .event])
| map(max_by(.started))
| sort_by(.case, .event)[]
