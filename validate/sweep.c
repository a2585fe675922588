#include "validate/sweep.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/kernel.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A value of [lo, hi] on the declared grid: the edges a fifth of the time each (where models
 * turn: one branch, the largest table), else log-uniform, so that small and large values are
 * drawn alike. */
static uint64_t draw_number(struct rng *r, const struct param_domain *d, uint64_t hi)
{
    uint64_t lo = d->lo, pick = rng_below(r, 5), x;
    if (pick == 0)
        x = lo;
    else if (pick == 1)
        x = hi;
    else {
        double l = (double)(lo ? lo : 1), span = (double)hi / l;
        double f = (double)rng_below(r, 1u << 30) / (double)(1u << 30);
        x = (uint64_t)(l * pow(span, f));
        if (!lo && rng_below(r, 8) == 0)
            x = 0;
    }
    if (d->pow2 && x) {
        uint64_t p = 1;
        while (p * 2 <= x)
            p *= 2;
        x = p;
    }
    x = x / d->step * d->step;
    if (x < lo)
        x = (lo + d->step - 1) / d->step * d->step;
    if (x > hi)
        x = hi / d->step * d->step;
    return x;
}

static int draw_param(struct rng *r, const struct param *p, char *out, size_t n)
{
    if (p->type == PARAM_ENUM) {
        int count = 1;
        for (const char *s = p->choices; *s; s++)
            count += *s == '|';
        uint64_t k = rng_below(r, (uint64_t)count);
        const char *s = p->choices;
        while (k--)
            s = strchr(s, '|') + 1;
        snprintf(out, n, "%.*s", (int)strcspn(s, "|"), s);
        return 0;
    }
    if ((p->type != PARAM_UINT && p->type != PARAM_SIZE) || !p->range)
        return 1;   /* CPUs and undeclared parameters keep their defaults */
    struct param_domain d;
    char err[200];
    if (param_domain(p, &d, err, sizeof(err))) {
        pm_error("sweep: %s", err);
        return -1;
    }
    /* Level names (L1..L3; DRAM is beyond SWEEP_MAX_BYTES) a quarter of the time where allowed. */
    if (d.levels && rng_below(r, 4) == 0) {
        snprintf(out, n, "L%u", (unsigned)rng_below(r, 3) + 1);
        return 0;
    }
    uint64_t hi = p->type == PARAM_SIZE && d.hi > SWEEP_MAX_BYTES ? SWEEP_MAX_BYTES : d.hi;
    if (hi < d.lo)
        hi = d.lo;
    snprintf(out, n, "%llu", (unsigned long long)draw_number(r, &d, hi));
    return 0;
}

bool sweep_draws_from(const struct kernel *k)
{
    for (const struct param *p = k->params; p->name; p++)
        if (p->type == PARAM_TEXT && !*p->def)
            return false;
    return true;
}

char *sweep_case(uint64_t seed, uint64_t i, char *const *kernels, int nk)
{
    const struct kernel *pool[128];
    int np = 0;
    for (const struct kernel **k = kernel_list(); *k && np < 128; k++) {
        bool wanted = !nk && sweep_draws_from(*k);
        for (int j = 0; j < nk; j++)
            wanted |= !strcmp(kernels[j], (*k)->name);
        if (wanted)
            pool[np++] = *k;
    }
    for (int j = 0; j < nk; j++)
        if (!kernel_find(kernels[j])) {
            pm_error("--kernel %s: unknown kernel; 'pmucal kernels' lists them", kernels[j]);
            return NULL;
        }
    if (!np) {
        pm_error("sweep: no kernel to draw from");
        return NULL;
    }
    struct rng r;
    rng_seed(&r, seed * 0x100000001b3ull + i);
    const struct kernel *k = pool[rng_below(&r, (uint64_t)np)];
    size_t cap = 64, len = strlen(k->name);
    for (const struct param *p = k->params; p->name; p++)
        cap += strlen(p->name) + 32;
    char *text = xmalloc(cap);
    memcpy(text, k->name, len + 1);
    for (const struct param *p = k->params; p->name; p++) {
        char v[32];
        int rc = draw_param(&r, p, v, sizeof(v));
        if (rc < 0) {
            free(text);
            return NULL;
        }
        if (!rc)
            len += (size_t)snprintf(text + len, cap - len, " %s=%s", p->name, v);
    }
    return text;
}
