#include "penalties/tables.h"
#include "base/json.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/pfm.h"
#include "host/uarch.h"
#include "penalties/reference.h"
#include "penalties/recipes.h"
#include "penalties/status.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int table_format_parse(const char *s)
{
    return !strcmp(s, "json") ? TABLE_JSON : !strcmp(s, "c") ? TABLE_C : !strcmp(s, "perf-metrics") ? TABLE_PERF_METRICS
         : !strcmp(s, "csv") ? TABLE_CSV : -1;
}

static bool is_memory(const struct jvalue *p)
{
    return !strcmp(jget_str(p, "domain", "core"), "memory");
}

/* Cycles of a penalty as emitted: memory-domain ones follow the requested clock. */
static double cycles_of(const struct jvalue *p, const struct table_opts *o, const char *which)
{
    if (o->core_ghz > 0 && is_memory(p)) {
        const char *nskey = !strcmp(which, "cycles") ? "ns" : !strcmp(which, "cycles_lo") ? "ns_lo" : "ns_hi";
        return jget_num(p, nskey, NAN) * o->core_ghz;
    }
    return jget_num(p, which, NAN);
}

static double clock_ghz(const struct jvalue *doc, const struct table_opts *o)
{
    return o->core_ghz > 0 ? o->core_ghz : jget_num(jget(doc, "clock"), "core_ghz", NAN);
}

/* ns of a penalty as emitted: core-domain ones are constant in cycles, so at another clock their
 * ns follow it (cycles / GHz); memory-domain ones are constant in time. */
static double ns_of(const struct jvalue *p, const struct table_opts *o, const char *which)
{
    if (o->core_ghz > 0 && !is_memory(p)) {
        const char *cykey = !strcmp(which, "ns") ? "cycles" : !strcmp(which, "ns_lo") ? "cycles_lo" : "cycles_hi";
        return jget_num(p, cykey, NAN) / o->core_ghz;
    }
    return jget_num(p, which, NAN);
}

/* Text from penalties.json inside a C comment: no sequence in it may end or open one. */
void c_comment_text(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        if ((s[0] == '*' && s[1] == '/') || (s[0] == '/' && s[1] == '*'))
            fprintf(out, "%c ", *s);
        else if (*s == '\n' || *s == '\r' || *s == '\\')
            fputc(' ', out);    /* a backslash before the line's end would continue a // comment */
        else
            fputc(*s, out);
    }
}

/* One CSV field (RFC 4180), always quoted, inner quotes doubled; a line break stays inside it. */
void csv_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++)
        fprintf(out, *s == '"' ? "\"\"" : "%c", *s);
    fputc('"', out);
}

/* Re-serialize the tree; memory-domain cycles rescaled when asked. */
static void write_value(struct json *j, const char *key, const struct jvalue *v, const struct table_opts *o, int depth,
                        bool in_penalty)
{
    switch (v->type) {
    case J_NULL: json_string(j, key, NULL); break;
    case J_BOOL: json_bool(j, key, v->b); break;
    case J_STRING: json_string(j, key, v->str); break;
    case J_NUMBER: json_number(j, key, v->num); break;
    case J_ARRAY:
        json_array_begin(j, key);
        for (int i = 0; i < v->n; i++)   /* in_penalty here: this is the "penalties" array */
            write_value(j, NULL, &v->items[i], o, depth + 1, in_penalty);
        json_array_end(j);
        break;
    case J_OBJECT:
        json_object_begin(j, key);
        for (int i = 0; i < v->n; i++) {
            const char *k = v->keys[i];
            if (in_penalty && o->core_ghz > 0 && is_memory(v) &&
                (!strcmp(k, "cycles") || !strcmp(k, "cycles_lo") || !strcmp(k, "cycles_hi")))
                json_number(j, k, cycles_of(v, o, k));
            else if (in_penalty && o->core_ghz > 0 && !is_memory(v) &&
                     (!strcmp(k, "ns") || !strcmp(k, "ns_lo") || !strcmp(k, "ns_hi")))
                json_number(j, k, ns_of(v, o, k));
            else
                write_value(j, k, &v->items[i], o, depth + 1, depth == 0 && !strcmp(k, "penalties"));
        }
        if (depth == 0 && o->core_ghz > 0)
            json_number(j, "emitted_for_core_ghz", o->core_ghz);
        json_object_end(j);
        break;
    }
}

