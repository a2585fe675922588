/* The data-TLB facts: CPUID's where it states them, else the knees of a page-stride walk (cached
 * per host in the cache of measured facts geometry.c keeps), else none with why. */
#include "host/tlb.h"
#include "base/jread.h"
#include "base/stats.h"
#include "base/util.h"
#include "host/geometry.h"
#include "host/latency_levels.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <valgrind/valgrind.h>

/* ---- the knees: a pure function of the points ---- */

/* A plateau spans at least this many points: one point off the others is noise, not a level. */
#define MIN_RUN 2

struct fit {
    int k;                 /* steps */
    int end[3];            /* the last point of each of the k + 1 segments */
    double level[3], sse;
};

static double seg_sse(const double *s1, const double *s2, int a, int b, double *mean)
{
    double n = b - a + 1, sum = s1[b + 1] - s1[a], sq = s2[b + 1] - s2[a];
    *mean = sum / n;
    return sq - sum * sum / n;
}

/* The least-squares staircase of k steps (0..2) over e[0..n-1]; prefix sums s1, s2. */
static struct fit fit_steps(const double *s1, const double *s2, int n, int k)
{
    struct fit best = {.k = k, .sse = INFINITY};
    double m[3];
    if (k == 0) {
        best.end[0] = n - 1;
        best.sse = seg_sse(s1, s2, 0, n - 1, &best.level[0]);
        return best;
    }
    for (int b1 = MIN_RUN - 1; b1 + MIN_RUN * k < n; b1++) {
        if (k == 1) {
            double sse = seg_sse(s1, s2, 0, b1, &m[0]) + seg_sse(s1, s2, b1 + 1, n - 1, &m[1]);
            if (sse < best.sse)
                best = (struct fit){1, {b1, n - 1, 0}, {m[0], m[1], 0}, sse};
            continue;
        }
        for (int b2 = b1 + MIN_RUN; b2 + MIN_RUN < n; b2++) {
            double sse = seg_sse(s1, s2, 0, b1, &m[0]) + seg_sse(s1, s2, b1 + 1, b2, &m[1]) +
                         seg_sse(s1, s2, b2 + 1, n - 1, &m[2]);
            if (sse < best.sse)
                best = (struct fit){2, {b1, b2, n - 1}, {m[0], m[1], m[2]}, sse};
        }
    }
    return best;
}

/* A plateau's level is its points' median: the few on a rounded step, part missing, pull a mean
 * off the level (a quarter of the way up, here, for the second level's 2048 pages). */
static void plateau_medians(struct fit *f, const double *e)
{
    for (int s = 0; s <= f->k; s++) {
        int from = s ? f->end[s - 1] + 1 : 0;
        f->level[s] = stats_median(e + from, (size_t)(f->end[s] - from + 1));
    }
}

/* The noise step s of f must stand clear of: the points' own spread (their median over the two
 * plateaus beside it) or the plateaus' scatter about their levels, whichever is larger. A
 * plateau of page walks is rougher than one of hits; the step into it is judged by its own. */
static double step_noise(const struct fit *f, int s, const double *raw, const double *spread)
{
    int from = s ? f->end[s - 1] + 1 : 0, to = f->end[s + 1];
    double dev[TLB_MAX_POINTS], sp[TLB_MAX_POINTS];
    for (int i = from; i <= to; i++) {
        dev[i - from] = fabs(raw[i] - (i <= f->end[s] ? f->level[s] : f->level[s + 1]));
        sp[i - from] = spread[i];
    }
    /* The scatter of the points as measured (the lowering smooths it away) as a robust deviation
     * (1.4826 x the median absolute one): the few points on the step itself, half missing, are
     * not noise. */
    size_t m = (size_t)(to - from + 1);
    double scatter = 1.4826 * stats_median(dev, m);
    return fmax(fmax(stats_median(sp, m), scatter), TLB_NOISE_FLOOR_NS);
}

