/* The record 'pmucal sample' keeps in measurements.ndjson for one event at one precise level: the
 * address histogram and the skid distances over the case's instruction map, not the samples
 * themselves. Its reader is report/sec_sample.c (through runs/runfile.h's records); validate's
 * records are runs/record.h's. */
#ifndef PMUCAL_SAMPLE_RECORD_H
#define PMUCAL_SAMPLE_RECORD_H
#include "base/jread.h"
#include "base/verdict.h"
#include "core/sites.h"
#include "core/source.h"
#include "sources/sampling.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct sample_record {
    const char *label;                  /* the case */
    const struct event_spec *ev;
    int precise_ip;
    unsigned precise_levels;            /* the levels the kernel takes, a bit each */
    uint64_t period, iters, count;      /* count: the event's, over the sampled repetitions */
    int reps;
    const struct sample_stream *stream;
    int quantity;                       /* the quantity the event's rule names; -1 none */
    const char *perturbed;              /* PMUCAL_SAMPLE_PERTURB, NULL when unset */
    const struct site_map *map;         /* the loop's instruction map, NULL when the case has none */
    const uint64_t *hist_at;            /* with the map: samples per instruction, and outside it */
    uint64_t hist_outside;
    const uint64_t *skid;               /* samples per distance in instructions, map->n of them */
    double skid_mean, shadow_p;
    const double *ticks_sampling, *ticks_counting;   /* reps each */
    double overhead_ns;                 /* per sample */
    struct sample_record_verdict {
        const char *what;               /* "rate", "skid", "shadow" */
        bool judged;                    /* false: reported only ("info") */
        enum verdict kind;
        const char *text;               /* the TAP line's words after "precise=N": what a resume replays */
    } verdicts[3];
    int nverdicts;
};

/* The record as one line into out (record_line_append: whole, or nothing): 0, or -1 with errno
 * set when it could not be written. */
int sample_record_write(FILE *out, const struct sample_record *r);

/* A record's verdicts, read back (what and text point into rec): how many, 1..3, or -1 when they
 * are not ones sample_record_write writes. */
int sample_record_verdicts(const struct jvalue *rec, struct sample_record_verdict v[3]);

/* sample --resume RUN (runs/session.h's records step): the folder claimed (runs/resume.h) and its
 * records kept, the first of each (case, event, precise level) whose verdicts read back; a cut
 * line or a damaged one dropped. 0, or 2 after a message. */
struct resume;
int sample_resume_records(struct resume *rs);
/* The stream of this process altered (perturbed: PMUCAL_SAMPLE_PERTURB, NULL when unset) as the
 * resumed run's was (its manifest's sample.perturbed): 0, else -1 after a message. */
int sample_resume_stream(const struct resume *rs, const char *perturbed);
/* The kept record of (case, event, level), marked replayed; NULL when that one is to be measured. */
const struct jvalue *sample_resume_take(struct resume *rs, const char *label, const char *event, int level);
#endif
