/* The validation engine: a case's events in groups, each measured, recorded and checked. */
#ifndef PMUCAL_ENGINE_H
#define PMUCAL_ENGINE_H
#include "base/tap.h"
#include "core/kernel.h"
#include "core/measure.h"
#include "core/source.h"
#include "events/evlist.h"
#include "runs/rundir.h"
#include "validate/rules.h"
#include "validate/schedule.h"

struct engine;
struct vendor_table;

/* What happened to one event over a run, for the summary that ends validate. */
struct event_summary {
    char *name;
    int ok, not_ok, skip, todo, info;
    int silent_zero;       /* of not_ok: the event opened and counted nothing (SILENT_ZERO) */
    char *fails;           /* "case; case; ..." where it failed */
    char *skip_reason;     /* the first SKIP reason */
};
typedef void (*measurement_hook)(struct engine *eng, const struct case_ *c, const struct measurement *m,
                                 const struct quantities *q);

struct engine {
    const struct source *src;
    struct measure_opts mopts;
    bool user_iters;              /* --iters was given: never changed */
    int group_size;
    int ncounters;                /* programmable counters of the PMU (unrestricted events may use any) */
    const char *pmu;              /* libpfm4 PMU name for restrictions, NULL when none */
    const struct vendor_table *vt;    /* --vendor-json: counter restrictions and errata; NULL */
    struct sched_learned learned; /* groups that would not open or never ran, split and retried */
    int group_cap;                /* learned: groups of at most this many programmable events ran; 0: none */
    struct event_summary *sum;
    int nsum;
    struct ruleset rules;
    struct run_dir *dir;          /* NULL: nothing written */
    struct tap *tap;              /* NULL: no verdict lines */
    int cpu;                      /* where cases run unless they name a run_cpu; -1: the least loaded CPU of
                                     the affinity mask, chosen at the first case (host/cpuload.h) */
    bool pair_given;              /* --cpus A,B: a second thread (snoop's writer) on second_cpu (B); else */
    int second_cpu;               /* on another CPU of the mask than the measuring one */
    measurement_hook on_measurement;
    void *arg;
    const char *record_key;       /* written as each record's "key" (calibrate: "text|event|run"); NULL: none */
    int measurements;             /* records written */
    int failures;                 /* cases whose setup or measurement failed */
    bool setup_refusal_skips;     /* a sweep's drawn case its setup refuses (a combination outside the
                                     kernel's domain) is a SKIP with the setup's reason, not a failure */
    int refused;                  /* such cases */
    bool write_failed;            /* a record could not be appended: the run stops there */
    const struct event_spec *case_events;   /* the case being measured: its events, and which of them */
    bool *judged;                 /* have a verdict line (a failure later fails only the others) */
};

/* An event list into resolved specs; -1 with one message, naming FILE:LINE, for the first unknown event. */
int engine_resolve_events(const struct source *src, const struct evlist *l, struct event_spec **out, int *n);
void engine_free_events(struct event_spec *ev, int n);
/* A case's own copy of the events (free with engine_free_events): what failed to open in one
 * case is tried again in the next. */
struct event_spec *engine_copy_events(const struct event_spec *events, int n);
/* The events used when none are named: perf's generic and software events. */
extern const char engine_default_events[];

/* Set up the case, measure every group, tear down. CASE_OK, CASE_ERROR (a message was
 * printed; for validate it is also a 'not ok'), or CASE_INTERRUPTED. */
int engine_case(struct engine *eng, struct case_ *c, struct event_spec *events, int n);

/* The per-event summary as TAP comments; learned scheduling facts too. */
void engine_summary(struct engine *eng);
void engine_free(struct engine *eng);

/* One measurement as a JSON object (the measurements.ndjson record); vs: each event's verdict, or
 * NULL when it was not judged ('pmucal run'). */
void measurement_json(struct json *j, const struct engine *eng, const struct case_ *c, int group,
                      const struct measurement *m, const struct quantities *q, const char *part,
                      const char *learned, const struct event_verdict *vs);
/* Each event's verdict on a measurement (out[k] for m->events[k]): its rule per iteration, the raw
 * checks (check_raw), errata, multiplexing. Used by validate as it measures and by replay. */
/* One event's verdict with the engine's rules and source (check_event), an event its source leaves
 * unjudged saying why. */
struct event_verdict engine_check_event(const struct engine *eng, const struct rule *r, const struct event_spec *ev,
                                        const struct stats *st, const struct quantities *q, uint64_t iters);
void engine_judge(const struct engine *eng, const struct measurement *m, const struct quantities *q,
                  struct event_verdict *out);
/* The verdicts as TAP lines (or info comments) and into the per-event summary. */
void engine_report(struct engine *eng, const char *label, const struct measurement *m, const struct event_verdict *vs);

#endif
