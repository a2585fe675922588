/* Running the penalty recipes (calibrate_run.c) and checking what they gave (checks.c); a whole
 * calibration from them is calibration.c. Every case is measured through validate's engine. */
#ifndef PMUCAL_PENALTY_FIT_H
#define PMUCAL_PENALTY_FIT_H
#include "base/tap.h"
#include "penalties/curve.h"
#include "penalties/fit.h"
#include "penalties/recipes.h"
#include "penalties/reference.h"
#include "penalties/status.h"
#include "runs/rundir.h"

struct resume;
struct topo;

struct cal {
    struct cal_opts o;
    const char *host_pmu;         /* libpfm4's core PMU: which recipe event counts occurrences */
    const char *uarch;            /* uarch name (host/uarch.h): perf event names and references */
    const char *uarch_cpu;        /* the CPU of its file measured or named ("emeraldrapids"), or NULL */
    bool hw;                      /* hardware events open here */
    char hw_why[256];
    struct run_dir *dir;          /* the run folder of this run */
    struct case_result **cases;   /* each allocated once: penalties keep pointers to them */
    int ncases;
    bool interrupted;
    struct resume *resume;        /* --resume: the run's kept records; NULL */
    bool replaying;               /* pmucal replay: every case from resume's records, none measured,
                                     nothing written (dir is NULL) */
    uint64_t curve_top;           /* the curve's last size: the run's when replaying; 0, the host's */
    const struct topo *levels;    /* the cache levels the cases were sized by: the run's when
                                     replaying; NULL, this host's */
    const struct jvalue *stored;  /* replaying: the run's penalties.json, for why a case was skipped */
    bool cpu_asked;               /* o.cpu came from --cpu (or the resumed run), not the least loaded */
    double cpu_busy;              /* the chosen CPU's busy fraction before the run (NaN when asked) */
    char clock_why[320];          /* why the core clock is not trusted ("" when it is): the host's,
                                     or the replayed run's as its penalties.json recorded it */
};

/* The run folder's path: the one being written, or the one replayed. */
const char *cal_folder(const struct cal *cal);

/* Every recipe is measured in CAL_PASSES independent passes over all recipes (fresh cases each),
 * so a burst of load on the host hits one pass of a recipe rather than all of them. The
 * figure is the passes' median, its interval the median's: the range of the passes, or from nine
 * on the order statistics that hold the median at PASS_MEDIAN_COVERAGE whatever the passes'
 * distribution (stats_median_rank: the 2nd to the 8th of nine, the 4th to the 12th of fifteen). It
 * is unstable unless that interval is within the spread its recipe allows (spread_allowed: 2%
 * core, 3% hierarchy), once one pass of four to eight that stands apart is left out: on this VM's
 * busy host single passes of one recipe moved by 10-25% (btb_resteer 3.02 .. 3.86 cycles) while
 * each pass's own repetitions agreed. */
#define CAL_PASSES 5
#define CAL_MAX_PASSES 15
#define PASS_MEDIAN_COVERAGE 0.95
/* A pass is left out of its penalty when a case's clock references read further apart than
 * MEASURE_CLOCK_SPLIT_MAX, or when its windows are longer than a scheduler slice and its
 * attempts were switched out. */
#define CAL_SLICE_SECONDS 1e-3
/* A recipe some of whose passes shared the core, leaving fewer clean ones than a figure needs, is
 * measured again in further passes, each another chance at a quiet stretch, up to twice the passes
 * asked: on this project's Zen 3 guest another tenant's thread shared the load unit for stretches
 * of seconds, so that l1_hit had one clean pass of five. (At three times, on the Emerald Rapids
 * guest with its sibling busy for minutes, 13 of 15 passes of l3_hit and ifetch_l3 still shared
 * the core, in a calibration of 234 s.) One whose clean passes do not agree (their
 * interval wider than the recipe allows, their middle half within it, not in two groups) is given
 * further passes, each narrowing the median's interval, up to three times those asked: on issue
 * 47's Zen 5 guest ifetch_l3's five quiet passes spread 4.4-5.8%. Never more than CAL_MAX_PASSES;
 * only where three passes or more were asked (then three clean ones are needed before and after);
 * not with --quick, whose runs are for the tests, nor when replaying. Whether the recipe is due
 * another after the run's pass `passes_run` (counted from 1): only one measured in every pass so
 * far and due no more so far can be, since a further pass measures the recipes due at its own index.
 * Its judgement can change after its last pass (the run's witnesses read more cases): one left
 * behind by the run's passes was never measured again, and its calibration ended in an error
 * with no reason. */
bool cal_more_passes_due(const struct cal *cal, const struct penalty *p, int passes_run);
/* Clean passes a figure needs: three, or all of fewer. */
int cal_clean_needed(const struct penalty *p);
/* The passes asked of every recipe: --passes, or CAL_PASSES. */
int cal_passes_asked(const struct cal *cal);

