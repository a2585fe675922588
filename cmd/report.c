/* pmucal report RUN... : one self-contained HTML page of run folders, or of a comparison. */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/team.h"
#include "penalties/ceilings.h"
#include "report/report.h"
#include "runs/rundir.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int report_main(int argc, char **argv);

enum { K_OUT = 'o', K_COMPARE = CLI_LONG, K_ALLOW_INCOMPLETE };

static const struct cli_option report_options[] = {
    {"out", K_OUT, "FILE",
     "the page (default RUN/report.html for one run, NEW/compare.html with\n"
     "--compare; several runs need --out)"},
    {"compare", K_COMPARE, NULL, "two runs, BASE then NEW: the page starts with their comparison"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL,
     "render a run whose manifest does not say complete (interrupted, failed,\n"
     "running, no status); its status shows on the page"},
    CLI_END,
};

const struct command report_command = {
    .name = "report",
    .fn = report_main,
    .summary = "one self-contained HTML page of run folders or of a comparison: matrix, plots, tables",
    .synopsis = "RUN... [--out FILE] | --compare BASE NEW [--out FILE]",
    .usage = "Writes one HTML file that works offline (inline CSS, JS and SVG; nothing is fetched) with,\n"
             "for each RUN (a results folder of validate, calibrate or c2c):\n"
             "  host and versions, and hwloc's cache sizes beside the boundaries the latency curve measured;\n"
             "  the verdict matrix of validate.tap: events x cases coloured ok / not ok / skip / todo / info,\n"
             "    each cell measured against expected, the row its rule (expression, tolerance, file:line);\n"
             "    rows sort by any column and filter by status and a search box; click a cell for its verdict;\n"
             "    a link can carry the filter and order: report.html#q=TEXT&status=nok&sort=1&desc=1\n"
             "    (sort: a header's position, 0 the event column, 1 the not-ok count);\n"
             "  the per-event summary and the classifier's reading (classify.json);\n"
             "  the latency curve (curve.csv) with measured level boundaries and hwloc's sizes;\n"
             "  the penalties (penalties.json): intervals, status, reference figures, a bar chart;\n"
             "  the core-to-core heatmap (c2c.csv).\n"
             "A section whose data the run lacks says so in one line. With --compare, the page starts with\n"
             "BASE against NEW: host and version differences, then, for validate runs, every (case, event)\n"
             "as 'pmucal compare' judges it (noise test, verdict, encoding, support), regressions on top;\n"
             "runs without measurements get a side-by-side of their validate.tap verdicts; penalty deltas.\n"
             "Both runs follow in full. Prints the path of the page written.\n"
             "A run whose manifest does not say complete is refused unless --allow-incomplete: its page\n"
             "would look like a whole run.\n"
             "Exit status: 0; 2 on bad input (a folder that is not a run, an incomplete run, or a corrupt\n"
             "file in it: the message names it) or when the page cannot be written.\n",
    .options = report_options,
    .examples = "  pmucal report results/2026-11-23-vm-validate\n"
                "  pmucal report results/*-validate results/*-calibrate --out run.html\n"
                "  pmucal report --compare results/old-validate results/new-validate\n",
};

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
    FILE *f = run_out_path(&o, out);
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
        sec_verdict(f, runs, n);
    for (int i = 0; i < n; i++)
        run_sections(f, &runs[i], i, compare ? (i ? "NEW: " : "BASE: ") : "");
    page_end(f);
    free(title);
    return run_out_commit(&o) ? 2 : 0;
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

struct report_args {
    const char *out;
    bool compare, allow_incomplete;
};

static int report_option(void *ctx, int key, const char *v)
{
    struct report_args *a = ctx;
    if (key == K_OUT)
        a->out = v;
    else if (key == K_COMPARE)
        a->compare = true;
    else if (key == K_ALLOW_INCOMPLETE)
        a->allow_incomplete = true;
    return 0;
}

static int report_main(int argc, char **argv)
{
    struct report_args a = {0};
    struct cli_args pos;
    if (cli_parse(&report_command, argc, argv, report_option, &a, &pos))
        return 2;
    int n = pos.n, rc = 0;
    if (n < 1)
        rc = cli_usage_error(&report_command, "name a run folder (results/<date>-<host>-<label>)");
    else if (a.compare && n != 2)
        rc = cli_usage_error(&report_command, "--compare takes two run folders, BASE then NEW (got %d)", n);
    else if (!a.out && n > 1 && !a.compare)
        rc = cli_usage_error(&report_command, "several runs make one page: name it with --out FILE");
    if (!rc) {
        /* The default page goes into the (last) run folder, named without its trailing slashes. */
        char *dir = xstrdup(pos.v[n - 1]);
        for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
            dir[l - 1] = '\0';
        char *path = a.out ? xstrdup(a.out) : xasprintf("%s/%s", dir, a.compare ? "compare.html" : "report.html");
        rc = report_write(path, (const char *const *)pos.v, n, a.compare, NULL, a.allow_incomplete);
        if (!rc)
            printf("%s\n", path);
        free(path);
        free(dir);
    }
    cli_args_free(&pos);
    return rc;
}
