#include "core/bpred.h"
#include "base/util.h"
#include <stdlib.h>
#include <string.h>

void bpred_cond_init(struct bpred_cond *p, unsigned addr_shift)
{
    memset(p->counter, 1, sizeof(p->counter));   /* weakly not taken; warm-up makes it irrelevant */
    p->history = 0;
    p->addr_shift = addr_shift;
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
    return predicted != taken;
}

double bpred_cond_steady(uint64_t (*lap)(struct bpred_cond *p, const void *arg), const void *arg, unsigned addr_shift,
                         int max_laps)
{
    /* The steady state is a lap that leaves the predictor as it found it (every counter and the
     * history): from there every lap mispredicts alike, exactly. */
    struct bpred_cond *p = xmalloc(sizeof(*p)), *before = xmalloc(sizeof(*before));
    bpred_cond_init(p, addr_shift);
    double result = -1;
    for (int i = 0; i < max_laps; i++) {
        memcpy(before, p, sizeof(*p));
        uint64_t miss = lap(p, arg);
        if (!memcmp(before, p, sizeof(*p))) {
            result = (double)miss;
            break;
        }
    }
    free(p);
    free(before);
    return result;
}

uint64_t bpred_indirect_lap(const uint64_t *targets, uint64_t n)
{
    uint64_t miss = 0;
    for (uint64_t i = 0; i < n; i++)
        miss += targets[i] != targets[(i + n - 1) % n];
    return miss;
}
