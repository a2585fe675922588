/* The measurement core: one case x one group x R repetitions, per-iteration counts after
 * subtracting the same region looped zero times. Nothing here knows which kernel or
 * which source it drives. */
#ifndef PMUCAL_MEASURE_H
#define PMUCAL_MEASURE_H
#include "base/stats.h"
#include "core/kernel.h"
#include "core/source.h"
#include <signal.h>

struct measure_opts {
    int repetitions;          /* R, default 5 */
    double target_seconds;    /* wall time of one counted loop when iterations are automatic (--target-ms) */
    uint64_t iters;           /* fixed iterations per counted loop; 0 = calibrate to target_seconds */
    int max_redo;             /* redo a repetition that saw a context switch or migration */
};
#define MEASURE_OPTS_DEFAULT {.repetitions = 5, .target_seconds = 0.02, .iters = 0, .max_redo = 3}

#define MEASURE_MAX_REPS 101
/* Core-clock ratios taken before and after the repetitions that differ by more than this mean the
 * clock moved while they ran (boost, host load): recorded (clock_moved). Real-time sources' cycles
 * come from windows converted at the clock beside each, so nothing is measured again for it; a
 * source without windows has it judged by its reader (calibrate: unstable). */
#define MEASURE_CLOCK_DRIFT 0.05
/* Timing (real-time sources) comes from short windows, not from the counted loops: after each
 * repetition's counted pair, MEASURE_WINDOWS windows, each a zero-iteration loop and a loop of about
 * MEASURE_WINDOW_SECONDS, back to back. A window is far shorter than a scheduler slice (ms) or a
 * hypervisor's steal period, so most windows run whole; preemption and interrupts only add time,
 * so a disturbed window reads long and a low quantile of the windows is the clean figure. A window
 * whose own zero-iteration control reads more than twice the controls' median (+ 100 ticks) was
 * hit there, which would make its difference short: it is dropped. */
#define MEASURE_WINDOWS 16
#define MEASURE_WINDOW_SECONDS 100e-6
#define MEASURE_WINDOW_QUANTILE 0.10
/* The clock references of a core of its own agree within this: 0-0.15% on the Zen 3 guest,
 * 0.1-0.22% on the Emerald Rapids guest, over each case's windows. Beyond it another hardware
 * thread held one chain's units: 2.2-2.9% on Zen 3, with loads 4-5% slower (host/clock.h); on
 * Emerald Rapids 0.4-3.3% in about half the cases of a calibration, and those cases read slow
 * at a split of 0.5-0.9% already: a line-split walk 205.7 cycles an iteration against 191.4 at
 * 0.1-0.2%, mispredicted branches 114.3 against 93.4-94.9, an L1 instruction walk 415-662 against
 * 343-349 (each pass of make run's calibration at 5f78f7c). */
#define MEASURE_CLOCK_SPLIT_MAX 0.004
/* The load witness of a load unit of its own reads its whole latency; a case whose cycles its
 * slower reading could have moved by more than this did not have the load unit to itself
 * (clock_load_share). */
#define MEASURE_LOAD_SHARE_MAX 0.01
/* A witness of a load unit of its own reads within this of its whole latency: 4.983-5.007 cycles
 * of 5 on the Emerald Rapids guest. Beyond it another thread ran on the core: 5.039-5.077 while
 * btb_resteer read 3.83 cycles in six whole calibrations, 20% over its 3.20-3.21 beside a quiet
 * witness, with the clock references 0.16-0.22% apart and the case's few loads unable to move its
 * cycles (MEASURE_LOAD_SHARE_MAX). A case whose cost is the front end's, which SMT threads take
 * turns at, counts as shared then, whatever its loads. */
#define MEASURE_WITNESS_QUIET 0.005
/* ... and never this far under it: sharing only slows a load, so a witness reading fast was
 * converted at a clock that read slow, and so were the case's own cycles (both references slowed
 * alike, which their split does not show). Of 10,793 cases recorded on the Emerald Rapids guest,
 * 15 read under 4.95 of 5 (down to 4.72), each with its references over MEASURE_CLOCK_SPLIT_MAX
 * apart; none with them agreeing read under 4.95. */
#define MEASURE_WITNESS_FAST 0.02
/* The front-end witness's median reads within this of the run's pace on a core of its own (0.3-0.9%
 * over a case's own fastest on the Emerald Rapids guest, quiet; the pace is the second fastest of
 * the run's cases, calibrate_run.c front_pace); another thread at the
 * front end moved it 9-128%, and in one calibration fp_assist_mul to 143 cycles (116.8 alone)
 * while the load witness read 5.002-5.012 of 5. A case whose cost is the front end's counts as
 * shared beyond it. Its readings are not told on a coarse counter (host/clock.h). */
#define MEASURE_FRONT_QUIET 0.02
/* The longest one measured loop may last (real-time sources): a stop is acted on between loops. */
#define MEASURE_MAX_LOOP_SECONDS 0.5
/* --iters at most this: beyond it no kernel's loop stays under MEASURE_MAX_LOOP_SECONDS. */
#define MEASURE_MAX_ITERS 1000000000ull
/* Would one loop of iters iterations outlast MEASURE_MAX_LOOP_SECONDS (a stop waits for a loop to
 * end)? Judged from a short pilot; true after one message naming option (--iters) and the
 * largest count that fits. */
bool measure_loop_too_long(struct case_ *c, uint64_t iters, const char *option);

