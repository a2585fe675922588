/* One calibration from its first pass to its last file: the recipes measured in passes and
 * fitted, the latency curve, every figure at the run's clock, the checks, the closure, the TAP
 * verdicts and the table; penalties.json and the tables from it. 'pmucal calibrate' runs one in a
 * new run folder, 'pmucal replay' one rebuilt from a stored run's records (nothing measured,
 * nothing written). */
#ifndef PMUCAL_CALIBRATION_H
#define PMUCAL_CALIBRATION_H
#include "base/tap.h"
#include "penalties/penalty_fit.h"
#include "runs/runfile.h"

struct topo;

/* What a calibration does, from its options. */
struct calibration_plan {
    int ppo;                      /* the curve's points per octave */
    bool curve, recipes_on;       /* measure the curve; measure the recipes */
    const char *uarch;            /* --uarch: whose perf event names and references apply; NULL: the measured CPU's */
    const char *prefix;           /* the tables' name prefix */
    char *only[64];               /* --recipe: these recipes only (nonly of them); none: every recipe */
    int nonly;
};

/* The calibration of cal (its options, source, CPU and folder set; when not replaying, its PMU,
 * hardware, model and clock are taken from this host here) as TAP onto tap, begun at t0
 * (clock_now_seconds). 1 when something is not ok or could not be measured or written, else 0;
 * recipes that could not be measured into *errors. */
int calibration_run(struct cal *cal, const struct calibration_plan *plan, struct tap *tap, double t0, int *errors);

/* The run's settings (source, repetitions, target_seconds, passes) into its manifest j, as it
 * starts: what compare and report show of it (a resume or replay reads its command line instead). */
void cal_manifest(const struct cal *cal, struct json *j);

/* pmucal replay RUN of a calibrate run (loaded with runfile_load; o and plan from its own command
 * line): calibration_replay printed as TAP on stdout, then each verdict line that differs from the
 * run's validate.tap, and how many. The exit status (0, 1 when something is not ok or the TAP
 * could not be written), or 2 after a message on a damaged run. */
int calibration_rejudge(const struct runfile *run, const struct cal_opts *o, struct calibration_plan *plan);

#endif
