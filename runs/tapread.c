/* validate.tap back into verdicts: the lines validate/engine.c and base/tap.c write.
 *   ok N - CASE :: EVENT = EXPR: measured X expected Y (TOLERANCE, WHERE)
 *   not ok N - CASE :: EVENT # TODO erratum E: EVENT = EXPR: measured X expected Y (TOLERANCE, WHERE)
 *   ok N - CASE :: EVENT # SKIP REASON
 *   # info CASE :: EVENT measured X per iteration (info rule (WHERE))
 * Lines without " :: " (calibrate's closure) are verdicts outside the matrix. */
#include "base/util.h"
#include "runs/runfile.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_n(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static const char *rstrstr(const char *s, const char *needle)
{
    const char *last = NULL;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        last = p;
    return last;
}

/* "EVENT = EXPR: measured X expected Y (TOL, WHERE)" anywhere in s: fills what it finds. */
static void comparison(struct vcell *c, const char *s)
{
    const char *m = rstrstr(s, ": measured ");
    if (!m)
        return;
    const char *eq = strstr(s, " = ");
    if (eq && eq < m) {
        if (!c->event)
            c->event = dup_n(s, (size_t)(eq - s));
        c->expr = dup_n(eq + 3, (size_t)(m - eq - 3));
    }
    int used = 0;
    if (sscanf(m, ": measured %lf expected %lf (%n", &c->measured, &c->expected, &used) < 2 || !used)
        return;
    const char *in = m + used, *end = strrchr(in, ')');
    const char *comma = strstr(in, ", ");
    if (!end || !comma || comma > end)
        return;
    c->tolerance = dup_n(in, (size_t)(comma - in));
    c->where = dup_n(comma + 2, (size_t)(end - comma - 2));
}

static struct vcell *new_cell(struct runfile *r, enum verdict kind, int line, const char *text)
{
    r->cells = xgrow(r->cells, sizeof(*r->cells), r->ncells);
    struct vcell *c = &r->cells[r->ncells++];
    memset(c, 0, sizeof(*c));
    c->kind = kind, c->line = line, c->measured = c->expected = NAN;
    c->text = xstrdup(text);
    return c;
}

/* DESC of a TAP point: "CASE :: EVENT..." into case and the rest. */
static const char *split_case(struct vcell *c, const char *desc, const char *end)
{
    const char *sep = strstr(desc, " :: ");
    if (!sep || sep + 4 > end)   /* the separator whole before the directive ("x :: # SKIP" shares a space) */
        return NULL;
    c->case_label = dup_n(desc, (size_t)(sep - desc));
    return sep + 4;
}

static void point(struct runfile *r, bool ok, int no, const char *desc, int line)
{
    const char *dir = strstr(desc, " # ");
    enum verdict kind = ok ? VERDICT_OK : VERDICT_NOT_OK;
    const char *reason = NULL;
    if (dir && !strncmp(dir, " # SKIP", 7))
        kind = VERDICT_SKIP, reason = dir + 7;
    else if (dir && !strncmp(dir, " # TODO", 7))
        kind = VERDICT_TODO, reason = dir + 7;
    else
        dir = NULL;
    const char *end = dir ? dir : desc + strlen(desc);
    struct vcell *c = new_cell(r, kind, line, desc);
    c->tap_no = no;
    const char *rest = split_case(c, desc, end);
    if (!rest)
        return;
    if (dir) {
        c->event = dup_n(rest, (size_t)(end - rest));
        if (reason)
            comparison(c, reason);
        return;
    }
    comparison(c, rest);
    if (!c->event) {
        const char *mux = strstr(rest, ": the group was multiplexed");
        if (!mux)
            mux = strstr(rest, ": the group was never scheduled");
        c->event = dup_n(rest, mux ? (size_t)(mux - rest) : strlen(rest));
    }
}

static void info(struct runfile *r, const char *s, int line)
{
    struct vcell *c = new_cell(r, VERDICT_INFO, line, s);
    const char *rest = split_case(c, s, s + strlen(s));
    const char *m = rest ? rstrstr(rest, " measured ") : NULL;
    if (!m)
        return;
    c->event = dup_n(rest, (size_t)(m - rest));
    sscanf(m, " measured %lf", &c->measured);
    c->tolerance = xstrdup("info");
    const char *w = strstr(m, "(info rule (");
    const char *end = w ? strrchr(w, ')') : NULL;
    if (w && end && end > w + 12 && end[-1] == ')')
        c->where = dup_n(w + 12, (size_t)(end - 1 - w - 12));
}

int tap_parse(struct runfile *r, const char *text, const char *path)
{
    int lineno = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *l = dup_n(p, len);
        lineno++;
        int no = 0, used = 0;
        bool good = true;
        if (!nl)
            r->tap_truncated = true;
        if (sscanf(l, "ok %d - %n", &no, &used) == 1 && used)
            point(r, true, no, l + used, lineno);
        else if (sscanf(l, "not ok %d - %n", &no, &used) == 1 && used)
            point(r, false, no, l + used, lineno);
        else if (!strncmp(l, "# info ", 7))
            info(r, l + 7, lineno);
        else if (l[0] == '#' || l[0] == '\0' || (sscanf(l, "1..%d%n", &no, &used) == 1 && !l[used]) ||
                 !strncmp(l, "Bail out!", 9))   /* a run stopped by a signal; its manifest says interrupted */
            ;
        else
            good = !nl;   /* a cut last line: the run was interrupted there */
        free(l);
        if (!good) {
            pm_error("%s:%d: corrupt run folder: not a TAP line (ok / not ok / # comment / plan); re-run "
                     "the command that made it, or remove the line", path, lineno);
            return -1;
        }
        p = nl ? nl + 1 : p + len;
    }
    return 0;
}
