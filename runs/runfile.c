#include "runs/runfile.h"
#include "base/util.h"
#include "runs/hostfacts.h"
#include "runs/record.h"
#include "runs/record_check.h"
#include "runs/rundir.h"
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int measurements_read(const char *run, struct jvalue ***recs, int *nrec)
{
    char err[512], *nd = xasprintf("%s/measurements.ndjson", run);
    size_t size;
    char *text = run_file_read(run, "measurements.ndjson", &size, err, sizeof(err));
    *recs = NULL;
    *nrec = 0;
    if (!text) {
        pm_error("cannot read %s; give a run folder written by 'pmucal validate' or 'pmucal calibrate'", err);
        free(nd);
        return -1;
    }
    /* The records are held against the run's manifest too (runs/record_check.h); a folder whose
     * manifest cannot be read is refused by the caller, which reads it first. */
    char merr[512], why[768];
    struct jvalue *m = manifest_read(run, merr, sizeof(merr));
    struct record_check k;
    record_check_init(&k, m && m->type == J_OBJECT ? m : NULL);
    int rc = 0;
    for (struct record_line l = {0}; !rc && record_line_next(text, size, &l);) {
        if (l.blank)
            continue;
        if (!l.rec) {
            if (l.invalid)
                pm_error("%s:%d: %s (a measurement record pmucal did not write)", nd, l.lineno, l.err);
            else if (l.parsed)
                pm_error("%s:%d: a measurement needs \"case\" and an \"events\" array", nd, l.lineno);
            else
                pm_error("%s:%d: %s: the folder is damaged (a record is one JSON object a line)", nd, l.lineno, l.err);
            rc = -1;
            break;
        }
        *recs = xrealloc(*recs, sizeof(**recs) * (size_t)(*nrec + 1));
        (*recs)[(*nrec)++] = l.rec;
        if (record_check_line(&k, l.rec, l.lineno, why, sizeof(why))) {
            pm_error("%s:%d: %s", nd, l.lineno, why);
            rc = -1;
        }
    }
    if (!rc && record_check_end(&k, why, sizeof(why))) {
        pm_error("%s: %s", nd, why);
        rc = -1;
    }
    record_check_free(&k);
    jread_free(m);
    free(text);
    free(nd);
    return rc;
}

int sample_records_read(const char *run, struct jvalue ***recs, int *nrec)
{
    char err[512];
    size_t size;
    char *text = run_file_read(run, "measurements.ndjson", &size, err, sizeof(err));
    *recs = NULL;
    *nrec = 0;
    if (!text) {
        pm_error("cannot read %s; give a run folder written by 'pmucal sample'", err);
        return -1;
    }
    int rc = 0;
    for (struct record_line l = {0}; !rc && sample_line_next(text, size, &l);) {
        if (l.blank)
            continue;
        if (!l.rec) {
            pm_error("%s/measurements.ndjson:%d: %s", run, l.lineno, l.err);
            rc = -1;
            break;
        }
        *recs = xrealloc(*recs, sizeof(**recs) * (size_t)(*nrec + 1));
        (*recs)[(*nrec)++] = l.rec;
    }
    free(text);
    return rc;
}

void measurements_free(struct jvalue **recs, int nrec)
{
    for (int i = 0; i < nrec; i++)
        jread_free(recs[i]);
    free(recs);
}

/* The command that made a run, from its manifest ("pmucal SUBCOMMAND ..."); NULL when none. */
const char *runfile_command(const struct jvalue *manifest)
{
    const struct jvalue *cmd = jget(manifest, "command");
    const char *prog = cmd && cmd->type == J_ARRAY && cmd->n > 1 ? jstr(&cmd->items[0]) : NULL;
    return prog && !strcmp(prog, "pmucal") ? jstr(&cmd->items[1]) : NULL;
}

char **runfile_command_args(const struct jvalue *manifest, int *argc, char *why, size_t n)
{
    const struct jvalue *cmd = jget(manifest, "command");
    if (!cmd || cmd->type != J_ARRAY || cmd->n < 2 || !jstr(&cmd->items[0]) || strcmp(jstr(&cmd->items[0]), "pmucal") ||
        !jstr(&cmd->items[1])) {
        snprintf(why, n, "its manifest has no command [\"pmucal\", SUBCOMMAND, ...]");
        return NULL;
    }
    *argc = cmd->n - 1;
    char **argv = xcalloc((size_t)*argc + 1, sizeof(*argv));
    for (int i = 1; i < cmd->n; i++) {
        const char *a = jstr(&cmd->items[i]);
        if (!a || !strncmp(a, "--resume", 8)) {
            snprintf(why, n, "its command's argument %d is %s", i, a ? "--resume (a manifest never stores it)" :
                     "not a string");
            free(argv);
            return NULL;
        }
        argv[i - 1] = (char *)a;
    }
    return argv;
}

