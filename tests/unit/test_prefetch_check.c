/* microkernels/prefetch_check.c: are the walker's level figures withheld? Where its order beat a
 * random walk of the same size beyond noise (the prefetchers follow it), where it lost to it beyond
 * noise (its own misses), and where the check was too noisy to show either. Host-independent: figures recorded on the hosts met, ns a load. */
#include "microkernels/prefetch_check.h"
#include "tap.h"
#include <string.h>

static const struct {
    int line;
    double order[4], random[4];
    int n;
    bool withheld;
    const char *says;
} rows[] = {
    /* issue 41's Emerald Rapids VM: order=block against order=random at 8M and 256M */
    {__LINE__, {16.6, 16.9, 17.0, 17.2}, {35.6, 35.9, 36.0, 36.5}, 4, true, "the prefetchers follow this order"},
    {__LINE__, {49.9, 50.3, 51.0, 52.0}, {132.3, 133.0, 135.0, 140.0}, 4, true, "the prefetchers follow this order"},
    /* this session's Granite/Sapphire Rapids-class VM, as the walker's check timed them */
    {__LINE__, {56.2, 57.3, 60.0, 61.0}, {138.3, 138.3, 139.0, 145.0}, 4, true, "56.2 ns a load in this order"},
    {__LINE__, {56.1, 57.2, 58.0, 70.0}, {254.3, 269.6, 270.0, 280.0}, 4, true, "against 254.3 ns"},
    /* a random order against another random ring: within noise, whichever is a little faster */
    {__LINE__, {35.6, 35.9, 36.4, 40.0}, {35.1, 35.5, 36.0, 36.0}, 4, false, "no prefetcher gains or losses beyond the noise"},
    {__LINE__, {144.8, 146.0, 150.0, 151.0}, {150.5, 151.0, 152.0, 160.0}, 4, false, "no prefetcher gains"},  /* 3.8% */
    /* 10% faster, but the order's next fastest window is 40% off its fastest: a busy CPU, no proof
     * either way: withheld */
    {__LINE__, {90.0, 126.0, 130.0, 131.0}, {100.0, 101.0, 102.0, 103.0}, 4, true, "spread too far to tell"},
    /* as fast as the random ring, but 6% between the fastest windows (noise 18%): not told apart */
    {__LINE__, {100.0, 106.0, 107.0, 108.0}, {100.0, 101.0, 102.0, 103.0}, 4, true, "spread too far to tell"},
    /* the same with 4% (noise 12%): told, no gain */
    {__LINE__, {100.0, 104.0, 107.0, 108.0}, {100.0, 101.0, 102.0, 103.0}, 4, false, "no prefetcher gains"},
    /* 10% faster with both known to 1%: a gain beyond 5% */
    {__LINE__, {90.0, 90.9, 91.0, 95.0}, {100.0, 101.0, 101.0, 102.0}, 4, true, "the prefetchers follow"},
    /* issue 47's Zen 5 guest at 8M: block order 512.3 cycles a load (121.6 ns), a random walk 52.0
     * (12.3 ns at 4.22 GHz): slower beyond any noise, the order is not the level */
    {__LINE__, {121.6, 122.0, 123.0, 125.0}, {12.3, 12.4, 12.5, 12.6}, 4, true, "slower than a random walk"},
    /* 10% slower with both known to 1%: withheld, as 10% faster is */
    {__LINE__, {110.0, 110.9, 111.0, 115.0}, {100.0, 101.0, 101.0, 102.0}, 4, true, "slower than a random walk"},
    /* 4% slower, within the 5% margin: told, no loss */
    {__LINE__, {104.0, 104.5, 105.0, 106.0}, {100.0, 101.0, 101.0, 102.0}, 4, false, "no prefetcher gains or losses"},
    /* one window each: the spread is unknown, nothing is shown */
    {__LINE__, {16.6}, {35.6}, 1, true, "the noise is unknown"},
    {__LINE__, {35.6}, {35.6}, 1, true, "the noise is unknown"},
    {__LINE__, {0}, {0}, 0, true, "could not be timed"},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char why[400] = "";
        bool withheld = prefetch_withholds(rows[i].order, rows[i].random, rows[i].n, why, sizeof(why));
        CHECK(withheld == rows[i].withheld && strstr(why, rows[i].says), rows[i].line,
              "prefetch_withholds = %d (want %d): %s", withheld, rows[i].withheld, why);
    }
    return done_testing();
}
