/* Where the user's code runs (generators/snippet_run.c): a worker process of its own, which the
 * kernel's filter (seccomp) admits no system call but its own stop and exit, forked once a case
 * and driven loop by loop; the counters count that worker (team_delegate). Under valgrind (the
 * sim source) the simulator's own system calls would trip the filter, so the code runs in
 * pmucal's process behind signal guards, as docs/measure-code.md says. */
#ifndef PMUCAL_SNIPPET_RUN_H
#define PMUCAL_SNIPPET_RUN_H
#include "generators/codegen.h"
#include "generators/snippet.h"
#include "core/quantity.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct snippet_worker;

struct code_kernel {
    struct gen g;
    struct snippet unit;          /* what one copy runs (throughput: the renamed copies together) */
    size_t copies;                /* snippets a body holds */
    size_t units;                 /* units a body holds */
    size_t per_unit;              /* snippets a unit holds */
    int renamed_from;             /* throughput: the chain register the copies were renamed from */
    int renamed_to[16];           /* ... and each copy's register instead, which starts with its value */
    int nrenamed;
    size_t body_off;              /* the body's offset in the code */
    struct shape_counts loop;     /* the loop test's counts as written (asm_loop_test) */
    uint64_t *regs;               /* the block the prologue reads */
    uint64_t *scratch;            /* the scratch buffer between inaccessible regions (snippet.c) */
    size_t scratch_len;           /* the mapping's bytes, the two regions included */
    struct quantities stated;     /* expect=, per copy */
    double pace;                  /* seconds an iteration takes (code_setup's probe): the watchdog's
                                   * measure of a loop */
    struct snippet_worker *worker;   /* the sandbox; NULL in-process (under valgrind) */
    bool guarded;                 /* in-process: the guards are installed, teardown removes them */
    uint64_t ticks;               /* the last run's region, as its own clock read it */
    /* The worker's context switches in the last run that were the run's own: its stop, and one
     * each time the waiting thread, on the same CPU, took the CPU from it: when it woke after its
     * first sleep (the worker's resume itself wakes it: CLD_CONTINUED) or had been preempted. A
     * switch beyond those was another task's. */
    unsigned switches;
};

/* Starts where the code runs: the sandboxed worker, whose first act is the trial loop (2
 * iterations, bounded by trial_seconds); in-process under valgrind, the trial loop there. 0; -1
 * with why (a fault, a system call, a hang, no sandbox to be had: the code never runs
 * unsandboxed then); 1 when a stop ended it. */
int snippet_run_start(struct code_kernel *k, double trial_seconds, char *why, size_t wn);
/* One loop of iters iterations, ended after limit seconds: 0 with its ticks in k->ticks; -1 with
 * the fault or hang named in why (the worker is gone: every later run fails the same way); 1 when
 * a stop ended it. */
int snippet_run(struct code_kernel *k, uint64_t iters, double limit, char *why, size_t wn);
/* The worker's pid while it lives, else 0 (in-process, or after a failure). */
pid_t snippet_run_worker(const struct code_kernel *k);
void snippet_run_end(struct code_kernel *k);

#endif
