#include "host/clock.h"
#include "arch/isa.h"
#include "base/stats.h"
#include <time.h>

double clock_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ISA_CHAIN_OPS dependent one-cycle operations per loop trip. */
static uint64_t add_chain_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_op_chain(trips);
    return isa_ticks_stop() - t0;
}

static double measure_tsc_hz(void)
{
    double t0 = clock_now_seconds();
    uint64_t c0 = isa_ticks_start();
    double t;
    while ((t = clock_now_seconds()) - t0 < 0.05)
        ;
    uint64_t c1 = isa_ticks_stop();
    return (double)(c1 - c0) / (t - t0);
}

/* Core cycles per TSC tick of one short trip (400k adds, about 0.1 ms at 4 GHz): short enough
 * that most trips run between two preemptions even on a busy machine. A preempted trip only
 * reads slow, so the fastest of several is the clock. Long trips (20M adds) all got preempted
 * under load: with four jobs on two CPUs they read 0.99 against 1.77 measured in short trips. */
enum { SHORT_TRIPS = 400 };
static double short_trip_ratio(void)
{
    return (double)SHORT_TRIPS * ISA_CHAIN_OPS / (double)add_chain_ticks(SHORT_TRIPS);
}

enum { WINDOW_TRIPS = 32 };
double clock_ratio_trip(uint64_t *ticks)
{
    *ticks = add_chain_ticks(WINDOW_TRIPS);
    return (double)WINDOW_TRIPS * ISA_CHAIN_OPS / (double)*ticks;
}

double clock_ratio_now(void)
{
    double best = 0;
    for (int i = 0; i < 5; i++) {
        double r = short_trip_ratio();
        if (r > best)
            best = r;
    }
    return best;
}

double clock_ratio_over(double seconds, double ratio_now)
{
    double trips = seconds * clock_get()->tsc_hz * ratio_now / ISA_CHAIN_OPS;
    uint64_t n = trips < 1 ? 1 : (uint64_t)trips;
    return (double)n * ISA_CHAIN_OPS / (double)add_chain_ticks(n);
}

const struct clock_info *clock_get(void)
{
    static struct clock_info ci;
    if (ci.tsc_hz)
        return &ci;
    enum { REPS = 51 };
    double hz[3], ratio[REPS];
    for (int i = 0; i < 3; i++)
        hz[i] = measure_tsc_hz();
    add_chain_ticks(20000); /* let the core reach its running clock */
    for (int i = 0; i < REPS; i++)
        ratio[i] = short_trip_ratio();
    struct stats s = stats_of(ratio, REPS);
    /* A counter whose frequency the ISA states (AArch64's CNTFRQ_EL0) takes it as stated. */
    double said = isa_ticks_hz_said();
    ci.tsc_hz = said > 0 ? said : stats_median(hz, 3);
    ci.core_per_tsc = s.max;
    ci.core_hz = ci.tsc_hz * ci.core_per_tsc;
    ci.core_per_tsc_spread = stats_rel_mad(&s);
    return &ci;
}
