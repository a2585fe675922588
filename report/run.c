/* Reading a run folder for the report: every file is optional except manifest.json, and every
 * file that is there must parse; a corrupt one is refused with its name and the fix. */
#include "base/util.h"
#include "report/report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *in_run(const struct run *r, const char *name)
{
    return xasprintf("%s/%s", r->path, name);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A JSON file of the run: NULL and *bad false when absent; NULL and *bad true when corrupt. */
static struct jvalue *json_member(const struct run *r, const char *name, bool *bad)
{
    char *p = in_run(r, name);
    struct jvalue *v = NULL;
    *bad = false;
    if (exists(p)) {
        char err[512];
        v = jread_file(p, err, sizeof(err));
        if (!v) {
            pm_error("%s: corrupt run folder: %s; re-run the command that made it, or remove the file", r->path, err);
            *bad = true;
        }
    }
    free(p);
    return v;
}

/* A text file of the run parsed by fn: 0 when absent (*present false) or parsed, -1 when not. */
static int text_member(struct run *r, const char *name, bool *present,
                       int (*fn)(struct run *, const char *, const char *))
{
    char *p = in_run(r, name);
    int rc = 0;
    *present = exists(p);
    if (*present) {
        char *text = read_text_file(p, "run file");
        rc = text ? fn(r, text, p) : -1;
        free(text);
    }
    free(p);
    return rc;
}

int run_load(struct run *r, const char *path)
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
    char *mp = in_run(r, "manifest.json");
    bool has_manifest = exists(mp);
    free(mp);
    if (!has_manifest) {
        pm_error("%s: not a run folder: it has no manifest.json; name a folder made by validate, calibrate "
                 "or c2c (results/<date>-<host>-<label>)", path);
        return -1;
    }
    bool bad;
    r->manifest = json_member(r, "manifest.json", &bad);
    if (bad)
        return -1;
    if (r->manifest->type != J_OBJECT) {
        pm_error("%s: corrupt run folder: manifest.json is not a JSON object; re-run the command that made it",
                 path);
        return -1;
    }
    r->classify = json_member(r, "classify.json", &bad);
    if (bad)
        return -1;
    r->penalties = json_member(r, "penalties.json", &bad);
    if (bad)
        return -1;
    char *mp2 = in_run(r, "measurements.ndjson");
    r->has_measurements = stat(mp2, &st) == 0 && st.st_size > 0;
    free(mp2);
    if (text_member(r, "validate.tap", &r->has_tap, tap_parse) || text_member(r, "curve.csv", &r->has_curve, curve_csv_parse)
        || text_member(r, "c2c.csv", &r->has_c2c, c2c_csv_parse))
        return -1;
    return 0;
}

void run_free(struct run *r)
{
    for (int i = 0; i < r->ncells; i++) {
        struct vcell *c = &r->cells[i];
        free(c->case_label), free(c->event), free(c->expr), free(c->tolerance), free(c->where), free(c->text);
    }
    free(r->cells);
    for (int i = 0; i < r->nc2c; i++)
        free(r->c2c[i].relation);
    free(r->c2c);
    free(r->curve);
    jread_free(r->manifest);
    jread_free(r->classify);
    jread_free(r->penalties);
    free(r->path);
    memset(r, 0, sizeof(*r));
}
