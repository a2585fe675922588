/* A stored run as a KCIDB I/O report (the Linux kernel CI database's JSON, schema v5.3): one
 * checkout and one build standing for the host and pmucal's build, one test per verdict with its
 * path pmucal.<command>.<case>.<event> (the KTAP paths, runs/ktap.h), status, the measured figure
 * as its number, and the environment (CPU model, kernel, perf, libpfm4), so runs from many
 * machines meet in an existing fleet database. */
#ifndef PMUCAL_KCIDB_H
#define PMUCAL_KCIDB_H
#include "runs/runfile.h"
#include <stdio.h>

/* The run (runfile_load_all) as one JSON document on out; -1 when out could not be written. */
int kcidb_write(FILE *out, const struct runfile *r);

#endif
