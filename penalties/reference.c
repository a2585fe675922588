/* The reference figures are the uarch files' (uarch/NAME.txt): each with its publication, and a
 * note on how a derived figure was derived or which operands an instruction's was taken with. */
#include "penalties/reference.h"
#include "base/json.h"
#include "base/stats.h"
#include "penalties/penalty_fit.h"
#include "base/util.h"
#include "host/uarch.h"
#include <math.h>
#include <string.h>

/* Every uarch file's references as the penalties use them, made once. */
const struct reference *references_all(int *n)
{
    static struct reference *all;
    static int nall = -1;
    if (nall < 0) {
        int nu;
        const struct uarch *u = uarch_all(&nu);
        nall = 0;
        for (int i = 0; i < nu; i++)
            nall += u[i].nrefs;
        all = xcalloc((size_t)(nall ? nall : 1), sizeof(*all));
        nall = 0;
        for (int i = 0; i < nu; i++)
            for (int k = 0; k < u[i].nrefs; k++) {
                const struct uarch_reference *r = &u[i].refs[k];
                all[nall++] = (struct reference){u[i].name, r->recipe, r->lo, r->hi, r->note, r->source->text, r->whole,
                                                 r->indicative};
            }
    }
    *n = nall;
    return all;
}

const char *penalties_uarch(const struct jvalue *pen)
{
    const char *name = jget_str(pen, "uarch", NULL);
    if (!name)
        name = jget_str(pen, "cpu_model", NULL);   /* runs before the word uarch */
    const struct uarch *u = uarch_named(name, NULL);
    return u ? u->name : name;
}

/* By the name of a uarch or of a CPU built on it. */
const struct reference *reference_find(const char *uarch, const char *penalty)
{
    const struct uarch *u = uarch_named(uarch, NULL);
    int n;
    const struct reference *all = references_all(&n);
    for (int i = 0; u && i < n; i++)
        if (!strcmp(all[i].uarch, u->name) && !strcmp(all[i].penalty, penalty))
            return &all[i];
    return NULL;
}

bool reference_case_differs(const struct reference *r, const struct penalty *p)
{
    return r->whole && p->issue && p->issue->text && strcmp(p->issue->text, p->rc->issue) != 0;
}

bool reference_value(const struct reference *r, const struct penalty *p, double *v, double *lo, double *hi)
{
    if (!r->whole) {
        *v = p->cycles, *lo = p->cycles_lo, *hi = p->cycles_hi;
        return !isnan(p->cycles);
    }
    const struct case_result *is = p->issue;
    /* A whole figure describes the recipe's own issue case; a run made before the recipe changed
     * measured another (reference_case_differs says so). */
    if (!is || !is->reps || !(p->occ_issue > 0) || reference_case_differs(r, p))
        return false;
    struct stats s = stats_of(is->cycles, (size_t)is->reps);
    *v = s.median / p->occ_issue, *lo = s.min / p->occ_issue, *hi = s.max / p->occ_issue;
    return true;
}

double reference_deviation(const struct reference *r, double value)
{
    if (value > r->hi)
        return (value - r->hi) / r->hi;
    if (value < r->lo)
        return (value - r->lo) / r->lo;
    return isnan(value) ? NAN : 0;
}

bool reference_deviation_large(double deviation)
{
    return fabs(deviation) > 0.25;
}
