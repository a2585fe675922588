#include "validate/rules.h"
#include "base/jread.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <unistd.h>

/* perf's generic and software events mean the same on every PMU. A context switch or a migration
 * happens in the kernel: these two are counted on its side (events/perfsyntax.c), or not at all
 * (SKIP, where perf_event_paranoid keeps it from the user). Under load they assert that the kept
 * repetitions ran alone on their CPU: the measurement core measures again a repetition another
 * task interrupted (its noise detectors), a few times; a switch left in a kept one means the CPU
 * was held throughout, and the verdict is not ok, the counts beside it not the kernel's alone. */
static const char builtin_rules[] =
    "# event              quantity expression   tolerance\n"
    "instructions         inst                  exact\n"
    "branches             br.all                exact\n"
    "branch-instructions  br.all                exact\n"
    "branch-misses        br.mispred            bound\n"
    "page-faults          pf.minor              exact\n"
    "minor-faults         pf.minor              exact\n"
    "major-faults         0                     exact\n"
    "cpu-migrations       cpu.migration         none\n"
    "context-switches     ctx.switch            none\n"
    "cycles               0                     info\n"
    "task-clock           0                     info\n"
    "cpu-clock            0                     info\n";

static int add_rule(struct ruleset *rs, const char *line, const char *where)
{
    char *copy = xstrdup(line), *words[64];
    int n = 0;
    char *tok = strtok(copy, " \t\r\n");
    for (; tok && n < 64; tok = strtok(NULL, " \t\r\n"))
        words[n++] = tok;
    if (tok) {   /* docs/grammar.md: a rule is at most 64 words; none is dropped in silence */
        pm_error("%s: a rule of more than 64 words; write the expression with fewer spaces", where);
        free(copy);
        return -1;
    }
    if (n < 3) {
        pm_error("%s: a rule needs 'EVENT EXPRESSION TOLERANCE' (tolerance: exact, N%%, +-X, bound, none or info)", where);
        free(copy);
        return -1;
    }
    struct rule r = {0};
    if (!strncmp(words[n - 1], "erratum=", 8)) {
        if (!words[n - 1][8] || n < 4) {
            pm_error("%s: 'erratum=' needs a name (e.g. erratum=SKL057) after 'EVENT EXPRESSION TOLERANCE'", where);
            free(copy);
            return -1;
        }
        r.erratum = xstrdup(words[n - 1] + 8);
        n--;
    }
    const char *tol = words[n - 1];
    char *end;
    if (!strcmp(tol, "exact"))
        r.tol = TOL_EXACT;
    else if (!strcmp(tol, "bound"))
        r.tol = TOL_BOUND;
    else if (!strcmp(tol, "info"))
        r.tol = TOL_INFO;
    else if (!strcmp(tol, "none"))
        r.tol = TOL_NONE;
    else if (isdigit((unsigned char)tol[0]) && (r.percent = strtod(tol, &end), *end == '%') && r.percent > 0 &&
             r.percent < 1000 && (end[1] == '\0' || (!strncmp(end + 1, "+-", 2) && isdigit((unsigned char)end[3]) &&
                                                     (r.absolute = strtod(end + 3, &end), *end == '\0' &&
                                                                                          isfinite(r.absolute)))))
        r.tol = TOL_PERCENT;   /* "5%", or "5%+-0.01": relative plus an absolute floor per iteration */
    else if (!strncmp(tol, ">=", 2) && isdigit((unsigned char)tol[2]) &&
             (r.percent = strtod(tol + 2, &end), *end == '%' && end[1] == '\0') && r.percent >= 0 && r.percent < 100)
        r.tol = TOL_LEAST;   /* ">=10%": at least the model less 10%, anything above (a CPU-wide count) */
    else if (!strncmp(tol, "+-", 2) && (r.absolute = strtod(tol + 2, &end), *end == '\0' && end > tol + 2) &&
             r.absolute >= 0 && isfinite(r.absolute))   /* +-inf would accept any count */
        r.tol = TOL_ABSOLUTE;
    else {
        pm_error("%s: tolerance '%s' is not one of exact, N%% (0 < N < 1000, e.g. 5%%), +-X (e.g. +-0.01 per "
                 "iteration), N%%+-X (both), bound, >=N%% (at least, 0 <= N < 100: a CPU-wide count), none (no more in "
                 "a loop than without iterations: a context switch), info", where,
                 tol);
        free(r.erratum);
        free(copy);
        return -1;
    }
    size_t len = 0;
    for (int i = 1; i < n - 1; i++)
        len += strlen(words[i]) + 1;
    r.expr_text = xcalloc(1, len + 1);
    for (int i = 1; i < n - 1; i++) {
        if (i > 1)
            strcat(r.expr_text, " ");
        strcat(r.expr_text, words[i]);
    }
    char err[256];
    r.expr = expr_parse(r.expr_text, err, sizeof(err));
    if (!r.expr) {
        pm_error("%s: %s", where, err);
        free(r.expr_text);
        free(r.erratum);
        free(copy);
        return -1;
    }
    r.event = xstrdup(words[0]);
    r.where = xstrdup(where);
    free(copy);
    if (rs->n == rs->cap)
        rs->rules = xrealloc(rs->rules, sizeof(*rs->rules) * (rs->cap = rs->cap ? rs->cap * 2 : 32));
    rs->rules[rs->n++] = r;
    return 0;
}

