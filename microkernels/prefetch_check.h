/* A kernel whose figure relies on defeating the prefetchers proves on the host that it does: the
 * walker's order is timed against a full random walk of the same size in the same run (a random
 * order no prefetcher follows). A latency below the random walk's beyond the noise of both means
 * the prefetcher won: the case's figure and its level expectations are then withheld with the
 * figures as the reason. */
#ifndef PMUCAL_PREFETCH_CHECK_H
#define PMUCAL_PREFETCH_CHECK_H
#include <stdbool.h>
#include <stddef.h>

/* At least this much faster than the random walk, whatever the noise, to say the prefetcher won. */
#define PREFETCH_MARGIN 0.05
/* The noise (3 times the spread of the fastest windows) beyond which the check cannot tell a gain
 * from a busy CPU: the order is then not shown to defeat the prefetchers. */
#define PREFETCH_MAX_NOISE 0.15

/* n timings (ns a load) of each, taken in turn: is the order's figure to be withheld? Yes where its
 * fastest beat the random one's beyond noise (the larger of PREFETCH_MARGIN and 3 times how much
 * slower either's next fastest is: a preempted window is only slower), where it lost to it beyond
 * the same noise (the order's own misses), and where the noise is unknown or above
 * PREFETCH_MAX_NOISE (not shown either way). why: the figures and the decision, either way. */
bool prefetch_withholds(const double *order_ns, const double *random_ns, int n, char *why, size_t len);

#endif
