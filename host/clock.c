#include "host/clock.h"
#include "arch/isa.h"
#include "base/stats.h"
#include "base/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double clock_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ISA_CHAIN_OPS dependent one-cycle register adds per loop trip. Never inlined: the warm-up trip must run
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

/* ISA_CHAIN_OPS dependent loads of the witness's line per loop trip. */
__attribute__((noinline)) static uint64_t load_chain_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_load_chain(trips);
    return isa_ticks_stop() - t0;
}

/* ISA_CHAIN_OPS no-ops per loop trip (the front-end witness). */
__attribute__((noinline)) static uint64_t nop_block_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_nop_block(trips);
    return isa_ticks_stop() - t0;
}

/* ISA_CHAIN_OPS dependent immediate adds per loop trip (whether the renamer folds them). */
__attribute__((noinline)) static uint64_t imm_chain_ticks(uint64_t trips)
{
    uint64_t t0 = isa_ticks_start();
    isa_imm_chain(trips);
    return isa_ticks_stop() - t0;
}

/* The tick counter and the system clock read together: the ticks just before and just after the
 * clock, the narrowest of a few tries (a preemption or interrupt widens only the try it falls in);
 * *halfwidth is the ticks the reading may be off either side. */
static void tick_clock_pair(uint64_t *ticks, double *secs, uint64_t *halfwidth)
{
    uint64_t best = 0;
    for (int i = 0; i < 8; i++) {
        uint64_t a = isa_ticks_start();
        double t = clock_now_seconds();
        uint64_t b = isa_ticks_stop();
        if (i == 0 || b - a < best) {
            best = b - a;
            *ticks = a + best / 2;
            *secs = t;
        }
    }
    *halfwidth = best / 2 + 1;
}

/* Ticks per second: two paired readings 10 ms apart or more, the second taken again until the
 * pairs' uncertainty is under 1e-4 of the ticks between them or 0.2 s have passed. Three 50 ms
 * spins with unpaired readings (a preemption between a clock and a tick read skewed one by a
 * slice) cost every command 150 ms of CPU; this, about 10. */
