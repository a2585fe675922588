/* A calibration case's result, where its occurrences come from, and fitting a penalty with its spread. */
#ifndef PMUCAL_FIT_H
#define PMUCAL_FIT_H
#include "core/kernel.h"
#include "core/measure.h"
#include "core/source.h"
#include <stdbool.h>

struct cal_opts {
    int repetitions;          /* R */
    double target_seconds;    /* one counted loop (--target-ms) */
    const struct source *src;
    int cpu;                  /* where cases run (their run_cpu and init_cpu unless they name one) */
    int passes;               /* independent passes over every recipe (0: CAL_PASSES) */
    bool more_passes;         /* a recipe left short of clean passes by shared ones gets more (below) */
};


/* A PMU event counted beside a case: the occurrences it saw, or why it was not counted. */
struct event_count {
    bool asked, counted;
    double per_iter;
    char why[256];
};

struct case_result {
    char *text;               /* the case text "KERNEL p=v ..." as the recipe gives it */
    char *key;                /* "text|event|pass": how calibrate finds a case measured already; NULL */
    int status;               /* CASE_OK, CASE_SKIP (reason says why), CASE_ERROR */
    char reason[320];
    char label[256], detail[256];
    int reps;
    uint64_t iters;
    double cycles[MEASURE_MAX_REPS];  /* core cycles per iteration, at the clock measured around them */
    double ns[MEASURE_MAX_REPS];      /* nanoseconds per iteration (TSC) */
    double ghz[MEASURE_MAX_REPS];     /* local core clock of each repetition */
    int disturbed;            /* repetitions saw context switches in every attempt */
    bool clock_moved;         /* the core clock moved during the repetitions, even when measured again */
    double ratio_before, ratio_after;   /* core cycles per TSC tick around the repetitions */
    /* The timing windows (measure.h): clean ones' low quantile and median of cycles per iteration,
     * how many were timed and dropped; windows 0 where the source has none. */
    double window_q, window_median;
    int windows, windows_dropped;
    double window_seconds;    /* one window's length at its low quantile */
    double clock_split;       /* the clock references' median difference over its trips (measure.h) */
    double load_whole, load_median;   /* the load witness (measure.h), or NaN */
    double front_fastest, front_median;   /* the front-end witness (measure.h), or NaN */
    struct quantities q;
    struct event_count event;  /* the recipe's occurrence event, where one was counted beside the case */
};

struct run_dir;
/* One case ("KERNEL p=v ...") measured as an engine case (calibrate_run.c): R repetitions with the
 * engine's noise handling, a record in dir's measurements.ndjson (dir NULL: none), the event (or
 * NULL) counted beside it. r->status: CASE_OK, CASE_SKIP ("kernel X not built", a case the kernel
 * cannot run here), CASE_ERROR, CASE_INTERRUPTED; r->reason says why. Free with case_result_free. */
/* The case of a recipe's text "KERNEL p=v ...", or NULL with why: "kernel X not built", or a
 * text that does not fit the kernel's parameters. */
struct case_ *cal_case_build(const char *text, char *why, size_t n);
int cal_measure_case(const struct cal_opts *o, struct run_dir *dir, const char *text, const char *event,
                     struct case_result *r);

/* Where a penalty's occurrences come from: the PMU event counted in this run when it agrees
 * with the model within 10% of the model's difference (the event is then validated and its
 * counts are used), else the model, with the reason. */
struct occurrences {
    double issue, control;
    bool from_event;
    char reason[300];
};
void choose_occurrences(double model_issue, double model_control, const struct event_count *issue,
                        const struct event_count *control, const char *event, struct occurrences *out);
void case_result_free(struct case_result *r);
/* The windows' low quantile and median more than WINDOW_AGREE (or 3 MADs of the repetitions)
 * apart, or more than half the windows dropped: a figure that cannot be told from the load it was
 * measured under. true with why (no case name). A case without windows never disagrees. */
#define WINDOW_AGREE 0.03
bool window_disagreement(const struct case_result *r, char *why, size_t n);


/* A penalty: (median(issue) - median(control)) / delta, with a percentile bootstrap interval. */
struct fit {
    double value, lo, hi;     /* estimate and 95% interval */
    double rel_mad;           /* MAD/median of the issue case's repetitions */
};
/* x: issue repetitions, y: control repetitions (ny 0: no control). */
struct fit fit_penalty(const double *x, int nx, const double *y, int ny, double delta, unsigned seed);

#endif