static void upper(char *dst, size_t n, const char *s)
{
    size_t i = 0;
    for (; s[i] && i + 1 < n; i++)
        dst[i] = isalnum((unsigned char)s[i]) ? (char)toupper((unsigned char)s[i]) : '_';
    dst[i] = '\0';
}

static const struct jvalue *penalties_of(const struct jvalue *doc)
{
    const struct jvalue *p = jget(doc, "penalties");
    if (!p || p->type != J_ARRAY) {
        pm_error("penalties.json has no \"penalties\" array; is it the output of 'pmucal calibrate'?");
        return NULL;
    }
    return p;
}

const char *table_prefix_problem(const char *prefix)
{
    if (!isupper((unsigned char)prefix[0]))
        return "it must start with an upper-case letter";
    if (strspn(prefix, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(prefix))
        return "only upper-case letters, digits and '_' make a C macro prefix";
    return strlen(prefix) > 32 ? "32 characters at most" : NULL;
}

/* One ok figure as calibrate wrote it: finite and positive, its ns and cycles one value at the
 * run's clock (json_number round-trips, so only the division's rounding is allowed). */
static const char *ok_figures_problem(const struct jvalue *p, double ghz, char *buf, size_t n)
{
    static const char *const pairs[3][2] = {{"cycles", "ns"}, {"cycles_lo", "ns_lo"}, {"cycles_hi", "ns_hi"}};
    for (int i = 0; i < 3; i++) {
        double cyc = jget_num(p, pairs[i][0], NAN), ns = jget_num(p, pairs[i][1], NAN);
        if (!(cyc > 0 && ns > 0 && isfinite(cyc) && isfinite(ns))) {
            snprintf(buf, n, "%s %g and %s %g must be finite and positive", pairs[i][0], cyc, pairs[i][1], ns);
            return buf;
        }
        if (!(fabs(ns * ghz - cyc) <= 1e-9 * cyc)) {
            snprintf(buf, n, "%s %g is not %s %g at the run's clock of %g GHz", pairs[i][0], cyc, pairs[i][1], ns, ghz);
            return buf;
        }
    }
    return NULL;
}

int penalties_check(const struct jvalue *doc, const char *path)
{
    const struct jvalue *ps = penalties_of(doc);
    if (!ps)
        return -1;
    double ghz = jget_num(jget(doc, "clock"), "core_ghz", NAN);
    char why[256];
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        const char *name = jget_str(p, "name", ""), *problem = NULL;
        /* Names become C macros and perf MetricNames as they are: lower case, digits and '_' only
         * (no two spellings of one macro), each once. */
        if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
            problem = "a penalty's name is lower-case letters, digits and '_'";
        for (int k = 0; k < i && !problem; k++)
            if (!strcmp(name, jget_str(&ps->items[k], "name", "")))
                problem = "its name is given twice";
        enum penalty_status st;
        if (!problem && !penalty_status_of(p, &st))
            problem = "its status is none of ok, unstable, not_ok, skip, error";
        if (!problem && st == PENALTY_OK)
            problem = !(ghz > 0 && isfinite(ghz)) ? "an ok penalty needs the run's clock (clock.core_ghz > 0)"
                                                   : ok_figures_problem(p, ghz, why, sizeof(why));
        if (problem) {
            pm_error("%s: penalty %d ('%.*s'): %s; emit tables from penalties.json as 'pmucal calibrate' wrote it",
                     path, i + 1, (int)strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-"), name, problem);
            return -1;
        }
    }
    return 0;
}

/* Where the figures come from, as comment lines: every piece of text from penalties.json escaped. */
static void provenance(FILE *out, const struct jvalue *doc, const struct table_opts *o)
{
    const struct jvalue *cpu = jget(jget(doc, "host"), "cpu"), *clk = jget(doc, "clock");
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        pm_fatal("out of memory");
    fprintf(m, "Generated by pmucal %s on %s from penalties.json.\n", jget_str(doc, "pmucal", "?"),
            jget_str(doc, "date", "?"));
    fprintf(m, "CPU: %s (%s family %.0f model %.0f stepping %.0f), libpfm4 PMU %s.\n", jget_str(cpu, "brand", "?"),
            jget_str(cpu, "vendor", "?"), jget_num(cpu, "family", NAN), jget_num(cpu, "model", NAN),
            jget_num(cpu, "stepping", NAN), jget_str(jget(jget(doc, "host"), "pmu"), "libpfm4_pmu", "none"));
    fprintf(m, "Clock: core %.3f GHz measured (TSC %.3f GHz); memory-domain constants in cycles at %.3f GHz.\n",
            jget_num(clk, "core_ghz", NAN), jget_num(clk, "tsc_ghz", NAN), clock_ghz(doc, o));
    fprintf(m, "Method: %s; %.0f repetitions.\n", jget_str(doc, "method", "?"), jget_num(doc, "repetitions", NAN));
    fclose(m);
    for (char *line = text, *nl; line && *line; line = nl + 1) {
        nl = strchr(line, '\n');
        *nl = '\0';
        fprintf(out, " * ");
        c_comment_text(out, line);
        fputc('\n', out);
    }
    free(text);
}

/* A calibration's penalty by name, NULL when it has none. */
static const struct jvalue *penalty_named(const struct jvalue *doc, const char *name)
{
    const struct jvalue *ps = jget(doc, "penalties");
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++)
        if (!strcmp(jget_str(&ps->items[i], "name", ""), name))
            return &ps->items[i];
    return NULL;
}

