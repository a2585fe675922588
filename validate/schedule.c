#include "validate/schedule.h"
#include "base/util.h"
#include "events/pfm.h"
#include "events/vendor.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void schedule_info(const struct event_spec *ev, const char *pmu, const struct vendor_table *vt, int ncounters,
                   struct sched_info *out)
{
    memset(out, 0, sizeof(*out));
    out->slot = ev->programmable;
    out->together = ev->group;
    if (!ev->programmable || ev->type != 4 /* PERF_TYPE_RAW */)
        return;
    struct x86_enc x;
    x86_decode(ev, &x);
    bool intel = pmu && strncmp(pmu, "amd", 3);   /* libpfm4's amd64_* and the tables' amdzen* */
    if (intel && (x.event == 0xb7 || x.event == 0xbb)) {
        /* Two offcore-response MSRs (0x1a6, 0x1a7) per core; the kernel may swap them. */
        out->resource = 0x1a6, out->capacity = 2;
        snprintf(out->why, sizeof(out->why), "offcore response: 2 MSRs per core");
    } else if (intel && x.event == 0xcd && x.umask == 0x01) {
        out->resource = 0x3f6, out->capacity = 1;
        snprintf(out->why, sizeof(out->why), "load latency MSR 0x3f6: 1 per core");
    } else if (intel && x.event == 0xc6 && x.umask == 0x01) {
        out->resource = 0x3f7, out->capacity = 1;
        snprintf(out->why, sizeof(out->why), "front-end MSR 0x3f7: 1 per core");
    }
    const struct vendor_event *v = vt ? vendor_match(vt, ev) : NULL;
    if (!v)
        return;
    if (v->fixed >= 0 && x.event == 0) {
        out->slot = false;
        out->resource = 0x100 + (unsigned)v->fixed, out->capacity = 1;
        snprintf(out->why, sizeof(out->why), "%s: fixed counter %d only", v->name, v->fixed);
        return;
    }
    uint32_t all = ncounters >= 32 ? 0xffffffffu : ncounters > 0 ? (1u << ncounters) - 1 : 0;
    if (v->counters && (!all || (v->counters & all) != all)) {
        out->counters = v->counters;
        char list[64] = "";
        for (int c = 0; c < 32; c++)
            if (v->counters & (1u << c))
                snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%d", list[0] ? "," : "", c);
        snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why), "%s%s: counters %s only",
                 out->why[0] ? "; " : "", v->name, list);
    }
    if (!out->resource && v->msr_index && !v->offcore) {
        out->resource = (unsigned)v->msr_index, out->capacity = 1;
        snprintf(out->why + strlen(out->why), sizeof(out->why) - strlen(out->why), "%sMSR 0x%llx",
                 out->why[0] ? "; " : "", (unsigned long long)v->msr_index);
    }
}

/* Can every restricted event of the group get its own counter? Augmenting paths over at most 32. */
static bool assign(const uint32_t *mask, int n, int ev, int *owner, uint32_t *seen)
{
    for (int c = 0; c < 32; c++) {
        if (!(mask[ev] & (1u << c)) || (*seen & (1u << c)))
            continue;
        *seen |= 1u << c;
        if (owner[c] < 0 || assign(mask, n, owner[c], owner, seen)) {
            owner[c] = ev;
            return true;
        }
    }
    return false;
}

static bool counters_fit(const uint32_t *mask, int n)
{
    int owner[32];
    for (int c = 0; c < 32; c++)
        owner[c] = -1;
    for (int i = 0; i < n; i++) {
        uint32_t seen = 0;
        if (!assign(mask, n, i, owner, &seen))
            return false;
    }
    return true;
}

struct gstate {
    int *members, n, slots;
    int together;   /* the user's {a,b,c} group it holds: no other programmable event joins; 0 none */
};

static bool conflicts(const struct gstate *g, const struct event_spec *ev, int cand, const struct sched_learned *l)
{
    for (int s = 0; l && s < l->n; s++) {
        bool all = true;
        for (char **name = l->sets[s]; *name && all; name++) {
            bool here = !strcmp(ev[cand].name, *name);
            for (int k = 0; k < g->n && !here; k++)
                here = !strcmp(ev[g->members[k]].name, *name);
            all = here;
        }
        if (all)
            return true;
    }
    return false;
}

