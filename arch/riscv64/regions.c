#include "arch/isa.h"

const struct isa_triad_variant isa_triad_variants[] = {
    {"scalar", 1, 0, "RV64GC has no non-temporal store (Zihintntl's hints are an extension)"},
};
const size_t isa_ntriad_variants = sizeof(isa_triad_variants) / sizeof(isa_triad_variants[0]);
