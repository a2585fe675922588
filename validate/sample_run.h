/* The case of a pmucal sample run measured into its open folder: set up once on the measuring CPU,
 * then each event sampled at each precise level the Linux kernel takes (3 down to 0), R repetitions
 * sampling and R counting only (the overhead per sample). Each (case, event, level) gets its TAP
 * lines (validate/sample_check.h's rate, skid and shadow verdicts) and its record
 * (runs/sample_record.h); a level a resumed run measured before has its verdicts said again from
 * its kept record instead. */
#ifndef PMUCAL_SAMPLE_RUN_H
#define PMUCAL_SAMPLE_RUN_H
#include "core/kernel.h"
#include "core/quantity.h"
#include "core/sites.h"
#include "runs/session.h"
#include "sources/sampling.h"
#include "validate/engine.h"
#include <stdbool.h>
#include <stdint.h>

struct sample_run {
    /* Given by the command. */
    struct session *s;             /* open: its folder, TAP and (resuming) the kept records */
    struct engine *eng;            /* its rules, repetitions, --iters and measuring CPU */
    struct case_ *c;               /* the case, the run's from here: sample_run_free frees it */
    uint64_t period;               /* --period; 0: 1 for a software event, else 10007 */
    int precise;                   /* --precise level; -1: every level the Linux kernel takes */
    unsigned ring_pages;           /* --ring-pages */
    struct stream_perturb perturb; /* PMUCAL_SAMPLE_PERTURB (text NULL when unset) */
    /* Set up by sample_run_setup. */
    struct site_map map;           /* the loop's instructions and what each causes */
    bool have_map;
    struct quantities q;           /* the case's model */
    uint64_t iters;                /* per repetition */
    int not_ok;                    /* out: not ok lines said */
    bool write_failed;             /* out: a record could not be written; the run stopped there */
};

/* The case set up on the measuring CPU, its map and model: 0; 1 after a line per event of the n
 * (a SKIP, or not ok when its setup failed); -1 after a message (--iters beyond the case's). */
int sample_run_setup(struct sample_run *run, const struct event_spec *events, int n);
/* One event at each precise level asked for (a SKIP when it cannot be sampled here): 0, or -1
 * when a signal stopped it or a record could not be written (write_failed, after a message). */
int sample_run_event(struct sample_run *run, const struct event_spec *ev);
/* The case's kernel torn down when it was set up, and the case freed. */
void sample_run_free(struct sample_run *run);
#endif
