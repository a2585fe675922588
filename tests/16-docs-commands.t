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
"$PMUCAL" kernels --help | grep '^  -' | while read -r line; do
    grep -qF -- "$line" docs/commands/pmucal-kernels.md || echo "$line"
done > "$TMP/missing"
[ ! -s "$TMP/missing" ]
ok $? "pmucal-kernels.md lists every option of 'pmucal kernels --help': $(head -c 200 "$TMP/missing")"
done_testing
