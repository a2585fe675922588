/* --resume RUN: an interrupted (or crashed) run folder completed by the same build on the same
 * host. What finished is kept (validate judges its records again: validate/rejudge.h; calibrate
 * rebuilds its cases from them: penalties/calibrate_resume.c); the rest is measured. The checks
 * that refuse a folder live here, so every command that resumes refuses alike. */
#ifndef PMUCAL_RESUME_H
#define PMUCAL_RESUME_H
#include "base/jread.h"
#include "base/json.h"
#include "runs/record.h"
#include <stdbool.h>

struct case_;

struct resume {
    char *run;                  /* the run folder, absolute */
    struct jvalue *manifest;
    int argc;                   /* the run's command without "pmucal": argv[0] is the subcommand */
    char **argv;
    struct jvalue **rec;        /* the records kept, in file order */
    int nrec;
    bool *replayed;             /* per kept record: already reported */
    bool *kept;                 /* validate: per case of the list, finished and its records kept */
    int cases_kept, records_kept, records_dropped;
    bool locked;                /* lock_fd holds the folder's lock (resume_claim) until resume_free */
    int lock_fd;
};

/* Reads RUN's manifest and refuses (one message naming RUN and why; -1) a folder that is not
 * resumable by this process: missing or corrupt manifest, complete, made by another command than
 * `command`, on another host, by another pmucal version or commit, or still running in a live
 * process. */
int resume_open(struct resume *r, const char *run, const char *command);
/* What resume_open checks of the folder's own data (r->manifest): the command it records (into
 * r->argv) and the counts of its earlier resumptions. -1 with why. */
int resume_checks(struct resume *r, const char *command, char *why, size_t n);
/* In the process that measures (under the sim source, valgrind's child; its CPU is not the
 * host's): the folder's lock taken for the process's life (a second resumer is refused, naming
 * the first), the manifest checked to be the one resume_open judged, and the CPU compared. */
int resume_claim(struct resume *r);
/* Keeps the records of measurements.ndjson (walked with next: runs/record.h's record_line_next for
 * validate's and calibrate's, sample_line_next for sample's) for which keep(rec, ctx) holds, drops
 * the others and a cut last line (kill -9 mid-write), and rewrites the file atomically with the
 * kept lines' exact bytes. A malformed line before the last is refused (-1, message). */
int resume_records(struct resume *r, record_line_fn *next, bool (*keep)(const struct jvalue *rec, void *ctx),
                   void *ctx);
/* validate: the cases finished by the run (RUN/cases.done) among this case list, their records
 * kept, everything else dropped; r->kept[i] for the cases not to measure again. -1 when the
 * list is not the one the run measured. */
int resume_cases(struct resume *r, struct case_ *const *cases, int n);
/* The manifest's "resumed" array: the earlier resumptions and this one. */
void resume_manifest(const struct resume *r, struct json *j);
void resume_free(struct resume *r);

/* An input file a run may need again (validate's -e list file and --expect): copied into the run
 * folder dir as name when the run starts (path read as what, for messages), so a --resume reads
 * that copy, never the path its manifest names (a run folder is data: whoever made it could name
 * any file of the machine). -1 after a message. */
int resume_keep_input(const char *dir, const char *path, const char *what, const char *name);
/* The copy resume_keep_input made, read from the resumed folder without following a link: its
 * text and "RUN/name" (for messages) into *text and *origin (the caller frees both). Without the
 * copy: -1 with a message naming option when required, else 0 with *text NULL. -1 after a message
 * when it cannot be read. */
int resume_read_input(const struct resume *r, const char *name, const char *option, bool required, char **text,
                      char **origin);

/* One finished case into RUN/cases.done ("INDEX<TAB>LABEL" a line, appended and flushed): what
 * --resume keeps. -1 with a message when it cannot be written. */
int cases_done_append(const char *run, int index, const char *label);

#endif