/* Every penalty's status was checked (penalties_check) before a table is written. */
static bool is_ok(const struct jvalue *p)
{
    enum penalty_status st;
    return p && penalty_status_of(p, &st) && st == PENALTY_OK;
}

const char *penalties_fallback_problem(const struct jvalue *doc, const struct jvalue *fallback, char *buf, size_t n)
{
    const struct jvalue *a = jget(jget(doc, "host"), "cpu"), *b = jget(jget(fallback, "host"), "cpu");
    const char *ma = penalties_uarch(doc), *mb = penalties_uarch(fallback);
    ma = ma ? ma : "unknown", mb = mb ? mb : "unknown";
    if (strcmp(ma, mb) || strcmp(jget_str(a, "vendor", "?"), jget_str(b, "vendor", "!")) ||
        jget_num(a, "family", -1) != jget_num(b, "family", -2) || jget_num(a, "model", -1) != jget_num(b, "model", -2)) {
        snprintf(buf, n, "it was calibrated on %s (%s family %.0f model %.0f), this one on %s (%s family %.0f model "
                 "%.0f): a penalty of one CPU is not another's", mb, jget_str(b, "vendor", "?"),
                 jget_num(b, "family", NAN), jget_num(b, "model", NAN), ma, jget_str(a, "vendor", "?"),
                 jget_num(a, "family", NAN), jget_num(a, "model", NAN));
        return buf;
    }
    return NULL;
}

/* PREFIX_HAVE_NAME 1 and PREFIX_NAME_CYCLES from p, an ok penalty; from names the run it came from
 * when it is not the header's own, with why this one's was withheld (own: its penalty, or NULL). */
static void c_constant(FILE *out, const char *pre, const char *name, const struct jvalue *p,
                       const struct table_opts *o, const char *from, const struct jvalue *own)
{
    fprintf(out, "#define %s_HAVE_%s 1\n", pre, name);
    fprintf(out, "#define %s_%s_CYCLES %.2f /* [%.2f, %.2f] 95%%, %s domain, %.2f ns: ", pre, name,
            cycles_of(p, o, "cycles"), cycles_of(p, o, "cycles_lo"), cycles_of(p, o, "cycles_hi"),
            is_memory(p) ? "memory" : "core", ns_of(p, o, "ns"));
    c_comment_text(out, jget_str(p, "brief", ""));
    if (from) {
        fprintf(out, "; from the earlier calibration ");
        c_comment_text(out, from);
        fprintf(out, " (this one's: %s", own ? jget_str(own, "status", "?") : "not measured");
        if (own && jget_str(own, "reason", NULL)) {
            fprintf(out, ", ");
            c_comment_text(out, jget_str(own, "reason", ""));
        }
        fprintf(out, ")");
    }
    fprintf(out, " */\n");
}