static const char *bare(const char *name)
{
    const char *colons = name ? strstr(name, "::") : NULL;
    return colons ? colons + 2 : name;
}

struct parse_ctx {
    struct ruleset *rs;
    int first;   /* the first rule of this text: a duplicate is looked for from here */
};

static int add_rule_line(char *line, const char *where, void *arg)
{
    struct parse_ctx *ctx = arg;
    if (add_rule(ctx->rs, line, where))
        return -1;
    /* One rule an event in one text (docs/grammar.md): a second would silently replace the first.
     * A later file overriding an earlier one's rule is the stated order, not a duplicate. */
    struct ruleset *rs = ctx->rs;
    const struct rule *r = &rs->rules[rs->n - 1];
    for (int i = ctx->first; i < rs->n - 1; i++)
        if (!strcasecmp(bare(rs->rules[i].event), bare(r->event))) {
            pm_error("%s: a second rule for %s (the first is at %s); keep one", where, r->event, rs->rules[i].where);
            return -1;
        }
    return 0;
}

int ruleset_parse(struct ruleset *rs, const char *text, const char *origin)
{
    struct parse_ctx ctx = {.rs = rs, .first = rs->n};
    return for_each_content_line(text, origin, add_rule_line, &ctx);
}

int ruleset_check_events(const struct ruleset *rs, int from, const struct source *src, const struct event_spec *ev,
                         int nev)
{
    for (int i = from; i < rs->n; i++) {
        const struct rule *r = &rs->rules[i];
        struct event_spec spec = {0};   /* the source names it (it sets spec.name) */
        char err[512] = "";
        int rc = src->resolve(r->event, &spec, err, sizeof(err));
        bool measured = false;
        for (int k = 0; !rc && k < nev && !measured; k++)
            measured = ruleset_find(&(struct ruleset){.rules = (struct rule *)r, .n = 1}, &ev[k]) != NULL;
        if (rc) {
            pm_error("%s: the rule's event %s is unknown to the %s source (%s); fix the name or remove the rule",
                     r->where, r->event, src->name, err);
            event_spec_clear(&spec);
            return -1;
        }
        if (!measured)
            pm_note("%s: the rule for %s applies to no event of this run (-e names the events measured)", r->where,
                    r->event);
        event_spec_clear(&spec);
    }
    return 0;
}

int ruleset_load(struct ruleset *rs, const char *path)
{
    char *text = read_text_file(path, "rule file");
    if (!text)
        return -1;
    int rc = ruleset_parse(rs, text, path);
    free(text);
    return rc;
}

int ruleset_load_named(struct ruleset *rs, const char *name, bool required, char **path_out)
{
    /* A PMU or source name, possibly from a stored run's manifest: one plain file name in the
     * shipped folder, never a path out of it. */
    size_t plain = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
    if (!*name || name[0] == '.' || name[plain]) {
        pm_error("'%.*s%s' is not a PMU or source name (letters, digits, '_', '-', '.'), so it names no shipped "
                 "rule file; give --pmu NAME or --no-auto-expect", (int)(plain < 64 ? plain : 64), name,
                 name[plain] ? "..." : "");
        return -1;
    }
    char *path = xasprintf("%s/%s.txt", expect_dir(), name);
    if (access(path, R_OK)) {
        if (required)
            pm_error("the rule file %s was not found; set PMUCAL_EXPECT_DIR to the folder that holds "
                     "%s.txt (validate/expect in the source tree)", path, name);
        free(path);
        return required ? -1 : 0;
    }
    if (ruleset_load(rs, path)) {
        free(path);
        return -1;
    }
    if (path_out)
        *path_out = path;
    else
        free(path);
    return 1;
}

