/* A stored run folder read back, by every command that reads one (compare, replay, report,
 * classify, cpi, emit, --resume): its manifest, its measurement records (one record's members:
 * runs/record.h), and the files a run may hold beside them: validate.tap (tapread.c), curve.csv
 * and c2c.csv (csvread.c), penalties.json, classify.json. The writer is runs/rundir.h. */
#ifndef PMUCAL_RUNFILE_H
#define PMUCAL_RUNFILE_H
#include "base/jread.h"
#include "base/verdict.h"
#include <stdbool.h>
#include <stddef.h>

/* One TAP point of validate.tap. Matrix verdicts are "CASE :: EVENT ..."; others (calibrate's
 * closure) have no event and are listed apart. */
struct vcell {
    enum verdict kind;
    int tap_no;             /* TAP test number; 0 for info comments */
    int line;               /* line in validate.tap */
    char *case_label, *event;   /* event NULL: not a matrix verdict */
    char *expr;             /* the rule's quantity expression; NULL when the line has none */
    char *tolerance, *where;    /* "exact" / "5%" / "bound" ...; "validate/expect/sim.txt:12" */
    double measured, expected;  /* NaN when not stated */
    char *text;             /* the whole description and reason as written */
};

struct curve_point {
    double bytes, cycles, ns, lo, hi;
};

struct c2c_pair {
    int from, to;
    char *relation;
    double cycles, cycles_min, cycles_mad, ns;
    int repetitions;
};

/* The header lines (without the newline) of curve.csv and c2c.csv, for their writers
 * (penalties/curve.c, runs/c2c_csv.c) and the reader alike. */
extern const char curve_csv_header[], c2c_csv_header[];

struct runfile {
    char *path;
    struct jvalue *manifest;      /* required */
    const char *status;           /* manifest's status; "unknown" when it has none (an older pmucal) */
    /* runfile_load: */
    struct jvalue **rec;          /* measurements.ndjson, one parsed record a line */
    int nrec;
    /* runfile_load_all: */
    struct jvalue *classify;      /* classify.json, NULL when absent */
    struct jvalue *penalties;     /* penalties.json, NULL when absent */
    struct jvalue *roofline;      /* roofline.json, NULL when absent */
    bool has_measurements;        /* measurements.ndjson with content: 'pmucal compare' can judge it */
    bool has_tap;                 /* validate.tap exists (it may be empty) */
    struct vcell *cells;
    int ncells;
    bool tap_truncated;           /* the last line had no newline: an interrupted run */
    struct curve_point *curve;    /* curve.csv */
    int ncurve;
    bool has_curve;
    struct c2c_pair *c2c;         /* c2c.csv */
    int nc2c;
    bool has_c2c;
};

/* The subcommand a manifest records ("validate" for ["pmucal", "validate", ...]); NULL when none. */
const char *runfile_command(const struct jvalue *manifest);

/* The run's command line after "pmucal" (argv[0] the subcommand), pointing into the manifest: free
 * the array only. NULL with why when the manifest has no command ["pmucal", SUBCOMMAND, ...], or an
 * argument is not a string or is --resume (a manifest never stores it). */
char **runfile_command_args(const struct jvalue *manifest, int *argc, char *why, size_t n);
/* The CPU the run measured on (the manifest's "measure_cpu", host/cpuload.h; -1 when it chose
 * none or says nothing) into *cpu; false with err naming the member when it is not a CPU. */
bool runfile_measure_cpu(const struct jvalue *manifest, int *cpu, char *err, size_t n);
/* Is the run of this manifest one with measurement records (validate, calibrate)? Otherwise one
 * error naming the folder path and the command that made it (c2c, or none); false. Every reader
 * of measurements.ndjson asks first: a folder of another kind is refused, never read as empty. */
bool runfile_has_measurements(const struct jvalue *manifest, const char *path);
/* The manifest and every record (compare, replay), of a run of validate or calibrate only. -1 after one message naming the file (and
 * line) that is missing or malformed, with r freed (runfile_free again is harmless). */