/* PREFIX_HAVE_NAME 0 and why in a comment: p is the calibration's penalty, NULL when it has none. */
static void c_withheld(FILE *out, const char *pre, const char *name, const struct jvalue *p, const struct table_opts *o)
{
    fprintf(out, "#define %s_HAVE_%s 0 ", pre, name);
    enum penalty_status st = PENALTY_SKIP;
    if (p)
        penalty_status_of(p, &st);
    if (!p)
        fprintf(out, "/* %s_%s_CYCLES not published: not measured in this calibration", pre, name);
    else if (st == PENALTY_UNSTABLE)
        fprintf(out, "/* %s_%s_CYCLES unstable, not published: %.2f, 95%% interval [%.2f, %.2f]", pre, name,
                cycles_of(p, o, "cycles"), cycles_of(p, o, "cycles_lo"), cycles_of(p, o, "cycles_hi"));
    else {
        fprintf(out, "/* %s_%s_CYCLES not published (%s): ", pre, name, st == PENALTY_NOT_OK ? "not ok"
                : st == PENALTY_SKIP ? "skipped" : "not measured");
        c_comment_text(out, jget_str(p, "reason", penalty_status_name(st)));
    }
    fprintf(out, " */\n");
}

/* One recipe's or penalty's lines: its own ok figure, else the fallback's, else HAVE 0. */
static void c_penalty(FILE *out, const char *pre, const char *key, const struct jvalue *doc,
                      const struct table_opts *o, const struct table_opts *fo)
{
    char name[128];
    upper(name, sizeof(name), key);
    const struct jvalue *p = penalty_named(doc, key), *q = o->fallback ? penalty_named(o->fallback, key) : NULL;
    if (is_ok(p))
        c_constant(out, pre, name, p, o, NULL, NULL);
    else if (is_ok(q))
        c_constant(out, pre, name, q, fo, o->fallback_source ? o->fallback_source : "(unnamed)", p);
    else
        c_withheld(out, pre, name, p, o);
}

static int emit_c(const struct jvalue *doc, const struct table_opts *o, FILE *out)
{
    const struct jvalue *ps = penalties_of(doc);
    if (!ps)
        return -1;
    const char *pre = o->prefix ? o->prefix : "PMUCAL";
    char guard[96];
    if (table_prefix_problem(pre))
        pm_fatal("emit: prefix '%s' was not checked", pre);
    snprintf(guard, sizeof(guard), "%s_PENALTIES_H", pre);
    fprintf(out, "/* Cycle penalties measured by pmucal calibrate.\n");
    provenance(out, doc, o);
    if (o->source) {
        fprintf(out, " * Read from ");
        c_comment_text(out, o->source);
        fprintf(out, ".\n");
    }
    if (o->fallback) {
        fprintf(out, " * Withheld figures filled from the earlier calibration ");
        c_comment_text(out, o->fallback_source ? o->fallback_source : "(unnamed)");
        fprintf(out, " of ");
        c_comment_text(out, jget_str(o->fallback, "date", "?"));
        fprintf(out, ", the same uarch: core-domain\n * penalties in its cycles, memory-domain ones from its ns "
                     "at this clock; each says so.\n");
    }
    fprintf(out, " * %s_HAVE_<NAME> is 1 or 0 for every recipe, in every calibration: test it before using\n"
                 " * %s_<NAME>_CYCLES, which is defined only where it is 1. Penalties that are unstable (interval\n"
                 " * too wide), not ok (failed a check), skipped or not measured are comments, not constants. */\n",
            pre, pre);
    fprintf(out, "#ifndef %s\n#define %s\n\n", guard, guard);
    /* The fallback's figures at this calibration's clock: memory-domain cycles from their ns. */
    struct table_opts fo = *o;
    fo.core_ghz = clock_ghz(doc, o);
    for (int i = 0; i < ps->n; i++)
        c_penalty(out, pre, jget_str(&ps->items[i], "name", "unnamed"), doc, o, &fo);
    for (int r = 0; r < nrecipes; r++)   /* recipes this calibration did not measure: HAVE 0 too */
        if (!penalty_named(doc, recipes[r].name))
            c_penalty(out, pre, recipes[r].name, doc, o, &fo);
    fprintf(out, "\n#endif /* %s */\n", guard);
    return 0;
}

