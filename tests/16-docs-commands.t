#!/bin/sh
# docs/commands/ is written by scripts/docs-commands.sh from the binary's --help (the option tables
# the commands parse): each page must be what the script writes now, one page a command and no
# page of a command that is gone. A stale page fails here, naming 'make docs-commands' as the fix.
. "$(dirname "$0")/lib.sh"
scripts/docs-commands.sh "$PMUCAL" "$TMP/commands" 2> "$TMP/err"
ok $? "scripts/docs-commands.sh writes the pages: $(head -c 200 "$TMP/err")"
n=$(ls "$TMP/commands" | grep -c '^pmucal-.*\.md$')
want=$("$PMUCAL" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { n++ } END { print n + 0 }')
[ "$n" -gt 0 ] && [ "$n" -eq "$want" ]
ok $? "one page a command ($n pages, $want commands in 'pmucal --help')"
diff -r "$TMP/commands" docs/commands > "$TMP/diff"
ok $? "docs/commands/ is what the binary's --help writes now (else run 'make docs-commands'): $(head -n 6 "$TMP/diff" | tr '\n' ' ' | head -c 400)"
# The check sees a stale page: an option line dropped from a copy is a difference.
cp -R docs/commands "$TMP/stale"
sed -i '/^  -h, --help/d' "$TMP/stale/pmucal-kernels.md"
! diff -r "$TMP/commands" "$TMP/stale" > /dev/null
ok $? "a page missing an option the command has is caught"
# Every option the command accepts is on its page: the page is the table, not a summary of it.
"$PMUCAL" kernels --help | grep '^  -' > "$TMP/options"
while read -r line; do
    grep -qF -- "$line" docs/commands/pmucal-kernels.md || echo "$line"
done < "$TMP/options" > "$TMP/missing"
[ -s "$TMP/options" ] && [ ! -s "$TMP/missing" ]
ok $? "pmucal-kernels.md lists every option of 'pmucal kernels --help': $(head -c 200 "$TMP/missing")"
# A binary that fails halfway leaves the pages as they were: the script writes them whole
# elsewhere first. This one lists a command, then fails its --help.
printf '#!/bin/sh\n[ "$1" = --help ] && { printf "Commands:\\n  run  one case\\n\\n"; exit 0; }\nexit 3\n' > "$TMP/badbin"
chmod +x "$TMP/badbin" && cp -R docs/commands "$TMP/kept"
scripts/docs-commands.sh "$TMP/badbin" "$TMP/kept" 2> /dev/null
rc=$?
[ $rc -ne 0 ] && diff -r docs/commands "$TMP/kept" > /dev/null
ok $? "docs-commands.sh with a binary that fails halfway exits $rc and leaves every page"
# scripts/cmd-logic.sh (the cmd/ figure of issue 37) says why when there is nothing to measure.
mkdir -p "$TMP/nocmd/scripts" && cp scripts/cmd-logic.sh "$TMP/nocmd/scripts/"
"$TMP/nocmd/scripts/cmd-logic.sh" > /dev/null 2> "$TMP/cl.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'has no cmd/\*.c to measure' "$TMP/cl.err"
ok $? "cmd-logic.sh in a tree without cmd/ exits $rc: $(cat "$TMP/cl.err")"
scripts/cmd-logic.sh > "$TMP/cl.out" 2>&1
rc=$?
[ $rc -eq 0 ] && awk '/^functions:/ { gsub(/[(),;]/, " "); t = $2; c = $6; l = $10; ok = t > 0 && t == c + l } END { exit !ok }' "$TMP/cl.out"
ok $? "cmd-logic.sh on the work tree: command and logic add up (exit $rc): $(tail -n 1 "$TMP/cl.out")"
done_testing
