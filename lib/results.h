/* A run's results directory: results/<date>-<host>-<label>/ with manifest.json,
 * measurements.ndjson (appended and flushed a line at a time) and validate.tap. */
#ifndef PMUCAL_RESULTS_H
#define PMUCAL_RESULTS_H
#include "json.h"
#include <stdio.h>

struct run_dir {
    char *path;
    FILE *measurements, *tap;
};

/* base: parent folder (PMUCAL_RESULTS or "results" when NULL). A new folder each time:
 * "-2", "-3" ... are added when the name is taken. -1 with a message on failure. */
int run_dir_create(struct run_dir *r, const char *base, const char *label);
/* Reopen an existing run to add to it (resume). */
int run_dir_open(struct run_dir *r, const char *path);
/* Write a file in the run (manifest.json, penalties.json ...) from a finished JSON value. */
int run_dir_write(const struct run_dir *r, const char *name, const struct json *j);
void run_dir_close(struct run_dir *r);
/* The members every manifest starts with, into an open JSON object: pmucal version, date and
 * time, and the command as typed (argv[0] is the subcommand). */
void manifest_head(struct json *j, int argc, char **argv);
/* Local date and time in ISO 8601 ("2026-11-21T10:34:16+0000") into buf; returns buf. */
char *iso_now(char buf[32]);

#endif
