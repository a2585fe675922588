#include "runfile.h"
#include "results.h"
#include "util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int runfile_load(struct runfile *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = xstrdup(path);
    char *m = xasprintf("%s/manifest.json", path), *nd = xasprintf("%s/measurements.ndjson", path);
    int rc = -1;
    char *text = NULL, err[512];
    r->manifest = jread_load(m);
    if (!r->manifest)
        goto out;
    r->status = jget_str(r->manifest, "status", "unknown");
    size_t size;
    if (!(text = read_file_bounded(nd, INPUT_FILE_MAX, &size, err, sizeof(err)))) {
        pm_error("cannot read %s; give a run folder written by 'pmucal validate'", err);
        goto out;
    }
    int lineno = 0;
    for (char *line = text, *next; line < text + size; line = next) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        next = nl ? nl + 1 : text + size;
        size_t len = (size_t)(next - line);
        lineno++;
        if (len == 1 && line[0] == '\n')
            continue;
        struct jvalue *rec = jread_parse(line, len, err, sizeof(err));
        if (!rec || !jstr(jget(rec, "case")) || !jget(rec, "events") || jget(rec, "events")->type != J_ARRAY) {
            pm_error("%s:%d: %s", nd, lineno, rec ? "a measurement needs \"case\" and an \"events\" array" : err);
            jread_free(rec);
            goto out;
        }
        r->rec = xrealloc(r->rec, sizeof(*r->rec) * (size_t)(r->nrec + 1));
        r->rec[r->nrec++] = rec;
    }
    rc = 0;
out:
    free(text);
    free(m);
    free(nd);
    return rc;
}

void runfile_free(struct runfile *r)
{
    for (int i = 0; i < r->nrec; i++)
        jread_free(r->rec[i]);
    free(r->rec);
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
