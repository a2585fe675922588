#include "host/clock.h"
#include "arch/isa.h"
#include "base/stats.h"
#include <time.h>
#include <valgrind/valgrind.h>

bool clock_has_rdtscp;

/* Under valgrind CPUID is valgrind's: it advertises RDTSCP whatever the host has, and valgrind
 * then raises SIGILL where the host lacks it (this VM). Timing means nothing under the simulator,
 * so there the fenced RDTSC always does. */
__attribute__((constructor)) static void check_rdtscp(void)
{
    clock_has_rdtscp = cpu_get()->rdtscp && !RUNNING_ON_VALGRIND;
}

const char *clock_stop_mark(void)
{
    return clock_has_rdtscp ? "rdtscp;lfence" : "lfence;rdtsc;lfence";
}

double clock_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* 1000 dependent adds per loop trip: each needs the previous result, so one a cycle on any
 * out-of-order core; the loop counter runs on another chain and hides under them. */
static uint64_t add_chain_ticks(uint64_t trips)
{
    uint64_t acc = 0;
    uint64_t t0 = tsc_start();
    __asm__ __volatile__(
        "1:\n\t"
        ".rept 1000\n\t"
        "add $1, %[acc]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b"
        : [acc] "+r"(acc), [n] "+r"(trips)
        :
        : "cc");
    return tsc_stop() - t0;
}

static double measure_tsc_hz(void)
{
    double t0 = clock_now_seconds();
    uint64_t c0 = tsc_start();
    double t;
    while ((t = clock_now_seconds()) - t0 < 0.05)
        ;
    uint64_t c1 = tsc_stop();
    return (double)(c1 - c0) / (t - t0);
}

/* Core cycles per TSC tick of one short trip (400k adds, about 0.1 ms at 4 GHz): short enough
 * that most trips run between two preemptions even on a busy machine. A preempted trip only
 * reads slow, so the fastest of several is the clock. Long trips (20M adds) all got preempted
 * under load: with four jobs on two CPUs they read 0.99 against 1.77 measured in short trips. */
enum { SHORT_TRIPS = 400 };
static double short_trip_ratio(void)
{
    return (double)SHORT_TRIPS * 1000 / (double)add_chain_ticks(SHORT_TRIPS);
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
    double trips = seconds * clock_get()->tsc_hz * ratio_now / 1000;
    uint64_t n = trips < 1 ? 1 : (uint64_t)trips;
    return (double)n * 1000 / (double)add_chain_ticks(n);
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
    ci.tsc_hz = stats_median(hz, 3);
    ci.core_per_tsc = s.max;
    ci.core_hz = ci.tsc_hz * ci.core_per_tsc;
    ci.core_per_tsc_spread = stats_rel_mad(&s);
    return &ci;
}