int ruleset_builtin(struct ruleset *rs)
{
    return ruleset_parse(rs, builtin_rules, "built-in rules (validate/rules.c)");
}

const struct rule *ruleset_find(const struct ruleset *rs, const struct event_spec *ev)
{
    for (int i = rs->n - 1; i >= 0; i--) {  /* later files override earlier ones */
        const char *r = bare(rs->rules[i].event);
        if (!strcasecmp(r, bare(ev->name)) || (ev->canonical && !strcasecmp(r, bare(ev->canonical))))
            return &rs->rules[i];
    }
    return NULL;
}

const char *expect_dir(void)
{
    static char dir[4096];
    /* Beside the binary: bin/pmucal, build/KIND/pmucal or a unit test's build/KIND/tests/NAME in
     * the tree, or PREFIX/bin/pmucal after 'make install'. A folder that is not one was passed
     * over where a rule file is optional: refused. */
    static const char *const beside[] = {"../validate/expect", "../share/pmucal/expect", "../../validate/expect",
                                         "../../../validate/expect"};
    return data_dir("PMUCAL_EXPECT_DIR", "rule files (validate/expect in the source tree)", beside, ARRAY_SIZE(beside),
                    dir, sizeof(dir));
}

char *ruleset_text(const struct ruleset *rs)
{
    size_t cap = 64, len = 0;
    char *out = xmalloc(cap), tol[32];
    out[0] = '\0';
    for (int i = 0; i < rs->n; i++) {
        const struct rule *r = &rs->rules[i];
        tolerance_text(r, tol, sizeof(tol));
        size_t need = len + strlen(r->event) + strlen(r->expr_text) + strlen(tol) + (r->erratum ? strlen(r->erratum) : 0) + 16;
        if (need > cap)
            out = xrealloc(out, cap = 2 * need);
        len += (size_t)snprintf(out + len, cap - len, "%s %s %s%s%s\n", r->event, r->expr_text, tol,
                                r->erratum ? " erratum=" : "", r->erratum ? r->erratum : "");
    }
    return out;
}

void ruleset_free(struct ruleset *rs)
{
    for (int i = 0; i < rs->n; i++) {
        free(rs->rules[i].event);
        free(rs->rules[i].expr_text);
        free(rs->rules[i].where);
        free(rs->rules[i].erratum);
        expr_free(rs->rules[i].expr);
    }
    free(rs->rules);
    memset(rs, 0, sizeof(*rs));
}

const char *tolerance_text(const struct rule *r, char *buf, size_t n)
{
    switch (r->tol) {
    case TOL_EXACT: snprintf(buf, n, "exact"); break;
    case TOL_PERCENT:
        if (r->absolute > 0)
            snprintf(buf, n, "%g%%+-%g", r->percent, r->absolute);
        else
            snprintf(buf, n, "%g%%", r->percent);
        break;
    case TOL_ABSOLUTE: snprintf(buf, n, "+-%g", r->absolute); break;
    case TOL_BOUND: snprintf(buf, n, "bound"); break;
    case TOL_NONE: snprintf(buf, n, "none"); break;
    case TOL_INFO: snprintf(buf, n, "info"); break;
    case TOL_LEAST: snprintf(buf, n, ">=%g%%", r->percent); break;
    }
    return buf;
}

