/* walker's DTLB model, one row a ring: a ring that visits each page once a lap, in the same
 * order every lap, misses on every load once it has more pages than the first-level DTLB has
 * entries (an LRU TLB has dropped each page by its next visit); it misses nowhere when the pages
 * fit. The calibrator's stlb_hit recipe divides by this count. Rows are sized from this CPU's
 * entry count, so they hold on any host that reports one. */
#include "arch/isa.h"
#include "core/kernel.h"
#include "core/quantity.h"
#include "host/tlb.h"
#include "tap.h"
#include <math.h>
#include <stdio.h>

struct row {
    int line;
    const char *shape;   /* the case, with %llu for the size in bytes */
    double pages_per_entry;
    double expect_per_load;   /* dtlb.miss per load: 1, 0, or NAN for "between 0 and 1" */
};

static const struct row rows[] = {
    {__LINE__, "size=%llu page=4k page_stride=4096 order=random", 2.0, 1},
    {__LINE__, "size=%llu page=4k page_stride=4096 order=random", 1.34, 1},
    {__LINE__, "size=%llu page=4k page_stride=8192 order=random", 1.5, 1},   /* every other page */
    {__LINE__, "size=%llu page=4k page_stride=4096 order=random", 0.5, 0},
    {__LINE__, "size=%llu page=4k page_stride=4096 order=linear", 2.0, 1},
    {__LINE__, "size=%llu page=4k order=random", 2.0, NAN},   /* 64 elements a page: revisits hit */
};

int main(void)
{
    const struct kernel *k = kernel_find("walker");
    int entries = tlb_resolved()->entries[TLB_L1_4K];
    if (!k || entries <= 0) {
        printf("1..0 # SKIP %s\n", !k ? "no walker kernel" : "this CPU reports no first-level 4K DTLB entry count");
        return 0;
    }
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        unsigned long long step = 4096;
        if (sscanf(r->shape, "%*[^_]_stride=%llu", &step) != 1)
            step = 4096;
        unsigned long long bytes = (unsigned long long)(r->pages_per_entry * entries) * step;
        char text[160];
        snprintf(text, sizeof(text), r->shape, bytes);
        struct case_ *c = case_from_text(k, text);
        if (!c || case_setup(c) != CASE_OK) {
            CHECK(0, r->line, "%s: set up", text);
            if (c) {
                k->teardown(c);
                case_free(c);
            }
            continue;
        }
        struct quantities q;
        quantities_unstated(&q);
        case_model(c, &q);
        double per_load = q.v[Q_DTLB_MISS] / q.v[Q_LD_ALL];
        if (isnan(r->expect_per_load))
            CHECK(per_load > 0.05 && per_load < 0.95, r->line, "%s (%d entries): %.3f dtlb.miss a load, between none and all",
                  text, entries, per_load);
        else
            CHECK(fabs(per_load - r->expect_per_load) < 1e-9, r->line, "%s (%d entries): %.3f dtlb.miss a load, want %g",
                  text, entries, per_load, r->expect_per_load);
        k->teardown(c);
        case_free(c);
    }
    return done_testing();
}