/* Does each step of f stand clear of its noise, upward, from a first plateau at no extra cost? */
static bool fit_clear(const struct fit *f, const double *raw, const double *spread, double *noise, char *why,
                      size_t whylen)
{
    for (int s = 0; s < f->k; s++) {
        double h = f->level[s + 1] - f->level[s];
        noise[s] = step_noise(f, s, raw, spread);
        if (!(h >= TLB_CLEAR * noise[s])) {
            snprintf(why, whylen, "no step stands clear of the noise: the best, %.3f ns a load, is under %.0f x "
                     "%.3f ns", h, TLB_CLEAR, noise[s]);
            return false;
        }
    }
    double h1 = f->level[1] - f->level[0];
    if (f->level[0] > fmax(TLB_CLEAR * noise[0], 0.25 * h1)) {
        snprintf(why, whylen, "the smallest walks already take %.3f ns a load more than their control: the first level "
                 "holds fewer pages than the walk starts at", f->level[0]);
        return false;
    }
    return true;
}

int tlb_knees_find(const struct tlb_point *p, int n, struct tlb_knees *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof(*out));
    if (n < 3 * MIN_RUN || n > TLB_MAX_POINTS) {
        snprintf(why, whylen, "%d points; a walk needs %d to %d", n, 3 * MIN_RUN, TLB_MAX_POINTS);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!p[i].pages || (i && p[i].pages <= p[i - 1].pages) || !isfinite(p[i].walk_ns) ||
            !isfinite(p[i].control_ns) || !(p[i].spread_ns >= 0) || !isfinite(p[i].spread_ns)) {
            snprintf(why, whylen, "point %d (%llu pages): %s", i, (unsigned long long)p[i].pages,
                     !p[i].pages || (i && p[i].pages <= p[i - 1].pages) ? "pages not ascending" : "a time not finite");
            return -1;
        }
    double walk = INFINITY, control = INFINITY, e[TLB_MAX_POINTS], raw[TLB_MAX_POINTS], spread[TLB_MAX_POINTS];
    double s1[TLB_MAX_POINTS + 1] = {0}, s2[TLB_MAX_POINTS + 1] = {0};
    for (int i = n - 1; i >= 0; i--) {
        walk = fmin(walk, p[i].walk_ns);
        control = fmin(control, p[i].control_ns);
        e[i] = walk - control;
        raw[i] = p[i].walk_ns - p[i].control_ns;
        spread[i] = p[i].spread_ns;
    }
    for (int i = 0; i < n; i++) {
        s1[i + 1] = s1[i] + e[i];
        s2[i + 1] = s2[i] + e[i] * e[i];
    }
    struct fit two = fit_steps(s1, s2, n, 2), one = fit_steps(s1, s2, n, 1);
    plateau_medians(&two, e);
    plateau_medians(&one, e);
    char why2[300];
    double noise2[2], noise1[2];
    const struct fit *f = fit_clear(&two, raw, spread, noise2, why2, sizeof(why2)) ? &two
                        : fit_clear(&one, raw, spread, noise1, why, whylen) ? &one : NULL;
    if (!f)
        return 0;
    const double *noise = f == &two ? noise2 : noise1;
    /* The knee: the last point before the curve has come LATENCY_CAPACITY_FRACTION of the way up
     * the step, scanning from the plateau below, as a cache's capacity is read off the latency
     * curve. */
    for (int s = 0; s < f->k; s++) {
        double below = f->level[s], above = f->level[s + 1];
        double limit = below + LATENCY_CAPACITY_FRACTION * (above - below);
        int from = s ? f->end[s - 1] + 1 : 0, first = from;
        while (first <= f->end[s + 1] && e[first] <= limit)
            first++;
        if (first == from || first > f->end[s + 1]) {
            snprintf(why, whylen, "the step after %llu pages has no foot on its plateau",
                     (unsigned long long)p[f->end[s]].pages);
            out->n = 0;
            return 0;
        }
        out->knee[s] = (struct tlb_knee){p[first - 1].pages, p[first].pages, below, above};
        out->noise_ns = fmax(out->noise_ns, noise[s]);
        out->n = s + 1;
    }
    return out->n;
}

