/* The roofline model (penalties/roofline_model.h): the ceilings timed by the measurement core (TSC x
 * measured clock ratio, no counters), read back, and a run's cases placed under them. */
#include "penalties/roofline_model.h"
#include "arch/isa.h"
#include "base/stop.h"
#include "base/util.h"
#include "core/measure.h"
#include "core/team.h"
#include "penalties/ceilings.h"
#include "runs/runfile.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const roofline_widths[ROOFLINE_NWIDTHS] = {"scalar", "sse", "avx2", "avx512"};
const char *const roofline_levels[ROOFLINE_NLEVELS] = {"L1", "L2", "L3", "DRAM"};

/* One case timed: its flops and bytes per iteration over the median ns per iteration. 0 ok, 1 SKIP,
 * 2 withheld (no time survived the load, TIME_WITHHELD says why), -1 failed. */
#define TIME_WITHHELD "every timing window was disturbed, in three measurements: a member of the team waited " \
                      "for its CPU, which other work held; withheld, not guessed"
static int time_case(const char *kernel, const char *text, int reps, double *gflops, double *gbs, double *ghz,
                     double *set_bytes)
{
    struct measure_opts o = MEASURE_OPTS_DEFAULT;
    o.repetitions = reps;
    struct stats cycles;
    struct quantities q;
    /* A measurement whose windows were mostly disturbed (a team member preempted on a busy
     * machine) can leave no positive time: measured again, twice at most. */
    int rc = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
        rc = measure_case_cycles(kernel, text, &o, &cycles, ghz, &q);
        if (rc || cycles.median > 0)
            break;
    }
    if (rc)
        return rc;
    if (!(cycles.median > 0))
        return 2;
    double ns = cycles.median / *ghz;
    double flops = (quantity_stated(&q, Q_FLOPS_DP) ? q.v[Q_FLOPS_DP] : 0) +
                   (quantity_stated(&q, Q_FLOPS_SP) ? q.v[Q_FLOPS_SP] : 0);
    double bytes = q.v[Q_BYTES_READ] + q.v[Q_BYTES_WRITTEN];
    /* One thread's working set: an iteration (one pass) moves each thread's arrays once. */
    *set_bytes = bytes / (quantity_stated(&q, Q_THREADS) ? q.v[Q_THREADS] : 1);
    *gflops = ns > 0 ? flops / ns : NAN;
    *gbs = ns > 0 && bytes > 0 ? bytes / ns : NAN;
    return 0;
}

int roofline_measure(int reps, const bool *width_on, const bool *level_on, const unsigned *threads, int nthreads,
                     struct ceiling *comp, int *ncomp, struct ceiling *bw, int *nbw)
{
    int failed = 0;
    /* What CPUID advertises, through the ISA seam: FMA by its name among the ISA's extensions, and
     * triad's widest variant the CPU runs (the variants go from narrow to wide). */
    bool fma = false;
    for (size_t i = 0; i < isa_nexts; i++)
        fma |= !strcmp(isa_exts[i].name, "FMA") && isa_ext_present(isa_exts[i].bit);
    const char *op = fma ? "fma" : "addmul", *variant = isa_triad_variants[0].name;
    for (size_t i = 0; i < isa_ntriad_variants; i++)
        if (!isa_triad_variants[i].ext || isa_ext_present(isa_triad_variants[i].ext))
            variant = isa_triad_variants[i].name;
    static const char *const precs[] = {"dp", "sp"};
    if (!kernel_find("flops"))   /* an ISA without the flops kernel: bandwidth ceilings only */
        pm_note("roofline: %s has no flops kernel: no compute ceilings", ISA_NAME);
    for (int w = 0; w < 4 && kernel_find("flops") && !stop_requested(); w++)
        for (int p = 0; width_on[w] && p < 2 && !stop_requested(); p++)
            for (int t = 0; t < nthreads && !stop_requested(); t++) {
                char text[128];
                snprintf(text, sizeof(text), "width=%s prec=%s op=%s threads=%u", roofline_widths[w], precs[p],
                         op, threads[t]);
                struct ceiling *c = &comp[(*ncomp)++];
                *c = (struct ceiling){roofline_widths[w], precs[p], threads[t], NAN, NAN, NAN, op, NULL};
                double gbs, set;
                int rc = time_case("flops", text, reps, &c->value, &gbs, &c->ghz, &set);
                failed |= rc < 0;
                c->withheld = rc == 2 ? TIME_WITHHELD : NULL;
            }
    for (int l = 0; l < 4 && !stop_requested(); l++)
        for (int t = 0; level_on[l] && t < nthreads && !stop_requested(); t++) {
            char text[128];
            snprintf(text, sizeof(text), "size=%s variant=%s threads=%u", roofline_levels[l], variant, threads[t]);
            struct ceiling *c = &bw[(*nbw)++];
            *c = (struct ceiling){roofline_levels[l], NULL, threads[t], NAN, NAN, NAN, variant, NULL};
            double gflops;
            int rc = time_case("triad", text, reps, &gflops, &c->value, &c->ghz, &c->set_bytes);
            failed |= rc < 0;
            c->withheld = rc == 2 ? TIME_WITHHELD : NULL;
        }
    return failed;
}

