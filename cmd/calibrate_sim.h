#ifndef PMUCAL_CALIBRATE_SIM_H
#define PMUCAL_CALIBRATE_SIM_H
#include "runs/session.h"
#include <stdint.h>

/* 'calibrate --source sim' (cmd/calibrate_sim.c, a mode of the calibrate command: it drives the engine as validate does): each wanted recipe's issue and control cases under a
 * counting source that does not time (sim re-executes the command under callgrind), judged by its
 * rules as validate judges them, and per recipe one verdict on its occurrence quantity from
 * penalties/occurrence_sim.c. No penalties: a simulator's cycles mean nothing. Returns the exit
 * status: 0, 1 (a not ok, a case that failed, an output lost), 2 (bad input), 128+signal. */
struct cal_sim_args {
    const char *source;       /* as given to --source */
    int repetitions;
    uint64_t iters;           /* 0: the source's default */
    char *const *only;        /* --recipe names */
    int nonly;
    const char *label, *out;
};
/* Its run in sess (calibrate's, not resumed: a sim run never is), under the command as typed. */
int calibrate_sim(const struct cal_sim_args *a, struct session *sess);

#endif
