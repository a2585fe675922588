/* A run's matrix verdicts arranged as events x cases (rows and columns in first-seen order). */
#include "base/util.h"
#include "report/report.h"
#include <stdlib.h>
#include <string.h>

/* Names are found through a small open-addressing table, so 1000 events x 40 cases stay linear. */
struct names {
    char **v;
    int n, cap;
    int *slot;
    int nslot;
};

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static int name_index(struct names *t, const char *s)
{
    if (2 * (t->n + 1) > t->nslot) {
        free(t->slot);
        t->nslot = t->nslot ? 2 * t->nslot : 64;
        t->slot = xmalloc((size_t)t->nslot * sizeof(int));
        for (int i = 0; i < t->nslot; i++)
            t->slot[i] = -1;
        for (int i = 0; i < t->n; i++) {
            unsigned h = hash(t->v[i]) & (unsigned)(t->nslot - 1);
            while (t->slot[h] >= 0)
                h = (h + 1) & (unsigned)(t->nslot - 1);
            t->slot[h] = i;
        }
    }
    unsigned h = hash(s) & (unsigned)(t->nslot - 1);
    for (; t->slot[h] >= 0; h = (h + 1) & (unsigned)(t->nslot - 1))
        if (!strcmp(t->v[t->slot[h]], s))
            return t->slot[h];
    if (t->n == t->cap)
        t->v = xrealloc(t->v, (size_t)(t->cap = t->cap ? 2 * t->cap : 16) * sizeof(char *));
    t->v[t->n] = xstrdup(s);
    t->slot[h] = t->n;
    return t->n++;
}

void grid_build(struct grid *g, const struct runfile *r)
{
    struct names ev = {0}, cs = {0};
    int *ei = xmalloc((size_t)(r->ncells + 1) * sizeof(int)), *ci = xmalloc((size_t)(r->ncells + 1) * sizeof(int));
    for (int i = 0; i < r->ncells; i++) {
        const struct vcell *c = &r->cells[i];
        ei[i] = c->event ? name_index(&ev, c->event) : -1;
        ci[i] = c->event ? name_index(&cs, c->case_label) : -1;
    }
    memset(g, 0, sizeof(*g));
    g->events = ev.v, g->nevents = ev.n, g->cases = cs.v, g->ncases = cs.n;
    g->at = xmalloc((size_t)g->nevents * (size_t)g->ncases * sizeof(int) + 1);
    for (int i = 0; i < g->nevents * g->ncases; i++)
        g->at[i] = -1;
    g->count = xcalloc((size_t)g->nevents + 1, sizeof(*g->count));
    for (int i = 0; i < r->ncells; i++)
        if (ei[i] >= 0) {
            g->at[ei[i] * g->ncases + ci[i]] = i;   /* a repeated (case, event): the later verdict */
            g->count[ei[i]][r->cells[i].kind]++;
        }
    free(ei), free(ci), free(ev.slot), free(cs.slot);
}

void grid_free(struct grid *g)
{
    for (int i = 0; i < g->nevents; i++)
        free(g->events[i]);
    for (int i = 0; i < g->ncases; i++)
        free(g->cases[i]);
    free(g->events), free(g->cases), free(g->at), free(g->count);
    memset(g, 0, sizeof(*g));
}

const struct vcell *grid_rule_cell(const struct grid *g, const struct runfile *r, int e)
{
    const struct vcell *best = NULL;
    for (int c = 0; c < g->ncases; c++) {
        int i = g->at[e * g->ncases + c];
        if (i < 0)
            continue;
        const struct vcell *v = &r->cells[i];
        if (v->where && (v->expr || !best))
            best = v;
        if (best && best->expr)
            break;
    }
    return best;
}

int grid_find(const struct grid *g, const char *event, const char *case_label)
{
    int e = 0, c = 0;
    while (e < g->nevents && strcmp(g->events[e], event))
        e++;
    while (c < g->ncases && strcmp(g->cases[c], case_label))
        c++;
    return e < g->nevents && c < g->ncases ? g->at[e * g->ncases + c] : -1;
}
