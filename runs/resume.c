#include "runs/resume.h"
#include "base/util.h"
#include "base/version.h"
#include "runs/hostfacts.h"
#include "runs/record.h"
#include "runs/record_check.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The run's command from its manifest: ["pmucal", SUBCOMMAND, args...]. */
static int take_command(struct resume *r, const char *command, char *why, size_t n)
{
    int argc;
    char **argv = runfile_command_args(r->manifest, &argc, why, n);
    if (!argv)
        return -1;
    if (strcmp(argv[0], command)) {
        snprintf(why, n, "it was made by 'pmucal %s', not 'pmucal %s'; resume it with 'pmucal %s --resume'", argv[0],
                 command, argv[0]);
        free(argv);
        return -1;
    }
    r->argv = xcalloc((size_t)argc + 1, sizeof(*r->argv));
    for (r->argc = 0; r->argc < argc; r->argc++)
        r->argv[r->argc] = xstrdup(argv[r->argc]);
    free(argv);
    return 0;
}

/* The earlier resumptions' counts, which resume_manifest copies as integers. */
static int resumed_check(const struct jvalue *manifest, char *why, size_t n)
{
    static const char *const counts[] = {"cases_kept", "records_kept", "records_dropped"};
    const struct jvalue *before = jget(manifest, "resumed");
    char err[256];
    double x;
    for (int i = 0; before && before->type == J_ARRAY && i < before->n; i++)
        for (size_t k = 0; k < ARRAY_SIZE(counts); k++)
            if (!jget_in(&before->items[i], counts[k], 0, INT32_MAX, true, 0, &x, err, sizeof(err))) {
                snprintf(why, n, "manifest.json: resumed[%d]: %s; the manifest is damaged: start a new run", i, err);
                return -1;
            }
    return 0;
}

int resume_checks(struct resume *r, const char *command, char *why, size_t n)
{
    return take_command(r, command, why, n) || resumed_check(r->manifest, why, n) ? -1 : 0;
}

static int refuse(const struct resume *r, const char *run, const char *why)
{
    pm_error("--resume %s: %s", r->run ? r->run : run, why);
    return -1;
}

int resume_open(struct resume *r, const char *run, const char *command)
{
    memset(r, 0, sizeof(*r));
    char abs[PATH_MAX], err[512], why[768];
    if (!realpath(run, abs)) {
        snprintf(why, sizeof(why), "%s; name the run folder to complete", strerror(errno));
        return refuse(r, run, why);
    }
    r->run = xstrdup(abs);
    r->manifest = manifest_read(abs, err, sizeof(err));
    if (!r->manifest || r->manifest->type != J_OBJECT) {
        snprintf(why, sizeof(why), "%s; a folder without a readable manifest cannot be resumed: start a new run",
                 r->manifest ? "manifest.json is not a JSON object" : err);
        return refuse(r, run, why);
    }
    const char *status = jget_str(r->manifest, "status", "unknown");
    if (!strcmp(status, RUN_COMPLETE))
        return refuse(r, run, "it is complete: nothing to resume");
    if (strcmp(status, RUN_RUNNING) && strcmp(status, RUN_INTERRUPTED) && strcmp(status, RUN_FAILED)) {
        snprintf(why, sizeof(why), "its manifest's status is '%s', not one a run ends with: start a new run", status);
        return refuse(r, run, why);
    }
    if (resume_checks(r, command, why, sizeof(why)))
        return refuse(r, run, why);
    char host[256] = "";
    gethostname(host, sizeof(host) - 1);
    const char *then = jget_str(r->manifest, "hostname", "(none recorded)");
    if (strcmp(then, host)) {
        snprintf(why, sizeof(why), "it was measured on host '%s', this is '%s'; counts of two machines do not make "
                 "one run: start a new run here", then, host);
        return refuse(r, run, why);
    }
    const char *version = jget_str(r->manifest, "pmucal", "?"), *commit = jget_str(r->manifest, "pmucal_commit", "?");
    if (strcmp(version, PMUCAL_VERSION) || strcmp(commit, pmucal_commit())) {
        snprintf(why, sizeof(why), "it was made by pmucal %s (commit %s), this is pmucal %s (commit %s): its records "
                 "would mix two builds; resume with the build that made it, or start a new run", version, commit,
                 PMUCAL_VERSION, pmucal_commit());
        return refuse(r, run, why);
    }
    if (!strcmp(status, RUN_RUNNING) && manifest_process_alive(r->manifest)) {
        int pid = (int)jget_num(r->manifest, "pid", 0);
        snprintf(why, sizeof(why), "its process %d is still running it; wait for it, or stop it (kill -INT %d keeps "
                 "what finished) and resume then", pid, pid);
        return refuse(r, run, why);
    }
    return 0;
}

