#include "runs/runfile.h"
#include "base/util.h"
#include "runs/record.h"
#include "runs/rundir.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int measurements_read(const char *nd, struct jvalue ***recs, int *nrec)
{
    char err[512];
    size_t size;
    char *text = read_file_bounded(nd, INPUT_FILE_MAX, &size, err, sizeof(err));
    *recs = NULL;
    *nrec = 0;
    if (!text) {
        pm_error("cannot read %s; give a run folder written by 'pmucal validate' or 'pmucal calibrate'", err);
        return -1;
    }
    int rc = 0;
    for (struct record_line l = {0}; !rc && record_line_next(text, size, &l);) {
        if (l.blank)
            continue;
        if (!l.rec) {
            if (l.parsed)
                pm_error("%s:%d: a measurement needs \"case\" and an \"events\" array", nd, l.lineno);
            else
                pm_error("%s:%d: %s (each line must be one JSON object)", nd, l.lineno, l.err);
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

int runfile_load(struct runfile *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = xstrdup(path);
    char *nd = xasprintf("%s/measurements.ndjson", path);
    int rc = -1;
    r->manifest = manifest_load(path);
    if (r->manifest) {
        r->status = jget_str(r->manifest, "status", "unknown");
        rc = measurements_read(nd, &r->rec, &r->nrec);
    }
    free(nd);
    return rc;
}

void runfile_free(struct runfile *r)
{
    measurements_free(r->rec, r->nrec);
    jread_free(r->manifest);
    free(r->path);
    memset(r, 0, sizeof(*r));
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
