#include "host/clock.h"
#include "arch/isa.h"
#include "base/stats.h"
#include <math.h>
#include <time.h>

double clock_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ISA_CHAIN_OPS dependent one-cycle adds per loop trip. Never inlined: the warm-up trip must run
 * the very code the timed one does (each inlined chain is a copy of its own). */
__attribute__((noinline)) static uint64_t add_chain_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_op_chain(trips);
    return isa_ticks_stop() - t0;
}

/* ISA_CHAIN_OPS dependent multiplies per loop trip. */
__attribute__((noinline)) static uint64_t mul_chain_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_mul_chain(trips);
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

int clock_whole_latency(double cycles)
{
    double whole = round(cycles);
    return whole >= 1 && fabs(cycles / whole - 1) <= CLOCK_LATENCY_SLACK ? (int)whole : 0;
}

double clock_reference_ratio(double add_ratio, double mul_ratio)
{
    return mul_ratio <= add_ratio * (1 + CLOCK_REFERENCE_REACH) ? fmax(add_ratio, mul_ratio) : add_ratio;
}

static struct clock_info ci;

/* Core cycles per tick over add_trips of adds and as many cycles of multiplies, the higher of
 * the two (a chain another thread on the core slows only reads slow); their relative
 * difference into *split, 0 when the multiplies are not a reference here. */
static double reference_trip(uint64_t add_trips, uint64_t *ticks, double *split)
{
    /* One trip of each first, through the same code as the timed ones (each inlined chain is a
     * copy of its own): a kernel with much code (ifetch's) leaves the chains' 4 KB out of the L1I,
     * and a cold trip read 2-5% slow. */
    add_chain_ticks(1);
    if (ci.mul_latency)
        mul_chain_ticks(1);
    uint64_t ta = add_chain_ticks(add_trips);
    double add = (double)add_trips * ISA_CHAIN_OPS / (double)ta, mul = 0;
    *ticks = ta;
    *split = 0;
    if (ci.mul_latency) {
        uint64_t mul_trips = add_trips / (uint64_t)ci.mul_latency;
        uint64_t tm = mul_chain_ticks(mul_trips ? mul_trips : 1);
        mul = (double)(mul_trips ? mul_trips : 1) * ISA_CHAIN_OPS * ci.mul_latency / (double)tm;
        *ticks += tm;
        *split = fabs(mul / add - 1);
    }
    return clock_reference_ratio(add, mul);
}

/* Core cycles per TSC tick of one short trip (400k adds, about 0.1 ms at 4 GHz): short enough
 * that most trips run between two preemptions even on a busy machine. A preempted trip only
 * reads slow, so the fastest of several is the clock. Long trips (20M adds) all got preempted
 * under load: with four jobs on two CPUs they read 0.99 against 1.77 measured in short trips. */
enum { SHORT_TRIPS = 400 };
static double short_trip_ratio(void)
{
    uint64_t ticks;
    double split;
    return reference_trip(SHORT_TRIPS, &ticks, &split);
}

/* 24,000 cycles of each chain, about 14 us at 3.5 GHz together: well inside a scheduler slice. */
enum { WINDOW_TRIPS = 24 };
double clock_ratio_trip(uint64_t *ticks, double *split)
{
    return reference_trip(WINDOW_TRIPS, ticks, split);
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

/* The multiply's latency: the fastest trip of each chain over many (another thread on the core,
 * a preemption or an interrupt only ever slow a chain, so the fastest of each is its own pace),
 * one against the other. */
static int learn_mul_latency(void)
{
    enum { TRIPS = 30, TRIES = 41 };
    uint64_t add = UINT64_MAX, mul = UINT64_MAX;
    for (int i = 0; i < TRIES; i++) {
        uint64_t a = add_chain_ticks(TRIPS), m = mul_chain_ticks(TRIPS);
        add = a < add ? a : add;
        mul = m < mul ? m : mul;
    }
    return clock_whole_latency((double)mul / (double)add);
}

const struct clock_info *clock_get(void)
{
    if (ci.tsc_hz)
        return &ci;
    enum { REPS = 51 };
    double hz[3], ratio[REPS];
    for (int i = 0; i < 3; i++)
        hz[i] = measure_tsc_hz();
    add_chain_ticks(20000); /* let the core reach its running clock */
    ci.mul_latency = learn_mul_latency();
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