/* ---- the facts ---- */

static struct tlb_facts facts;
static tlb_measurer measurer;
static bool loaded, tried, resolving;

void tlb_register_measurer(tlb_measurer fn)
{
    measurer = fn;
}

/* A CPUID that is not this machine's (a fixture's dump, or hwloc's view of another host): its
 * TLBs are not what a walk here would measure. */
static const char *fixture(void)
{
    const char *x = getenv("HWLOC_CPUID_PATH");
    if (x && *x)
        return "HWLOC_CPUID_PATH";
    x = getenv("HWLOC_XMLFILE");
    return x && *x ? "HWLOC_XMLFILE" : NULL;
}

static void cache_key(char *out, size_t n)
{
    const struct cpu_facts *c = cpu_get();
    struct utsname u;
    uname(&u);
    snprintf(out, n, "tlb-1 %s %d/%d/%d %s | kernel %s", c->vendor, c->family, c->model, c->stepping, c->brand,
             u.release);
}

/* The walk's knees fill what the CPU did not state: the first knee is the first level's entries
 * for 4 KiB pages, the second the second level's. 2 MiB pages are not walked: a ring past a
 * second level of 1-2K entries of them would map GiBs. */
static void apply_walk(void)
{
    char why[300];
    int k = tlb_knees_find(facts.points, facts.npoints, &facts.knees, why, sizeof(why));
    const uint64_t first = facts.points[0].pages, last = facts.points[facts.npoints - 1].pages;
    for (int level = 0; level < 2; level++) {
        enum tlb_kind kind = level ? TLB_L2_4K : TLB_L1_4K;
        if (facts.entries[kind])
            continue;
        if (k > level) {
            const struct tlb_knee *kn = &facts.knees.knee[level];
            facts.entries[kind] = (int)kn->entries;
            facts.from[kind] = TLB_FROM_WALK;
            snprintf(facts.why[kind], sizeof(facts.why[kind]), "knee at %llu pages: %.2f ns a load over the control "
                     "up to it, %.2f ns from %llu pages", (unsigned long long)kn->entries, kn->below_ns, kn->above_ns,
                     (unsigned long long)kn->next);
        } else if (k > 0) {
            snprintf(facts.why[kind], sizeof(facts.why[kind]), "%.200s; the page-stride walk over %llu to %llu pages has "
                     "one step clear of the noise, the first level's", facts.cpuid.silent, (unsigned long long)first,
                     (unsigned long long)last);
        } else {
            snprintf(facts.why[kind], sizeof(facts.why[kind]), "%.120s; the page-stride walk over %llu to %llu pages "
                     "found no knee: %.200s", facts.cpuid.silent, (unsigned long long)first, (unsigned long long)last, why);
        }
    }
    facts.walked = true;
}

/* The cached points, or -1 with why when one is not [pages, walk, control, spread] within bounds. */
static int points_from_json(const struct jvalue *arr, char *why, size_t whylen)
{
    int n = 0;
    for (int i = 0; arr && arr->type == J_ARRAY && i < arr->n && n < TLB_MAX_POINTS; i++) {
        const struct jvalue *p = &arr->items[i];
        bool shaped = p->type == J_ARRAY && p->n == 4;
        for (int f = 0; shaped && f < 4; f++)
            shaped = p->items[f].type == J_NUMBER;
        char err[200] = "not [pages, walk ns, control ns, spread ns]";
        if (!shaped || !number_in(p->items[0].num, 1, 1 << 30, "pages", err, sizeof(err)) ||
            !number_in(p->items[1].num, 0, 1e9, "walk ns", err, sizeof(err)) ||
            !number_in(p->items[2].num, 0, 1e9, "control ns", err, sizeof(err)) ||
            !number_in(p->items[3].num, 0, 1e9, "spread ns", err, sizeof(err))) {
            snprintf(why, whylen, "points[%d]: %s", i, err);
            return -1;
        }
        facts.points[n++] = (struct tlb_point){(uint64_t)p->items[0].num, p->items[1].num, p->items[2].num,
                                               p->items[3].num};
    }
    return n;
}