static int emit_csv(const struct jvalue *doc, const struct table_opts *o, FILE *out)
{
    const struct jvalue *ps = penalties_of(doc);
    if (!ps)
        return -1;
    fprintf(out, "name,status,domain,cycles,cycles_lo,cycles_hi,ns,ns_lo,ns_hi,core_ghz,repetitions,occurrence,"
                 "issue_case,control_case,reason,brief\n");
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i], *occ = jget(p, "occurrence");
        /* Every text field is quoted; the figures of a penalty that is not ok stay empty. */
        csv_text(out, jget_str(p, "name", ""));
        fputc(',', out);
        csv_text(out, jget_str(p, "status", ""));
        fprintf(out, ",%s", is_memory(p) ? "memory" : "core");
        bool ok = is_ok(p);
        const char *keys[] = {"cycles", "cycles_lo", "cycles_hi", "ns", "ns_lo", "ns_hi"};
        for (int k = 0; k < 6; k++) {
            double v = k < 3 ? cycles_of(p, o, keys[k]) : ns_of(p, o, keys[k]);
            if (isnan(v) || !ok)
                fprintf(out, ",");
            else
                fprintf(out, ",%.3f", v);
        }
        fprintf(out, ",%.3f,%.0f,", clock_ghz(doc, o), jget_num(p, "repetitions", 0));
        const char *text[] = {jget_str(occ, "quantity", ""), jget_str(jget(p, "issue"), "case", ""),
                              jget_str(jget(p, "control"), "case", ""), jget_str(p, "reason", ""),
                              jget_str(p, "brief", "")};
        for (int k = 0; k < 5; k++) {
            if (k)
                fputc(',', out);
            csv_text(out, text[k]);
        }
        fputc('\n', out);
    }
    return 0;
}

struct metric_group {
    char name[64];
    char expr[2048];
    int terms;
};

static void metric(struct json *j, const char *name, const char *expr, const char *brief, const char *group,
                   const char *unit)
{
    json_object_begin(j, NULL);
    json_string(j, "MetricName", name);
    json_string(j, "MetricExpr", expr);
    json_string(j, "BriefDescription", brief);
    json_string(j, "MetricGroup", group);
    json_string(j, "ScaleUnit", unit);
    json_object_end(j);
}

/* Where perf metric JSON takes its event names: a uarch (the names its file gives the recipes), or
 * the vendor table of the calibrated CPU (events/catalog.h), whose names count the issue when they
 * are one of the recipe's perf names (recipe_perf_name) and in that table. */
struct metric_names {
    const struct uarch *uarch;
    struct catalog table;   /* when uarch is NULL */
    char cycles[64];        /* unhalted core cycles in those names; "" when the table has none */
};

/* Unhalted core cycles as each vendor's tables name it (Intel, Intel's Atom cores, AMD, Arm). */
static const char *const cycles_names[] = {"CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.CORE", "ls_not_halted_cyc",
                                           "CPU_CYCLES"};

/* The penalty's event in those names, NULL when none counts its issue. */
static const char *metric_event(const struct metric_names *mn, const struct jvalue *p)
{
    if (mn->uarch) {
        /* A run before issue 49 keyed Golden Cove's names "goldencove" too, the others by their CPU. */
        const char *e = jget_str(jget(p, "perf_events"), mn->uarch->name, NULL);
        for (int c = 0; !e && c < mn->uarch->ncpus; c++)
            e = jget_str(jget(p, "perf_events"), mn->uarch->cpus[c].name, NULL);
        return e;
    }
    const struct recipe *r = recipe_named(jget_str(p, "name", ""));
    const char *name;
    for (int k = 0; r && (name = recipe_perf_name(r, k)); k++) {
        const struct vendor_event *v = vendor_find(&mn->table.vt, name);
        if (v && !v->deprecated)
            return v->name;
    }
    return NULL;
}

static void metric_names_close(struct metric_names *mn)
{
    catalog_free(&mn->table);
    memset(mn, 0, sizeof(*mn));
}

/* --uarch, else the calibration's uarch, else the libpfm4 PMU's uarch (LIBPFM_FORCE_PMU too),
 * else the vendor table of the calibrated CPU's signature (host.cpu.id; the host's own when the
 * file has none). -1 with why when none gives a name for any of the file's penalties. */
