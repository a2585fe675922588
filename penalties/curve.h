/* The load-latency curve: random dependent loads over working sets from 4K upward, and the
 * cache-level boundaries read off it. */
#ifndef PMUCAL_CURVE_H
#define PMUCAL_CURVE_H
#include "fit.h"
#include "json.h"
#include <stdbool.h>
#include <stdint.h>

#define CURVE_MAX_POINTS 160

struct curve {
    int n;
    uint64_t bytes[CURVE_MAX_POINTS];
    double cyc[CURVE_MAX_POINTS], lo[CURVE_MAX_POINTS], hi[CURVE_MAX_POINTS], ns[CURVE_MAX_POINTS];
    uint64_t detected[4];   /* [1..3]: first size past each level */
};

/* Measures one case text; NULL when the run was interrupted. The caller keeps the result. */
typedef const struct case_result *(*curve_measure_fn)(void *ctx, const char *text);

/* Points at ppo per octave from 4K to 4x the last cache level, each measured through fn.
 * 0, or -1 when interrupted or fewer than 4 points were measured (with a message). */
int curve_measure(struct curve *cv, int ppo, curve_measure_fn fn, void *ctx);
/* Fills cv->detected from the points. */
void curve_detect_levels(struct curve *cv);
/* curve.csv, curve.gp and (with gnuplot) curve.svg in dir; the "curve" object into doc; the
 * detected boundaries as TAP comments on stdout. */
void curve_write(const struct curve *cv, int ppo, const char *dir, struct json *doc);

#endif
