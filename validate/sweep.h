/* A parameter-space sweep: cases drawn at random from each kernel's declared domain (struct
 * param's choices and ranges, core/kernel.h), edges included, from a seed, so that a model is
 * checked beyond its default matrix and any failure reproduces from the seed alone. */
#ifndef PMUCAL_SWEEP_H
#define PMUCAL_SWEEP_H
#include <stdbool.h>
#include <stdint.h>

/* Sizes above this are not drawn: under callgrind a lap of a larger working set or code takes
 * seconds to minutes, and the simulated last level is far smaller (the models' large-size regime
 * is reached well below it). */
#define SWEEP_MAX_BYTES (16ull << 20)

/* Does a sweep of every kernel draw from k? Not where a parameter is the user's own text with no
 * default (code's snippet): nothing declares what to draw, and every case would be refused. A
 * sweep that names k (--kernel) draws from it all the same. */
struct kernel;
bool sweep_draws_from(const struct kernel *k);

/* The i-th case of a sweep (i = 0, 1, ...) as "kernel p=v p=v" text (free it), drawn from the
 * kernels named (nk = 0: every kernel) with the generator seeded by seed and i: the same seed and
 * i give the same case on any machine (sizes are bytes or level names, never resolved here).
 * NULL with a message when a named kernel is unknown or a range is malformed. */
char *sweep_case(uint64_t seed, uint64_t i, char *const *kernels, int nk);

#endif
