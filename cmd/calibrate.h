#ifndef PMUCAL_CMD_CALIBRATE_H
#define PMUCAL_CMD_CALIBRATE_H
#include "runs/runfile.h"

/* pmucal replay of a calibrate run (its records loaded with runfile_load): its own command line
 * read again as calibrate reads it, then penalties/calibration.h's calibration_rejudge. Its exit
 * status, 2 after a message when the command line is not one calibrate takes, or -1 when the run
 * has no timed penalties (calibrate --source sim: its records are judged as validate's are). */
int calibrate_replay(const struct runfile *run);

#endif