int resume_claim(struct resume *r)
{
    char id[64], why[512], err[512];
    if (run_dir_lock(r->run, &r->lock_fd))
        return -1;
    r->locked = true;
    /* What resume_open judged may have changed before the lock was taken: another process may
     * have resumed (or completed) the run meanwhile. */
    struct jvalue *now = manifest_read(r->run, err, sizeof(err));
    bool same = now && jget_num(now, "pid", -1) == jget_num(r->manifest, "pid", -1) &&
                !strcmp(jget_str(now, "status", ""), jget_str(r->manifest, "status", ""));
    jread_free(now);
    if (!same)
        return refuse(r, NULL, "another process resumed it while this one started; run --resume again to see "
                      "where it stands");
    host_cpu_id(id, sizeof(id));
    const char *then = jget_str(jget(r->manifest, "cpu"), "id", "(none recorded)");
    if (!strcmp(then, id))
        return 0;
    snprintf(why, sizeof(why), "it was measured on CPU %s, this process sees %s; counts of two CPUs do not make one "
             "run: start a new run", then, id);
    return refuse(r, NULL, why);
}

/* The kept lines' bytes into measurements.ndjson, through run_file_write: a fresh temporary file
 * renamed over it, so a link planted in the folder is replaced, never written through. */
static int write_kept(const struct resume *r, const char *text, const size_t (*span)[2], int n)
{
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += span[i][1];
    char *buf = xmalloc(len + 1), *w = buf;
    for (int i = 0; i < n; i++) {
        memcpy(w, text + span[i][0], span[i][1]);
        w += span[i][1];
    }
    int rc = run_file_write(r->run, "measurements.ndjson", buf, len);
    free(buf);
    return rc;
}

int resume_records(struct resume *r, record_line_fn *next, bool (*keep)(const struct jvalue *rec, void *ctx),
                   void *ctx)
{
    char *path = xasprintf("%s/measurements.ndjson", r->run), err[512];
    size_t size = 0;
    char *text = run_file_read(r->run, "measurements.ndjson", &size, err, sizeof(err));
    if (!text && errno == ENOENT)
        text = xstrdup("");
    if (!text) {
        pm_error("--resume %s: cannot read %s", r->run, err);
        free(path);
        return -1;
    }
    size_t (*span)[2] = NULL;
    int nspan = 0, rc = 0;
    /* Validate's and calibrate's records are held against each other and the manifest's case list
     * (runs/record_check.h), as every reader holds them. */
    struct record_check k;
    record_check_init(&k, r->manifest);
    char why[768];
    for (struct record_line l = {0}; !rc && next(text, size, &l);) {
        if (l.cut) {   /* cut short: its case cannot have finished */
            jread_free(l.rec);
            r->records_dropped++;
            break;
        }
        if (!l.blank && !l.rec) {
            pm_error("--resume %s: %s:%d is not a measurement record (%s) and not the last line: the folder is "
                     "damaged; start a new run", r->run, path, l.lineno, l.parsed && !l.invalid ?
                     "no \"case\" or \"events\" array" : l.err);
            rc = -1;
        } else if (l.rec && next == record_line_next && record_check_line(&k, l.rec, l.lineno, why, sizeof(why))) {
            pm_error("--resume %s: %s:%d: %s; start a new run", r->run, path, l.lineno, why);
            jread_free(l.rec);
            rc = -1;
        } else if (l.rec && keep(l.rec, ctx)) {
            span = xrealloc(span, sizeof(*span) * (size_t)(nspan + 1));
            span[nspan][0] = l.at;
            span[nspan++][1] = l.len;
            r->rec = xrealloc(r->rec, sizeof(*r->rec) * (size_t)(r->nrec + 1));
            r->rec[r->nrec++] = l.rec;
        } else if (l.rec) {
            jread_free(l.rec);
            r->records_dropped++;
        }
    }
    record_check_free(&k);
    if (!rc)
        rc = write_kept(r, text, (const size_t(*)[2])span, nspan);
    r->records_kept = r->nrec;
    r->replayed = xcalloc((size_t)(r->nrec ? r->nrec : 1), sizeof(*r->replayed));
    free(span);
    free(text);
    free(path);
    return rc;
}

struct case_keep {
    struct case_ *const *cases;
    int n;
    const bool *done;
};

/* A label is kept when every case of the list with that label finished (labels repeat only when
 * a --case is given twice; records carry labels, not positions). */
static bool label_done(const struct case_keep *k, const char *label)
{
    bool any = false;
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->cases[i]->label, label)) {
            if (!k->done[i])
                return false;
            any = true;
        }
    return any;
}

static bool keep_finished_case(const struct jvalue *rec, void *ctx)
{
    return label_done(ctx, jstr(jget(rec, "case")));
}