static int metric_names_open(struct metric_names *mn, const struct jvalue *doc, const struct table_opts *o, char *why,
                             size_t n)
{
    memset(mn, 0, sizeof(*mn));
    const char *name = o->uarch ? o->uarch : penalties_uarch(doc);
    if (name) {
        mn->uarch = uarch_named(name, NULL);
        if (!mn->uarch) {
            snprintf(why, n, "%s %s: no such uarch (known: %s)", o->uarch ? "--uarch" : "the calibration's uarch",
                     name, uarch_names());
            return -1;
        }
    } else {
        struct pfm_core core;
        const struct uarch_cpu *c = pfm_core_pmu(&core) ? uarch_cpu_of_pfm(core.name) : NULL;
        mn->uarch = c ? c->uarch : NULL;
    }
    if (mn->uarch) {
        snprintf(mn->cycles, sizeof(mn->cycles), "%s", mn->uarch->cycles_perf);
        return 0;
    }
    char sig[128], how[256], miss[1024];
    const char *id = jget_str(jget(jget(doc, "host"), "cpu"), "id", NULL);
    if (id)
        snprintf(sig, sizeof(sig), "%s", id);
    else if (!cpu_signature(sig, sizeof(sig), how, sizeof(how))) {
        snprintf(why, n, "no perf event names for this CPU: %s; give --uarch NAME (%s)", how, uarch_names());
        return -1;
    }
    int rc = catalog_for_signature(&mn->table, sig, miss, sizeof(miss));
    if (rc <= 0) {
        snprintf(why, n, "no perf event names for CPU %s: %s; give --uarch NAME (%s)", sig,
                 rc < 0 ? "its vendor table is malformed" : miss, uarch_names());
        metric_names_close(mn);
        return -1;
    }
    for (size_t i = 0; i < ARRAY_SIZE(cycles_names) && !mn->cycles[0]; i++)
        if (vendor_find(&mn->table.vt, cycles_names[i]))
            snprintf(mn->cycles, sizeof(mn->cycles), "%s", cycles_names[i]);
    const struct jvalue *ps = jget(doc, "penalties");
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++)
        if (metric_event(mn, &ps->items[i]))
            return 0;
    snprintf(why, n, "the %s table (CPU %s) has no event counting the issue of any penalty here", mn->table.name, sig);
    metric_names_close(mn);
    return -1;
}

static int emit_metrics(const struct jvalue *doc, const struct table_opts *o, FILE *out)
{
    const struct jvalue *ps = penalties_of(doc);
    if (!ps)
        return -1;
    char why[1400];
    struct metric_names names;
    if (metric_names_open(&names, doc, o, why, sizeof(why))) {
        pm_error("perf metrics: %s", why);
        return -1;
    }
    struct metric_group groups[16];
    int ngroups = 0;
    struct json j;
    json_init(&j);
    json_array_begin(&j, NULL);
    char date[32];
    snprintf(date, sizeof(date), "%.10s", jget_str(doc, "date", "?"));
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        /* perf's own name of the occurrence event on this model (the model's pmu-events table). */
        const char *event = metric_event(&names, p);
        if (!event || !is_ok(p))
            continue;
        char name[160], expr[512], brief[512], grp[128];
        double cyc = cycles_of(p, o, "cycles");
        snprintf(name, sizeof(name), "pmucal_%s_cycles", jget_str(p, "name", "?"));
        snprintf(expr, sizeof(expr), "%.2f * %s", cyc, event);
        snprintf(brief, sizeof(brief), "Cycles for %s: %.2f cycles each (pmucal calibrate %s, %s domain)",
                 jget_str(p, "brief", "?"), cyc, date, is_memory(p) ? "memory" : "core");
        const char *g = jget_str(p, "group", NULL);
        snprintf(grp, sizeof(grp), g ? "pmucal;pmucal_%s" : "pmucal", g);
        metric(&j, name, expr, brief, grp, "1cycles");
        if (!g)
            continue;
        int k = 0;
        while (k < ngroups && strcmp(groups[k].name, g))
            k++;
        if (k == ngroups) {
            if (ngroups == 16)
                continue;
            memset(&groups[ngroups], 0, sizeof(groups[0]));
            snprintf(groups[ngroups++].name, sizeof(groups[0].name), "%s", g);
        }
        size_t len = strlen(groups[k].expr);
        snprintf(groups[k].expr + len, sizeof(groups[k].expr) - len, "%s%s", groups[k].terms ? " + " : "", expr);
        groups[k].terms++;
    }
    for (int k = 0; k < ngroups; k++) {
        char name[160], brief[256], expr[2400];
        snprintf(name, sizeof(name), "pmucal_%.60s_cycles", groups[k].name);
        snprintf(brief, sizeof(brief), "Cycles for %.60s, summed over its pmucal penalties (calibrated %s)",
                 groups[k].name, date);
        metric(&j, name, groups[k].expr, brief, "pmucal", "1cycles");
        if (!names.cycles[0])
            continue;   /* a table without an unhalted-cycles event: no fractions */
        snprintf(name, sizeof(name), "pmucal_%.60s_fraction", groups[k].name);
        snprintf(expr, sizeof(expr), "(%s) / %s", groups[k].expr, names.cycles);
        snprintf(brief, sizeof(brief), "Fraction of unhalted cycles for %.60s (an upper bound: overlap is not removed)",
                 groups[k].name);
        metric(&j, name, expr, brief, "pmucal", "100%");
    }
    json_array_end(&j);
    int rc = json_write_line(&j, out);
    json_free(&j);
    metric_names_close(&names);
    return rc;
}

