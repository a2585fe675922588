# A CSV of per-event medians of one run, one row per (case, event):
#   jq -r -s -f scripts/medians-csv.jq RUN/measurements.ndjson > medians.csv
# Columns: case, kernel, event, median, min, max, mad (per iteration), iters, repetitions, verdict,
# unsupported (the reason, empty when counted). Fields are quoted as CSV wants (@csv).
["case", "kernel", "event", "median", "min", "max", "mad", "iters", "repetitions", "verdict", "unsupported"],
(.[] | . as $r | .events[]
 | [$r.case, $r.kernel, .name, .stats.median, .stats.min, .stats.max, .stats.mad, $r.iters, $r.repetitions,
    (.verdict.kind // ""), (.unsupported // "")])
| @csv
