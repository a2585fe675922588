/* pmucal compare BASE NEW: has anything changed between two runs (a kernel, perf or libpfm4
 * upgrade, another build) beyond the runs' own noise? */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "report/report.h"
#include "validate/run_diff.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_main(int argc, char **argv);

enum { K_JSON = CLI_LONG, K_THRESHOLD, K_ALPHA, K_INCOMPLETE, K_HTML };

static const struct cli_option compare_options[] = {
    {"json", K_JSON, NULL, "one JSON document on stdout instead of TAP"},
    {"threshold", K_THRESHOLD, "PCT", "relative change of a median below which a count is the same (default 2)"},
    {"alpha", K_ALPHA, "P", "significance of the Mann-Whitney test over the repetitions (default 0.01)"},
    {"html", K_HTML, CLI_OUT_FILE, "also write the comparison as one offline HTML page (as 'pmucal report --compare')"},
    {"allow-incomplete", K_INCOMPLETE, NULL,
     "compare a run that did not complete (interrupted, failed, still\n"
     "running); its absent cases are SKIP and the header says so"},
    CLI_END,
};

const struct command compare_command = {
    .name = "compare",
    .fn = compare_main,
    .summary = "compare two runs: count, verdict, encoding and support changes per (case, event), TAP or JSON",
    .synopsis = "BASE NEW [options]",
    .usage = "BASE and NEW are run folders of 'pmucal validate' (or both of 'pmucal sample': see\n"
             "below). The header lists the host facts and\n"
             "versions (Linux kernel, perf, libpfm4, hwloc, pmucal commit, source, settings) that differ.\n"
             "Then, where both manifests describe the Linux kernel (scripts/kernel-check.sh),\n"
             "one TAP point per change of the Linux kernel's core PMU description: the driver, the counters it\n"
             "announced, each sysfs events/, format/ and caps/ file, cpus and perf_user_access; 'not ok'\n"
             "when something was removed or changed, 'ok' when added (the perf type, dynamic on arm64, is\n"
             "only said). Then one TAP point per (case, event) of either run. A point is 'not ok' when NEW's\n"
             "per-iteration median moved beyond the runs' own noise (a two-sided Mann-Whitney test\n"
             "over the repetitions, p < --alpha; with fewer than 5 repetitions a side, ranges that do\n"
             "not overlap) AND by more than --threshold percent of BASE and the source's per-iteration\n"
             "floor (its exact floor and slack per measurement: exact sources such as sim); when its verdict\n"
             "worsened (ok -> todo or not ok); when the zero-iteration loop counts another fixed\n"
             "amount per measurement (beyond 64 + the source's slack per measurement and --threshold); when\n"
             "its encoding changed (same name, other perf_event_attr: a libpfm4 upgrade); when it\n"
             "became unsupported; when BASE measured it and NEW, the same command line run to completion,\n"
             "did not (no longer measured). Improvements are said\n"
             "on ok lines, and so is a count change of an event whose rule is 'info' (task-clock,\n"
             "cycles: time, not a count to hold). A (case, event) in one run only is a SKIP. A\n"
             "per-event summary follows.\n"
             "A run whose manifest does not say complete is refused unless --allow-incomplete.\n"
             "Two runs of 'pmucal sample': one point per (case, event, precise level), not ok when the\n"
             "samples per due sample moved beyond binomial noise (3 sigma, and one sample) and\n"
             "--threshold, samples are newly lost or throttled, the skid distribution differs\n"
             "(chi-square, p < --alpha), the loop's map changed, or a causing instruction BASE\n"
             "sampled gets none (5 or more due), or BASE sampled it and NEW, the same command line run to\n"
             "completion, did not (no longer sampled).\n"
             "Exit status: 0 when nothing regressed, 1 on a regression, 2 on bad input.\n"
             "--json: {base, new, facts: [{fact, base, new}] (those that differ), incomplete,\n"
             "kernel_pmu: {base_described, new_described, regressions, changes: [{what, name, change\n"
             "(added|removed|changed), base, new, regression}]}, threshold_percent, alpha, points: [{case, event, result (same|changed|improved|only_base|\n"
             "only_new), regression, flags [count|verdict|encoding|support|improved|info|intercept],\n"
             "why, delta,\n"
             "relative, p, threshold, base: {median, mad, n, verdict, unsupported}, new: {...}}],\n"
             "events: [{event, cases, regressions, improvements, where}], summary: {points,\n"
             "regressions, improvements, only_base, only_new}}.\n",
    .options = compare_options,
    .examples = "  pmucal compare results/2026-11-20-host-validate results/2026-11-23-host-validate\n"
                "  pmucal compare --json BASE NEW | jq '.points[] | select(.regression)'\n",
};

