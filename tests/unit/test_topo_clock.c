/* Topology against the kernel's own sysfs view; the clock ratio against sane bounds. */
#include "arch/isa.h"
#include "core/kernel.h"
#include "host/clock.h"
#include "host/geometry.h"
#include "host/topo.h"
#include "tap.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long sysfs_cache_size(int level, const char *type)
{
    for (int i = 0; i < 8; i++) {
        char path[128], buf[64], t[32];
        int lv;
        FILE *f;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!(f = fopen(path, "r")))
            break;
        int got = fscanf(f, "%d", &lv);
        fclose(f);
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (got != 1 || !(f = fopen(path, "r")))
            continue;
        got = fscanf(f, "%31s", t);
        fclose(f);
        if (got != 1 || lv != level || (strcmp(t, type) && strcmp(t, "Unified")))
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r")))
            continue;
        got = fscanf(f, "%63s", buf);
        fclose(f);
        if (got == 1)
            return strtoull(buf, NULL, 10) * (strchr(buf, 'M') ? 1024 * 1024 : 1024);
    }
    return 0;
}

int main(void)
{
    const struct topo *t = topo_get();
    CHECK(t != NULL, __LINE__, "hwloc loads the topology");
    if (!t)
        return done_testing();
    /* hwloc's own view against the kernel's; the level used may differ where hwloc's was found
     * implausible (an L3 of 480M on a 2-vCPU guest is replaced by the measured one). */
    const struct geometry *g = geometry_get();
    for (int l = 1; l <= 3; l++) {
        unsigned long long want = sysfs_cache_size(l, "Data");
        if (want && g)
            CHECK(g->hwloc[l].size == want, __LINE__, "L%d data cache: hwloc %llu bytes, sysfs %llu", l,
                  (unsigned long long)g->hwloc[l].size, want);
        if (want && g && !g->implausible[l])
            CHECK(t->data[l].size == want, __LINE__, "L%d data cache used: %llu bytes, hwloc's and sysfs's", l,
                  (unsigned long long)t->data[l].size);
    }
    CHECK(t->pus >= 1 && t->cores >= 1 && t->cores <= t->pus, __LINE__, "%d cores, %d PUs", t->cores, t->pus);
    CHECK(t->packages >= 1 && t->numa_nodes >= 1, __LINE__, "%d packages, %d NUMA nodes", t->packages, t->numa_nodes);
    /* A level this host cannot measure (an L3 that other tenants hold, or that hwloc gets wrong
     * and the curve does not show) is a finding about the host, not a failure: the levels that
     * are known must increase, L1, L2 and DRAM always are. */
    static const char *const names[] = {"L1", "L2", "L3", "DRAM"};
    unsigned long long prev = 0;
    bool increase = true;
    for (int i = 0; i < 4; i++) {
        unsigned long long s = level_size(names[i]);
        if (!s && i == 2) {
            printf("# finding: L3 has no size on this host now (%s)\n", g && *g->note ? g->note : "no note");
            continue;
        }
        increase = increase && s > prev;
        prev = s;
    }
    CHECK(increase, __LINE__, "level sizes increase: %llu %llu %llu %llu", (unsigned long long)level_size("L1"),
          (unsigned long long)level_size("L2"), (unsigned long long)level_size("L3"),
          (unsigned long long)level_size("DRAM"));
    for (int l = 1; l <= 3; l++) {
        char name[3] = {'L', (char)('0' + l), 0};
        if (!level_size(name))
            printf("ok %d - line %d: size=%s lies in level %d # SKIP the level has no size here\n", ++t_n, __LINE__,
                   name, l);
        else
            CHECK(level_of_size(level_size(name)) == l, __LINE__, "size=%s lies in level %d (got %d)", name, l,
                  level_of_size(level_size(name)));
    }
    CHECK(level_of_size(level_size("DRAM")) == 4, __LINE__, "size=DRAM lies beyond every cache");
    CHECK(topo_bind_thread(0) == 0 && topo_current_cpu() == 0, __LINE__, "binding to CPU 0 holds");
    CHECK(topo_bind_thread(100000) != 0, __LINE__, "binding to a CPU that does not exist fails");

    /* Both stop marks: the fenced one on every CPU, the serializing read only where the CPU
     * advertises it. */
    uint64_t t0 = isa_ticks_start(), t1 = isa_ticks_stop_fenced(), t2 = isa_ticks_stop();
    CHECK(t0 < t1 && t1 <= t2, __LINE__, "the fenced stop mark ends after the start mark (%llu, %llu, %llu)",
          (unsigned long long)t0, (unsigned long long)t1, (unsigned long long)t2);
    if (isa_stop_serialized) {
        uint64_t t3 = isa_ticks_stop_serialized();
        CHECK(t3 >= t2, __LINE__, "the serializing stop mark ends after the start mark (the CPU advertises it)");
    }
    CHECK(*isa_stop_mark() && !*isa_stop_note() == isa_stop_serialized, __LINE__,
          "the stop mark follows the CPU: %s%s", isa_stop_mark(), isa_stop_note());

    const struct clock_info *ci = clock_get();
    CHECK(ci->tsc_hz > 5e8 && ci->tsc_hz < 1e10, __LINE__, "TSC at %.3f GHz", ci->tsc_hz / 1e9);
    CHECK(ci->core_per_tsc > 0.2 && ci->core_per_tsc < 5, __LINE__, "core cycles per TSC tick %.4f", ci->core_per_tsc);
    /* The spread of single trips says how busy the machine is (25% was seen with four test jobs on
     * two CPUs), not whether the estimate is right: a preempted trip only reads slow, so the
     * fastest of several is the clock. What must hold is that the estimate is repeatable. */
    printf("# ratio spread of single trips %.4f (machine load, not checked)\n", ci->core_per_tsc_spread);
    /* The ratio is measured again, twice back to back (best of 3 each): the two must agree within
     * 5%, or three median deviations of the startup's own trips where the machine made those wider.
     * Not against the startup figure: a shared host's core moves its clock between minutes (3.79 to
     * 4.09 GHz between processes on this project's Intel VM, 12% within one test run under load),
     * which is the core's doing, not the estimate's. Both must be clocks a core can run at. Up to
     * five pairs: under load the clock moved between the two halves of a pair (1.2039, 1.1284, with
     * a busy loop beside three test files on two CPUs). An estimate that repeats agrees in one of
     * them; a rate out of range fails them all; the pairs it took are printed. */
    double again[2] = {0, 0}, tol = fmax(0.05, 3 * ci->core_per_tsc_spread), ghz = 0;
    int pairs = 0;
    bool agree = false;
    while (!agree && pairs < 5) {
        pairs++;
        again[0] = again[1] = 0;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 3; i++) {
                double r = clock_ratio_now();
                again[k] = r > again[k] ? r : again[k];
            }
        ghz = again[0] * ci->tsc_hz / 1e9;
        agree = again[0] > 0 && fabs(again[1] / again[0] - 1) < tol && ghz > 0.3 && ghz < 6.5;
    }
    CHECK(agree, __LINE__,
          "the ratio measured again twice (best of 3 each: %.4f, %.4f, %.2f GHz) agrees within %.1f%% in one of "
          "%d pairs (startup %.4f)",
          again[0], again[1], ghz, 100 * tol, pairs, ci->core_per_tsc);

    /* The multiply reference: a latency is a whole number of cycles, or no reference at all. */
    static const struct {
        int line;
        double cycles;
        int whole;
    } latencies[] = {
        {__LINE__, 3.00, 3},  {__LINE__, 2.91, 3},  {__LINE__, 3.29, 3}, /* the add chain held 3%, or a trip cut */
        {__LINE__, 0.98, 1},  {__LINE__, 1.12, 0},  {__LINE__, 3.50, 0}, /* no whole latency: adds alone */
        {__LINE__, 0.40, 0},  {__LINE__, 2.00, 2},
    };
    for (size_t i = 0; i < sizeof(latencies) / sizeof(latencies[0]); i++)
        CHECK(clock_whole_latency(latencies[i].cycles) == latencies[i].whole, latencies[i].line,
              "%.2f cycles is a latency of %d (0: none)", latencies[i].cycles, latencies[i].whole);
    /* The clock is the faster reference: a chain another thread slowed reads low. */
    CHECK(clock_reference_ratio(1.58, 1.63) == 1.63 && clock_reference_ratio(1.72, 1.71) == 1.72 &&
              clock_reference_ratio(1.7, 0) == 1.7,
          __LINE__, "the clock is the higher of the references' ratios");
    /* A multiply a third faster than the adds allow is a latency learned wrong, not a clock. */
    CHECK(clock_reference_ratio(1.7, 2.27) == 1.7 && clock_reference_ratio(1.7, 1.78) == 1.78, __LINE__,
          "the multiplies win only within %.0f%% above the adds", 100 * CLOCK_REFERENCE_REACH);
    CHECK(ci->mul_latency >= 0 && ci->mul_latency <= 8, __LINE__, "the multiply's latency %d cycles (0: not a reference)",
          ci->mul_latency);
    struct clock_trip trip;
    clock_trip(&trip);
    /* Both references ran: a trip is 24,000 cycles of each, so at least that many ticks at the
     * fastest clock this test allows (5 core cycles a tick). */
    CHECK(trip.ratio > 0 && trip.ticks >= (ci->mul_latency ? 48000u : 24000u) / 5 && trip.split >= 0 &&
              (ci->mul_latency || trip.split == 0),
          __LINE__, "a trip reads %.4f over %llu ticks, references %.2f%% apart", trip.ratio, (unsigned long long)trip.ticks,
          100 * trip.split);
    /* The witness ran too: a load of one line takes a cycle or more on any core (1-5 in L1). A
     * counter of 1 GHz or more ticks over 1,000 times in its 2,000 loads (8,000 cycles or more at
     * 6.5 GHz at most), so it is told there; a coarser one may leave it untold. */
    double load = trip.load_ticks * trip.ratio;
    CHECK(isnan(load) ? ci->tsc_hz < 1e9 : load >= 1 && load < 100, __LINE__,
          "the load witness read %.2f cycles a load (counter %.3g Hz)", load, ci->tsc_hz);

    /* The witness over a case's trips. Rows from this Zen 3 guest (a one-line chase, the median of
     * 100 ms stretches): 4.00 alone, 4.05-4.12 most of the time, 4.21-4.22 for 300 ms. */
    static const struct {
        int line;
        double loads[5], whole, median;   /* whole NaN: cannot be told */
    } witness[] = {
        {__LINE__, {4.00, 4.01, 4.02, 4.00, 4.03}, 4, 4.01},    /* a load unit of its own */
        {__LINE__, {4.21, 4.22, 4.29, 4.24, 4.22}, 4, 4.22},    /* shared all through: still 4 */
        {__LINE__, {5.00, 5.02, 5.01, 5.05, 4.98}, 5, 5.01},    /* a 5-cycle L1 (Golden Cove) */
        {__LINE__, {3.98, 3.99, 4.00, 3.99, 3.98}, 4, 3.99},    /* a clock read a little fast */
        {__LINE__, {4.55, 4.60, 4.62, 4.58, 4.70}, 4, 4.60},    /* a 4-cycle load slowed, never 5 */
        {__LINE__, {4.97, 4.98, 4.99, 5.00, 4.98}, 5, 4.98},    /* 5 read within the slack of fast */
        {__LINE__, {0, 0, 0, 0, 0}, NAN, NAN},                  /* not timed */
        {__LINE__, {NAN, 4.01, NAN, 4.00, 4.02}, 4, 4.01},     /* untold trips (a coarse counter) left out */
        {__LINE__, {NAN, NAN, NAN, NAN, NAN}, NAN, NAN},       /* none told */
        {__LINE__, {0.5, 0.6, 0.5, 0.5, 0.5}, NAN, NAN},        /* under a cycle: no whole latency */
    };
    for (size_t i = 0; i < sizeof(witness) / sizeof(witness[0]); i++) {
        double whole, median;
        bool told = clock_load_witness(witness[i].loads, NULL, 5, 0.004, &whole, &median);
        CHECK(isnan(witness[i].whole) ? !told && isnan(whole) && isnan(median)
                                      : told && whole == witness[i].whole && fabs(median - witness[i].median) < 1e-9,
              witness[i].line, "witness: whole %g, median %g (want %g, %g)", whole, median, witness[i].whole,
              witness[i].median);
    }
    double w0, m0;
    CHECK(!clock_load_witness(NULL, NULL, 0, 0.004, &w0, &m0) && isnan(w0), __LINE__, "no trips: no witness");
    /* The fastest of the trips whose clock references agreed, where any did: rows from a walker on
     * the Emerald Rapids guest, a trip whose references were cut (16% apart) while the clock
     * stepped up reading 4.79 cycles a load of 5. */
    static const struct {
        int line;
        double loads[5], split[5], whole, median;
    } agreed[] = {
        {__LINE__, {4.98, 4.79, 4.99, 5.00, 4.98}, {0.002, 0.155, 0.003, 0.001, 0.002}, 5, 4.98},
        {__LINE__, {4.98, 4.79, 4.99, 5.00, 4.98}, {0.002, 0.003, 0.003, 0.001, 0.002}, 4, 4.98},
        /* none agreed (a busy sibling all through): the fastest of all */
        {__LINE__, {4.74, 4.75, 4.73, 5.03, 5.02}, {0.07, 0.06, 0.07, 0.05, 0.05}, 4, 4.75},
        /* a 4-cycle load on a shared unit, one trip cut and read fast: 4, not 3 */
        {__LINE__, {4.21, 3.90, 4.22, 4.25, 4.22}, {0.001, 0.02, 0.002, 0.001, 0.001}, 4, 4.22},
    };
    for (size_t i = 0; i < sizeof(agreed) / sizeof(agreed[0]); i++) {
        double whole, median;
        bool told = clock_load_witness(agreed[i].loads, agreed[i].split, 5, 0.004, &whole, &median);
        CHECK(told && whole == agreed[i].whole && fabs(median - agreed[i].median) < 1e-9, agreed[i].line,
              "witness beside references split %.3f .. %.3f: whole %g, median %g (want %g, %g)", agreed[i].split[0],
              agreed[i].split[1], whole, median, agreed[i].whole, agreed[i].median);
    }
    /* The front-end witness: its fastest reading and the median, readings not told (NaN, 0) left
     * out; on the Emerald Rapids guest 0.1741-0.1749 cycles a no-op alone, 0.19-0.39 beside
     * another thread. */
    static const struct {
        int line;
        double nops[5], fastest, median;
    } front[] = {
        {__LINE__, {0.1745, 0.1741, 0.1749, 0.1743, 0.1747}, 0.1741, 0.1745},
        {__LINE__, {0.3881, 0.1741, 0.1902, 0.2527, NAN}, 0.1741, 0.22145},
        {__LINE__, {0, NAN, 0.1741, -1, NAN}, 0.1741, 0.1741},
        {__LINE__, {NAN, NAN, 0, NAN, NAN}, NAN, NAN},
    };
    /* ... the fastest of the trips whose references agreed, as the load witness's */
    static const double nops[5] = {0.1745, 0.1690, 0.1749, 0.1743, 0.1747}, nops_split[5] = {0, 0.06, 0, 0, 0};
    double nf, nm;
    CHECK(clock_front_witness(nops, nops_split, 5, 0.004, &nf, &nm) && nf == 0.1743 && nm == 0.1745, __LINE__,
          "front-end witness beside a trip whose references were cut: fastest %g, median %g (want 0.1743, 0.1745)",
          nf, nm);
    for (size_t i = 0; i < sizeof(front) / sizeof(front[0]); i++) {
        double fastest, median;
        bool told = clock_front_witness(front[i].nops, NULL, 5, 0.004, &fastest, &median);
        CHECK(isnan(front[i].fastest) ? !told && isnan(fastest) && isnan(median)
                                      : told && fastest == front[i].fastest && fabs(median - front[i].median) < 1e-9,
              front[i].line, "front-end witness: fastest %g, median %g (want %g, %g)", fastest, median,
              front[i].fastest, front[i].median);
    }
    /* Its share of a case: what the extra cycles a load add to the case's cycles. */
    static const struct {
        int line;
        double whole, median, loads, cycles, share;
    } shares[] = {
        {__LINE__, 4, 4.29, 16, 64, 0.0725},         /* walker size=L1: 16 loads of 4 cycles */
        {__LINE__, 4, 4.29, 16, 16 * 875, 0.00033},  /* walker size=DRAM beside the same */
        {__LINE__, 4, 4.01, 16, 64, 0.0025},         /* a load unit of its own */
        {__LINE__, 4, 4.29, 0, 17, 0},               /* a divide chain: no loads */
    };
    for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++) {
        double got = clock_load_share(shares[i].whole, shares[i].median, shares[i].loads, shares[i].cycles);
        CHECK(fabs(got - shares[i].share) < 1e-4, shares[i].line, "load share %.5f (want %.5f)", got, shares[i].share);
    }
    CHECK(isnan(clock_load_share(NAN, NAN, 16, 64)) && !(clock_load_share(NAN, NAN, 16, 64) > 0.01), __LINE__,
          "a witness not told shares nothing");
    return done_testing();
}
