#!/bin/sh
# The folders are floors (the Makefile's SUBSYS, lowest first): a file includes only headers of
# its own floor or of floors below it, so no subsystem calls up into one that builds on it.
# The seam (arch/isa.h, which names the ISA's own header) and every arch/<isa>/ are one floor, where
# arch/$(ARCH) is; arch/<isa>/kernels sit where its kernels do.
. "$(dirname "$0")/lib.sh"
subsys=$(make -s -f Makefile -f - print-subsys ARCH=ISA <<'MK'
print-subsys:
	@echo $(SUBSYS)
MK
)
[ -n "$subsys" ]; ok $? "the Makefile names the floors: $subsys"
# upward FILES...: "file (floor) includes header (floor)" for each include that reaches up.
upward() {
    grep -H '^#include "[^"]*/[^"]*"' "$@" | sed 's/:#include "\([^"]*\)".*/ \1/' |
        awk -v floors="$subsys" '
        function floor_of(p,   k, best, len) {
            sub(/^arch\/[^\/]*\/kernels\//, "arch/ISA/kernels/", p) || sub(/^arch\/[^\/]*\//, "arch/ISA/", p) ||
                sub(/^arch\//, "arch/ISA/", p)
            best = -1; len = 0
            for (k in d) if (index(p, k "/") == 1 && length(k) > len) { best = d[k]; len = length(k) }
            return best
        }
        BEGIN { n = split(floors, l, " "); for (i = 1; i <= n; i++) d[l[i]] = i - 1 }
        { a = floor_of($1); b = floor_of($2); if (a >= 0 && b > a) print $1 " (floor " a ") includes " $2 " (floor " b ")" }'
}
files=$(git ls-files '*.c' '*.h' | grep -v '^tests/\|^fuzz/')
n=$(cat $files | grep -c '^#include "[^"]*/')
upward $files > "$TMP/up"
[ "$n" -gt 100 ] && [ ! -s "$TMP/up" ]
ok $? "$n root-relative includes, none reaching up a floor: $(head -n 3 "$TMP/up" | tr '\n' ';')"
# The check sees a file that does: base/ including a header of cmd/.
mkdir -p "$TMP/base" && printf '#include "cmd/commands.h"\n#include "base/util.h"\n' > "$TMP/base/x.c"
(cd "$TMP" && upward base/x.c) > "$TMP/up2"
top=$(($(echo $subsys | wc -w) - 1))
grep -qx "base/x.c (floor 0) includes cmd/commands.h (floor $top)" "$TMP/up2" && [ "$(wc -l < "$TMP/up2")" -eq 1 ]
ok $? "an include from base/ up to cmd/ is caught: $(cat "$TMP/up2")"
done_testing
