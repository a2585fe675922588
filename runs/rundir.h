/* A run's results directory, written: results/<date>-<host>-<label>/ with manifest.json,
 * measurements.ndjson (appended and flushed a line at a time; a record's members: runs/record.h)
 * and validate.tap. Read back by runs/runfile.h. */
#ifndef PMUCAL_RUNDIR_H
#define PMUCAL_RUNDIR_H
#include "base/jread.h"
#include "base/json.h"
#include <stdbool.h>
#include <stdio.h>

struct run_dir {
    char *path;
    FILE *measurements, *tap;
    struct json manifest;     /* manifest.json's members so far, the object still open */
    bool has_manifest;
    char *started;            /* a resumed run's first start (manifest "started"); NULL: now */
};

/* A run's status in its manifest: "running" from the start; at the end "complete" (every case
 * attempted), "interrupted" (SIGINT/SIGTERM: what finished is kept) or "failed" (it could not do
 * all it was asked). A folder still "running" with no process behind it crashed. */
#define RUN_RUNNING "running"
#define RUN_COMPLETE "complete"
#define RUN_INTERRUPTED "interrupted"
#define RUN_FAILED "failed"

/* base: parent folder (PMUCAL_RESULTS or "results" when NULL). A new folder each time:
 * "-2", "-3" ... are added when the name is taken. -1 with a message on failure. */
int run_dir_create(struct run_dir *r, const char *base, const char *label);
/* Reopen an existing run to complete it (resume): measurements.ndjson is appended to, validate.tap
 * is written afresh (the resumed run reports every verdict again). */
int run_dir_open(struct run_dir *r, const char *path);
/* Write a file in the run (penalties.json ...) from a finished JSON value, atomically (a temporary
 * file renamed over it: a reader sees the old or the new file, never half of one). */
int run_dir_write(const struct run_dir *r, const char *name, const struct json *j);
/* The same in a folder by path: text (len bytes) or a JSON value and a newline. A link at the
 * name is replaced, never followed. -1 with one message naming the file. */
int run_file_write(const char *dir, const char *name, const char *text, size_t len);
int run_file_write_json(const char *dir, const char *name, const struct json *j);
/* Start r->manifest with manifest_head's members; the caller adds its own
 * members to r->manifest, then writes it with run_dir_manifest(r, RUN_RUNNING, NULL). */
void run_dir_manifest_begin(struct run_dir *r, int argc, char **argv);
/* Write manifest.json (atomically): the members so far, "status", "ended" (when not running),
 * "status_reason" when why is not NULL. Called at the start and again at the end. */
int run_dir_manifest(struct run_dir *r, const char *status, const char *why);
/* Closes the files; -1 (with a message) when anything written to them was lost. */
int run_dir_close(struct run_dir *r);
/* The members every manifest starts with, into an open JSON object: pmucal version and commit, date
 * and time (also "started"; started overrides both when not NULL, for a resumed run), the command
 * as typed (argv[0] is the subcommand), the folder it ran in ("cwd"), and the process ("pid",
 * "boot_id"), so a later --resume can tell a run still going on from one whose process died. */
void manifest_head(struct json *j, int argc, char **argv, const char *started);
#endif