int roofline_read(const struct jvalue *doc, const char *file, struct ceiling *comp, int *ncomp, struct ceiling *bw,
                  int *nbw, unsigned *team)
{
    const int maxcomp = ROOFLINE_MAX_COMPUTE, maxbw = ROOFLINE_MAX_BANDWIDTH;
    double t;
    char err[160];
    if (!jget_in(doc, "threads", 1, TEAM_MAX, false, 0, &t, err, sizeof(err))) {
        pm_error("roofline: --ceilings %s: %s (the team's size); give a roofline.json of 'pmucal roofline'", file, err);
        return -1;
    }
    *team = (unsigned)t;
    struct ceiling_row *rows;
    int n = ceilings_rows(doc, file, &rows);
    *ncomp = *nbw = 0;
    for (int i = 0; i < n; i++) {
        const struct ceiling_row *r = &rows[i];
        int *k = r->compute ? ncomp : nbw;
        if (*k == (r->compute ? maxcomp : maxbw)) {
            pm_error("roofline: --ceilings %s: more than %d %s ceilings; 'pmucal roofline' writes no more", file,
                     r->compute ? maxcomp : maxbw, r->compute ? "compute" : "bandwidth");
            free(rows);
            return -1;
        }
        (r->compute ? comp : bw)[(*k)++] = (struct ceiling){r->name, r->compute ? r->prec : NULL, (unsigned)r->threads,
                                                           r->value, r->ghz, r->set_bytes, r->op, r->withheld};
    }
    free(rows);
    return n < 0 ? -1 : 0;
}

/* The highest ceiling of a kind for this many threads (the nearest measured team size at most as
 * large, else the smallest): NAN when none was measured. */
static double roof_of(const struct ceiling *c, int n, unsigned threads)
{
    unsigned best_t = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(c[i].value) && c[i].threads <= threads && c[i].threads > best_t)
            best_t = c[i].threads;
    if (!best_t)
        for (int i = 0; i < n; i++)
            if (!isnan(c[i].value) && (!best_t || c[i].threads < best_t))
                best_t = c[i].threads;
    double v = NAN;
    for (int i = 0; i < n; i++)
        if (c[i].threads == best_t && !isnan(c[i].value) && (isnan(v) || c[i].value > v))
            v = c[i].value;
    return v;
}

/* The ceiling of a kind that applies to a case: of its width and precision (compute) or its level
 * (bandwidth), the nearest measured team size as roof_of; the highest of the kind when that one was
 * not measured (--widths, --levels), named so in *which. */