struct compare_args {
    bool json, allow_incomplete;
    const char *html;
    struct cmp_opts o;
};

static int compare_option(void *ctx, int key, const char *v)
{
    struct compare_args *a = ctx;
    double x;
    switch (key) {
    case K_JSON: a->json = true; break;
    case K_INCOMPLETE: a->allow_incomplete = true; break;
    case K_HTML: a->html = v; break;
    case K_THRESHOLD:
        if (cli_real(&compare_command, "--threshold", v, 0, 1000, &x))
            return 2;
        a->o.threshold = x / 100;
        break;
    case K_ALPHA:
        if (cli_real(&compare_command, "--alpha", v, 1e-9, 1, &a->o.alpha))
            return 2;
        break;
    }
    return 0;
}

static int compare_main(int argc, char **argv)
{
    struct compare_args a = {.o = {.threshold = 0.02, .alpha = 0.01}};
    struct cli_args pos;
    if (cli_parse(&compare_command, argc, argv, compare_option, &a, &pos))
        return 2;
    if (pos.n != 2) {
        int rc = cli_usage_error(&compare_command, "give two run folders, BASE and NEW (got %d)", pos.n);
        cli_args_free(&pos);
        return rc;
    }
    int sampled = compare_sampling(pos.v, &a.o, a.allow_incomplete, a.json || a.html);
    if (sampled >= 0) {
        cli_args_free(&pos);
        return sampled;
    }
    struct runfile run[2];
    const struct runfile *r[2] = {&run[0], &run[1]};
    int loaded = 0, status = 2;
    for (; loaded < 2; loaded++)
        if (runfile_load(&run[loaded], pos.v[loaded])) {
            runfile_free(&run[loaded]);
            goto out;
        }
    if (compare_same_kind(&run[0], &run[1]))
        goto out;
    char why[2][256];
    const char *incomplete_why[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++)
        if (!runfile_complete(&run[s], why[s], sizeof(why[s]))) {
            incomplete_why[s] = why[s];
            if (!a.allow_incomplete) {
                pm_error("%s %s: %s; compare refuses an incomplete run (its absent cases would look like "
                         "changes); give --allow-incomplete to compare what it holds", compare_side_name[s], run[s].path,
                         why[s]);
                goto out;
            }
        }
    struct cmp_result c;
    struct cmp_kernel k;
    compare_runs(&run[0], &run[1], &a.o, &c);
    compare_kernel(run[0].manifest, run[1].manifest, &k);
    if (compare_has_points(&run[0], &run[1], &c, &k)) {
        compare_free(&c);
        compare_kernel_free(&k);
        goto out;
    }
    if (a.json)
        compare_write_json(r, &a.o, &c, &k, incomplete_why[0] || incomplete_why[1]);
    else
        compare_write_tap(r, &c, &k, incomplete_why);
    status = c.regressions || k.regressions ? 1 : 0;
    compare_free(&c);
    compare_kernel_free(&k);
    if (a.html && report_write(a.html, (const char *const *)pos.v, 2, true, &a.o, a.allow_incomplete))
        status = 2;
out:
    for (int s = 0; s < loaded; s++)
        runfile_free(&run[s]);
    cli_args_free(&pos);
    return status;
}
