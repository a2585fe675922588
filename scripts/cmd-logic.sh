#!/bin/sh
# How much of cmd/ only commands: its lines, and each function of cmd/*.c classed "command" or
# "logic", so the figure can be taken again at any commit.
# Usage: scripts/cmd-logic.sh [-v] [COMMIT]   (default: the work tree; -v lists every function)
#
# What a function of cmd/ may do, and be a "command":
#   - be the command's entry: main, *_main;
#   - parse or explain its options: cli_*, *_option, *_options, *parse*, *usage*, *help*, *_args,
#     measure_cli_* (the measuring commands' shared options);
#   - keep the command table: command*, *_command, commands_*;
#   - wire subsystems together or decide the exit status: any other function whose body (strings
#     and comments removed) is calls and ifs only: no loop (for, while), no formatting (printf,
#     fprintf, snprintf, fputs, fputc, putchar, puts, json_*, html_*, tap_*), no arithmetic (a
#     binary + - / %), no subscript ([) and at most two comparisons (< > <= >= ==).
# Every other function is "logic": it computes, models, formats or writes data.
# A function is a definition whose opening brace stands alone in column 0 (the tree's style); its
# name is the last identifier before '(' on the first line of the signature above it, and its
# lines run from that line to its closing brace in column 0.
set -eu
cd "$(dirname "$0")/.."
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
commit=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$commit" ]; then
    git rev-parse --verify -q "$commit^{commit}" > /dev/null || { echo "cmd-logic: $commit is not a commit" >&2; exit 2; }
    files=$(git ls-tree --name-only "$commit" cmd/ | grep '\.[ch]$' || true)
    for f in $files; do mkdir -p "$tmp/cmd"; git show "$commit:$f" > "$tmp/$f"; done
    where="$commit"
else
    files=$(ls cmd/*.c cmd/*.h 2> /dev/null || true)
    for f in $files; do mkdir -p "$tmp/cmd"; cp "$f" "$tmp/$f"; done
    where="the work tree"
fi
echo "$files" | grep -q '\.c$' || { echo "cmd-logic: $where has no cmd/*.c to measure" >&2; exit 2; }
cd "$tmp"
lines=$(cat cmd/*.c cmd/*.h 2> /dev/null | wc -l)
cfiles=$(ls cmd/*.c | wc -l)
hfiles=$(ls cmd/*.h 2> /dev/null | wc -l)
awk '
function strip(s) {   # strings, character constants and comments out of a line of code
    gsub(/\\./, "", s); gsub(/"[^"]*"/, "\"\"", s); gsub(/\047[^\047]*\047/, "0", s)
    if (incomment) { if (sub(/.*\*\//, "", s)) incomment = 0; else return "" }
    gsub(/\/\*([^*]|\*[^\/])*\*\//, "", s); sub(/\/\/.*/, "", s)
    if (sub(/\/\*.*/, "", s)) incomment = 1
    return s
}
FNR == 1 { sig = 0; infn = 0; incomment = 0 }
{
    code = strip($0)
    if (!infn && $0 ~ /^[A-Za-z_]/ && $0 !~ /^(#|typedef|struct [a-z_]+ \{|enum|union)/ && $0 ~ /\(/ && $0 !~ /;[ \t]*$/ && $0 !~ /=/) {
        s = $0; gsub(/__attribute__[ \t]*\(\([^)]*\)\)/, "", s); sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/); name = w[n]; sig = FNR; file = FILENAME
    }
    if (!infn && $0 == "{" && sig) { infn = 1; body = ""; next }
    if (infn && $0 == "}") {
        len = FNR - sig + 1
        cmd = name ~ /^(main|cli_.*|measure_cli_.*|command.*|commands_.*)$/ ||
              name ~ /(_main|_option|_options|_args|_command)$/ || name ~ /(parse|usage|help)/
        why = cmd ? "name" : ""
        ops = body; gsub(/->|\+\+|--|<<|>>/, " ", ops); gsub(/return[ \t]*-/, "return ", ops)
        ncmp = gsub(/[<>]=?|==/, " ", ops)
        if (!cmd && body !~ /(^|[^A-Za-z0-9_])(for|while)[ \t]*\(/ &&
            body !~ /(^|[^A-Za-z0-9_])(printf|fprintf|snprintf|vfprintf|fputs|fputc|putchar|puts|json_[a-z_]*|html_[a-z_]*|tap_[a-z_]*)[ \t]*\(/ &&
            ops !~ /[A-Za-z0-9_)\]][ \t]*[-+\/%][ \t]*[A-Za-z0-9_(]/ && ops !~ /\[/ && ncmp <= 2) {
            cmd = 1; why = "calls"
        }
        printf "%s\t%s\t%d\t%s\t%s\n", file, name, len, cmd ? "command" : "logic", why
        infn = 0; sig = 0; next
    }
    if (infn) body = body " " code
}' cmd/*.c > functions
cd - > /dev/null
if [ "$verbose" = 1 ]; then
    printf '%-22s %-34s %6s  %s\n' file function lines class
    awk -F'\t' '{ printf "%-22s %-34s %6d  %s%s\n", $1, $2, $3, $4, $5 == "calls" ? " (calls only)" : "" }' "$tmp/functions"
fi
echo "cmd/ at $where: $lines lines in $cfiles .c and $hfiles .h files"
awk -F'\t' '{ n[$4]++; l[$4] += $3; t++; tl += $3 }
END { printf "functions: %d (%d lines); command %d (%d lines), logic %d (%d lines)\n", t, tl, n["command"], l["command"], n["logic"], l["logic"] }' "$tmp/functions"
