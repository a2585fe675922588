/* 'calibrate --source sim': each wanted recipe's issue and control cases under a counting source
 * that does not time (sim re-executes the command under callgrind), judged by its rules as
 * validate judges them, and per recipe one verdict on its occurrence quantity from
 * penalties/occurrence_sim.c. No penalties: a simulator's cycles mean nothing. */
#ifndef PMUCAL_OCCURRENCE_CHECK_H
#define PMUCAL_OCCURRENCE_CHECK_H
#include "runs/session.h"
#include "validate/engine.h"

struct occurrence_check_args {
    struct engine *eng;         /* the command's engine, of the counting source */
    struct event_spec *events;  /* the events each case is measured with */
    int nevents;
    char *const *only;          /* --recipe names */
    int nonly;
};
/* The check in sess's folder (open; calibrate's, not resumed: a sim run never is; the command has
 * put its measuring options into the manifest): the check's own settings, every wanted recipe's cases measured and judged, the summary, the folder closed.
 * The exit status: 0, 1 (a not ok, a case that failed, an output lost), 128+signal. */
int occurrence_check_run(const struct occurrence_check_args *a, struct session *sess);
#endif