bool runfile_measure_cpu(const struct jvalue *manifest, int *cpu, char *err, size_t n)
{
    double v;
    if (!jget_in(manifest, "measure_cpu", 0, 1 << 20, true, -1, &v, err, n))
        return false;
    *cpu = (int)v;
    return true;
}

bool runfile_has_measurements(const struct jvalue *manifest, const char *path)
{
    /* Records are what validate and calibrate measure: a folder of another command (c2c) has none
     * to read, and one without a command is no run pmucal made. */
    const char *cmd = runfile_command(manifest);
    if (cmd && (!strcmp(cmd, "validate") || !strcmp(cmd, "calibrate")))
        return true;
    pm_error("%s: %s%s%s; give a run folder of 'pmucal validate' or 'pmucal calibrate'", path,
             cmd ? "made by 'pmucal " : "its manifest names no command [\"pmucal\", ...]", cmd ? cmd : "",
             cmd ? "', whose folder holds no measurements to read" : "");
    return false;
}

int runfile_load(struct runfile *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = xstrdup(path);
    r->manifest = manifest_load(path);
    int rc = !r->manifest || !runfile_has_measurements(r->manifest, path) ? -1 : 0;
    if (!rc) {
        r->status = jget_str(r->manifest, "status", "unknown");
        rc = measurements_read(path, &r->rec, &r->nrec);
    }
    if (rc)   /* nothing half-read is left for the caller to free */
        runfile_free(r);
    return rc;
}

void runfile_cells_free(struct runfile *r)
{
    for (int i = 0; i < r->ncells; i++) {
        struct vcell *c = &r->cells[i];
        free(c->case_label), free(c->event), free(c->expr), free(c->tolerance), free(c->where), free(c->text);
    }
    free(r->cells);
    r->cells = NULL;
    r->ncells = 0;
}

void runfile_free(struct runfile *r)
{
    measurements_free(r->rec, r->nrec);
    runfile_cells_free(r);
    for (int i = 0; i < r->nc2c; i++)
        free(r->c2c[i].relation);
    free(r->c2c);
    free(r->curve);
    jread_free(r->classify);
    jread_free(r->penalties);
    jread_free(r->roofline);
    jread_free(r->manifest);
    free(r->path);
    memset(r, 0, sizeof(*r));
}

/* ---- every file, as the report reads them ---- */

/* A file of the run, through the run folder's reader (no link, no special file): NULL and *present
 * false when absent; NULL and *present true after one message when unreadable. */
static char *member_text(const struct runfile *r, const char *name, size_t max, bool *present, size_t *len)
{
    char err[512];
    char *text = run_file_read_max(r->path, name, max, len, err, sizeof(err));
    *present = text || errno != ENOENT;
    if (!text && *present)
        pm_error("%s: corrupt run folder: cannot read %s; re-run the command that made it, or remove the file", r->path,
                 err);
    return text;
}

/* An older pmucal's key in object o, renamed to today's (old's value kept) when o has no member of
 * that name and the old one is of type t: readers then ask for today's name alone. */
static void rename_old_key(struct jvalue *o, const char *old, const char *today, enum jtype t)
{
    if (!o || o->type != J_OBJECT || jget(o, today))
        return;
    for (int i = 0; i < o->n; i++)
        if (!strcmp(o->keys[i], old) && o->items[i].type == t) {
            free(o->keys[i]);
            o->keys[i] = xstrdup(today);
            return;
        }
}

/* A manifest object m read as today's: "kernel" and "software.kernel" were the Linux kernel's
 * before they were named "linux_kernel" (a record's "kernel" is the measured kernel), and
 * "source_slack_per_loop" was "source_slack_per_run", and "rule_file" was "expectations". The
 * source's floor and slack, which every later verdict of the run takes as its tolerance, checked
 * here once: false with err naming the member when one is not a number from 0 to 1e6. */
