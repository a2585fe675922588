#!/bin/sh
# scripts/docs-commands.sh BIN DIR: one Markdown page a command, DIR/pmucal-NAME.md, and the index
# DIR/README.md. Every word comes from the binary: the command list from 'BIN --help', each page
# from 'BIN NAME --help'. Those print the option tables the command parses, as the man page
# (--man) and the bash completion do, so a page cannot list an option the command lacks.
# 'make docs-commands' runs this; tests/16-docs-commands.t fails when a page differs from it.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BIN DIR" >&2; exit 2; }
bin=$1 dir=$2
[ -x "$bin" ] || { echo "$0: $bin: no such program; run make first" >&2; exit 2; }
commands=$("$bin" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ -n "$commands" ] || { echo "$0: '$bin --help' lists no commands" >&2; exit 1; }
# Written whole into a folder of its own, then put in place: a binary that fails halfway leaves
# the pages as they were. The generated files only are replaced (a page of a command that no
# longer exists goes too).
new=$(mktemp -d)
trap 'rm -rf "$new"' EXIT
note='<!-- Written by scripts/docs-commands.sh from the binary'"'"'s --help. Do not edit: run make docs-commands. -->'
{
    echo "$note"
    echo "# pmucal commands"
    echo
    echo "One page a command, from the option table it parses."
    echo "\`pmucal COMMAND --help\` prints the same text; \`pmucal --man\` prints all of them."
    echo
    echo "| command | what it does |"
    echo "|---|---|"
    "$bin" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit }
        on { name = $1; sub(/^ *[^ ]+ +/, ""); printf "| [%s](pmucal-%s.md) | %s |\n", name, name, $0 }'
} > "$new/README.md"
for c in $commands; do
    summary=$("$bin" --help | awk -v c="$c" '/^Commands:/ { on = 1; next } on && $1 == c { sub(/^ *[^ ]+ +/, ""); print; exit }')
    {
        echo "$note"
        echo "# pmucal $c"
        echo
        echo "$summary." | sed 's/^./\U&/'
        echo
        echo '```text'
        "$bin" "$c" --help
        echo '```'
        echo
        echo "[All commands](README.md) · [Documentation](../README.md)"
    } > "$new/pmucal-$c.md"
done
mkdir -p "$dir"
rm -f "$dir"/pmucal-*.md
cp "$new"/*.md "$dir"/
