#include "runs/ktap.h"
#include "base/util.h"
#include "runs/rundir.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ktap_name(const char *s)
{
    char *n = xstrdup(s && *s ? s : "unnamed");
    for (char *p = n; *p; p++)   /* KCIDB's path components: [A-Za-z0-9_-] */
        if (!isalnum((unsigned char)*p) && *p != '-')
            *p = '_';
    return n;
}

/* A result line at indentation depth: number, name (made a path component unless whole), directive. */
static void result(FILE *out, int depth, bool ok, int no, const char *name, bool whole, const char *directive,
                   const char *why)
{
    char *n = whole ? xstrdup(name) : ktap_name(name);
    fprintf(out, "%*s%s %d %s", 2 * depth, "", ok ? "ok" : "not ok", no, n);
    if (directive) {
        fprintf(out, " # %s", directive);
        for (const char *p = why; p && *p; p++)   /* diagnostic data: one line */
            fputc(*p == '\n' ? ' ' : *p, out);
    }
    fputc('\n', out);
    free(n);
}

/* The reason after a TAP directive in a cell's text, NULL when it has none. */
static const char *reason_of(const struct vcell *c, const char *directive)
{
    const char *d = strstr(c->text, directive);
    return d ? d + strlen(directive) : NULL;
}

static void leaf(FILE *out, int depth, int no, const struct vcell *c, const char *name)
{
    if (c->kind == VERDICT_SKIP)
        result(out, depth, true, no, name, false, "SKIP", reason_of(c, " # SKIP"));
    else if (c->kind == VERDICT_TODO)   /* KTAP knows no TODO: an expected failure, as kselftest writes it */
        result(out, depth, true, no, name, false, "XFAIL", reason_of(c, " # TODO"));
    else
        result(out, depth, c->kind == VERDICT_OK, no, name, false, NULL, NULL);
}

/* Does cell i belong to the case of cell first (same label), and is it a verdict? */
static bool same_case(const struct runfile *r, int i, const char *label)
{
    return r->cells[i].kind != VERDICT_INFO && r->cells[i].case_label && r->cells[i].event &&
           !strcmp(r->cells[i].case_label, label);
}

int ktap_write(FILE *out, const struct runfile *r)
{
    const struct jvalue *cmd = jget(r->manifest, "command");
    const char *sub = cmd && cmd->type == J_ARRAY && cmd->n > 1 ? jstr(&cmd->items[1]) : NULL;
    char *top_name = ktap_name(sub ? sub : "run"), *top = xasprintf("pmucal.%s", top_name);
    free(top_name);
    /* The run's tests: one per case (first appearance) and one per verdict without a case. */
    bool *seen = xcalloc((size_t)r->ncells + 1, sizeof(*seen));
    int ntests = 0, bad = 0;
    for (int i = 0; i < r->ncells; i++) {
        const struct vcell *c = &r->cells[i];
        if (c->kind == VERDICT_INFO || seen[i])
            continue;
        ntests++;
        if (c->case_label && c->event)
            for (int k = i; k < r->ncells; k++)
                seen[k] |= same_case(r, k, c->case_label);
    }
    memset(seen, 0, (size_t)r->ncells + 1);
    fprintf(out, "KTAP version 1\n1..1\n  KTAP version 1\n  1..%d\n", ntests);
    for (int i = 0, no = 0; i < r->ncells; i++) {
        const struct vcell *c = &r->cells[i];
        if (c->kind == VERDICT_INFO) {
            fputs("  # ", out);
            for (const char *p = c->text; *p; p++)
                fputc(*p == '\n' ? ' ' : *p, out);
            fputc('\n', out);
            continue;
        }
        if (seen[i])
            continue;
        no++;
        if (!c->case_label || !c->event) {   /* a verdict of the whole run: a penalty, the closure */
            /* Its name is what comes before the first ': ' (a stable path: "penalty l1_hit"), the
             * figures after it a diagnostic line before the result. */
            const char *dir = strstr(c->text, " # "), *colon = strstr(c->text, ": ");
            const char *end = dir ? dir : c->text + strlen(c->text);
            if (colon && colon < end) {
                fputs("  # ", out);
                for (const char *p = c->text; p < end; p++)
                    fputc(*p == '\n' ? ' ' : *p, out);
                fputc('\n', out);
                end = colon;
            }
            char *name = xasprintf("%.*s", (int)(end - c->text), c->text);
            leaf(out, 1, no, c, name);
            bad += c->kind == VERDICT_NOT_OK;
            free(name);
            continue;
        }
        int n = 0, case_bad = 0;
        for (int k = i; k < r->ncells; k++)
            n += same_case(r, k, c->case_label);
        fprintf(out, "    KTAP version 1\n    1..%d\n", n);
        for (int k = i, e = 0; k < r->ncells; k++)
            if (same_case(r, k, c->case_label)) {
                seen[k] = true;
                leaf(out, 2, ++e, &r->cells[k], r->cells[k].event);
                case_bad += r->cells[k].kind == VERDICT_NOT_OK;
            }
        result(out, 1, !case_bad, no, c->case_label, false, NULL, NULL);
        bad += case_bad > 0;
    }
    result(out, 0, !bad, 1, top, true, NULL, NULL);
    free(seen);
    free(top);
    return ferror(out) ? -1 : 0;
}

int run_export(const char *path, const char *file, int (*write)(FILE *, const struct runfile *))
{
    struct runfile r;
    memset(&r, 0, sizeof(r));
    int rc = -1;
    if (runfile_load_all(&r, path))
        goto out;
    if (!r.has_tap) {
        pm_error("%s holds no validate.tap: no verdicts to export; name a run folder of validate or calibrate",
                 r.path);
        goto out;
    }
    struct run_out o;
    FILE *out = run_out_user(&o, file);
    if (!out)
        goto out;
    int wrc = write(out, &r);
    if (wrc)
        pm_error("cannot write %s", file ? file : "the standard output");
    rc = run_out_end(&o, wrc);
out:
    runfile_free(&r);
    return rc;
}
