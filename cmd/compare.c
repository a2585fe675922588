/* pmucal compare BASE NEW: has anything changed between two runs (a kernel, perf or libpfm4
 * upgrade, another build) beyond the runs' own noise? */
#include "base/json.h"
#include "base/tap.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "report/report.h"
#include "validate/run_diff.h"
#include "validate/sample_compare.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_main(int argc, char **argv);

enum { K_JSON = CLI_LONG, K_THRESHOLD, K_ALPHA, K_INCOMPLETE, K_HTML };

static const struct cli_option compare_options[] = {
    {"json", K_JSON, NULL, "one JSON document on stdout instead of TAP"},
    {"threshold", K_THRESHOLD, "PCT", "relative change of a median below which a count is the same (default 2)"},
    {"alpha", K_ALPHA, "P", "significance of the Mann-Whitney test over the repetitions (default 0.01)"},
    {"html", K_HTML, "FILE", "also write the comparison as one offline HTML page (as 'pmucal report --compare')"},
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
             "versions (kernel, perf, libpfm4, hwloc, pmucal commit, source, settings) that differ.\n"
             "Then, where both manifests describe the kernel (scripts/kernel-check.sh),\n"
             "one TAP point per change of the kernel's core PMU description: the driver, the counters it\n"
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

static int number_option(const char *opt, const char *v, double lo, double hi, double *out)
{
    char *end;
    *out = strtod(v, &end);
    if (*end || end == v || !(*out >= lo && *out <= hi))
        return cli_usage_error(&compare_command, "%s %s: give a number from %g to %g", opt, v, lo, hi);
    return 0;
}

static int compare_option(void *ctx, int key, const char *v)
{
    struct compare_args *a = ctx;
    double x;
    switch (key) {
    case K_JSON: a->json = true; break;
    case K_INCOMPLETE: a->allow_incomplete = true; break;
    case K_HTML: a->html = v; break;
    case K_THRESHOLD:
        if (number_option("--threshold", v, 0, 1000, &x))
            return 2;
        a->o.threshold = x / 100;
        break;
    case K_ALPHA:
        if (number_option("--alpha", v, 1e-9, 1, &a->o.alpha))
            return 2;
        break;
    }
    return 0;
}

static const char *const side_name[2] = {"BASE", "NEW"};

static const char *result_of(const struct cmp_point *p)
{
    return !p->side[0].ev ? "only_new" : !p->side[1].ev ? "only_base" : p->regression ? "changed"
         : p->flags & CMP_IMPROVED ? "improved" : "same";
}

static void side_json(struct json *j, const char *key, const struct cmp_side *s)
{
    json_object_begin(j, key);
    if (s->ev) {
        json_number(j, "median", s->median);
        json_number(j, "mad", s->mad);
        json_int(j, "n", s->n);
        json_string(j, "verdict", s->judged ? verdict_name(s->verdict) : NULL);
        json_string(j, "unsupported", s->unsupported);
    }
    json_object_end(j);
}

static void print_json(const struct runfile *r[2], const struct compare_args *a, const struct cmp_result *c,
                       const struct cmp_kernel *k, bool incomplete)
{
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    for (int s = 0; s < 2; s++) {
        json_object_begin(&j, s ? "new" : "base");
        json_string(&j, "path", r[s]->path);
        json_string(&j, "status", r[s]->status);
        json_string(&j, "source", jget_str(r[s]->manifest, "source", NULL));
        json_string(&j, "started", jget_str(r[s]->manifest, "started", jget_str(r[s]->manifest, "date", NULL)));
        json_string(&j, "hostname", jget_str(r[s]->manifest, "hostname", NULL));
        json_object_end(&j);
    }
    json_array_begin(&j, "facts");
    for (const char *const *f = compare_facts; *f; f++) {
        char b0[256], b1[256];
        const char *v0 = runfile_fact(r[0], *f, b0, sizeof(b0)), *v1 = runfile_fact(r[1], *f, b1, sizeof(b1));
        if ((v0 || v1) && (!v0 || !v1 || strcmp(v0, v1))) {
            json_object_begin(&j, NULL);
            json_string(&j, "fact", *f);
            json_string(&j, "base", v0);
            json_string(&j, "new", v1);
            json_object_end(&j);
        }
    }
    json_array_end(&j);
    json_bool(&j, "incomplete", incomplete);
    json_object_begin(&j, "kernel_pmu");
    json_bool(&j, "base_described", k->described[0]);
    json_bool(&j, "new_described", k->described[1]);
    json_int(&j, "regressions", k->regressions);
    json_array_begin(&j, "changes");
    for (int i = 0; i < k->n; i++) {   /* by index: k->ch is NULL with no change (no arithmetic on it) */
        const struct cmp_kchange *ch = &k->ch[i];
        json_object_begin(&j, NULL);
        json_string(&j, "what", ch->what);
        json_string(&j, "name", ch->name);
        json_string(&j, "change", ch->change);
        json_string(&j, "base", ch->base[0] || strcmp(ch->change, "added") ? ch->base : NULL);
        json_string(&j, "new", ch->new_[0] || strcmp(ch->change, "removed") ? ch->new_ : NULL);
        json_bool(&j, "regression", ch->regression);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_number(&j, "threshold_percent", 100 * a->o.threshold);
    json_number(&j, "alpha", a->o.alpha);
    json_array_begin(&j, "points");
    for (int i = 0; i < c->n; i++) {
        const struct cmp_point *p = &c->pt[i];
        json_object_begin(&j, NULL);
        json_string(&j, "case", p->label);
        json_string(&j, "event", p->event);
        json_string(&j, "result", result_of(p));
        json_bool(&j, "regression", p->regression);
        json_array_begin(&j, "flags");
        for (int f = 0; f < CMP_NFLAGS; f++)
            if (p->flags & (1u << f))
                json_string(&j, NULL, compare_flag_name[f]);
        json_array_end(&j);
        json_string(&j, "why", p->why[0] ? p->why : NULL);
        json_number(&j, "delta", p->delta);
        json_number(&j, "relative", p->relative);
        json_number(&j, "p", p->p);
        json_number(&j, "threshold", p->threshold);
        side_json(&j, "base", &p->side[0]);
        side_json(&j, "new", &p->side[1]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_array_begin(&j, "events");
    for (int i = 0; i < c->nev; i++) {
        const struct cmp_event *e = &c->ev[i];
        json_object_begin(&j, NULL);
        json_string(&j, "event", e->event);
        json_int(&j, "cases", e->cases);
        json_int(&j, "regressions", e->regressions);
        json_int(&j, "improvements", e->improvements);
        json_array_begin(&j, "where");
        for (const struct cmp_point *p = c->pt; p < c->pt + c->n; p++)
            if (p->regression && !strcmp(p->event, e->event))
                json_string(&j, NULL, p->label);
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_begin(&j, "summary");
    json_int(&j, "points", c->n);
    json_int(&j, "regressions", c->regressions + k->regressions);
    json_int(&j, "improvements", c->improvements);
    json_int(&j, "only_base", c->only[0]);
    json_int(&j, "only_new", c->only[1]);
    json_object_end(&j);
    json_object_end(&j);
    json_write_line(&j, stdout);
    json_free(&j);
}

/* The kernel's PMU description first: a driver, event or format bit gone is named before any count. */
static void print_kernel_tap(struct tap *t, const struct cmp_kernel *k)
{
    if (!k->described[0] || !k->described[1]) {
        if (k->described[0] || k->described[1])
            tap_point(t, VERDICT_SKIP, "kernel PMU :: description", k->described[0] ? "described in BASE only (NEW's pmucal is older)"
                                                                               : "described in NEW only (BASE's pmucal is older)");
        return;
    }
    if (!k->n)
        tap_comment(t, "kernel PMU: the same description (driver, counters, events, format, caps, perf_user_access)");
    for (int i = 0; i < k->n; i++) {   /* by index: k->ch is NULL with no change (no arithmetic on it) */
        const struct cmp_kchange *ch = &k->ch[i];
        char desc[640];
        if (!strcmp(ch->change, "added"))
            snprintf(desc, sizeof(desc), "kernel PMU :: %s %s added: %s", ch->what, ch->name, ch->new_);
        else if (!strcmp(ch->change, "removed"))
            snprintf(desc, sizeof(desc), "kernel PMU :: %s %s removed (was %s)", ch->what, ch->name, ch->base);
        else
            snprintf(desc, sizeof(desc), "kernel PMU :: %s %s changed: %s -> %s", ch->what, ch->name, ch->base, ch->new_);
        tap_point(t, ch->regression ? VERDICT_NOT_OK : VERDICT_OK, desc, NULL);
    }
}

static void print_tap(const struct runfile *r[2], const struct cmp_result *c, const struct cmp_kernel *k,
                      const char *incomplete_why[2])
{
    struct tap t = {.out = stdout};
    for (int s = 0; s < 2; s++)
        tap_comment(&t, "%-4s %s (%s, source %s, started %s)", side_name[s], r[s]->path, r[s]->status,
                    jget_str(r[s]->manifest, "source", "?"),
                    jget_str(r[s]->manifest, "started", jget_str(r[s]->manifest, "date", "?")));
    int differ = 0;
    for (const char *const *f = compare_facts; *f; f++) {
        char b0[256], b1[256];
        const char *v0 = runfile_fact(r[0], *f, b0, sizeof(b0)), *v1 = runfile_fact(r[1], *f, b1, sizeof(b1));
        if ((v0 || v1) && (!v0 || !v1 || strcmp(v0, v1)))
            differ++, tap_comment(&t, "changed: %s: %s -> %s", *f, v0 ? v0 : "(none)", v1 ? v1 : "(none)");
    }
    if (!differ)
        tap_comment(&t, "same host, versions, source and settings");
    for (int s = 0; s < 2; s++)
        if (incomplete_why[s])
            tap_comment(&t, "WARNING: %s is incomplete (%s): what it lacks is SKIP, not a change", side_name[s],
                        incomplete_why[s]);
    print_kernel_tap(&t, k);
    for (int i = 0; i < c->n; i++) {
        const struct cmp_point *p = &c->pt[i];
        char desc[1024];
        if ((!p->side[0].ev || !p->side[1].ev) && !p->regression) {
            snprintf(desc, sizeof(desc), "%s :: %s", p->label, p->event);
            tap_point(&t, VERDICT_SKIP, desc, p->side[0].ev ? "measured in BASE only" : "measured in NEW only");
        } else if (p->why[0]) {
            snprintf(desc, sizeof(desc), "%s :: %s %s", p->label, p->event, p->why);
            tap_point(&t, p->regression ? VERDICT_NOT_OK : VERDICT_OK, desc, NULL);
        } else {
            snprintf(desc, sizeof(desc), "%s :: %s same: %.4f -> %.4f per iteration (p=%.2g)", p->label, p->event,
                     p->side[0].median, p->side[1].median, p->p);
            tap_point(&t, VERDICT_OK, desc, NULL);
        }
    }
    tap_comment(&t, "per-event summary:");
    for (int i = 0; i < c->nev; i++) {
        const struct cmp_event *e = &c->ev[i];
        if (e->regressions)
            tap_comment(&t, "  %-40s CHANGED in %d of %d cases: %s", e->event, e->regressions, e->cases, e->where);
        else if (e->improvements)
            tap_comment(&t, "  %-40s improved in %d of %d cases", e->event, e->improvements, e->cases);
        else
            tap_comment(&t, "  %-40s same in all %d cases", e->event, e->cases);
    }
    tap_plan(&t);
    tap_comment(&t, "summary: %d points, %d regressions, %d improvements, %d in BASE only, %d in NEW only; "
                "kernel PMU: %d changes, %d regressions", c->n, c->regressions, c->improvements, c->only[0], c->only[1],
                k->n, k->regressions);
}

/* Two runs of pmucal sample have their own comparison (validate/sample_compare.h): the exit
 * status, or -1 when they are not both sampling runs (the rest of compare then takes them, or
 * refuses them naming what they are). */
static int compare_sampling(char **paths, const struct compare_args *a)
{
    struct jvalue *m[2] = {NULL, NULL}, **recs[2] = {NULL, NULL};
    int n[2] = {0, 0}, status = -1;
    for (int s = 0; s < 2; s++) {
        char err[512];
        m[s] = manifest_read(paths[s], err, sizeof(err));
        const char *cmd = m[s] ? runfile_command(m[s]) : NULL;
        if (!cmd || strcmp(cmd, "sample"))
            goto out;
    }
    status = 2;
    if (a->json || a->html) {
        pm_error("compare --json and --html do not take runs of 'pmucal sample' yet: give neither");
        goto out;
    }
    for (int s = 0; s < 2; s++) {
        char why[256];
        if (!a->allow_incomplete && !manifest_complete(m[s], why, sizeof(why))) {
            pm_error("%s %s: %s; compare refuses an incomplete run; give --allow-incomplete to compare what it holds",
                     side_name[s], paths[s], why);
            goto out;
        }
        if (sample_records_read(paths[s], &recs[s], &n[s]))
            goto out;
    }
    struct tap t = {.out = stdout};
    for (int s = 0; s < 2; s++)
        tap_comment(&t, "%-4s %s (pmucal sample, started %s)", side_name[s], paths[s], jget_str(m[s], "started", "?"));
    int regressions = sample_compare(&t, recs[0], n[0], recs[1], n[1], a->o.alpha, a->o.threshold,
                                     compare_same_command(m[0], m[1]));
    if (regressions >= 0) {
        tap_plan(&t);
        tap_comment(&t, "summary: %d points, %d regressions", t.n, regressions);
        status = regressions ? 1 : 0;
    }
out:
    for (int s = 0; s < 2; s++) {
        measurements_free(recs[s], n[s]);
        jread_free(m[s]);
    }
    return status;
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
    int sampled = compare_sampling(pos.v, &a);
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
                         "changes); give --allow-incomplete to compare what it holds", side_name[s], run[s].path,
                         why[s]);
                goto out;
            }
        }
    struct cmp_result c;
    struct cmp_kernel k;
    compare_runs(&run[0], &run[1], &a.o, &c);
    compare_kernel(run[0].manifest, run[1].manifest, &k);
    if (a.json)
        print_json(r, &a, &c, &k, incomplete_why[0] || incomplete_why[1]);
    else
        print_tap(r, &c, &k, incomplete_why);
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