int runfile_load(struct runfile *r, const char *path);
/* The folder and every file it holds but the records, as the report shows them: every file is
 * optional except manifest.json, and every file that is there must parse. -1 with one message
 * naming the folder or file and the fix when it is not a run folder or a file in it is unreadable
 * or corrupt, with r freed. */
int runfile_load_all(struct runfile *r, const char *path);
void runfile_free(struct runfile *r);
/* Did the run finish what it was asked (status complete)? When not, why (into why). */
bool runfile_complete(const struct runfile *r, char *why, size_t n);
/* A string, number or boolean as text in buf (a string's own text is copied); NULL for null, an
 * absent member, an object or an array. */
const char *runfile_scalar(const struct jvalue *v, char *buf, size_t n);
/* A manifest member by dotted path ("software.linux_kernel"), as text (numbers printed %g); NULL if absent. */
const char *runfile_fact(const struct runfile *r, const char *dotted, char *buf, size_t n);

/* RUN/manifest.json as it is, quietly: NULL with why in err when missing or not JSON (whether it
 * is an object is the caller's to check). */
struct jvalue *manifest_read(const char *run, char *err, size_t n);
/* RUN/manifest.json, which must be a JSON object; NULL after one message naming it when it is
 * missing, malformed or not an object (a folder without one is no run to read). */
struct jvalue *manifest_load(const char *run);
/* Did the run whose manifest this is finish what it was asked (status complete)? When not, why
 * (into why): running (going on, or its process died), interrupted, failed, or no status at all. */
bool manifest_complete(const struct jvalue *manifest, char *why, size_t n);
/* Is the process a manifest names (pid, boot_id) still alive on this host? True also when it
 * cannot be told (no /proc): a live run must never be resumed under its own feet. */
bool manifest_process_alive(const struct jvalue *manifest);

/* RUN/measurements.ndjson's records, each checked to have "case" and an "events" array; -1 after
 * one message naming the file and line (records read so far are kept in *recs). */
int measurements_read(const char *run, struct jvalue ***recs, int *nrec);
void measurements_free(struct jvalue **recs, int nrec);
/* The records of a run of pmucal sample ("kind": "sample", one per event and precise level), each
 * checked for what compare reads; -1 after a message naming file:line. Freed as the above. */
int sample_records_read(const char *run, struct jvalue ***recs, int *nrec);

/* A calibration's penalties.json (penread.c). The newest run folder's (under $PMUCAL_RESULTS
 * or results/) whose manifest records the command 'pmucal calibrate' (whatever the label), whose
 * run finished and measured every recipe (not a --curve or --recipe run); NULL with a message
 * when there is none. */
char *penalties_newest_run(void);
/* RUN a run folder or the file itself, NULL for penalties_newest_run(); *path gets the file's
 * path (free it) or NULL. Refused (NULL after one message) when it is not JSON, or its run's
 * manifest is damaged, says a 'calibrate --source sim' run (no penalties by design), or says
 * interrupted or running and allow_incomplete is false (failed: a warning). */
struct jvalue *penalties_json_read(const char *run, bool allow_incomplete, char **path);

/* The text of validate.tap, curve.csv or c2c.csv (as read from path) into r; -1 with a message
 * naming path:line on a line that is not TAP, or a header or row that is not the file's. */
int tap_parse(struct runfile *r, const char *text, const char *path);
/* The verdict lines tap_parse read, freed (a damaged validate.tap: the records alone are used). */
void runfile_cells_free(struct runfile *r);
int curve_csv_parse(struct runfile *r, const char *text, const char *path);
int c2c_csv_parse(struct runfile *r, const char *text, const char *path);
/* The same for a c2c.csv a --resume reads, which its run may have been killed writing (it grows a
 * row at a time): a last line without its newline, or a last row that does not parse, was cut
 * short; it is dropped, its line number and why into *cut (line 0: nothing dropped). */
struct csv_cut {
    int line;
    char why[256];
};
int c2c_csv_parse_cut(struct runfile *r, const char *text, const char *path, struct csv_cut *cut);

#endif
