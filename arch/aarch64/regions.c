#include "arch/isa.h"

const struct isa_triad_variant isa_triad_variants[] = {
    {"scalar", 1, 0, "A64's non-temporal store (stnp) stores register pairs; triad has no pair form yet"},
    {"neon", 2, 0, "A64's non-temporal store (stnp) stores register pairs; triad has no pair form yet"},
};
const size_t isa_ntriad_variants = sizeof(isa_triad_variants) / sizeof(isa_triad_variants[0]);
