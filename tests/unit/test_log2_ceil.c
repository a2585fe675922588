/* base/util.c's log2_ceil: the shift of a power-of-two size, which the branch kernel's table
 * (generators/branch.c) and every ISA's slot address (arch/<ARCH>/shapes.c) take from it. */
#include "base/util.h"
#include "tap.h"

static const struct {
    int line;
    uint64_t x;
    unsigned want;
} rows[] = {
    {__LINE__, 0, 0},
    {__LINE__, 1, 0},
    {__LINE__, 2, 1},
    {__LINE__, 3, 2},   /* not a power of two: the next one up */
    {__LINE__, 8, 3},
    {__LINE__, 32768, 15},
    {__LINE__, 32769, 16},
    {__LINE__, 1ull << 63, 63},
    {__LINE__, (1ull << 63) + 1, 64},   /* beyond the last power: 64, never a shift past it */
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        CHECK(log2_ceil(rows[i].x) == rows[i].want, rows[i].line, "log2_ceil(%llu) = %u (want %u)",
              (unsigned long long)rows[i].x, log2_ceil(rows[i].x), rows[i].want);
    return done_testing();
}
