# Event list -> groups of N, one comma-separated group a line, for people driving perf by hand:
#   jq -R -s -r --argjson n 4 -f scripts/groups.jq events.txt | while read g; do perf stat -e "{$g}" ...; done
# Drops '#' comments and blank lines, keeps the order. It does not know counter restrictions or
# shared MSRs: 'pmucal groups' does (offcore events at most 2 a group, --vendor-json counter lists).
($n // 4) as $size
| split("\n")
| map(sub("#.*$"; "") | gsub("^\\s+|\\s+$"; "") | select(length > 0))
| [range(0; length; $size) as $i | .[$i:$i + $size] | join(",")]
| .[]