static bool manifest_as_today(struct jvalue *m, char *err, size_t n)
{
    double x;
    static const char *const checked[] = {"source_exact_floor", "source_slack_per_loop", "source_slack_per_run"};
    for (size_t i = 0; i < ARRAY_SIZE(checked); i++)
        if (!jget_in(m, checked[i], 0, 1e6, true, 0, &x, err, n))
            return false;
    rename_old_key(m, "kernel", "linux_kernel", J_OBJECT);
    rename_old_key((struct jvalue *)jget(m, "software"), "kernel", "linux_kernel", J_STRING);
    rename_old_key(m, "source_slack_per_run", "source_slack_per_loop", J_NUMBER);
    rename_old_key(m, "expectations", "rule_file", J_STRING);
    rename_old_key(m, "expectations", "rule_file", J_NULL);
    return true;
}

/* A JSON file of the run: NULL and *bad false when absent; NULL and *bad true when corrupt. */
static struct jvalue *json_member(const struct runfile *r, const char *name, bool *bad)
{
    size_t len;
    bool present;
    char *text = member_text(r, name, RUN_JSON_MAX, &present, &len), why[256];
    struct jvalue *v = text ? jread_parse(text, len, why, sizeof(why)) : NULL;
    *bad = present && !v;
    if (text && !v)
        pm_error("%s: corrupt run folder: %s/%s: %s; re-run the command that made it, or remove the file", r->path,
                 r->path, name, why);
    free(text);
    return v;
}

/* A text file of the run parsed by fn: 0 when absent (*present false) or parsed, -1 when not. */
static int text_member(struct runfile *r, const char *name, bool *present,
                       int (*fn)(struct runfile *, const char *, const char *))
{
    size_t len;
    char *text = member_text(r, name, INPUT_FILE_MAX, present, &len), *p = xasprintf("%s/%s", r->path, name);
    int rc = *present ? -1 : 0;
    if (text && strlen(text) != len)
        pm_error("%s is not text (it holds a NUL byte); re-run the command that made it", p);
    else if (text)
        rc = fn(r, text, p);
    free(text);
    free(p);
    return rc;
}

