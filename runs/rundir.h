/* A run folder, written: results/<date>-<host>-<label>/ with manifest.json,
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
    bool locked;              /* lock_fd holds the folder's lock (run_dir_lock) until run_dir_close */
    int lock_fd;
    bool held;                /* run_folder_hold(path) until run_dir_close */
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

/* ---- a run folder is untrusted input ----
 * Run folders travel (bug reports, baselines, other machines): whoever made one controls every
 * byte and every name in it. Every file pmucal writes or reads in a run folder goes through these
 * (runs/runfs.c): nothing is written through a link planted in the folder, nothing read through
 * one, and no reader waits on a FIFO or reads a device. */

/* A folder written to is held open from its making (or reopening) to its close: every file named
 * in it afterwards is looked up in the descriptor opened then, never by its path again, so a
 * folder renamed or replaced by a link mid-run cannot send a file elsewhere. Holds nest (by path).
 * -1 after a message. run_dir_create and run_dir_open hold theirs until run_dir_close. */
int run_folder_hold(const char *dir);
void run_folder_release(const char *dir);

/* An output written whole: a new temporary file (O_EXCL, never one that exists) in dir, renamed
 * over name by run_out_commit, which replaces a link at the name and never follows it. A reader
 * sees the old file or the new one. NULL / -1 after one message naming the file. */
struct run_out {
    FILE *f;
    char *path, *name, *tmp;   /* dir/name as messages show it; name and tmp inside dirfd */
    int dirfd;
    bool own_dirfd;
    bool device;   /* run_out_user onto a device or FIFO (/dev/null, /dev/stdout): written in place */
};
FILE *run_out_begin(struct run_out *o, const char *dir, const char *name);
/* The same for a path (dir/name; a name alone is in the working folder): --out FILE. */
FILE *run_out_path(struct run_out *o, const char *path);
int run_out_commit(struct run_out *o);
void run_out_abort(struct run_out *o);
/* An output the user names (-o FILE, --svg FILE): path through run_out_path, stdout where path is
 * NULL or "-" (whose writing main checks at exit), a device or FIFO (/dev/null) written in place;
 * NULL after a message when path is a file this process has read (base/util.h's file_was_read:
 * an output never replaces an input; runs/outputs.h checks the rest). run_out_end, given the writer's rc: commits the
 * file when rc is 0, else drops the new file and leaves FILE as it was; 0, or -1 (after a message
 * naming FILE when it could not be written). */
FILE *run_out_user(struct run_out *o, const char *path);
int run_out_end(struct run_out *o, int rc);
/* Whole files are fsynced before the rename (a crash leaves the old file or the new one); the
 * fuzz harnesses turn it off to run in memory. */
extern bool run_file_sync;
/* A stream in the folder: "a" appends to name (made when absent), "w" starts a new file at
 * name (run_out's temporary renamed into place at once). A link, a folder or any non-regular
 * file at the name, or a regular file with a second hard link (a way out of the folder), is
 * refused: NULL after one message naming it. */
FILE *run_file_open(const char *dir, const char *name, const char *mode);
/* The subfolder name of dir (tables/), made when absent; -1 with a message when a link or a
 * file is there. */
int run_subdir(const char *dir, const char *name);
/* Removes name from dir (not a folder) so that a program told to write it by name (gnuplot's
 * curve.svg, its stderr in gnuplot.err) makes a new file instead of writing through a link. */
int run_file_clear(const char *dir, const char *name);
/* The whole of dir/name, bounded by INPUT_FILE_MAX, never through a link and never a non-regular
 * file. NULL with err naming the file; errno ENOENT when there is none. */
char *run_file_read(const char *dir, const char *name, size_t *len, char *err, size_t errlen);
/* The largest JSON document of a run folder read whole (manifest.json, classify.json,
 * penalties.json: a few MiB at most); parsed, one takes some 20 times its size. */
#define RUN_JSON_MAX (16u << 20)
char *run_file_read_max(const char *dir, const char *name, size_t max, size_t *len, char *err, size_t errlen);
/* The folder's lock (flock on the folder itself), held by a process that measures into it or
 * resumes it, for its life (*fd stays open). -1 after one message naming the process that holds
 * it. */
int run_dir_lock(const char *dir, int *fd);

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