static double roof_for(const struct ceiling *c, int n, unsigned threads, const char *what, const char *prec,
                       char *which, size_t len)
{
    struct ceiling mine[16];
    int k = 0;
    for (int i = 0; what && i < n && k < 16; i++)
        if (!strcmp(c[i].what, what) && (!prec || (c[i].prec && !strcmp(c[i].prec, prec))))
            mine[k++] = c[i];
    double v = roof_of(mine, k, threads);
    if (!isnan(v)) {
        snprintf(which, len, "%s%s%s", what, prec ? " " : "", prec ? prec : "");
        return v;
    }
    snprintf(which, len, "highest");
    return roof_of(c, n, threads);
}

/* The width and precision of a case's widest FP instructions (the model's fp.<bits>_<prec>); NULL
 * when it states none. */
static void case_width(const struct jvalue *model, const char **width, const char **prec)
{
    static const char *const bits[4] = {"scalar", "128", "256", "512"}, *const precs[2] = {"dp", "sp"};
    *width = *prec = NULL;
    for (int w = 3; w >= 0 && !*width; w--)
        for (int p = 0; p < 2 && !*width; p++) {
            char key[32];
            snprintf(key, sizeof(key), "fp.%s_%s", bits[w], precs[p]);
            if (jget_num(model, key, 0) > 0)
                *width = roofline_widths[w], *prec = precs[p];
        }
}

/* The level a case's data streams from: the farthest its model brings lines from, L1 when none. */
static const char *case_level(const struct jvalue *model)
{
    return jget_num(model, "lines.dram", 0) > 0 ? "DRAM" : jget_num(model, "lines.l3", 0) > 0 ? "L3"
         : jget_num(model, "lines.l2", 0) > 0 ? "L2" : "L1";
}

/* Slack above the roof a case may show: the ceilings are medians of a noisy machine. */
#define ROOF_SLACK 1.10

int roofline_place_run(const char *path, const struct ceiling *comp, int ncomp, const struct ceiling *bw, int nbw,
                       struct json *j)
{
    struct runfile r;
    if (runfile_load(&r, path))
        return -1;
    const char *source = jget_str(r.manifest, "source", "perf");
    if (!strcmp(source, "sim")) {
        pm_error("roofline: --run %s was measured under the sim source, whose time means nothing; give a run of "
                 "the perf source (pmucal validate)", path);
        runfile_free(&r);
        return -1;
    }
    int above = 0, placed = 0;
    char **seen = xcalloc((size_t)r.nrec + 1, sizeof(*seen));
    int nseen = 0;
    json_array_begin(j, "cases");
    printf("cases of %s (operational intensity: flops per byte loaded or stored, from the model):\n", path);
    printf("  %-44s %10s %10s %10s %7s  %s\n", "case", "flop/byte", "GFLOP/s", "roof", "of roof", "ceilings that apply");
    for (int i = 0; i < r.nrec; i++) {
        const struct jvalue *rec = r.rec[i], *model = jget(rec, "model"), *cy = jget(rec, "cycles");
        const char *label = jget_str(rec, "case", NULL);
        bool dup = false;
        for (int k = 0; label && k < nseen; k++)
            dup |= !strcmp(seen[k], label);
        double flops = jget_num(model, "flops.dp", 0) + jget_num(model, "flops.sp", 0);
        double bytes = jget_num(model, "bytes.read", NAN) + jget_num(model, "bytes.written", NAN);
        double ghz = jget_num(cy, "core_per_tsc", NAN) * jget_num(cy, "tsc_hz", NAN) / 1e9;
        double ns = jget_num(jget(cy, "stats"), "median", NAN) / ghz;
        if (!label || dup || !(flops > 0) || !(ns > 0))
            continue;   /* no FP work, or no time: nothing to place */
        seen[nseen++] = xstrdup(label);
        unsigned threads = (unsigned)jget_num(model, "threads", 1);
        double gflops = flops / ns, oi = bytes > 0 ? flops / bytes : INFINITY;
        const char *width, *prec, *level = case_level(model);
        case_width(model, &width, &prec);
        char by_comp[32], by_bw[32];
        double peak = roof_for(comp, ncomp, threads, width, prec, by_comp, sizeof(by_comp));
        double roof = fmin(peak, oi * roof_for(bw, nbw, threads, level, NULL, by_bw, sizeof(by_bw)));
        bool over = gflops > roof * ROOF_SLACK;
        above += over;
        placed++;
        json_object_begin(j, NULL);
        json_string(j, "case", label);
        json_number(j, "oi", isinf(oi) ? NAN : oi);
        json_number(j, "gflops", gflops);
        json_number(j, "roof_gflops", roof);
        json_int(j, "threads", threads);
        json_string(j, "compute_ceiling", by_comp);
        json_string(j, "bandwidth_ceiling", by_bw);
        json_bool(j, "under", !over);
        json_object_end(j);
        printf("  %-44s %10.3g %10.3g %10.3g %6.0f%%  %s %uT, %s %uT%s\n", label, oi, gflops, roof, 100 * gflops / roof,
               by_comp, threads, by_bw, threads, over ? "  ABOVE THE ROOF" : "");
    }
    json_array_end(j);
    if (!placed)
        printf("  (no case of the run has floating-point work and a time)\n");
    for (int k = 0; k < nseen; k++)
        free(seen[k]);
    free(seen);
    runfile_free(&r);
    return above;
}