int tables_write(const struct jvalue *doc, enum table_format f, const struct table_opts *o, FILE *out)
{
    switch (f) {
    case TABLE_JSON: {
        if (!penalties_of(doc))
            return -1;
        struct json j;
        json_init(&j);
        write_value(&j, NULL, doc, o, 0, false);
        int rc = json_write_line(&j, out);
        json_free(&j);
        return rc;
    }
    case TABLE_C: return emit_c(doc, o, out);
    case TABLE_PERF_METRICS: return emit_metrics(doc, o, out);
    case TABLE_CSV: return emit_csv(doc, o, out);
    }
    return -1;
}

int tables_write_dir(const struct jvalue *doc, const char *dir, const struct table_opts *o)
{
    static const struct {
        const char *file;
        enum table_format f;
    } t[] = {{"penalties.h", TABLE_C}, {"metrics.json", TABLE_PERF_METRICS}, {"penalties.csv", TABLE_CSV}};
    char *pj = xasprintf("%s/penalties.json", dir);
    int bad = penalties_check(doc, pj);
    struct table_opts named = *o;
    named.source = pj;   /* the header names the file it was made from */
    o = &named;
    if (bad) {
        free(pj);
        return -1;
    }
    if (!jget(doc, "penalties")->n) {
        pm_note("no penalties measured (--curve only): no tables written");
        free(pj);
        return 0;
    }
    if (run_subdir(dir, "tables")) {
        free(pj);
        return -1;
    }
    char *tables = xasprintf("%s/tables", dir);
    int rc = 0;
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        char why[1400];
        /* perf metrics need perf's event names for the model: without a known model that table
         * is not written, which is a note, not a failure of the run. */
        struct metric_names names;
        if (t[i].f == TABLE_PERF_METRICS && metric_names_open(&names, doc, o, why, sizeof(why))) {
            pm_note("tables/%s not written: %s", t[i].file, why);
            continue;
        }
        if (t[i].f == TABLE_PERF_METRICS)
            metric_names_close(&names);
        struct run_out out;
        FILE *f = run_out_begin(&out, tables, t[i].file);
        if (!f)
            rc = -1;
        else if (tables_write(doc, t[i].f, o, f)) {
            run_out_abort(&out);
            rc = -1;
        } else if (run_out_commit(&out))
            rc = -1;
    }
    free(tables);
    free(pj);
    return rc;
}

struct jvalue *penalties_load(const char *run, bool allow_incomplete, char **path_out)
{
    char *path = NULL;
    struct jvalue *doc = penalties_json_read(run, allow_incomplete, &path);
    const struct jvalue *ps = jget(doc, "penalties");
    if (ps && ps->type == J_ARRAY && ps->n == 0)
        pm_error("%s holds no penalties (a 'calibrate --curve' run measures only the curve); name a run that "
                 "measured recipes", path);
    if (doc && ((ps && ps->type == J_ARRAY && ps->n == 0) || penalties_check(doc, path))) {
        jread_free(doc);
        doc = NULL;
    }
    *path_out = path;
    return doc;
}
