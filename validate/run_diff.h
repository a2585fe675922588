/* Two stored runs side by side: one point per (case, event), flagged where NEW differs from BASE
 * beyond the runs' own noise, where a verdict worsened, where an encoding or support changed. */
#ifndef PMUCAL_RUN_DIFF_H
#define PMUCAL_RUN_DIFF_H
#include "core/measure.h"
#include "runs/runfile.h"

enum {
    CMP_COUNT = 1u << 0,        /* per-iteration count moved beyond the noise and the floors */
    CMP_VERDICT = 1u << 1,      /* ok -> not ok (or todo) */
    CMP_ENCODING = 1u << 2,     /* same name, other perf_event_attr */
    CMP_SUPPORT = 1u << 3,      /* counted -> unsupported */
    CMP_IMPROVED = 1u << 4,     /* not ok -> ok, unsupported -> counted: said, not a regression */
    CMP_INFO = 1u << 5,         /* the count of an event under an "info" rule (time, cycles) moved: said only */
    CMP_INTERCEPT = 1u << 6,    /* the zero-iteration loop counts another fixed amount per measurement */
};

struct cmp_side {
    const struct jvalue *ev;    /* the event object of the record; NULL when absent from this run */
    double x[MEASURE_MAX_REPS]; /* per-iteration counts of the repetitions */
    int n;
    double median, mad, floor;  /* floor: the source's per-iteration slack at this run's iterations */
    double c0[MEASURE_MAX_REPS], c0_median, slack;   /* the zero-iteration loop's counts; slack per counted loop */
    bool judged;                /* the record holds a verdict (then in verdict) */
    enum verdict verdict;
    const char *unsupported;
};

struct cmp_point {
    const char *label, *event;
    struct cmp_side side[2];    /* 0 BASE, 1 NEW */
    unsigned flags;
    bool regression;
    double delta, relative, p, threshold;
    char why[768];
};

struct cmp_opts {
    double threshold;           /* relative change below which a count is the same (0.02) */
    double alpha;               /* significance of the Mann-Whitney test (0.01) */
};

/* One event over all cases measured in both runs, for the per-event summary. */
struct cmp_event {
    const char *event;
    int cases, regressions, improvements;
    char where[1024];           /* "case; case" where it regressed */
};

struct cmp_result {
    struct cmp_point *pt;
    int n, regressions, improvements, only[2];
    struct cmp_event *ev;
    int nev;
};

/* Were both runs the same command line, NEW run to completion (a kernel check: one command file on
 * two kernels)? Then what BASE measured and NEW did not is lost, not merely asked of one run only. */
bool compare_same_command(const struct jvalue *base_manifest, const struct jvalue *new_manifest);
/* Are base and new_ runs of one command (validate, calibrate)? -1 after one message naming both
 * kinds and the kinds compare takes. */
int compare_same_kind(const struct runfile *base, const struct runfile *new_);
void compare_runs(const struct runfile *base, const struct runfile *new_, const struct cmp_opts *o,
                  struct cmp_result *out);
void compare_free(struct cmp_result *r);
/* Each CMP_* flag's name by bit, as --json and the HTML report spell it. */
#define CMP_NFLAGS 7
extern const char *const compare_flag_name[CMP_NFLAGS];
/* The manifest facts compared in the header: host, CPU, versions, source and settings. */
extern const char *const compare_facts[];

/* The Linux kernel's own description of its core PMU (the manifest's "linux_kernel" object, host/kpmu.h),
 * BASE against NEW: one change per sysfs file or fact that differs. What a user of the PMU loses
 * (the driver, an event, a format field, a cap, counters, a changed encoding or perf_user_access)
 * is a regression; what is added is said and is not. */
struct cmp_kchange {
    char what[16];              /* "driver", "counters", "events", "format", "caps", "cpus", "type", "perf_user_access" */
    char name[96];              /* the sysfs file (events, format, caps), else what again */
    char base[192], new_[192];  /* the values, "" where absent */
    const char *change;         /* "added", "removed" or "changed" */
    bool regression;
};
struct cmp_kernel {
    bool described[2];          /* each manifest had a "linux_kernel" object (runs not made by kernel-check have none) */
    struct cmp_kchange *ch;
    int n, regressions;
};
void compare_kernel(const struct jvalue *base_manifest, const struct jvalue *new_manifest, struct cmp_kernel *out);
void compare_kernel_free(struct cmp_kernel *k);
/* Is there anything to compare: a (case, event) measured in both runs, a regression, or a change of
 * the kernel's PMU description (k, or NULL)? -1 after one message naming both runs when not. */
int compare_has_points(const struct runfile *base, const struct runfile *new_, const struct cmp_result *c,
                       const struct cmp_kernel *k);

/* The two sides' names in messages and TAP: "BASE", "NEW". */
extern const char *const compare_side_name[2];
/* The comparison on stdout (validate/run_diff_print.c): TAP, with the facts that differ, a warning
 * per incomplete side (incomplete_why[s], or NULL), the kernel's PMU changes, one point per (case,
 * event) and the per-event summary; or one JSON document ('pmucal compare --help' gives its keys). */
void compare_write_tap(const struct runfile *r[2], const struct cmp_result *c, const struct cmp_kernel *k,
                       const char *const incomplete_why[2]);
void compare_write_json(const struct runfile *r[2], const struct cmp_opts *o, const struct cmp_result *c,
                        const struct cmp_kernel *k, bool incomplete);
/* Two runs of pmucal sample have their own comparison (validate/sample_compare.h), as TAP on
 * stdout: the exit status, or -1 when they are not both sampling runs (the caller then compares
 * them as counting runs, or refuses them naming what they are). json_or_html: the caller was asked
 * for an output a sampling comparison has not got, which is refused. */
int compare_sampling(char *const paths[2], const struct cmp_opts *o, bool allow_incomplete, bool json_or_html);

#endif
