/* Verdicts on a sampled event (pmucal sample), each its own kind of expectation:
 *   rate:   samples x period against the event's count over the same runs (and that count against
 *           the model); lost, throttled or missing samples are not ok with how many;
 *   skid:   distances, in instructions, from each sample back to the causing instruction before
 *           it (around the loop); a level that promises zero skid must show only zeros;
 *   shadow: samples per causing instruction against the model's weights (chi-square), naming
 *           causing instructions that never got one. */
#ifndef PMUCAL_SAMPLE_CHECK_H
#define PMUCAL_SAMPLE_CHECK_H
#include "base/tap.h"
#include "core/sites.h"
#include "sources/sampling.h"
#include <stdbool.h>

struct sample_hist {
    uint64_t at[SITE_MAX_INST];   /* samples whose IP is the start of the map's instruction i */
    uint64_t outside;             /* samples anywhere else (the harness around the loop, or a moved IP) */
    uint64_t total;
};

void sample_hist_add(struct sample_hist *h, const struct site_map *m, const struct sample_stream *st);

struct sverdict {
    const char *what;             /* "rate", "skid", "shadow" */
    enum verdict kind;
    bool judged;                  /* false: a figure reported, no promise to hold it to (a comment) */
    char text[512];
};

/* count: the event's count over the sampled runs; model_count: the model's (NaN when it states
 * none), within model_slack. */
void sample_rate(struct sverdict *v, const struct sample_stream *st, uint64_t count, uint64_t period,
                 double model_count, double model_slack);
/* dist[d]: samples d instructions after their cause; the mean distance into *mean. */
void sample_skid(struct sverdict *v, const struct site_map *m, const struct sample_hist *h, int q,
                 bool zero_promised, uint64_t dist[SITE_MAX_INST], double *mean);
/* p-value into *p (NaN with one cause: nothing to spread). */
void sample_shadow(struct sverdict *v, const struct site_map *m, const struct sample_hist *h, int q, double *p);

/* P(X >= x) for X chi-square with df degrees of freedom (Wilson-Hilferty). */
double chi2_upper(double x, int df);
#endif