struct event_verdict check_event(const struct rule *r, const struct event_spec *ev, const struct stats *st,
                                 const struct quantities *q, double exact_floor, double loop_slack)
{
    struct event_verdict v = {.kind = VERDICT_SKIP, .measured = NAN, .expected = NAN, .allowed = NAN};
    if (ev->unsupported) {
        snprintf(v.reason, sizeof(v.reason), "%s", ev->unsupported);
        return v;
    }
    if (!r) {
        v.kind = VERDICT_INFO;
        v.measured = st->median;
        snprintf(v.reason, sizeof(v.reason), "no expectation for %s", ev->name);
        return v;
    }
    /* A one-sided bound is about the least the event can count: the minimum estimates it. So is a
     * lower one on a CPU-wide count: the socket's other traffic only adds, least in the least
     * disturbed repetition. */
    tolerance_text(r, v.tolerance, sizeof(v.tolerance));
    v.measured = r->tol == TOL_BOUND || r->tol == TOL_LEAST || r->tol == TOL_NONE ? st->min : st->median;
    if (r->tol == TOL_INFO) {
        v.kind = VERDICT_INFO;
        snprintf(v.reason, sizeof(v.reason), "info rule (%s)", r->where);
        return v;
    }
    v.expected = expr_eval(r->expr, q);
    if (isnan(v.expected)) {
        char why[sizeof(v.reason)];
        snprintf(v.reason, sizeof(v.reason), "the case's model does not state %s%s%s", r->expr_text,
                 q->unstated_why ? ": " : "", quantity_unstated_why(q, r->expr_text, why, sizeof(why)));
        return v;
    }
    if (isnan(v.measured)) {
        snprintf(v.reason, sizeof(v.reason), "no count was read");
        return v;
    }
    double diff = v.measured - v.expected;
    switch (r->tol) {
    case TOL_EXACT:
        v.allowed = exact_floor;
        v.kind = fabs(diff) <= v.allowed ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_PERCENT:
        v.allowed = fabs(v.expected) * r->percent / 100 + r->absolute + exact_floor + loop_slack;
        v.kind = fabs(diff) <= v.allowed ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_ABSOLUTE:
        v.allowed = r->absolute + exact_floor + loop_slack;
        v.kind = fabs(diff) <= v.allowed ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_BOUND:
        v.allowed = exact_floor + loop_slack;
        v.kind = diff <= v.allowed ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_NONE:
        v.allowed = 0;
        v.kind = diff <= 0 ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_LEAST:
        v.allowed = fabs(v.expected) * r->percent / 100 + exact_floor + loop_slack;
        v.kind = diff >= -v.allowed ? VERDICT_OK : VERDICT_NOT_OK;
        break;
    case TOL_INFO:
        break;
    }
    char tol[32];
    int len = snprintf(v.reason, sizeof(v.reason), "%s = %s: measured %.4f expected %.4f (%s, %s)", ev->name,
                       r->expr_text, v.measured, v.expected, tolerance_text(r, tol, sizeof(tol)), r->where);
    if (r->tol == TOL_LEAST && len > 0 && (size_t)len < sizeof(v.reason))
        snprintf(v.reason + len, sizeof(v.reason) - (size_t)len, v.kind == VERDICT_OK
                 ? "; a CPU-wide count, judged at least: %.4f above the model is the socket's other work"
                 : "; a CPU-wide count below the model by %.4f: the socket's other work only adds, so the kernel's "
                   "own were not all counted", fabs(diff));
    if (r->tol == TOL_NONE && v.kind == VERDICT_NOT_OK && len > 0 && (size_t)len < sizeof(v.reason))
        snprintf(v.reason + len, sizeof(v.reason) - (size_t)len, "; %.3g an iteration: every kept repetition counted "
                 "some, after its redos", v.measured);
    return v;
}

bool check_silent_zero(struct event_verdict *v, const struct rule *r, const double (*raw)[2], int reps, uint64_t iters)
{
    if ((v->kind != VERDICT_OK && v->kind != VERDICT_NOT_OK) || !r || reps < 1 || v->expected * (double)iters < 1 ||
        (r->tol != TOL_EXACT && r->tol != TOL_PERCENT && r->tol != TOL_ABSOLUTE))
        return false;
    for (int k = 0; k < reps; k++)
        if (raw[k][0] != 0 || raw[k][1] != 0)
            return false;
    v->kind = VERDICT_NOT_OK;
    size_t len = strlen(v->reason);
    snprintf(v->reason + len, sizeof(v->reason) - len, "; " SILENT_ZERO " (it opened and read 0 in all %d loops, "
             "where the model wants %.0f a loop)", 2 * reps, v->expected * (double)iters);
    return true;
}

