/* The calibration curve's attempts (penalties/curve.c curve_measure): a point whose case shared
 * the core is measured again and its fastest attempt kept, a point slower than a larger working
 * set beyond the noise likewise, and neither more than CURVE_ATTEMPTS times. The points are
 * planted: each attempt's cycles a load and clock split by size and attempt. */
#include "core/quantity.h"
#include "penalties/curve.h"
#include "penalties/fit.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

#define K 1024ull

struct plant {
    int line;
    const char *what;
    uint64_t bytes;               /* the point planted; every other reads 5 cycles, clean */
    double cycles[CURVE_ATTEMPTS], split[CURVE_ATTEMPTS];
    double want;                  /* the cycles a load the curve keeps there */
    int attempts;                 /* how many it takes there */
    int unmeasured_from;          /* attempts from this one on have no record (a replay); 0: none */
};

static const struct plant *now;
static int calls[64];
static struct case_result results[1024];
static int nresults;

static int point_of(uint64_t b)
{
    int i = 0;
    for (uint64_t x = 4096; x < b; x *= 2)
        i++;
    return i;
}

static const struct case_result *plant_fn(void *ctx, const char *text, int attempt, bool *shared)
{
    (void)ctx;
    uint64_t b = strtoull(strstr(text, "size=") + 5, NULL, 10);
    calls[point_of(b)]++;
    struct case_result *r = &results[nresults++ % 1024];
    memset(r, 0, sizeof(*r));
    quantities_unstated(&r->q);
    r->q.v[Q_LD_ALL] = 1;
    r->status = now->unmeasured_from && attempt >= now->unmeasured_from && b == now->bytes ? CASE_SKIP : CASE_OK;
    r->reps = 3;
    double c = b == now->bytes ? now->cycles[attempt] : b >= 64 * K ? 15 : 5;
    r->clock_split = b == now->bytes ? now->split[attempt] : 0.001;
    *shared = r->clock_split > 0.004;   /* calibrate's rule, by its clock references alone here */
    for (int i = 0; i < r->reps; i++)
        r->cycles[i] = c, r->ns[i] = c / 2.5;
    return r;
}

int main(void)
{
    static const struct plant rows[] = {
        {__LINE__, "a shared first attempt (L2's latency at 32K, the Emerald Rapids guest's), a clean second",
         32 * K, {15.5, 5.0, 0, 0}, {0.007, 0.002, 0, 0}, 5.0, 2, 0},
        {__LINE__, "shared every time: all four attempts, the fastest kept", 32 * K, {15.5, 9.0, 12.0, 14.0},
         {0.02, 0.02, 0.02, 0.02}, 9.0, 4, 0},
        {__LINE__, "clean but slower than the larger working sets beyond the noise: measured again until it is not",
         16 * K, {15.0, 14.0, 5.1, 5.0}, {0.001, 0.001, 0.001, 0.001}, 5.1, 3, 0},
        {__LINE__, "clean and in line: once", 16 * K, {5.0, 1, 1, 1}, {0.001, 0, 0, 0}, 5.0, 1, 0},
        {__LINE__, "a shared attempt slower than the first is not kept", 64 * K, {15.0, 30.0, 15.2, 0},
         {0.02, 0.02, 0.001, 0}, 15.0, 3, 0},
        {__LINE__, "a replay without the second attempt's record keeps the first, and the point", 32 * K,
         {15.5, 5.0, 0, 0}, {0.007, 0.002, 0, 0}, 15.5, 2, 1},
    };
    for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        now = &rows[r];
        memset(calls, 0, sizeof(calls));
        static struct curve cv;
        int rc = curve_measure(&cv, 1, 512 * K, false, plant_fn, NULL);
        int at = -1;
        for (int i = 0; i < cv.n; i++)
            if (cv.bytes[i] == now->bytes)
                at = i;
        CHECK(rc == 0 && at >= 0 && cv.lo[at] == now->want && calls[point_of(now->bytes)] == now->attempts &&
                  calls[0] == 1, now->line, "%s: %.1f cycles kept (want %.1f) after %d attempts (want %d); 4K once (%d)",
              now->what, at >= 0 ? cv.lo[at] : -1, now->want, calls[point_of(now->bytes)], now->attempts, calls[0]);
    }
    return done_testing();
}