struct measurement {
    struct event_spec **events;
    int nevents;
    uint64_t iters;
    int reps;
    double per_iter[GROUP_MAX_EVENTS][MEASURE_MAX_REPS];   /* (count(N) - count(0)) / N */
    double raw[GROUP_MAX_EVENTS][MEASURE_MAX_REPS][2];     /* count(N), count(0) */
    struct stats stat[GROUP_MAX_EVENTS];
    double cycles[MEASURE_MAX_REPS];       /* core cycles per iteration, from the TSC: the low quantile of
                                              the repetition's windows (real-time sources), else of its
                                              counted loop */
    struct stats cycle_stat;
    double core_per_tsc;                   /* ratio used: mean of the ratios before and after */
    double ratio_before, ratio_after;
    int clock_redone;    /* times the repetitions were measured again for a moving clock: 0 since the
                            windows carry their own (kept for records of older builds) */
    bool clock_moved;    /* the ratios before and after still differ by more than MEASURE_CLOCK_DRIFT */
    /* The windows: iterations of each, how many were timed over all repetitions and how many were
     * dropped for a long zero-iteration control; over the clean ones, core cycles per iteration at
     * the low quantile (what cycles[] holds per repetition), the median and the 90th percentile. A
     * quantile far below the median says most windows were disturbed (measure.c). */
    uint64_t window_iters;
    int windows, windows_dropped;
    double window_q, window_median, window_p90;
    double clock_split;   /* the median relative difference of the two clock references over the
                             windows' trips (host/clock.h): near 0, or what held the adders */
    double load_whole, load_median;   /* the load witness over the windows' trips
                                         (clock_load_witness): its whole latency and its median
                                         reading in cycles a load; NaN where it was not told */
    double front_fastest, front_median;   /* the front-end witness over the windows' trips
                                             (clock_front_witness): its fastest and median reading in
                                             cycles a no-op; NaN where it was not told */
    double noise[NOISE_COUNT][MEASURE_MAX_REPS];   /* in loop(N) + loop(0), whole loops */
    double fixed[FIXED_COUNT][MEASURE_MAX_REPS];   /* per iteration; NaN without fixed counters */
    struct stats fixed_stat[FIXED_COUNT];
    uint64_t time_enabled, time_running;  /* cumulative over the group's counted loops */
    bool multiplexed;
    /* Mean time (ns) a counted loop was enabled and held its counters, loops of iters and
     * zero-iteration loops apart, and the spread of the latter's: a group the kernel accepted but
     * cannot schedule holds them a fixed time a loop (its attempts to schedule it), no longer with
     * iterations than without. */
    double enabled_iters, enabled_zero, running_iters, running_zero, running_zero_spread;
    bool never_scheduled;   /* time_running 0, or held no longer with iterations than without */
    int redone;          /* repetitions measured again because of noise */
    bool noisy;          /* noise remained after max_redo */
};

/* multiplexed and never_scheduled from the group's times (time_enabled, time_running and the
 * per-loop means). Never scheduled: time_running 0, or a loop of iterations held the counters no
 * longer than a zero-iteration loop did (within the latter's spread, or one iteration's time):
 * that is a fixed time a loop the kernel spends trying to schedule a group it accepted but cannot
 * place (armv8_pmuv3 with a disabled leader), in the kernel, where nothing of the code counts. */
void measure_schedule_judge(struct measurement *m);

/* The timing windows' figures (real-time sources): m->cycles[] per repetition at the low quantile
 * of its clean windows, each at the clock of the trips around it, and the summary over all of
 * them (window_q, median, p90, windows, windows_dropped, core_per_tsc). zero, full: each window's
 * ticks, nper a repetition; trip: core cycles per tick of the trip before each window and after a
 * repetition's last, nper + 1 a repetition. m->reps and m->window_iters are the caller's. */
void measure_window_figures(struct measurement *m, const double *zero, const double *full, const double *trip,
                            int nper);

/* The trips' witnesses (real-time sources): clock_split, the median of split[]; load_whole and
 * load_median (clock_load_witness), front_fastest and front_median (clock_front_witness), from
 * loads[] and fronts[] in ticks a load and a no-op, which become cycles at the fastest trip of
 * their repetition (in place). Each of the four arrays holds nper + 1 trips a repetition, as
 * measure_window_figures' trip does; the witnesses' fastest readings come from the trips whose
 * split is within MEASURE_CLOCK_SPLIT_MAX (from all where none is). */
void measure_witness_figures(struct measurement *m, const double *trip, const double *split, double *loads,
                             double *fronts, int nper);

/* TSC ticks spent inside measured regions (calibration, warm-up and repetitions) by this
 * process: the denominator of how much of a run's wall time is measurement. */
extern uint64_t measure_region_ticks;

/* The case is set up and the thread pinned by the caller. CASE_OK, CASE_ERROR (message printed)
 * or CASE_INTERRUPTED. */
int measure_group(const struct source *src, struct case_ *c, struct event_spec **events, int n,
                  const struct measure_opts *o, struct measurement *m);

/* One case of a kernel, given as "p=v p=v" text, timed with the measurement core on the perf source
 * with no programmable events (cycles from the TSC), its thread bound to the case's measuring CPU: core
 * cycles per iteration, the clock they ran at and the model. CASE_OK; CASE_SKIP (the reason
 * printed); CASE_ERROR (message printed). */
int measure_case_cycles(const char *kernel, const char *case_text, const struct measure_opts *o,
                        struct stats *cycles, double *core_ghz, struct quantities *q);

#endif