struct penalty {
    const struct recipe *rc;
    enum penalty_status status;  /* ok, unstable, not_ok (failed a check), skip, error */
    char reason[512];
    struct fit f;                /* in the domain's unit: cycles (core) or ns (memory) */
    double cycles, cycles_lo, cycles_hi, ns, ns_lo, ns_hi;
    double occ_issue, occ_control;
    struct occurrences occ;       /* model or validated event, and why */
    const struct case_result *issue, *control;   /* the median pass's cases (the report's, a whole reference's) */
    const struct case_result *pass_issue[CAL_MAX_PASSES], *pass_control[CAL_MAX_PASSES];
    int passes, passes_wanted;    /* independent passes fitted, of those asked; the figure is their median */
    double pass_values[CAL_MAX_PASSES];   /* each pass's figure, in the domain's unit */
    double pass_spread;           /* (max - min) / |median| over the passes */
    int passes_agreeing;          /* clean passes the interval holds (pass_agreeing_range); 0: unstable */
    bool pass_shared[CAL_MAX_PASSES];     /* the pass's cases did not have the core to themselves */
    int passes_shared;            /* such passes: kept in pass_values, left out of the figure */
    const struct reference *ref;  /* the published figure for the host's model, or NULL */
    double deviation;             /* from the reference, relative (0 inside its range) */
    char plateau[256];            /* level recipes: where the case sits on the curve, or why unchecked */
};

/* The case text measured once per pass (with the recipe's event beside it on a PMU host); each is
 * an engine case: its record goes to measurements.ndjson. */
struct case_result *cal_case(struct cal *cal, const char *text, const char *event);
/* Pass `pass` (0 first: p is reset) of the recipe: its cases measured, its penalty fitted into
 * p->pass_values. False when it could not be (p's status and reason say why), when an earlier pass
 * could not, or when the recipe has had its passes. */
bool fit_recipe_pass(struct cal *cal, const struct recipe *rc, struct penalty *p, int pass, unsigned seed);
/* The figure from the passes and its status: ok or unstable (skip, error, not_ok set by a pass stay). */
void fit_recipe_judge(struct cal *cal, struct penalty *p);
/* The interval of n pass figures around their median, and how many passes it holds: the median's
 * interval (the range of all n under nine; from nine the order statistics of PASS_MEDIAN_COVERAGE)
 * when it is no wider than `allowed` (a fraction of the median: spread_allowed); with four to
 * eight, all but the one farthest from the rest when the rest are that close and it stands apart
 * from them (further from the nearest than they spread: a burst of load in its pass), so that it
 * is no edge of the interval (issue 47: five l3_hit passes 272.86, 46.82, 46.71, 46.70, 46.69 were
 * printed as [46.69, 272.86]); else 0, the figure unstable, and the range of all n. */
int pass_agreeing_range(const double *v, int n, double median, double allowed, double *lo, double *hi);
/* The fitted figure (p->f, in the domain's unit) in cycles and ns at this core clock. */
void penalty_at_clock(struct penalty *p, double ghz);
/* The run's core clock: the median of every measurement's clock. */
double run_ghz(const struct cal *cal);
const struct penalty *find_penalty(const struct penalty *ps, int n, const char *name);
/* After each pass of a recipe: the closure's case is measured as soon as the latencies it checks
 * have had their last pass. */
void closure_after_recipe(struct cal *cal, const struct recipe *rc, const struct penalty *p);
/* mixwalk predicted from the ok l1/l2/l3 latencies: a TAP point; -1 when not ok. */
int closure(struct cal *cal, const struct penalty *ps, int n, struct json *doc, struct tap *tap);
/* Measures one curve point (curve_measure_fn). */
const struct case_result *curve_case(void *ctx, const char *text, int attempt, bool *shared);
void cal_free(struct cal *cal);

/* A measurement into a case result (case_result.c): cycles, ns at the clock it was measured at (core_per_tsc x
 * tsc_hz), noise and clock flags, model, the occurrence event beside it (events[1]). */
struct measurement;
void case_result_fill(struct case_result *r, const struct measurement *m, const struct quantities *q,
                      double tsc_hz, const char *label, const char *detail);

/* Reporting (calibrate_report.c): a penalty as a penalties.json object; its TAP line (ok, not ok,
 * SKIP, TODO for unstable); the table on stdout as TAP comments, each figure beside its reference. */
void penalty_json(struct json *j, const struct penalty *p, const char *host_pmu);
void penalty_verdict(struct tap *tap, const struct penalty *p);
void print_table(const struct cal *cal, const struct penalty *ps, int np, double secs);

/* calibrate --resume RUN (calibrate_resume.c), the run open (resume_open): its CPU checked, its
 * records of finished cases kept, keyed "text|event|pass" as cal_case measures them; a cut last
 * line and records without a key dropped. 0, or 2 after a message. */
int cal_resume_records(struct resume *rs);
/* The case r (r->text is its key) rebuilt from its record instead of measured; false when the
 * run holds none. */
bool cal_case_from_record(struct cal *cal, struct case_result *r, const char *event);

/* The checks a figure must pass to be a constant: physically possible (positive, not within
 * noise of zero, between the floor and the ceiling no core goes past), levels ordered l1 < l2 < l3 < dram with each step above noise, level cases on
 * their level's plateau of the curve (cv NULL: not checked), reference beside it. A failure makes
 * the penalty not_ok with the reason. A core-domain figure measured at a clock that is not trusted
 * (clock_why, NULL or "" when it is) is withheld, unstable, with that reason. Returns the number
 * made not_ok. */
int check_penalties(struct penalty *ps, int n, const struct curve *cv, const char *model, const char *clock_why);

#endif
