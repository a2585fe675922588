/* core/bpred.c: the predictors callgrind simulates, as core/bpred.h states them: steady-state
 * mispredicts of small periodic streams worked out by hand, and the last-target table's. */
#include "core/bpred.h"
#include "tap.h"

/* A stream of conditional branches: addresses and outcomes, one lap. */
struct stream {
    int n;
    uintptr_t addr[10];
    bool taken[10];
};

static uint64_t lap(struct bpred_cond *p, const void *arg)
{
    const struct stream *s = arg;
    uint64_t miss = 0;
    for (int i = 0; i < s->n; i++)
        miss += bpred_cond_step(p, s->addr[i], s->taken[i]);
    return miss;
}

static const struct {
    int line;
    struct stream s;
    unsigned shift;
    double want;   /* mispredicts a lap in the steady state */
} rows[] = {
    {__LINE__, {1, {0x1000}, {true}}, 0, 0},                        /* always taken */
    {__LINE__, {2, {0x1000, 0x1000}, {true, false}}, 0, 0},         /* alternating: the history tells */
    /* two branches 128 bytes apart share counters; taken then not taken, each after the same
     * history (the lap repeats 1,0: the history before each is ...1010 or ...0101): told apart */
    {__LINE__, {2, {0x1000, 0x1080}, {true, false}}, 0, 0},
    /* a loop of 7 taken and an exit: the exit alone follows 7 taken, so it is learned */
    {__LINE__, {8, {0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, {true, true, true, true, true, true, true, false}}, 0,
     0},
    /* 8 taken and an exit: the 8th taken follows 7 taken as the exit does, one counter for both
     * swinging between 0 and 1 (the taken one missed) or 2 and 3 (the exit missed), as the counters
     * other code left decide: not determined */
    {__LINE__, {9, {0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40, 0x40}, {true, true, true, true, true, true, true, true,
     false}}, 0, -1},
    /* the same on A64 (2 address bits dropped): 0x1000 and 0x1200 share counters all the same */
    {__LINE__, {1, {0x1000}, {false}}, 2, 0},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        double got = bpred_cond_steady(lap, &rows[i].s, rows[i].shift, 64, NULL);
        CHECK(got == rows[i].want, rows[i].line, "steady mispredicts a lap %g (want %g)", got, rows[i].want);
    }
    /* Two branches at addresses 128 apart with opposite fixed outcomes and a history that never
     * tells them apart (each preceded by the same 7 outcomes) fight over one counter. */
    struct bpred_cond p;
    bpred_cond_init(&p, 0);
    uint64_t miss = 0;
    for (int k = 0; k < 1000; k++) {
        for (int j = 0; j < 7; j++)
            bpred_cond_step(&p, 0x2000 + 8 * (uintptr_t)j, true);   /* the same history before each */
        miss += bpred_cond_step(&p, 0x1000, k % 2);
    }
    CHECK(miss >= 400, __LINE__, "one branch alternating after an unchanging history: %llu of 1000 mispredicted",
          (unsigned long long)miss);
    const uint64_t one[] = {7, 7, 7, 7}, cycle[] = {1, 2, 3, 4}, some[] = {1, 1, 2, 2, 2, 3};
    CHECK(bpred_indirect_lap(one, 4) == 0, __LINE__, "one target: never mispredicted");
    CHECK(bpred_indirect_lap(cycle, 4) == 4, __LINE__, "targets in turn: every jump mispredicted");
    CHECK(bpred_indirect_lap(some, 6) == 3, __LINE__, "each change of target (cyclically) mispredicted: %llu",
          (unsigned long long)bpred_indirect_lap(some, 6));
    return done_testing();
}
