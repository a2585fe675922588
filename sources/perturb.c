/* Counter source "perturb" (for the test suite): another source whose counts are altered in known
 * ways, to prove that validate, compare and replay flag each kind of wrong count and nothing else.
 *
 *   --source 'perturb:INNER/OP/OP...'   INNER is any source (perf, sim, perfstat); each OP one of
 *     scale=EV*F       EV counts F times what it should (over-count F > 1, under-count F < 1)
 *     offset=EV+K      every read of EV is K too high: a fixed excess per measurement
 *     swap=EV,OTHER    EV and OTHER report each other's counts (both in one group)
 *     level=EV<OTHER   EV reports OTHER's count: a neighbouring cache level, for instance
 *     zero=EV%N        every Nth read in which EV counted something gives it as 0 (sporadic zeros;
 *                      a zero where EV had nothing to count would change nothing)
 *
 * Events keep their names, encodings and rules; only the numbers read change. */
#include "base/json.h"
#include "base/util.h"
#include "core/source.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum op_kind { OP_SCALE, OP_OFFSET, OP_SWAP, OP_LEVEL, OP_ZERO };
#define MAX_OPS 8

struct op {
    enum op_kind kind;
    char ev[128], other[128];
    double arg;
};

static struct op ops[MAX_OPS];
static int nops;
static char spec_text[512];
static const struct source *inner;
static struct source perturbed;

struct group {
    struct group *inner;
    int slot[MAX_OPS], other[MAX_OPS];   /* per op: the events' places in this group, -1 when absent */
    long counted[MAX_OPS];   /* per op: the reads in which its event counted something */
};

static int place(struct event_spec **events, int n, const char *name)
{
    for (int e = 0; e < n; e++)
        if (!strcasecmp(events[e]->name, name))
            return e;
    return -1;
}

static struct group *perturb_open(struct event_spec **events, int n)
{
    struct group *g = xcalloc(1, sizeof(*g));
    for (int i = 0; i < nops; i++) {
        g->slot[i] = place(events, n, ops[i].ev);
        g->other[i] = ops[i].other[0] ? place(events, n, ops[i].other) : -1;
        if (ops[i].other[0] && (g->slot[i] < 0) != (g->other[i] < 0)) {
            pm_error("perturb: %s and %s are not measured in one group; put both in -e", ops[i].ev, ops[i].other);
            free(g);
            return NULL;
        }
    }
    g->inner = inner->open(events, n);
    if (!g->inner) {
        free(g);
        return NULL;
    }
    return g;
}

static void perturb_start(struct group *g)
{
    inner->start(g->inner);
}

static void perturb_stop(struct group *g)
{
    inner->stop(g->inner);
}

static int perturb_read(struct group *g, struct group_reading *r)
{
    int rc = inner->read(g->inner, r);
    if (rc)
        return rc;
    for (int i = 0; i < nops; i++) {
        int a = g->slot[i], b = g->other[i];
        if (a < 0 || isnan(r->value[a]))
            continue;
        double t;
        switch (ops[i].kind) {
        case OP_SCALE: r->value[a] = round(r->value[a] * ops[i].arg); break;
        case OP_OFFSET: r->value[a] += ops[i].arg; break;
        case OP_SWAP: t = r->value[a], r->value[a] = r->value[b], r->value[b] = t; break;
        case OP_LEVEL: r->value[a] = r->value[b]; break;
        case OP_ZERO:
            if (r->value[a] != 0 && ++g->counted[i] % (long)ops[i].arg == 0)
                r->value[a] = 0;
            break;
        }
    }
    return 0;
}

static void perturb_close(struct group *g)
{
    inner->close(g->inner);
    free(g);
}

static void perturb_manifest(struct json *j)
{
    if (inner->manifest)
        inner->manifest(j);
    json_string(j, "perturb", spec_text);
}

/* "scale=EV*F" and the like into ops[]; 0, or -1 with err filled. */
static int parse_op(const char *text, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        enum op_kind kind;
        char sep;
        bool number;
    } kinds[] = {{"scale", OP_SCALE, '*', true}, {"offset", OP_OFFSET, '+', true}, {"swap", OP_SWAP, ',', false},
                 {"level", OP_LEVEL, '<', false}, {"zero", OP_ZERO, '%', true}};
    const char *eq = strchr(text, '=');
    for (size_t k = 0; eq && k < ARRAY_SIZE(kinds); k++) {
        if (strncmp(text, kinds[k].name, (size_t)(eq - text)) || kinds[k].name[eq - text])
            continue;
        const char *sep = strrchr(eq + 1, kinds[k].sep);
        if (!sep || sep == eq + 1 || !sep[1] || nops == MAX_OPS)
            break;
        struct op *o = &ops[nops];
        memset(o, 0, sizeof(*o));
        o->kind = kinds[k].kind;
        snprintf(o->ev, sizeof(o->ev), "%.*s", (int)(sep - eq - 1), eq + 1);
        if (kinds[k].number) {
            char *end;
            o->arg = strtod(sep + 1, &end);
            if (*end || (o->kind == OP_ZERO && o->arg < 1) || (o->kind == OP_SCALE && o->arg < 0))
                break;
        } else {
            snprintf(o->other, sizeof(o->other), "%s", sep + 1);
        }
        nops++;
        return 0;
    }
    snprintf(err, errlen, "'%s' is not a perturbation; give scale=EV*F, offset=EV+K, swap=EV,OTHER, "
             "level=EV<OTHER or zero=EV%%N after the source, separated by '/'", text);
    return -1;
}

static const struct source *perturb_configure(const char *arg, char *err, size_t errlen)
{
    snprintf(spec_text, sizeof(spec_text), "%s", arg);
    nops = 0;
    int n;
    char **parts = split_list(arg, '/', &n);
    const struct source *s = n ? source_find(parts[0]) : NULL;
    if (!s || s->configure) {
        snprintf(err, errlen, "perturb wraps a counter source: perturb:perf/..., perturb:sim/... (got '%s')",
                 n ? parts[0] : "");
        free_list(parts);
        return NULL;
    }
    for (int i = 1; i < n; i++)
        if (parse_op(parts[i], err, errlen)) {
            free_list(parts);
            return NULL;
        }
    free_list(parts);
    inner = s;
    perturbed = *s;
    perturbed.name = "perturb";
    perturbed.summary = "a source with counts altered on purpose (tests only)";
    perturbed.open = perturb_open;
    perturbed.start = perturb_start;
    perturbed.stop = perturb_stop;
    perturbed.read = perturb_read;
    perturbed.close = perturb_close;
    perturbed.manifest = perturb_manifest;
    perturbed.test_only = true;
    return &perturbed;
}

static const struct source perturb_source = {
    .name = "perturb",
    .summary = "a source with counts altered on purpose (tests only): perturb:INNER/OP...",
    .configure = perturb_configure,
    .test_only = true,
};
PMUCAL_SOURCE(perturb_source)