void check_raw(struct event_verdict *v, const struct rule *r, const double (*raw)[2], const double *per_iter, int reps,
               uint64_t iters, const struct raw_limits *lim)
{
    double exact_floor = lim->exact_floor, slack_per_loop = lim->slack_per_loop;
    if (v->kind != VERDICT_OK || !r || reps < 1 || (r->tol != TOL_EXACT && r->tol != TOL_PERCENT && r->tol != TOL_ABSOLUTE))
        return;
    char what[192] = "";
    /* Sporadic zeros: a read of 0 where the loop should count hundreds is never noise. */
    double due = v->expected * (double)iters;
    for (int k = 0; k < reps && !what[0]; k++)
        if (due >= 100 && raw[k][0] == 0)
            snprintf(what, sizeof(what), "repetition %d of %d read 0 where the model wants %.0f", k + 1, reps, due);
    /* An exact rule holds in every repetition, not only in their median. */
    for (int k = 0; k < reps && !what[0] && r->tol == TOL_EXACT; k++)
        if (fabs(per_iter[k] - v->expected) > v->allowed)
            snprintf(what, sizeof(what), "repetition %d of %d measured %.4f per iteration", k + 1, reps, per_iter[k]);
    /* The intercept: what the zero-iteration loop counted, against the loop's own cost. */
    if (!what[0]) {
        double zero[MEASURE_MAX_REPS];
        for (int k = 0; k < reps; k++)
            zero[k] = raw[k][1];
        double intercept = stats_median(zero, (size_t)reps);
        double own = slack_per_loop + FIXED_COST_EVENTS + lim->team_extra + 2 * fabs(v->expected) +
                     exact_floor * (double)iters;
        if (intercept > own)
            snprintf(what, sizeof(what), "%.0f counts per measurement are not explained by iterations (the "
                     "zero-iteration loop), more than its own cost allows (%.0f)", intercept, own);
        else if (intercept < -own)
            snprintf(what, sizeof(what), "the zero-iteration loop counts %.0f (negative)", intercept);
    }
    /* A deterministic source repeats itself exactly: a zero-iteration loop that differs between
     * repetitions counts something besides the kernel. */
    for (int k = 1; k < reps && !what[0] && lim->deterministic && r->tol == TOL_EXACT; k++)
        if (raw[k][1] != raw[0][1])
            snprintf(what, sizeof(what), "the zero-iteration loop counted %.0f in repetition 1 and %.0f in repetition "
                     "%d of a deterministic source", raw[0][1], raw[k][1], k + 1);
    if (!what[0] && !isnan(lim->zero_most)) {
        double most = 0;
        for (int k = 0; k < reps; k++)
            most = raw[k][1] > most ? raw[k][1] : most;
        if (most > lim->zero_most)
            snprintf(what, sizeof(what), "the zero-iteration loop counted %.0f, more than the %.0f a loop of this "
                     "deterministic source costs by itself: %.0f counts per loop are not the kernel's", most,
                     lim->zero_most, most - lim->zero_most);
    }
    if (!what[0])
        return;
    v->kind = VERDICT_NOT_OK;
    size_t len = strlen(v->reason);
    snprintf(v->reason + len, sizeof(v->reason) - len, "; but %s", what);
}

int ruleset_for_run(struct ruleset *rs, const struct jvalue *m, const struct source *src, const char *pmu_override,
                     bool no_auto, const char *user_expect)
{
    if (ruleset_builtin(rs))
        return -1;
    /* --pmu as the run was given it, else the host's; runs before 0.1.0's "pmu_option" stored
     * the option as a second "pmu" (a string), which jget finds first. */
    const struct jvalue *host_pmu = NULL;
    for (int i = 0; m && m->type == J_OBJECT && i < m->n; i++)
        if (!strcmp(m->keys[i], "pmu") && m->items[i].type == J_OBJECT)
            host_pmu = &m->items[i];
    const char *pmu = pmu_override ? pmu_override
                      : jget_str(m, "pmu_option", jget_str(m, "pmu", jget_str(host_pmu, "libpfm4_pmu", NULL)));
    const char *stem = src->libpfm_events || pmu_override ? pmu : src->expect_file;
    char *loaded = NULL;
    if (!no_auto && stem && ruleset_load_named(rs, stem, !src->libpfm_events && !pmu_override, &loaded) < 0)
        return -1;
    free(loaded);
    /* A run folder is data, not configuration: the file its manifest names is not opened (it could
     * name any file); the user gives it again when it should apply. */
    const char *run_expect = jget_str(m, "expect", NULL);
    if (run_expect)
        pm_note("the run was judged with its own --expect rule file too; files a run folder names are not read: give "
                "--expect FILE to apply those rules");
    return user_expect ? ruleset_load(rs, user_expect) : 0;
}
