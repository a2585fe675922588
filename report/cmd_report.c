/* pmucal report RUN... : one self-contained HTML page of run folders, or of a comparison. */
#include "cli.h"
#include "report.h"
#include "results.h"
#include "util.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int report_main(int argc, char **argv);

static const struct command report_command = {
    .name = "report",
    .fn = report_main,
    .summary = "one self-contained HTML page of run folders or of a comparison: matrix, plots, tables",
    .usage = "pmucal report RUN... [--out FILE]\n"
             "pmucal report --compare BASE NEW [--out FILE]\n\n"
             "Writes one HTML file that works offline (inline CSS, JS and SVG; nothing is fetched) with,\n"
             "for each RUN (a results folder of validate, calibrate or c2c):\n"
             "  host and versions, and hwloc's cache sizes beside the boundaries the latency curve measured;\n"
             "  the verdict matrix of validate.tap: events x cases coloured ok / not ok / skip / todo / info,\n"
             "    each cell measured against expected, the row its rule (expression, tolerance, file:line);\n"
             "    rows sort by any column and filter by status and a search box; click a cell for its verdict;\n"
             "  the per-event summary and the classifier's reading (classify.json);\n"
             "  the latency curve (curve.csv) with measured level boundaries and hwloc's sizes;\n"
             "  the penalties (penalties.json): intervals, status, reference figures, a bar chart;\n"
             "  the core-to-core heatmap (c2c.csv).\n"
             "A section whose data the run lacks says so in one line. With --compare, the page starts with\n"
             "BASE against NEW: host and version differences, verdict changes with regressions on top, the\n"
             "change of each measured median, and penalty deltas; both runs follow in full.\n"
             "Prints the path of the page written. Exit status 0; 2 on bad input (a folder that is not a\n"
             "run, or a corrupt file in it: the message names it) or when the page cannot be written.\n\n"
             "Options:\n"
             "  -o, --out FILE   the page (default RUN/report.html for one run, NEW/compare.html with\n"
             "                   --compare; several runs need --out)\n"
             "  --compare        two runs: BASE then NEW\n\n"
             "Examples:\n"
             "  pmucal report results/2026-11-23-vm-validate\n"
             "  pmucal report results/*-validate results/*-calibrate --out run.html\n"
             "  pmucal report --compare results/old-validate results/new-validate\n",
};
PMUCAL_COMMAND(report_command)

static void run_sections(FILE *f, const struct run *r, int idx, const char *role)
{
    const char *base = strrchr(r->path, '/');
    html_printf(f, "<div class=\"run\" id=\"run-%d\"><h2 class=\"runhead\">%s", idx, role);
    html_text(f, base ? base + 1 : r->path);
    fputs("</h2>\n", f);
    sec_host(f, r, idx);
    sec_matrix(f, r, idx);
    sec_summary(f, r, idx);
    sec_curve(f, r, idx);
    sec_penalties(f, r, idx);
    sec_c2c(f, r, idx);
    fputs("</div>\n", f);
}

static void nav(FILE *f, const struct run *runs, int n, bool compare)
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

static int write_page(const char *out, const struct run *runs, int n, bool compare)
{
    char *tmp = xasprintf("%s.tmp", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        pm_error("cannot write the report %s: %s; name a writable path with --out", tmp, strerror(errno));
        free(tmp);
        return 2;
    }
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
        sec_compare(f, &runs[0], &runs[1]);
    for (int i = 0; i < n; i++)
        run_sections(f, &runs[i], i, compare ? (i ? "NEW: " : "BASE: ") : "");
    page_end(f);
    free(title);
    bool bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, out)) {
        pm_error("cannot write the report %s: %s; name a writable path with --out", out, strerror(errno));
        unlink(tmp);
        free(tmp);
        return 2;
    }
    free(tmp);
    return 0;
}

static int report_main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"compare", no_argument, NULL, 'c'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    bool compare = false;
    int opt;
    optind = 1;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case 'c': compare = true; break;
        default:
            return cli_usage_error(&report_command, "%s: an unknown option, or --out without the page to write",
                                   argv[optind - 1]);
        }
    }
    int n = argc - optind;
    if (n < 1)
        return cli_usage_error(&report_command, "name a run folder (results/<date>-<host>-<label>)");
    if (compare && n != 2)
        return cli_usage_error(&report_command, "--compare takes two run folders, BASE then NEW (got %d)", n);
    if (!out && n > 1 && !compare)
        return cli_usage_error(&report_command, "several runs make one page: name it with --out FILE");
    struct run *runs = xcalloc((size_t)n, sizeof(*runs));
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        if (run_load(&runs[i], argv[optind + i]))
            rc = 2;
    char *path = NULL;
    if (!rc) {
        path = out ? xstrdup(out) : xasprintf("%s/%s", runs[n - 1].path, compare ? "compare.html" : "report.html");
        rc = write_page(path, runs, n, compare);
    }
    if (!rc)
        printf("%s\n", path);
    free(path);
    for (int i = 0; i < n; i++)
        run_free(&runs[i]);
    free(runs);
    return rc;
}