static int load_all(struct runfile *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = xstrdup(path);
    size_t n = strlen(r->path);
    while (n > 1 && r->path[n - 1] == '/')
        r->path[--n] = '\0';
    struct stat st;
    if (stat(path, &st) != 0) {
        pm_error("%s: cannot read run folder: %s; name a folder made by validate, calibrate or c2c "
                 "(results/<date>-<host>-<label>)", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        pm_error("%s: not a run folder (a file); name the folder that holds manifest.json", path);
        return -1;
    }
    bool bad;
    r->manifest = json_member(r, "manifest.json", &bad);
    if (bad)
        return -1;
    if (!r->manifest) {
        pm_error("%s: not a run folder: it has no manifest.json; name a folder made by validate, calibrate "
                 "or c2c (results/<date>-<host>-<label>)", path);
        return -1;
    }
    if (r->manifest->type != J_OBJECT) {
        pm_error("%s: corrupt run folder: manifest.json is not a JSON object; re-run the command that made it",
                 path);
        return -1;
    }
    char why[256];
    if (!manifest_as_today(r->manifest, why, sizeof(why))) {
        pm_error("%s/manifest.json: %s: the run is damaged", path, why);
        return -1;
    }
    r->status = jget_str(r->manifest, "status", "unknown");
    r->classify = json_member(r, "classify.json", &bad);
    if (bad)
        return -1;
    char err[256];
    double cases;
    if (r->classify && !jget_in(r->classify, "cases", 0, INT32_MAX, false, 0, &cases, err, sizeof(err))) {
        pm_error("%s/classify.json: %s; re-run 'pmucal classify %s', or remove the file", r->path, err, r->path);
        return -1;
    }
    r->penalties = json_member(r, "penalties.json", &bad);
    if (bad)
        return -1;
    r->roofline = json_member(r, "roofline.json", &bad);
    if (bad)
        return -1;
    char *mp = xasprintf("%s/measurements.ndjson", r->path);
    r->has_measurements = lstat(mp, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    free(mp);
    /* What the report and an export say PASS to: the records are read as every reader reads them,
     * so a damaged folder is refused here too, never shown as its validate.tap alone says. */
    const char *cmd = runfile_command(r->manifest);
    if (cmd && (!strcmp(cmd, "validate") || !strcmp(cmd, "calibrate")) &&
        (r->has_measurements || jget_num(r->manifest, "measurements", 0) > 0)) {
        struct jvalue **recs;
        int nrec, rc = measurements_read(r->path, &recs, &nrec);
        measurements_free(recs, nrec);
        if (rc)
            return -1;
    }
    if (text_member(r, "validate.tap", &r->has_tap, tap_parse) || text_member(r, "curve.csv", &r->has_curve, curve_csv_parse)
        || text_member(r, "c2c.csv", &r->has_c2c, c2c_csv_parse))
        return -1;
    return 0;
}

bool runfile_complete(const struct runfile *r, char *why, size_t n)
{
    return manifest_complete(r->manifest, why, n);
}

const char *runfile_fact(const struct runfile *r, const char *dotted, char *buf, size_t n)
{
    const struct jvalue *v = r->manifest;
    char *copy = xstrdup(dotted);
    for (char *tok = strtok(copy, "."); tok && v; tok = strtok(NULL, "."))
        v = jget(v, tok);
    free(copy);
    return runfile_scalar(v, buf, n);
}

const char *runfile_scalar(const struct jvalue *v, char *buf, size_t n)
{
    if (!v || v->type == J_NULL)
        return NULL;
    if (v->type == J_STRING)
        snprintf(buf, n, "%s", v->str);
    else if (v->type == J_NUMBER)
        snprintf(buf, n, "%g", v->num);
    else if (v->type == J_BOOL)
        snprintf(buf, n, "%s", v->b ? "true" : "false");
    else
        return NULL;
    return buf;
}

/* ---- the manifest ---- */

bool manifest_process_alive(const struct jvalue *manifest)
{
    double pid = jget_num(manifest, "pid", 0);
    if (pid < 1 || pid > INT32_MAX)
        return false;   /* no process recorded (an older pmucal): nothing to be alive */
    char boot[64];
    host_boot_id(boot, sizeof(boot));
    const char *then = jget_str(manifest, "boot_id", NULL);
    if (boot[0] && then && strcmp(boot, then))
        return false;   /* recorded before a reboot */
    if (kill((pid_t)pid, 0) && errno == ESRCH)
        return false;
    /* The pid is taken: by pmucal (or valgrind running it), or by a process that reused the
     * number, whose command line does not name pmucal. */
    char *p = xasprintf("/proc/%d/cmdline", (int)pid), line[4096];
    FILE *f = fopen(p, "r");
    free(p);
    if (!f)
        return true;
    size_t len = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    for (size_t i = 0; i < len; i++)
        if (!line[i])
            line[i] = ' ';
    line[len] = '\0';
    return strstr(line, "pmucal") != NULL;
}

struct jvalue *manifest_read(const char *run, char *err, size_t n)
{
    size_t len;
    char reason[512], why[256];
    char *text = run_file_read_max(run, "manifest.json", RUN_JSON_MAX, &len, reason, sizeof(reason));
    struct jvalue *m = text ? jread_parse(text, len, why, sizeof(why)) : NULL;
    if (m && m->type == J_OBJECT && !manifest_as_today(m, why, sizeof(why))) {
        jread_free(m);
        m = NULL;
    }
    if (!text)
        snprintf(err, n, "cannot read %s", reason);
    else if (!m)
        snprintf(err, n, "%s/manifest.json: %s", run, why);
    free(text);
    return m;
}

struct jvalue *manifest_load(const char *run)
{
    char *path = xasprintf("%s/manifest.json", run), err[512];
    struct jvalue *m = manifest_read(run, err, sizeof(err));
    if (!m || m->type != J_OBJECT)
        pm_error("%s%s: a damaged run folder, or none pmucal wrote (a run folder holds its manifest.json); name a "
                 "folder of 'pmucal validate' or 'pmucal calibrate'", m ? path : err, m ? " is not a JSON object" : "");
    if (m && m->type != J_OBJECT) {
        jread_free(m);
        m = NULL;
    }
    free(path);
    return m;
}

bool manifest_complete(const struct jvalue *manifest, char *why, size_t n)
{
    const char *status = jget_str(manifest, "status", "unknown");
    if (!strcmp(status, RUN_COMPLETE))
        return true;
    const char *reason = jget_str(manifest, "status_reason", NULL);
    if (!strcmp(status, RUN_RUNNING))
        snprintf(why, n, "its manifest still says running: the run is going on, or its process died");
    else if (!strcmp(status, "unknown"))
        snprintf(why, n, "its manifest has no status (written before pmucal recorded one)");
    else
        snprintf(why, n, "it is %s%s%s", status, reason ? ": " : "", reason ? reason : "");
    return false;
}

int runfile_load_all(struct runfile *r, const char *path)
{
    int rc = load_all(r, path);
    if (rc)   /* nothing half-read is left for the caller to free */
        runfile_free(r);
    return rc;
}
