/* The load-latency curve: random dependent loads over working sets from 4K upward, and the
 * cache-level boundaries read off it. */
#ifndef PMUCAL_CURVE_H
#define PMUCAL_CURVE_H
#include "base/json.h"
#include "host/latency_levels.h"
#include "penalties/fit.h"
#include <stdbool.h>
#include <stdint.h>

#define CURVE_MAX_POINTS 160

struct curve {
    int n;
    uint64_t bytes[CURVE_MAX_POINTS];
    double cyc[CURVE_MAX_POINTS], lo[CURVE_MAX_POINTS], hi[CURVE_MAX_POINTS], ns[CURVE_MAX_POINTS];
    struct latency_levels levels;   /* read off the points by curve_detect_levels */
    bool detected;
    char why[200];                  /* why no levels were read, when not detected */
    /* The working set of each level recipe's case (L1, L2, L3, DRAM) on the run's host: the
     * caller's to set after curve_measure; 0 = not known, the plateau is not checked. */
    uint64_t case_bytes[4];
};

/* Measures one case text, its attempt-th time (0 first; each its own record); NULL when the run
 * was interrupted. The caller keeps the result; shared says whether its case had the core to
 * itself (calibrate's rule for a pass: clock references, load witness, switched-out windows). */
typedef const struct case_result *(*curve_measure_fn)(void *ctx, const char *text, int attempt, bool *shared);

/* Points at ppo per octave from 4K to top bytes (0: 4x the host's last cache level), each
 * measured through fn, a progress line each when progress. A point whose case shared the core, or that reads slower than a larger working set beyond
 * the curve's noise, is measured again, CURVE_ATTEMPTS times in all at most, and its fastest
 * attempt kept: sharing only adds time (the Emerald Rapids guest's calibration read 32K at 15.5
 * cycles a load, L2's latency, between 5.4 at 27K and 38K, its core's L1 shared with another
 * tenant's thread, and the curve gave no levels). 0, or -1 when interrupted or fewer than 4 points
 * were measured (with a message). */
#define CURVE_ATTEMPTS 4
int curve_measure(struct curve *cv, int ppo, uint64_t top, bool progress, curve_measure_fn fn, void *ctx);
/* Reads the levels off the points (each point's fastest repetition): plateaus, capacities,
 * memory; none when the points fail latency_curve_check (below the L1 floor, not monotone). Then latency_level_of_cycles(&cv->levels, x) says which level a latency sits on,
 * latency_level_plateau(&cv->levels, l) gives level l's plateau (its latency, spread, sizes). */
void curve_detect_levels(struct curve *cv);
/* The geometry sweep's stopping rule: its last two octaves of points (ppo an octave, at most 64;
 * each point the better of p and again, where again has it) answer at memory latency, the last
 * one's median within a quarter of the first's; four octaves where that latency is under 60 ns
 * (a slow L3 or fast DRAM). */
bool curve_tail_at_memory(const struct latency_point *p, const struct latency_point *again, int n, int ppo);
/* curve.csv, curve.gp and (with gnuplot) curve.svg in dir; the "curve" object into doc; the
 * detected boundaries as TAP comments on stdout. */
void curve_write(const struct curve *cv, int ppo, const char *dir, struct json *doc);

#endif