static double measure_tsc_hz(void)
{
    uint64_t c0, c1, w0, w1;
    double t0, t1;
    tick_clock_pair(&c0, &t0, &w0);
    do {
        while (clock_now_seconds() - t0 < 0.01)
            ;
        tick_clock_pair(&c1, &t1, &w1);
    } while ((double)w0 + (double)w1 > 1e-4 * (double)(c1 - c0) && t1 - t0 < 0.2);
    return (double)(c1 - c0) / (t1 - t0);
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

/* x86-64: IMUL r64 has taken 3 cycles on every Intel core since Nehalem and every AMD core since
 * Zen, 4 on K8-K10; the TSC runs at about the base clock, and cores run from a fifth of it to
 * about three times. AArch64: MUL Xd takes 2-5 cycles on Cortex and Neoverse cores, and an
 * emulator (QEMU -icount) retires one instruction of any kind a tick; the generic timer is a
 * fixed-rate counter (1-1000 MHz by CNTFRQ_EL0) unrelated to the core's clock. RISC-V: MUL takes
 * 1-5 cycles on the cores Linux runs on, and rdtime reads a fixed-rate timebase (the device tree's
 * timebase-frequency, 1-10 MHz on the boards and QEMU's virt) as slow as the generic timer. */
static const struct clock_bounds bounds[] = {
    {"x86-64", 3, 4, 0.2, 3.0, "the TSC runs at about the base clock"},
    {"AArch64", 1, 5, 0.3, 6500, "the generic timer runs at 1 MHz or more"},
    {"RISC-V", 1, 5, 0.3, 6500, "the time CSR runs at the timebase frequency, 1 MHz or more"},
};

const struct clock_bounds *clock_bounds_of(const char *isa)
{
    for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
        if (!strcmp(bounds[i].isa, isa))
            return &bounds[i];
    return NULL;
}

/* Why a clock of ratio core cycles per tick cannot be, into why; false when it can. */
static bool clock_impossible(double ratio, double tsc_hz, const struct clock_bounds *b, char *why, size_t n)
{
    double hz = ratio * tsc_hz;
    if (!(hz >= CLOCK_HZ_MIN && hz <= CLOCK_HZ_MAX))
        snprintf(why, n, "%.2f GHz, outside %.1f-%.1f GHz, where every core runs", hz / 1e9, CLOCK_HZ_MIN / 1e9,
                 CLOCK_HZ_MAX / 1e9);
    else if (!(ratio >= b->per_tick_lo && ratio <= b->per_tick_hi))
        snprintf(why, n, "%.4g core cycles per tick, outside %g-%g (%s)", ratio, b->per_tick_lo, b->per_tick_hi,
                 b->per_tick_why);
    else
        return false;
    return true;
}

void clock_decide(const struct clock_chains *m, const struct clock_bounds *b, struct clock_info *out)
{
    out->trusted = false;
    out->mul_latency = 0;
    out->why[0] = out->note[0] = '\0';
    out->imm_per_cycle = NAN;
    out->core_per_tsc = m->add_ticks > 0 ? 1 / m->add_ticks : NAN;
    if (!(m->add_ticks > 0) || !(m->tsc_hz > 0)) {
        snprintf(out->why, sizeof(out->why), "the register adds were not timed");
        return;
    }
    double add_ratio = 1 / m->add_ticks;
    char add_no[128] = "", mul_no[128] = "";
    bool add_bad = clock_impossible(add_ratio, m->tsc_hz, b, add_no, sizeof(add_no));
    double mul_cycles = m->mul_ticks / m->add_ticks;
    int whole = m->mul_ticks > 0 ? clock_whole_latency(mul_cycles) : 0;
    if (whole >= b->mul_lo && whole <= b->mul_hi) {
        out->mul_latency = whole;
        out->core_per_tsc = clock_reference_ratio(add_ratio, whole / m->mul_ticks);
        if (clock_impossible(out->core_per_tsc, m->tsc_hz, b, add_no, sizeof(add_no)))
            snprintf(out->why, sizeof(out->why), "register adds and %d-cycle multiplies agree on a clock that cannot "
                     "be: %s", whole, add_no);
        else
            out->trusted = true;
    } else if (!(m->mul_ticks > 0)) {
        snprintf(out->why, sizeof(out->why), "one reference alone (the multiplies were not timed)%s%s",
                 add_bad ? ", and it reads " : "", add_no);
    } else {
        /* Which one is wrong: the clock each gives, taken at its own stated latency (the adds 1,
         * the multiplies the ISA's least), that no core can run at. */
        double mul_ratio = b->mul_lo / m->mul_ticks;
        bool mul_bad = clock_impossible(mul_ratio, m->tsc_hz, b, mul_no, sizeof(mul_no));
        if (add_bad && !mul_bad)
            snprintf(out->why, sizeof(out->why), "the register adds misbehaved: at the %d-cycle multiplies' clock "
                     "(%.2f GHz) an add took %.2f cycles, not 1 (%.1fx off); their own clock would be %s", b->mul_lo,
                     mul_ratio * m->tsc_hz / 1e9, mul_ratio * m->add_ticks, 1 / (mul_ratio * m->add_ticks), add_no);
        else if (mul_bad && !add_bad)
            snprintf(out->why, sizeof(out->why), "the multiplies misbehaved: at the register adds' clock (%.2f GHz) "
                     "a multiply took %.2f cycles, where this ISA's take %d-%d; their clock would be %s",
                     add_ratio * m->tsc_hz / 1e9, mul_cycles, b->mul_lo, b->mul_hi, mul_no);
        else
            snprintf(out->why, sizeof(out->why), "the references disagree: a multiply took %.2f register adds' time, "
                     "where this ISA's multiplies take %d-%d cycles, and neither clock (%.2f or %.2f GHz) can be "
                     "ruled out", mul_cycles, b->mul_lo, b->mul_hi, add_ratio * m->tsc_hz / 1e9,
                     mul_ratio * m->tsc_hz / 1e9);
    }
    if (m->imm_ticks > 0 && out->core_per_tsc > 0) {
        out->imm_per_cycle = 1 / (m->imm_ticks * out->core_per_tsc);
        if (out->imm_per_cycle > 1 + CLOCK_LATENCY_SLACK)
            snprintf(out->note, sizeof(out->note), "dependent immediate adds retire %.1f a cycle: folded at rename, "
                     "never a reference", out->imm_per_cycle);
    }
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

/* 24,000 cycles of each chain, about 14 us at 3.5 GHz together, and 24,000 no-ops: well inside a
 * scheduler slice. Each witness's warm trip first: a case that walks memory leaves the load's line
 * out of the L1, and one miss would read as 1-4% slow; one with much code leaves the no-ops out. */
enum { WINDOW_TRIPS = 24, FRONT_TRIPS = 24 };
void clock_trip(struct clock_trip *t)
{
    uint64_t empty = clock_get()->empty_ticks;
    load_chain_ticks(1);
    t->ratio = reference_trip(WINDOW_TRIPS, &t->ticks, &t->split);
    uint64_t tl = load_chain_ticks(2);
    t->ticks += tl;
    t->load_ticks = tl >= empty + CLOCK_WITNESS_TICKS ? (double)(tl - empty) / (2.0 * ISA_CHAIN_OPS) : NAN;
    nop_block_ticks(1);   /* warm: a case with much code leaves the block out of the L1I */
    uint64_t tf = nop_block_ticks(FRONT_TRIPS);
    t->ticks += tf;
    t->front_ticks = tf >= empty + CLOCK_WITNESS_TICKS ? (double)(tf - empty) / (FRONT_TRIPS * ISA_CHAIN_OPS) : NAN;
}

/* A witness's trips: the fastest of its readings told (above 0) in trips whose references agreed
 * (of all told, where none did) and the median of all told; false, both NaN, when none was. */
static bool witness_readings(const double *x, const double *split, size_t n, double split_max, double *fastest,
                             double *median)
{
    double *v = xmalloc(sizeof(double) * (n ? n : 1)), least = INFINITY, least_agreed = INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (x[i] > 0) {
            v[k++] = x[i];
            least = fmin(least, x[i]);
            if (!split || split[i] <= split_max)
                least_agreed = fmin(least_agreed, x[i]);
        }
    *fastest = !k ? NAN : least_agreed < INFINITY ? least_agreed : least;
    *median = k ? stats_median(v, k) : NAN;
    free(v);
    return k > 0;
}

bool clock_front_witness(const double *front_cycles, const double *split, size_t n, double split_max,
                         double *fastest, double *median)
{
    return witness_readings(front_cycles, split, n, split_max, fastest, median);
}

bool clock_load_witness(const double *load_cycles, const double *split, size_t n, double split_max, double *whole,
                        double *median)
{
    double least, w = 0;
    if (witness_readings(load_cycles, split, n, split_max, &least, median))
        w = floor(least * (1 + CLOCK_LOAD_SLACK));
    *whole = w >= 1 ? w : NAN;
    if (!(w >= 1))
        *median = NAN;
    return w >= 1;
}

double clock_load_share(double whole, double median, double loads, double cycles)
{
    return (median - whole) * loads / cycles;
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

/* Each chain's pace: the fastest trip of many (another thread on the core, a preemption or an
 * interrupt only ever slow a chain, so the fastest is its own pace), in ticks an operation. */
static void measure_chains(struct clock_chains *m)
{
    enum { TRIPS = 30, TRIES = 41 };
    uint64_t add = UINT64_MAX, mul = UINT64_MAX, imm = UINT64_MAX;
    for (int i = 0; i < TRIES; i++) {
        uint64_t a = add_chain_ticks(TRIPS), b = mul_chain_ticks(TRIPS), c = imm_chain_ticks(TRIPS);
        add = a < add ? a : add;
        mul = b < mul ? b : mul;
        imm = c < imm ? c : imm;
    }
    double ops = (double)TRIPS * ISA_CHAIN_OPS;
    m->add_ticks = (double)add / ops;
    m->mul_ticks = (double)mul / ops;
    m->imm_ticks = (double)imm / ops;
}

const struct clock_info *clock_get(void)
{
    if (ci.tsc_hz)
        return &ci;
    enum { REPS = 51 };
    double ratio[REPS];
    /* A counter whose frequency the ISA states (AArch64's CNTFRQ_EL0) takes it as stated. */
    double said = isa_ticks_hz_said();
    struct clock_chains m = {.tsc_hz = said > 0 ? said : measure_tsc_hz()};
    add_chain_ticks(20000); /* let the core reach its running clock */
    measure_chains(&m);
    clock_decide(&m, clock_bounds_of(ISA_NAME), &ci);
    for (int i = 0; i < REPS; i++)
        ratio[i] = short_trip_ratio();
    struct stats s = stats_of(ratio, REPS);
    ci.tsc_hz = m.tsc_hz;
    ci.core_per_tsc = s.max;
    ci.core_hz = ci.tsc_hz * ci.core_per_tsc;
    ci.core_per_tsc_spread = stats_rel_mad(&s);
    ci.empty_ticks = UINT64_MAX;
    for (int i = 0; i < 64; i++) {
        uint64_t a = isa_ticks_start(), b = isa_ticks_stop();
        ci.empty_ticks = b - a < ci.empty_ticks ? b - a : ci.empty_ticks;
    }
    char why[128];
    if (ci.trusted && clock_impossible(ci.core_per_tsc, ci.tsc_hz, clock_bounds_of(ISA_NAME), why, sizeof(why))) {
        ci.trusted = false;
        snprintf(ci.why, sizeof(ci.why), "the references agreed, but the clock beside them read %s", why);
    }
    return &ci;
}
