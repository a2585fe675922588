/* A run of validate, calibrate (and its --source sim mode), sample, c2c or roofline in its results
 * folder, from the folder's creation (or a --resume's reopening) to its closing: what the commands
 * share of a run's life. Their mains read: parse the options (session_resume for --resume RUN),
 * session_open, add the run's settings to the manifest and session_start, do the work, then
 * session_end or, when stopped, session_stopped. The one resume path is here: a command that
 * resumes gives only what differs (struct session_resumer). */
#ifndef PMUCAL_SESSION_H
#define PMUCAL_SESSION_H
#include "base/tap.h"
#include "host/cpuload.h"
#include "runs/resume.h"
#include "runs/rundir.h"
#include <stdbool.h>

struct session {
    const char *command;        /* the subcommand's name */
    int argc;                   /* the command the manifest stores: as typed, or the resumed run's */
    char **argv;
    struct resume rs;           /* --resume RUN: the run being completed (rs.run NULL otherwise) */
    struct run_dir dir;         /* the run folder, once open */
    struct tap tap;             /* the verdicts: stdout, and the folder's validate.tap */
    int cpu;                    /* the CPU measured on (session_measure_cpu), -1 before */
    struct cpu_ticks cpu_start; /* its /proc/stat ticks then: the manifest's load over the run */
};

/* A session of the subcommand command as typed (argv[0] is the subcommand); nothing opened yet. */
void session_init(struct session *s, const char *command, int argc, char **argv);
static inline bool session_resuming(const struct session *s)
{
    return s->rs.run != NULL;
}
/* What a command that resumes gives, the rest of --resume being the same for every one. */
struct session_resumer {
    /* Fresh defaults into args, then the run's own options (argc, argv; argv[0] the subcommand)
     * parsed into them as the command parses its own: 0, or nonzero when this build does not
     * take them (session_resume then says so). */
    int (*reparse)(void *args, int argc, char **argv);
    /* Before the reparse: the folder's records kept as the command rebuilds its cases from them
     * (calibrate); NULL: none. 0, or the exit status after a message. */
    int (*records)(struct resume *rs);
    /* After it: what the command refuses of the run's options, or reads from its folder; NULL:
     * nothing. 0, or the exit status after a message. */
    int (*check)(void *args, const struct session *s);
};
/* --resume RUN (the command has refused other options beside it): the stop handlers installed
 * (what follows may rewrite the folder), RUN checked as runs/resume.h's
 * resume_open refuses a folder, then how's records, reparse (into args) and check in turn; the
 * session stores the run's own command from then on. 0, or the exit status (2) after a message. */
int session_resume(struct session *s, const char *run, const struct session_resumer *how, void *args);
/* The message for a resumed command this build does not take as a run; returns 2. */
int session_foreign_command(const struct session *s);
/* The stop handlers installed (before the folder exists: a stop always finds a manifest to
 * mark), the folder created (under out, or $PMUCAL_RESULTS or results, named by label) or, when
 * resuming, reopened with its first start kept; the manifest begun with the stored command and
 * the TAP pointed at the folder. The command adds its settings to s->dir.manifest, then calls
 * session_start. 0, or 2 after a message. */
int session_open(struct session *s, const char *out, const char *label);
/* The host's facts and, when resuming, the "resumed" list added; the manifest written as
 * "running". 0, or -1 after a message when it could not be written: a run folder without its
 * manifest is no run, so the command measures nothing and ends with session_end(s, 1,
 * SESSION_NO_MANIFEST). */
int session_start(struct session *s);
#define SESSION_NO_MANIFEST "its manifest could not be written (disk full?)"
/* The CPU the run measures on (host/cpuload.h: asked with --cpu, else the least loaded of the
 * affinity mask, busy_before its load then) into the manifest before session_start; session_end
 * and session_stopped add its load over the run. */
void session_measure_cpu(struct session *s, int cpu, bool asked, double busy_before);
/* The run stopped by a signal (why: what was done, or NULL): the manifest says interrupted, the
 * files are closed; the exit status, 128 + the signal. */
int session_stopped(struct session *s, const char *why);
/* The run ended: the manifest says complete, or failed when failed (the reason) is not NULL, and
 * the files are closed. status is the command's exit status so far; an output lost here (the
 * manifest, or files that could not be written whole) makes a 0 a 1. */
int session_end(struct session *s, int status, const char *failed);
/* What the session still holds (the resumed run's records and command). */
void session_free(struct session *s);

#endif
