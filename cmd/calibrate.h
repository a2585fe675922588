#ifndef PMUCAL_CMD_CALIBRATE_H
#define PMUCAL_CMD_CALIBRATE_H
#include "base/tap.h"
#include "runs/runfile.h"

/* pmucal replay of a calibrate run (its records loaded with runfile_load, its penalties.json
 * parsed, NULL when it has none): every case rebuilt from its
 * record as --resume rebuilds it, nothing measured, the penalties fitted again with the same
 * seeds, checked with today's checks and references and the run's own options, PMU and model,
 * and their verdicts (and the closure's) printed into tap. Nothing is written. The exit status
 * (0, 1 when something is not ok), 2 after a message on a damaged run, or -1 when the run has no
 * timed penalties (calibrate --source sim: its records are judged as validate's are). */
int calibrate_replay(const struct runfile *run, const struct jvalue *penalties, struct tap *tap);

#endif
