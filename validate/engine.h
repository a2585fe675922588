/* The validation engine: a case's events in groups, each measured, recorded and checked. */
#ifndef PMUCAL_ENGINE_H
#define PMUCAL_ENGINE_H
#include "expect.h"
#include "kernel.h"
#include "measure.h"
#include "results.h"
#include "source.h"
#include "tap.h"

struct engine;
typedef void (*measurement_hook)(struct engine *e, const struct case_ *c, const struct measurement *m,
                                 const struct quantities *q);

struct engine {
    const struct source *src;
    struct measure_opts mopts;
    int group_size;
    struct ruleset rules;
    struct run_dir *dir;          /* NULL: nothing written */
    struct tap *tap;              /* NULL: no verdict lines */
    measurement_hook on_measurement;
    void *arg;
    int measurements;             /* records written */
    int failures;                 /* cases whose setup or measurement failed */
};

/* "a,b,c" into resolved specs; -1 with one message for the first unknown event. */
int engine_resolve_events(const struct source *src, const char *list, struct event_spec **out, int *n);
void engine_free_events(struct event_spec *ev, int n);
/* The events used when none are named: perf's generic and software events. */
extern const char engine_default_events[];

/* Set up the case, measure every group, tear down. MEASURE_OK, MEASURE_FAILED (a message was
 * printed; for validate it is also a 'not ok'), or MEASURE_INTERRUPTED. */
int engine_case(struct engine *e, struct case_ *c, struct event_spec *events, int n);

/* One measurement as a JSON object (the measurements.ndjson record). */
void measurement_json(struct json *j, const struct engine *e, const struct case_ *c, int group,
                      const struct measurement *m, const struct quantities *q);

#endif
