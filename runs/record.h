/* A measurement record, the line measurements.ndjson holds for each group of a case, both ways:
 * written as it is measured (validate, calibrate, run --json) and read back into a measurement
 * (replay, validate --resume, calibrate --resume; compare, classify and cpi take the records as
 * JSON through runfile.h's measurements_read). The writer and the reader of its members sit side
 * by side here. */
#ifndef PMUCAL_RECORD_H
#define PMUCAL_RECORD_H
#include "base/jread.h"
#include "base/json.h"
#include "base/verdict.h"
#include "core/kernel.h"
#include "core/measure.h"
#include "core/quantity.h"
#include <stdbool.h>
#include <stddef.h>

/* Who made a record: its case (label, kernel, parameters, detail, CPU), the key it is found by,
 * the source, and the group (and part of it, with why, when the group was split and retried). */
struct record_head {
    const struct case_ *c;
    const char *key;            /* calibrate: "text|event|run"; NULL: none */
    const char *source;
    int group;
    const char *part, *learned; /* NULL: the whole group */
};

/* An event's verdict as a record keeps it. */
struct record_verdict {
    enum verdict kind;          /* stored by its name: "kind": "ok", "not ok", ... */
    const char *tolerance;      /* the rule's tolerance; NULL without a rule */
    double measured, expected, allowed;
    const char *reason;
};

/* One measurement as a record (a JSON object, not yet a line); vs: each event's verdict, or NULL
 * when it was not judged ('pmucal run'). */
void record_json(struct json *j, const struct record_head *h, const struct measurement *m,
                 const struct quantities *q, const struct record_verdict *vs);
/* The verdict of an event of a record (one of its "events"): false when it was not judged (no
 * "verdict"). A record read through record_line_next has had every stored kind checked. */
bool record_event_verdict(const struct jvalue *ev, enum verdict *v);

/* A record read back into a measurement: its events (m.events points at them), per-repetition
 * counts and their statistics, cycles, clock and noise facts, and the case's model in q. */
struct record_measurement {
    struct measurement m;
    struct event_spec ev[GROUP_MAX_EVENTS], *ptr[GROUP_MAX_EVENTS];
    struct quantities q;
};
/* -1 when malformed (no iters or repetitions, per_iter of another length); either way
 * record_measurement_clear frees what it holds. */
int record_measurement(const struct jvalue *rec, struct record_measurement *r);
void record_measurement_clear(struct record_measurement *r);

/* measurements.ndjson line by line. The reader of the whole file (runs/runfile.h:
 * measurements_read) and --resume's (runs/resume.c), which drops a cut last line, both walk it
 * with this: each line parsed and checked to be a record ("case" and an "events" array, every
 * number that is converted to an integer in range: iters, repetitions, attr ...). */
struct record_line {
    size_t at, len;             /* the line's bytes in the text, its newline included */
    int lineno;
    bool blank;                 /* an empty line: no record, no error */
    bool cut;                   /* the last line, without its newline: a write cut short */
    struct jvalue *rec;         /* the record (the caller's to free); NULL when blank or not one */
    bool parsed;                /* not one: it is JSON without "case" or an "events" array; else err */
    bool invalid;               /* not one: a number of it out of range or not finite (err says which) */
    char err[512];
};
/* The longest line taken as a record (a group of GROUP_MAX_EVENTS events, MEASURE_MAX_REPS
 * repetitions each, is a few KiB): a longer one is refused before it is parsed. */
#define RECORD_LINE_MAX (1 << 20)
/* The next line after l (zeroed before the first); false at the end of the text. */
bool record_line_next(const char *text, size_t size, struct record_line *l);
/* The same walk over the records of 'pmucal sample' ("kind": "sample", runs/sample_record.h): a
 * line is one when it has case, event, precise_ip 0..3, a period of at least 1 and finite count
 * and samples (else invalid, err says so). */
bool sample_line_next(const char *text, size_t size, struct record_line *l);
/* j appended to measurements.ndjson (f) as one line, or, when it cannot be written whole,
 * nothing: the file goes back to its last whole line, so a resume or a reader never meets a cut
 * record before a later one. 0, or -1 with errno set. */
int record_line_append(FILE *f, const struct json *j);
/* One of the two: what --resume walks a folder's records with (runs/resume.h). */
typedef bool record_line_fn(const char *text, size_t size, struct record_line *l);

#endif