static bool fits(const struct gstate *g, const struct event_spec *ev, const struct sched_info *info, int cand,
                 int group_size, uint32_t any, const struct sched_learned *l)
{
    if (info[cand].slot && g->slots >= group_size)
        return false;
    if (info[cand].resource) {
        int users = 0;
        for (int k = 0; k < g->n; k++)
            users += info[g->members[k]].resource == info[cand].resource;
        if (users >= info[cand].capacity)
            return false;
    }
    if (info[cand].slot) {
        uint32_t mask[33];
        int m = 0;
        for (int k = 0; k < g->n; k++)
            if (info[g->members[k]].slot)
                mask[m++] = info[g->members[k]].counters ? info[g->members[k]].counters : any;
        mask[m++] = info[cand].counters ? info[cand].counters : any;
        if (!counters_fit(mask, m))
            return false;
    }
    return !conflicts(g, ev, cand, l);
}

void schedule_build(const struct event_spec *ev, const struct sched_info *info, int n, int group_size,
                    int ncounters, const struct sched_learned *learned, struct schedule *s)
{
    memset(s, 0, sizeof(*s));
    if (group_size < 1)
        group_size = 1;
    if (ncounters < group_size)
        ncounters = group_size;
    uint32_t any = ncounters >= 32 ? 0xffffffffu : (1u << ncounters) - 1;
    struct gstate *g = xcalloc((size_t)(n ? n : 1), sizeof(*g));
    int ng = 0;
    for (int i = 0; i < n; i++) {
        if (!info[i].together)
            continue;
        int at = -1;
        for (int k = 0; k < ng && at < 0; k++)
            if (g[k].together == info[i].together)
                at = k;
        if (at < 0) {
            at = ng++;
            g[at].members = xcalloc((size_t)n, sizeof(int));
            g[at].together = info[i].together;
        }
        g[at].members[g[at].n++] = i;
        g[at].slots += info[i].slot;
    }
    for (int i = 0; i < n; i++) {
        if ((!info[i].slot && !info[i].resource) || info[i].together)
            continue;   /* software events: placed below; the user's groups: above */
        int at = -1;
        for (int k = 0; k < ng && at < 0; k++)
            if (!g[k].together && fits(&g[k], ev, info, i, group_size, any, learned))
                at = k;
        if (at < 0) {
            at = ng++;
            g[at].members = xcalloc((size_t)n, sizeof(int));
        }
        g[at].members[g[at].n++] = i;
        g[at].slots += info[i].slot;
    }
    if (!ng && n) {
        ng = 1;
        g[0].members = xcalloc((size_t)n, sizeof(int));
    }
    for (int i = 0; i < n; i++)
        if (!info[i].slot && !info[i].resource && !info[i].together)
            g[ng - 1].members[g[ng - 1].n++] = i;
    s->ngroups = ng;
    s->order = xcalloc((size_t)(n ? n : 1), sizeof(int));
    s->start = xcalloc((size_t)(ng ? ng : 1), sizeof(int));
    s->count = xcalloc((size_t)(ng ? ng : 1), sizeof(int));
    int at = 0;
    for (int k = 0; k < ng; k++) {
        s->start[k] = at;
        s->count[k] = g[k].n;
        for (int j = 0; j < g[k].n; j++)
            s->order[at++] = g[k].members[j];
        free(g[k].members);
    }
    free(g);
}

void schedule_free(struct schedule *s)
{
    free(s->order);
    free(s->start);
    free(s->count);
    memset(s, 0, sizeof(*s));
}

void sched_learn(struct sched_learned *l, struct event_spec *const *ev, int n, const char *why)
{
    char **set = xcalloc((size_t)n + 1, sizeof(char *));
    for (int i = 0; i < n; i++)
        set[i] = xstrdup(ev[i]->name);
    l->sets = xrealloc(l->sets, sizeof(*l->sets) * (size_t)(l->n + 1));
    l->why = xrealloc(l->why, sizeof(*l->why) * (size_t)(l->n + 1));
    l->sets[l->n] = set;
    l->why[l->n++] = xstrdup(why);
}

void sched_learned_free(struct sched_learned *l)
{
    for (int s = 0; s < l->n; s++) {
        for (char **p = l->sets[s]; *p; p++)
            free(*p);
        free(l->sets[s]);
        free(l->why[s]);
    }
    free(l->sets);
    free(l->why);
    memset(l, 0, sizeof(*l));
}
