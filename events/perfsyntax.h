/* perf's event syntax (perf list, perf stat -e): raw "rNNNN", "cpu/event=0x..,umask=0x..,cmask=..,
 * inv,edge/", the modifiers ":u" ":k" ":uk", and "{a,b,c}" groups in a list. */
#ifndef PMUCAL_PERFSYNTAX_H
#define PMUCAL_PERFSYNTAX_H
#include "core/source.h"
#include <stdbool.h>
#include <stddef.h>

/* perf's privilege modifiers, "" or ":u" / ":k" / ":uk" (a leading ':' optional), into spec:
 * none or u: user level only (pmucal's default), k: kernel only, uk: both. -1 with err for any
 * other letter. */
int perf_modifiers(const char *mods, struct event_spec *spec, char *err, size_t n);
/* perf's generic and software event names (cycles, page-faults, ...), with perf's :u/:k/:uk: true
 * when name is one. */
bool perf_generic_event(const char *name, struct event_spec *spec);
/* fn(name) for each of perf's generic hardware events (each once, by perf's name: cycles,
 * instructions, ...) and generic cache events (CACHE-OPs and CACHE-OP-misses: L1-dcache-loads,
 * dTLB-load-misses, ...), until fn returns non-zero, which is returned. */
int perf_hardware_each(int (*fn)(const char *name, void *arg), void *arg);
/* "rNNNN[:mods]" or "cpu/terms/[mods]" into spec (type PERF_TYPE_RAW, config, config1):
 * 1 parsed, 0 not perf syntax, -1 malformed (err names the term and the fix). */
int perf_syntax_parse(const char *name, struct event_spec *spec, char *err, size_t n);
/* The event as perf stat -e takes it, with its privilege modifier: "instructions:u", "r4300c0:u",
 * "cpu/config=0x..,config1=0x../u" (an MSR value needs the cpu PMU's terms). Caller frees. */
char *perf_syntax_of(const struct event_spec *spec);
/* Split an -e list at the commas outside "/.../" and "{...}". group[i] is the 1-based number of
 * the {...} the item was in, 0 for none. -1 with err on an unbalanced '{' or '/'. */
int perf_split_list(const char *s, char ***items, int **group, int *count, char *err, size_t n);
/* Does arg look like perf syntax rather than a path ("cpu/event=0xc0/", "{a,b}")? */
int perf_syntax_like(const char *arg);

#endif