int resume_cases(struct resume *r, struct case_ *const *cases, int n)
{
    bool *done = xcalloc((size_t)(n ? n : 1), sizeof(*done));
    char err[512];
    size_t size;
    char *text = run_file_read(r->run, "cases.done", &size, err, sizeof(err));
    int rc = 0;
    if (!text && errno != ENOENT) {
        pm_error("--resume %s: cannot read %s", r->run, err);
        rc = -1;
    }
    for (char *line = text, *nl; !rc && line && (nl = strchr(line, '\n')); line = nl + 1) {
        *nl = '\0';
        char *tab = strchr(line, '\t'), *end;
        if (!tab)
            continue;
        errno = 0;
        long i = strtol(line, &end, 10);
        if (end != tab || errno || i < 0 || i >= n || strcmp(cases[i]->label, tab + 1)) {
            pm_error("--resume %s: cases.done names case %.20s '%.200s', which this build's case list for the run's "
                     "command does not have there (%d cases); start a new run", r->run, line, tab + 1, n);
            rc = -1;
        } else {
            done[i] = true;
        }
    }   /* a last line without its newline was cut short by a kill: that case is measured again */
    free(text);
    struct case_keep k = {cases, n, done};
    if (!rc)
        rc = resume_records(r, record_line_next, keep_finished_case, &k);
    /* cases.done afresh with the finished cases (a new file: a link or a second name planted at
     * it is replaced, never appended to), so the appends of this run go to a file of its own. */
    char *kept = xstrdup("");
    for (int i = 0; !rc && i < n; i++)
        if (done[i]) {
            char *more = xasprintf("%s%d\t%s\n", kept, i, cases[i]->label);
            free(kept);
            kept = more;
        }
    if (!rc)
        rc = run_file_write(r->run, "cases.done", kept, strlen(kept));
    free(kept);
    r->kept = xcalloc((size_t)(n ? n : 1), sizeof(*r->kept));
    for (int i = 0; !rc && i < n; i++) {
        /* A finished case without records (a SKIP at setup) is simply set up again. */
        for (int j = 0; j < r->nrec && !r->kept[i]; j++)
            r->kept[i] = label_done(&k, cases[i]->label) && !strcmp(jstr(jget(r->rec[j], "case")), cases[i]->label);
        r->cases_kept += r->kept[i];
    }
    free(done);
    return rc;
}

void resume_manifest(const struct resume *r, struct json *j)
{
    const struct jvalue *before = jget(r->manifest, "resumed");
    char now[32];
    json_array_begin(j, "resumed");
    for (int i = 0; before && before->type == J_ARRAY && i < before->n; i++) {
        const struct jvalue *b = &before->items[i];
        json_object_begin(j, NULL);
        json_string(j, "at", jget_str(b, "at", NULL));
        json_int(j, "cases_kept", (int64_t)jget_num(b, "cases_kept", 0));
        json_int(j, "records_kept", (int64_t)jget_num(b, "records_kept", 0));
        json_int(j, "records_dropped", (int64_t)jget_num(b, "records_dropped", 0));
        json_object_end(j);
    }
    json_object_begin(j, NULL);
    json_string(j, "at", iso_now(now));
    json_int(j, "cases_kept", r->cases_kept);
    json_int(j, "records_kept", r->records_kept);
    json_int(j, "records_dropped", r->records_dropped);
    json_object_end(j);
    json_array_end(j);
}

void resume_free(struct resume *r)
{
    measurements_free(r->rec, r->nrec);
    for (int i = 0; i < r->argc; i++)
        free(r->argv[i]);
    free(r->argv);
    free(r->kept);
    free(r->replayed);
    jread_free(r->manifest);
    free(r->run);
    if (r->locked)
        close(r->lock_fd);
    memset(r, 0, sizeof(*r));
}

int cases_done_append(const char *run, int index, const char *label)
{
    FILE *f = run_file_open(run, "cases.done", "a");
    if (!f)
        return -1;
    int rc = fprintf(f, "%d\t%s\n", index, label) > 0 ? 0 : -1;
    if (fclose(f))
        rc = -1;
    if (rc)
        pm_error("cannot append to %s/cases.done: %s; a --resume would measure that case again", run, strerror(errno));
    return rc;
}

int resume_keep_input(const char *dir, const char *path, const char *what, const char *name)
{
    char *text = read_text_file(path, what);
    int rc = text ? run_file_write(dir, name, text, strlen(text)) : -1;
    free(text);
    return rc;
}

int resume_read_input(const struct resume *r, const char *name, const char *option, bool required, char **text,
                      char **origin)
{
    char err[512];
    size_t len;
    *origin = NULL;
    *text = run_file_read(r->run, name, &len, err, sizeof(err));
    if (!*text) {
        if (errno == ENOENT && !required)
            return 0;
        if (errno == ENOENT)
            pm_error("--resume %s: its command names %s, and the folder keeps no copy of it (%s; runs before "
                     "pmucal kept one); a resume opens no file a manifest names: start a new run", r->run, option,
                     name);
        else
            pm_error("--resume %s: cannot read %s", r->run, err);
        return -1;
    }
    *origin = xasprintf("%s/%s", r->run, name);
    return 0;
}
