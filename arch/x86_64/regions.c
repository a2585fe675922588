#include "arch/isa.h"

const struct isa_triad_variant isa_triad_variants[] = {
    {"scalar", 1, 0, "x86 has no scalar double non-temporal store outside AMD's SSE4a"},
    {"sse", 2, 0, NULL},
    {"avx2", 4, ISA_AVX2, NULL},
    {"avx512", 8, ISA_AVX512, NULL},
};
const size_t isa_ntriad_variants = sizeof(isa_triad_variants) / sizeof(isa_triad_variants[0]);
