/* Two runs of pmucal sample compared per (case, event, precise level), as compare does counts: a
 * kernel or perf upgrade that breaks sampling is caught like one that breaks counting. */
#ifndef PMUCAL_SAMPLE_COMPARE_H
#define PMUCAL_SAMPLE_COMPARE_H
#include "base/jread.h"
#include "base/tap.h"
#include <stdbool.h>

/* TAP points onto t, one per (case, event, precise) of either run; not ok when NEW's samples per
 * due sample moved beyond binomial noise at BASE's ratio (3 sigma, and one
 * sample) and by more than threshold (a fraction), when
 * samples are lost or throttled that were not, when the skid distribution differs (chi-square
 * homogeneity, p < alpha) or the loop's map changed, or when a causing instruction BASE sampled
 * gets none with 5 or more due; with same_command (validate/run_diff.h compare_same_command), when
 * BASE sampled it and NEW did not. Returns the number of regressions, -1 after a message naming a
 * record that is not a sampling record. */
int sample_compare(struct tap *t, struct jvalue *const *base, int nb, struct jvalue *const *neu, int nn, double alpha,
                   double threshold, bool same_command);
#endif
