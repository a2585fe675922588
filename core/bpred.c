#include "core/bpred.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

void bpred_cond_init(struct bpred_cond *p, unsigned addr_shift)
{
    memset(p->counter, 0, sizeof(p->counter));   /* callgrind's: a static array, zeroed */
    p->history = 0;
    p->addr_shift = addr_shift;
    p->miss_at = NULL;
}

bool bpred_cond_step(struct bpred_cond *p, uintptr_t addr, bool taken)
{
    unsigned hmask = (1u << BPRED_HIST_BITS) - 1, amask = (1u << BPRED_ADDR_BITS) - 1;
    unsigned i = ((p->history & hmask) << BPRED_ADDR_BITS) | (unsigned)((addr >> p->addr_shift) & amask);
    bool predicted = p->counter[i] >= 2;
    if (taken && p->counter[i] < 3)
        p->counter[i]++;
    else if (!taken && p->counter[i] > 0)
        p->counter[i]--;
    p->history = (p->history << 1) | taken;
    if (p->miss_at && predicted != taken)
        p->miss_at[i]++;
    return predicted != taken;
}

#define BPRED_COUNTERS (1u << (BPRED_HIST_BITS + BPRED_ADDR_BITS))

/* The lap's mispredicts once the predictor, started with every counter at start, leaves a lap as
 * it found it, and each counter's share in miss_at; -1 when it does not settle within max_laps. */
static double settle(uint64_t (*lap)(struct bpred_cond *p, const void *arg), const void *arg, unsigned addr_shift,
                     int max_laps, uint8_t start, int *laps, uint32_t *miss_at)
{
    struct bpred_cond *p = xmalloc(sizeof(*p)), *before = xmalloc(sizeof(*before));
    bpred_cond_init(p, addr_shift);
    memset(p->counter, start, sizeof(p->counter));
    double result = -1;
    for (*laps = 1; *laps <= max_laps; ++*laps) {
        memcpy(before, p, sizeof(*p));
        memset(miss_at, 0, BPRED_COUNTERS * sizeof(*miss_at));
        p->miss_at = miss_at;
        uint64_t miss = lap(p, arg);
        p->miss_at = before->miss_at = NULL;
        if (!memcmp(before, p, sizeof(*p))) {
            result = (double)miss;
            break;
        }
    }
    free(p);
    free(before);
    return result;
}

double bpred_cond_steady(uint64_t (*lap)(struct bpred_cond *p, const void *arg), const void *arg, unsigned addr_shift,
                         int max_laps, int *laps)
{
    /* The steady state is a lap that leaves the predictor as it found it (every counter and the
     * history): from there every lap mispredicts alike. A counter a taken and a not-taken outcome
     * share can settle swinging between 0 and 1, 1 and 2, or 2 and 3, missing one or two a lap, as
     * its start decides; the outcomes (so the history and which counter each branch reads) do not
     * depend on the predictions, so each counter runs on its own and trying every start for all of
     * them at once tries every start for each. */
    uint32_t *first = xcalloc(BPRED_COUNTERS, sizeof(*first)), *other = xcalloc(BPRED_COUNTERS, sizeof(*other));
    double result = -1;
    int most = 0;
    for (uint8_t start = 0; start < 4; start++) {
        int n;
        double miss = settle(lap, arg, addr_shift, max_laps, start, &n, start ? other : first);
        most = n > most ? n : most;
        if (miss < 0 || (start && memcmp(first, other, BPRED_COUNTERS * sizeof(*first)))) {
            result = -1;
            break;
        }
        result = miss;
    }
    free(first);
    free(other);
    if (laps)
        *laps = most;
    return result;
}

uint64_t bpred_indirect_lap(const uint64_t *targets, uint64_t n)
{
    uint64_t miss = 0;
    for (uint64_t i = 0; i < n; i++)
        miss += targets[i] != targets[(i + n - 1) % n];
    return miss;
}