static int cache_read(void)
{
    char key[1024], why[300];
    cache_key(key, sizeof(key));
    struct jvalue *v = host_cache_load(facts.cache_file);
    if (!v)
        return -1;
    int rc = -1;
    if (!strcmp(jget_str(v, "key", ""), key)) {
        int n = points_from_json(jget(v, "points"), why, sizeof(why));
        struct tlb_knees kn;
        if (n < 0 || tlb_knees_find(facts.points, n, &kn, why, sizeof(why)) < 0) {
            /* A damaged cache is no reason to measure silently: someone wrote it. */
            pm_error("%s: %s; remove the file (pmucal measures the walk again and caches it)", facts.cache_file, why);
            exit(2);
        }
        facts.npoints = n;
        snprintf(facts.note, sizeof(facts.note), "measured on %.32s in %.1f s, cached in %.450s", jget_str(v, "date", "?"),
                 jget_num(v, "seconds", NAN), facts.cache_file);
        rc = 0;
    }
    jread_free(v);
    return rc;
}

static void cache_write(void)
{
    char key[1024];
    if (!facts.cache_file[0])
        return;
    cache_key(key, sizeof(key));
    struct json j;
    host_cache_begin(&j, key, facts.seconds);
    json_array_begin(&j, "points");
    for (int i = 0; i < facts.npoints; i++) {
        json_array_begin(&j, NULL);
        json_uint(&j, NULL, facts.points[i].pages);
        json_number(&j, NULL, facts.points[i].walk_ns);
        json_number(&j, NULL, facts.points[i].control_ns);
        json_number(&j, NULL, facts.points[i].spread_ns);
        json_array_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    if (host_cache_store(facts.cache_file, &j))
        pm_warn("cannot store the measured TLB walk in %s (%s): it will be measured again next time; "
                "PMUCAL_CACHE_DIR names another folder", facts.cache_file, strerror(errno));
    json_free(&j);
}

static bool missing_4k(void)
{
    return !facts.entries[TLB_L1_4K] || !facts.entries[TLB_L2_4K];
}

static void not_walked(const char *fmt, const char *arg)
{
    char what[300];
    snprintf(what, sizeof(what), fmt, arg);
    snprintf(facts.note, sizeof(facts.note), "not measured: %s", what);
    for (int k = 0; k < TLB_KINDS; k++)
        if (!facts.entries[k] && (k == TLB_L1_4K || k == TLB_L2_4K))
            snprintf(facts.why[k], sizeof(facts.why[k]), "%.150s; no page-stride walk: %.220s", facts.cpuid.silent, what);
}

const struct tlb_facts *tlb_get(void)
{
    if (loaded)
        return &facts;
    loaded = true;
    char why[600];
    if (cpu_tlbs_read(&facts.cpuid, why, (int)sizeof(why)))
        snprintf(facts.cpuid.silent, sizeof(facts.cpuid.silent), "%.230s", why);
    for (int k = 0; k < TLB_KINDS; k++) {
        facts.entries[k] = facts.cpuid.entries[k];
        facts.from[k] = facts.cpuid.said_by[k];
        if (!facts.entries[k])
            snprintf(facts.why[k], sizeof(facts.why[k]), "%s", facts.cpuid.silent[0] ? facts.cpuid.silent
                     : "the CPU states the other TLBs but not this one");
    }
    for (int k = TLB_L1_2M; k <= TLB_L2_2M; k++)
        if (!facts.entries[k])
            snprintf(facts.why[k] + strlen(facts.why[k]), sizeof(facts.why[k]) - strlen(facts.why[k]),
                     "; not measured: a walk past a second level of 2 MiB pages would map GiBs");
    if (!missing_4k()) {
        snprintf(facts.note, sizeof(facts.note), "not needed: the CPU states its 4 KiB TLBs");
        tried = true;
        return &facts;
    }
    const char *fx = fixture();
    if (fx) {
        not_walked("the CPU is described by %s, not measured on this machine", fx);
        tried = true;
        return &facts;
    }
    char key[1024];
    cache_key(key, sizeof(key));
    if (host_cache_file("tlb", key, facts.cache_file, sizeof(facts.cache_file)))
        facts.cache_file[0] = 0;
    if (facts.cache_file[0] && !cache_read()) {
        apply_walk();
        tried = true;
    } else {
        not_walked("%s", "not yet measured on this host");
    }
    return &facts;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

const struct tlb_facts *tlb_resolved(void)
{
    tlb_get();
    if (tried || resolving)
        return &facts;
    tried = true;
    if (RUNNING_ON_VALGRIND) {
        not_walked("%s", "running under valgrind");
        return &facts;
    }
    if (!measurer) {
        not_walked("%s", "this program has no walker measurement");
        return &facts;
    }
    pm_note("measuring this host's data TLBs with a page-stride walk (once per host): %s", facts.cpuid.silent);
    char why[300];
    double t0 = now();
    resolving = true;
    int n = measurer(facts.points, TLB_MAX_POINTS, why, sizeof(why));
    resolving = false;
    facts.seconds = now() - t0;
    if (n < 0) {
        facts.npoints = 0;
        not_walked("the walk failed: %s", why);
        return &facts;
    }
    facts.npoints = n;
    snprintf(facts.note, sizeof(facts.note), "measured now in %.1f s%s%.450s", facts.seconds,
             facts.cache_file[0] ? ", cached in " : " (no cache folder: set PMUCAL_CACHE_DIR)", facts.cache_file);
    struct tlb_knees kn;
    char bad[300];
    if (tlb_knees_find(facts.points, n, &kn, bad, sizeof(bad)) < 0) {
        not_walked("the walk's points are not a curve: %s", bad);
        return &facts;
    }
    cache_write();
    apply_walk();
    return &facts;
}

int tlb_entries(enum tlb_kind k, const char **why)
{
    const struct tlb_facts *f = tlb_get();
    if (why)
        *why = f->entries[k] ? NULL : f->why[k];
    return f->entries[k];
}

void tlb_print(FILE *f)
{
    const struct tlb_facts *t = tlb_get();
    for (int k = 0; k < TLB_KINDS; k++) {
        const char *name = tlb_kind_name((enum tlb_kind)k), *lead = k ? "" : "dtlb";
        if (!t->entries[k])
            fprintf(f, "%-10s %-15s none: %s\n", lead, name, t->why[k]);
        else if (!strcmp(t->from[k], TLB_FROM_WALK))
            fprintf(f, "%-10s %-15s %d entries, from a %s (%s)\n", lead, name, t->entries[k], t->from[k], t->why[k]);
        else
            fprintf(f, "%-10s %-15s %d entries, from %s\n", lead, name, t->entries[k], t->from[k]);
    }
    fprintf(f, "tlb walk   %s\n", t->note);
}

void tlb_json(struct json *j)
{
    const struct tlb_facts *t = tlb_get();
    json_object_begin(j, "dtlb_entries");
    for (int k = 0; k < TLB_KINDS; k++)
        json_int(j, tlb_kind_key((enum tlb_kind)k), t->entries[k]);
    json_object_end(j);
    json_object_begin(j, "dtlb_from");
    for (int k = 0; k < TLB_KINDS; k++)
        json_string(j, tlb_kind_key((enum tlb_kind)k), t->entries[k] ? t->from[k] : "none");
    json_object_end(j);
    json_object_begin(j, "dtlb_why");
    for (int k = 0; k < TLB_KINDS; k++)
        json_string(j, tlb_kind_key((enum tlb_kind)k), t->why[k][0] ? t->why[k] : NULL);
    json_object_end(j);
    json_string(j, "dtlb_walk", t->note);
}