static void ceilings_json(struct json *j, const char *key, const char *unit, const struct ceiling *c, int n)
{
    json_array_begin(j, key);
    for (int i = 0; i < n; i++) {
        json_object_begin(j, NULL);
        json_string(j, c[i].prec ? "isa" : "level", c[i].what);
        if (c[i].prec)
            json_string(j, "prec", c[i].prec);
        json_string(j, c[i].prec ? "op" : "variant", c[i].op);
        json_int(j, "threads", c[i].threads);
        json_number(j, unit, c[i].value);
        json_number(j, "core_ghz", c[i].ghz);
        if (!c[i].prec)
            json_number(j, "bytes_per_thread", c[i].set_bytes);
        if (c[i].withheld)
            json_string(j, "withheld", c[i].withheld);
        json_object_end(j);
    }
    json_array_end(j);
}

int roofline_document(struct json *j, unsigned team, const struct ceiling *comp, int ncomp, const struct ceiling *bw,
                      int nbw, const char *run)
{
    json_init(j);
    json_object_begin(j, NULL);
    json_int(j, "threads", team);
    json_string(j, "bytes", "loaded and stored by the kernel's instructions (STREAM's accounting)");
    ceilings_json(j, "compute", "gflops", comp, ncomp);
    ceilings_json(j, "bandwidth", "gbs", bw, nbw);
    int above = run ? roofline_place_run(run, comp, ncomp, bw, nbw, j) : 0;
    json_object_end(j);
    return above;
}

void roofline_print_ceilings(const char *title, const struct ceiling *c, int n, const unsigned *threads, int nthreads)
{
    printf("%-28s", title);
    for (int t = 0; t < nthreads; t++)
        printf(" %9u thread%s", threads[t], threads[t] == 1 ? " " : "s");
    printf("\n");
    for (int i = 0; i < n; i += nthreads) {
        char name[64];
        snprintf(name, sizeof(name), "%s %s %s", c[i].what, c[i].prec ? c[i].prec : "", c[i].op);
        printf("  %-26s", name);
        for (int t = 0; t < nthreads && i + t < n; t++)
            if (isnan(c[i + t].value))
                printf(" %16s", c[i + t].withheld ? "withheld" : "SKIP");
            else
                printf(" %16.2f", c[i + t].value);
        printf("\n");
    }
    for (int i = 0; i < n; i++)
        if (c[i].withheld)
            pm_note("roofline: %s %s%s%u thread%s: %s", c[i].what, c[i].prec ? c[i].prec : "", c[i].prec ? " " : "",
                    c[i].threads, c[i].threads == 1 ? "" : "s", c[i].withheld);
}
