#!/bin/sh
# make install / uninstall with PREFIX and DESTDIR: the binary finds its data where it was put,
# pmucal(1) has a section per command listing exactly its --help options, the bash completion
# completes commands, options, kernels and parameters; uninstall removes everything it put.
. "$(dirname "$0")/lib.sh"

san=""
[ "${PMUCAL_OBJDIR:-build/opt}" = build/san ] && san="SAN=1"
stage="$TMP/stage"
make -s install $san DESTDIR="$stage" PREFIX=/usr > "$TMP/make.out" 2>&1
rc=$?
bin="$stage/usr/bin/pmucal" man="$stage/usr/share/man/man1/pmucal.1" comp="$stage/usr/share/bash-completion/completions/pmucal"
[ $rc = 0 ] && [ -x "$bin" ] && [ -s "$man" ] && [ -s "$comp" ] && [ -s "$stage/usr/share/pmucal/expect/skl.txt" ] &&
    [ -s "$stage/usr/share/pmucal/scripts/groups.jq" ]
ok $? "make install DESTDIR PREFIX=/usr: binary, man page, completion, expectations, scripts (exit $rc)"

# The installed binary away from the tree finds its rule files in PREFIX/share/pmucal.
(cd "$TMP" && env -u PMUCAL_EXPECT_DIR "$bin" expect check > "$TMP/check.out" 2>&1)
rc=$?
files=$(sed -n 's/^# \([0-9]*\) files.*/\1/p' "$TMP/check.out")
[ $rc = 0 ] && [ "${files:-0}" -ge 1 ] && [ "$files" = "$(ls validate/expect/*.txt | wc -l)" ]
ok $? "installed pmucal finds its $files rule files beside itself (exit $rc)"

# The event tables: the installed binary, away from the tree, reads them in PREFIX/share/pmucal.
data="$stage/usr/share/pmucal"
# The host's own libpfm4 PMU hidden: on a CPU libpfm4 knows (6-A7 as icl) it would win over the CPUID.
(hide_host_pmu && cd "$TMP" && env -u PMUCAL_EVENTDATA PMUCAL_CPUID=AuthenticAMD-26-2 "$bin" events > "$TMP/events.out" 2>&1)
rc=$?
[ $rc = 0 ] && [ -s "$data/eventdata/amd/mapfile.csv" ] && [ -s "$data/eventdata/intel/mapfile.csv" ] &&
    [ -s "$data/eventdata/arm/mapfile.csv" ] && [ -s "$data/eventdata/arm/common-and-microarch.json" ] &&
    [ -d "$data/eventdata/arm/arm/neoverse-n1" ] && [ -s "$data/eventdata/amd/LICENSE" ] && [ -s "$data/eventdata/intel/SOURCE" ] &&
    grep -q "^# source: $data/eventdata/amd/amdzen5 " "$TMP/events.out" && grep -q '^ls_dispatch.ld_dispatch ' "$TMP/events.out"
ok $? "installed pmucal lists a Zen 5's events from $data/eventdata, which holds AMD's, Intel's and Arm's tables with licence and source (exit $rc): $(head -c 100 "$TMP/events.out")"
[ -z "$(find "$data/eventdata" -path '*/metrics/*' -o -name '*uncore*' | head -1)" ] && grep -q '^eventdata/amd/amdzen5/' "$data/installed-files"
ok $? "only core tables the mapfiles name are installed (no uncore, no metrics), each listed in installed-files"
make -s install $san DESTDIR="$TMP/stage2" PREFIX=/usr EVENTDATA="$TMP/none" > "$TMP/make2.out" 2>&1
rc=$?
[ $rc = 0 ] && [ ! -e "$TMP/stage2/usr/share/pmucal/eventdata" ] && grep -q "no event tables at $TMP/none" "$TMP/make2.out"
ok $? "make install without event tables says so (exit $rc): $(grep 'no event tables' "$TMP/make2.out" | head -c 120)"

# pmucal(1): one section per command, each with every option its --help lists, and no other.
bad=""
for c in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && !NF { exit } on { print $1 }'); do
    help=$("$bin" "$c" --help | awk '/^Options:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  -/ { print }' |
        sed -E 's/^  (-[A-Za-z0-9], )?(--[a-z0-9-]+).*/\2/' | sort)
    sect=$(awk -v s=".SH \"PMUCAL $c\"" '$0 == s { on = 1; next } on && /^\.SH/ { exit } on' "$man" |
        grep '^\.B \\-' | grep -o -- '\\-\\-[a-z0-9\\-]*' | sed 's/\\//g' | sort)
    [ -n "$help" ] && [ "$help" = "$sect" ] || bad="$bad $c"
done
[ -z "$bad" ]
ok $? "pmucal(1) has a section per command with exactly its --help options${bad:+ (differs:$bad)}"
man -l "$man" > /dev/null 2> "$TMP/man.err" || true
[ ! -s "$TMP/man.err" ] || ! command -v man > /dev/null
ok $? "man renders pmucal(1) without a warning: $(head -c 120 "$TMP/man.err")"

# Completion, from the installed binary.
complete_words() { # complete_words WORD...: what TAB offers for the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pmucal; echo "${COMPREPLY[*]}"' _ "$comp" "$bin" "$@"
}
is "$(complete_words kern)" "kernels" "completion: a command"
is "$(complete_words run walk)" "walker" "completion: a kernel name"
is "$(complete_words run walker siz)" "size=" "completion: a kernel's parameter"
is "$(complete_words validate --group)" "--group-size" "completion: a command's option"
is "$(complete_words validate -e page-f)" "page-faults" "completion: an event name"
is "$(complete_words calibrate --pas) $(complete_words calibrate --run)" "--passes " \
    "completion: calibrate's --passes, never its old spelling --runs"

echo mine > "$data/my-notes.txt"
echo '[]' > "$data/eventdata/amd/amdzen5/mine.json"
make -s uninstall DESTDIR="$stage" PREFIX=/usr > /dev/null 2>&1
left=$(cd "$stage" && find . -type f | sort | tr '\n' ' ')
is "$left" "./usr/share/pmucal/eventdata/amd/amdzen5/mine.json ./usr/share/pmucal/my-notes.txt " \
    "make uninstall removes every file it installed and nothing a user put beside them"
[ ! -e "$data/expect" ] && [ ! -e "$data/eventdata/intel" ] && [ -d "$data/eventdata/amd/amdzen5" ]
ok $? "and the folders it leaves empty, not those still holding a user's file"
done_testing
