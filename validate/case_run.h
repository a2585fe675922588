/* A validate run's cases measured into its folder: the TAP's head, each case measured (a case a
 * resumed run finished: its records judged again), the per-event summary, the classifier over
 * events without a rule, the time and the summary; then how the run ended, into the TAP's last
 * line and the manifest. */
#ifndef PMUCAL_CASE_RUN_H
#define PMUCAL_CASE_RUN_H
#include "runs/session.h"
#include "validate/case_list.h"
#include "validate/engine.h"

struct case_run {
    struct session *s;             /* open: its folder, TAP and (resuming) the kept cases */
    const struct case_list *list;
    struct event_spec *events;     /* the countable events (nevents), copied for each case */
    int nevents;
    int asked, dropped;            /* events asked for; hardware events dropped as uncountable here */
    const char *no_hw;             /* why they were dropped */
    const char *source;            /* the source's name as given */
    uint64_t sweep, seed;          /* --sweep K (0: none) and --seed */
    const char *sweep_kernel;      /* the first --kernel a sweep draws from; NULL: every kernel */
    int cases_done;                /* out: cases finished (measured or kept) */
};

/* Every case measured through eng (its folder and TAP set here), then the summary; CASE_OK,
 * CASE_ERROR or CASE_INTERRUPTED. */
int case_run_measure(struct engine *eng, struct case_run *r);
/* How the run ended (rc from case_run_measure) into the TAP's last line (the plan, or a bail out
 * when stopped or a write failed) and the manifest's counts; the exit status (session_end). */
int case_run_end(const struct engine *eng, struct case_run *r, int rc);
#endif
