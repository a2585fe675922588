/* The report's one offline HTML page (report/report.h report_write): the run folders read and
 * checked, the navigation, the verdict or comparison at the top, then each run's sections. */
#include "base/util.h"
#include "core/team.h"
#include "penalties/ceilings.h"
#include "report/report.h"
#include "runs/rundir.h"
#include <stdlib.h>
#include <string.h>

static void run_sections(FILE *f, const struct runfile *r, int idx, const char *role)
{
    const char *base = strrchr(r->path, '/');
    html_printf(f, "<div class=\"run\" id=\"run-%d\"><h2 class=\"runhead\">%s", idx, role);
    html_text(f, base ? base + 1 : r->path);
    fputs("</h2>\n", f);
    /* A calibration's penalties are what it is read for: first, before the host. */
    if (r->penalties)
        sec_penalties(f, r, idx);
    sec_host(f, r, idx);
    sec_matrix(f, r, idx);
    sec_summary(f, r, idx);
    sec_curve(f, r, idx);
    if (!r->penalties)
        sec_penalties(f, r, idx);
    sec_c2c(f, r, idx);
    sec_sample(f, r, idx);
    if (r->roofline)   /* only 'pmucal roofline' folders have one: no line saying it is absent */
        sec_roofline(f, r, idx);
    fputs("</div>\n", f);
}

static void nav(FILE *f, const struct runfile *runs, int n, bool compare)
{
    static const char *const ids[] = {"host", "matrix", "summary", "curve", "penalties", "c2c"};
    static const char *const names[] = {"host", "matrix", "summary", "curve", "penalties", "c2c"};
    fputs("<nav>", f);
    if (compare)
        fputs("<a href=\"#compare-0\"><b>comparison</b></a>", f);
    for (int i = 0; i < n; i++) {
        const char *b = strrchr(runs[i].path, '/');
        html_printf(f, "%s<b>", i || compare ? "<br>" : "");
        html_text(f, b ? b + 1 : runs[i].path);
        fputs(":</b> ", f);
        for (size_t k = 0; k < ARRAY_SIZE(ids); k++)
            html_printf(f, "<a href=\"#%s-%d\">%s</a>", ids[k], i, names[k]);
    }
    fputs("</nav>\n", f);
}

static int write_page(const char *out, const struct runfile *runs, int n, bool compare, const struct compare_view *v)
{
    struct run_out o;
    FILE *f = run_out_user(&o, out);   /* /dev/null or a FIFO written in place, never replaced */
    if (!f)
        return 2;
    char *title = xstrdup(compare ? "pmucal comparison" : "pmucal report");
    for (int i = 0; i < n; i++) {
        const char *b = strrchr(runs[i].path, '/');
        char *t = xasprintf("%s%s%s", title, i ? (compare ? " vs " : ", ") : ": ", b ? b + 1 : runs[i].path);
        free(title);
        title = t;
    }
    page_begin(f, title);
    fputs("<h1>", f);
    html_text(f, title);
    fputs("</h1>\n", f);
    char date[32];
    html_printf(f, "<p class=\"sub\">Written %s from %d run folder%s.</p>\n", iso_now(date), n, n > 1 ? "s" : "");
    nav(f, runs, n, compare);
    if (compare)
        sec_compare(f, &runs[0], &runs[1], v);
    else
        sec_conclusion(f, runs, n);
    for (int i = 0; i < n; i++)
        run_sections(f, &runs[i], i, compare ? (i ? "NEW: " : "BASE: ") : "");
    page_end(f);
    free(title);
    return run_out_end(&o, 0) ? 2 : 0;
}

/* A folder's roofline.json is drawn from its numbers: checked as emit and --ceilings check them
 * (penalties/ceilings.h), and the team's size. -1 after a message naming the file. */
static int roofline_check(const struct runfile *r)
{
    if (!r->roofline)
        return 0;
    char *file = xasprintf("%s/roofline.json", r->path), err[160];
    struct ceiling_row *rows = NULL;
    double team;
    int rc = 0;
    if (!jget_in(r->roofline, "threads", 1, TEAM_MAX, true, 1, &team, err, sizeof(err))) {
        pm_error("%s: %s (the team's size); run 'pmucal roofline' again", file, err);
        rc = -1;
    } else if (ceilings_rows(r->roofline, file, &rows) < 0) {
        rc = -1;
    }
    free(rows);
    free(file);
    return rc;
}

int report_write(const char *out, const char *const *paths, int n, bool compare, const struct cmp_opts *o,
                 bool allow_incomplete)
{
    /* compare's own defaults: a 2% threshold, alpha 0.01. */
    const struct cmp_opts defaults = {.threshold = 0.02, .alpha = 0.01};
    struct runfile *runs = xcalloc((size_t)n, sizeof(*runs));
    struct compare_view v = {0};
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        char why[512];
        if (runfile_load_all(&runs[i], paths[i]) || roofline_check(&runs[i]))
            rc = 2;
        else if (!allow_incomplete && !manifest_complete(runs[i].manifest, why, sizeof(why))) {
            pm_error("%s: %s; give --allow-incomplete to render what it holds", runs[i].path, why);
            rc = 2;
        }
    }
    if (!rc && compare && compare_prepare(&v, &runs[0], &runs[1], o ? o : &defaults))
        rc = 2;
    if (!rc)
        rc = write_page(out, runs, n, compare, &v);
    compare_view_free(&v);
    for (int i = 0; i < n; i++)
        runfile_free(&runs[i]);
    free(runs);
    return rc;
}
