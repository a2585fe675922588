/* Expectations: per-PMU rules "event = quantity expression" with a tolerance class, and the
 * checker that turns a measurement and a case's model into a verdict. */
#ifndef PMUCAL_RULES_H
#define PMUCAL_RULES_H
#include "base/jread.h"
#include "base/stats.h"
#include "base/verdict.h"
#include "core/expr.h"
#include "core/measure.h"
#include "core/source.h"

/* TOL_LEAST (">=10%"): at least the model less N%, any amount above it: a CPU-wide count (an
 * uncore unit's) that includes the rest of the socket's work, which only ever adds. */
/* TOL_NONE ("none"): an event counted once a loop, not once an iteration (a context switch): the
 * least disturbed repetition's loop must count no more than its zero-iteration loop, with no floor
 * per iteration (one switch in a loop of a million iterations is 1e-6 of one, under any floor). */
enum tolerance { TOL_EXACT, TOL_PERCENT, TOL_ABSOLUTE, TOL_BOUND, TOL_INFO, TOL_LEAST, TOL_NONE };

struct rule {
    char *event;          /* as written in the file */
    char *expr_text;
    struct expr *expr;
    enum tolerance tol;
    double percent;       /* TOL_PERCENT, TOL_LEAST */
    double absolute;      /* "+-0.01": |difference| allowed per iteration (TOL_ABSOLUTE; TOL_PERCENT's floor) */
    char *where;          /* "validate/expect/sim.txt:12": a failure points at its row */
    char *erratum;        /* "erratum=SKL057" at the end of the row: a failure is a TODO; NULL */
};

struct ruleset {
    struct rule *rules;
    int n, cap;
};

/* Parse one file into rs. -1 with one message naming file:line and the fix on any bad row. */
int ruleset_load(struct ruleset *rs, const char *path);
/* Parse rules from text (built-in tables); origin names them in messages. */
int ruleset_parse(struct ruleset *rs, const char *text, const char *origin);
/* The shipped file <name>.txt in expect_dir(): 1 loaded (its path in *path_out when not NULL),
 * 0 absent and not required, -1 absent and required or malformed (one message either way). */
int ruleset_load_named(struct ruleset *rs, const char *name, bool required, char **path_out);
/* The rules rs->rules[from..] (a user's --expect rule file) against the run: each rule's event must
 * resolve with src (-1 after one message naming its line), and one that matches none of the
 * measured events ev[0..nev-1] gets a note naming its line. */
int ruleset_check_events(const struct ruleset *rs, int from, const struct source *src, const struct event_spec *ev,
                         int nev);
/* The built-in rules for perf's generic and software events. */
int ruleset_builtin(struct ruleset *rs);
/* The rule for an event: by the name as written or libpfm4's canonical string, ignoring case and a
 * "pmu::" prefix on either side; later rules override earlier ones. */
const struct rule *ruleset_find(const struct ruleset *rs, const struct event_spec *ev);
/* The folder of the shipped rule files: $PMUCAL_EXPECT_DIR, else validate/expect beside the
 * binary's bin/ folder, else ./validate/expect. */
const char *expect_dir(void);
/* The rules as a rule file (docs/grammar.md): "EVENT EXPRESSION TOLERANCE [erratum=NAME]"
 * a line; parsed again it gives the same rules. Caller frees. */
char *ruleset_text(const struct ruleset *rs);
void ruleset_free(struct ruleset *rs);
const char *tolerance_text(const struct rule *r, char *buf, size_t n);

struct event_verdict {
    enum verdict kind;
    double measured, expected, allowed;   /* allowed: the |difference| the tolerance permits */
    char tolerance[32];                   /* the rule's tolerance ("exact", "5%", "info"); "" without a rule */
    char reason[384];                     /* SKIP/TODO reason, or what was compared */
};

/* exact_floor: the per-iteration slack of an "exact" rule with this source; loop_slack: what every
 * other tolerance class also allows, per iteration (a source's slack per counted loop / iterations). */
struct event_verdict check_event(const struct rule *r, const struct event_spec *ev, const struct stats *st,
                                 const struct quantities *q, double exact_floor, double loop_slack);

/* What a kernel's zero-iteration loop may count beyond the source's slack per counted loop: its prologue and
 * loop test (ISA_EXACT_LOOP's jump and loop test, a call and return, a few loads of its state). */
#define FIXED_COST_EVENTS 64

/* The checks the per-iteration fit hides, on one event's raw counts (raw[r] = {count(N), count(0)}
 * of repetition r): a fixed excess per measurement (count(0) beyond the run's own cost: the
 * source's slack, FIXED_COST_EVENTS and two iterations' worth of the model), a repetition that
 * read 0 where the model wants hundreds, and, under an exact rule, any repetition off the model
 * (not only the median). A deterministic source's zero-iteration loops are held exactly: under an
 * exact rule identical in every repetition, and never above its stated zero_most. An ok verdict
 * turns not ok, its reason saying what and how much; any other verdict is left as it is. */
struct raw_limits {
    double exact_floor, slack_per_loop;   /* the source's (core/source.h) */
    bool deterministic;                  /* a simulator: zero-iteration loops are held exactly */
    double zero_most;                    /* its bound on this event's zero-iteration loop, NaN: none */
    double team_extra;                   /* what a team's other members add to a loop (in zero_most too) */
};
void check_raw(struct event_verdict *v, const struct rule *r, const double (*raw)[2], const double *per_iter, int reps,
               uint64_t iters, const struct raw_limits *lim);

/* A counter that opened and read 0 in every run, with and without iterations, where the model
 * wants counts (an exact, percentage or +-X rule expecting some every run): the verdict, ok or not
 * before, becomes not ok with SILENT_ZERO in its reason (true), the PMU's defect rather than a
 * count off by some. For counter (programmable) events only: a software event's zero is a wrong
 * rule, judged as any miss is. */
#define SILENT_ZERO "counts nothing: silent zero"
bool check_silent_zero(struct event_verdict *v, const struct rule *r, const double (*raw)[2], int reps, uint64_t iters);

/* The rules a stored run is judged with today: the built-in ones, the shipped
 * validate/expect/<name>.txt of its PMU (pmu_override, else the run's) or of its source (none when
 * no_auto), then user_expect. Nothing the manifest names as a file is opened; a note says when the
 * run had its own --expect rule file. -1 after one message. */
int ruleset_for_run(struct ruleset *rs, const struct jvalue *manifest, const struct source *src, const char *pmu_override,
                     bool no_auto, const char *user_expect);

#endif
