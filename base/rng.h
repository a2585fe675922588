/* A seeded pseudo-random generator (xorshift64*): the same seed gives the same lists and code
 * on every machine, so cases are reproducible. */
#ifndef PMUCAL_RNG_H
#define PMUCAL_RNG_H
#include <stdint.h>

struct rng {
    uint64_t s;
};

static inline void rng_seed(struct rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!r->s)
        r->s = 1;
}

static inline uint64_t rng_next(struct rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

/* Uniform in [0, n), n > 0 (the bias of the modulo is below 2^-40 for the sizes used here). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    return rng_next(r) % n;
}

#endif
