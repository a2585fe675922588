/* pmucal roofline: the ceilings of the roofline model on this host, one thread and a team, and
 * the cases of a run placed under them. Compute ceilings are the flops kernel (FMA where CPUID
 * advertises it, else adds and multiplies in turn) at every width and precision the CPU runs;
 * bandwidth ceilings are triad at each level's size, counting the bytes its instructions load and
 * store (STREAM's accounting). Everything is timed by the measurement core (TSC x measured clock
 * ratio), no counters needed. */
#include "arch/isa.h"
#include "base/jread.h"
#include "base/json.h"
#include "base/stop.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/session.h"
#include "core/measure.h"
#include "core/team.h"
#include "host/topo.h"
#include "penalties/ceilings.h"
#include "report/report.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int roofline_main(int argc, char **argv);

enum { K_THREADS = CLI_LONG, K_WIDTHS, K_LEVELS, K_RUN, K_CEILINGS, K_LABEL, K_OUT };

static const struct cli_option roofline_options[] = {
    {"threads", K_THREADS, "N", "threads of the team ceilings, one per CPU (default: every allowed CPU)"},
    {"widths", K_WIDTHS, "LIST", "compute widths, of scalar,sse,avx2,avx512 (default all; those CPUID lacks are SKIP)"},
    {"levels", K_LEVELS, "LIST", "bandwidth levels, of L1,L2,L3,DRAM (default all)"},
    {"run", K_RUN, "RUN", "a validate or calibrate run whose cases are placed under the ceilings"},
    {"ceilings", K_CEILINGS, "ROOF", "the ceilings of an earlier 'pmucal roofline' folder (or its roofline.json):\n"
     "--run's cases are placed under them, nothing is measured"},
    {"repetitions", 'r', "N", "repetitions per ceiling, 1..101 (default 5)"},
    {"label", K_LABEL, "NAME", "results folder label (default roofline)"},
    {"out", K_OUT, "DIR", "parent of the results folder (default $PMUCAL_RESULTS or results)"},
    CLI_END,
};

const struct command roofline_command = {
    .name = "roofline",
    .fn = roofline_main,
    .summary = "roofline ceilings (peak GFLOP/s per width and precision, GB/s per level), 1 thread and all CPUs",
    .synopsis = "[options]",
    .usage = "Measures the compute ceilings (the flops kernel: FMA where CPUID advertises it, else adds and\n"
             "multiplies in turn, 12 independent accumulators, at each width and precision) and the\n"
             "bandwidth ceilings (triad at the size of L1, L2, L3 and DRAM, its widest variant; bytes its\n"
             "instructions load and store, as STREAM counts them) with one thread and with a team of\n"
             "--threads (one per CPU, each on memory it touched first, started together). With --run,\n"
             "places that run's cases: operational intensity from their models (flops per byte),\n"
             "GFLOP/s from their time, and says whether each is under the roof (within 10%: the\n"
             "ceilings are medians on a noisy machine). Prints the tables and writes roofline.json,\n"
             "roofline.svg and manifest.json into results/<date>-<host>-<label>/ ('pmucal report' of\n"
             "the folder draws the roofline; 'emit --roofline' adds the ceilings to its tables).\n"
             "With --ceilings ROOF the ceilings are those of an earlier roofline folder, and only\n"
             "--run's cases are placed (seconds measured on another day, judged again offline).\n"
             "Exit status: 0; 1 when a case is above its roof or a ceiling could not be measured; 2 on\n"
             "bad input; 130/143 when interrupted (the manifest says so).\n",
    .options = roofline_options,
    .examples = "  pmucal roofline\n"
                "  pmucal roofline --widths avx2 --levels L1,DRAM --run results/2026-11-25-vm-validate\n"
                "  pmucal roofline --ceilings results/2026-11-25-vm-roofline --run results/2026-11-25-vm-validate\n",
};

struct roofline_args {
    unsigned long long threads, reps;
    const char *widths, *levels, *run, *ceilings, *label, *out;
};

static int roofline_option(void *ctx, int key, const char *v)
{
    struct roofline_args *a = ctx;
    switch (key) {
    case K_THREADS: return cli_number(&roofline_command, "--threads", v, 1, 1024, &a->threads);
    case 'r': return cli_number(&roofline_command, "--repetitions", v, 1, MEASURE_MAX_REPS, &a->reps);
    case K_WIDTHS: a->widths = v; return 0;
    case K_LEVELS: a->levels = v; return 0;
    case K_RUN: a->run = v; return 0;
    case K_CEILINGS: a->ceilings = v; return 0;
    case K_LABEL: a->label = v; return 0;
    case K_OUT: a->out = v; return 0;
    }
    return 2;
}

static const char *const all_widths[] = {"scalar", "sse", "avx2", "avx512"};
static const char *const all_levels[] = {"L1", "L2", "L3", "DRAM"};

/* Each word of a comma list must be one of the choices: which were named, as flags. -1 after a
 * message naming the word and the choices. */
static int pick(const char *opt, const char *list, const char *const *choices, int n, bool *on)
{
    for (int i = 0; i < n; i++)
        on[i] = !list;
    if (!list)
        return 0;
    char *copy = xstrdup(list), *save = NULL;
    for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(w, choices[i]))
                k = i;
        if (k < 0) {
            pm_error("roofline: %s %s: '%s' is not one of %s%s%s%s%s%s%s", opt, list, w, choices[0], n > 1 ? "," : "",
                     n > 1 ? choices[1] : "", n > 2 ? "," : "", n > 2 ? choices[2] : "", n > 3 ? "," : "",
                     n > 3 ? choices[3] : "");
            free(copy);
            return -1;
        }
        on[k] = true;
    }
    free(copy);
    return 0;
}

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

struct ceiling {
    const char *what, *prec;   /* width or level; dp/sp for compute */
    unsigned threads;
    double value, ghz;         /* GFLOP/s or GB/s; NAN when skipped */
    double set_bytes;          /* bandwidth: each thread's working set */
    const char *op;
    const char *withheld;      /* why there is no value though the case ran, or NULL */
};

static int measure_ceilings(const struct roofline_args *a, const bool *width_on, const bool *level_on,
                            unsigned *threads, int nthreads, struct ceiling *comp, int *ncomp, struct ceiling *bw,
                            int *nbw)
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
                snprintf(text, sizeof(text), "width=%s prec=%s op=%s threads=%u", all_widths[w], precs[p],
                         op, threads[t]);
                struct ceiling *c = &comp[(*ncomp)++];
                *c = (struct ceiling){all_widths[w], precs[p], threads[t], NAN, NAN, NAN, op, NULL};
                double gbs, set;
                int rc = time_case("flops", text, (int)a->reps, &c->value, &gbs, &c->ghz, &set);
                failed |= rc < 0;
                c->withheld = rc == 2 ? TIME_WITHHELD : NULL;
            }
    for (int l = 0; l < 4 && !stop_requested(); l++)
        for (int t = 0; level_on[l] && t < nthreads && !stop_requested(); t++) {
            char text[128];
            snprintf(text, sizeof(text), "size=%s variant=%s threads=%u", all_levels[l], variant, threads[t]);
            struct ceiling *c = &bw[(*nbw)++];
            *c = (struct ceiling){all_levels[l], NULL, threads[t], NAN, NAN, NAN, variant, NULL};
            double gflops;
            int rc = time_case("triad", text, (int)a->reps, &gflops, &c->value, &c->ghz, &c->set_bytes);
            failed |= rc < 0;
            c->withheld = rc == 2 ? TIME_WITHHELD : NULL;
        }
    return failed;
}

/* The ceilings of an earlier roofline.json (file), their names pointing into doc; how many
 * roofline.json says the team had in *team. -1 after a message naming the file when they are not
 * what pmucal writes (penalties/ceilings.h checks each). */
static int ceilings_read(const struct jvalue *doc, const char *file, struct ceiling *comp, int *ncomp, int maxcomp,
                         struct ceiling *bw, int *nbw, int maxbw, unsigned *team)
{
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
                *width = all_widths[w], *prec = precs[p];
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

/* The run's cases (one record each, the first), placed: into the JSON and printed. Returns how many
 * are above their roof, or -1 when the run cannot be read. */
static int place_run(const char *path, const struct ceiling *comp, int ncomp, const struct ceiling *bw, int nbw,
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

static void print_ceilings(const char *title, const struct ceiling *c, int n, const unsigned *threads, int nthreads)
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

static int write_svg(const char *dir, const struct json *j)
{
    char err[256];
    struct jvalue *doc = jread_parse(j->buf, j->len, err, sizeof(err));
    if (!doc) {
        pm_error("roofline: the JSON just made does not parse (%s)", err);
        return -1;
    }
    struct run_out o;
    FILE *f = run_out_begin(&o, dir, "roofline.svg");
    if (!f) {
        jread_free(doc);
        return -1;
    }
    roofline_svg(f, doc, 0);
    jread_free(doc);
    return run_out_commit(&o);
}

static int roofline_main(int argc, char **argv)
{
    struct roofline_args a = {.label = "roofline"};
    if (cli_parse(&roofline_command, argc, argv, roofline_option, &a, NULL))
        return 2;
    if (a.ceilings && (a.widths || a.levels || a.threads || a.reps))
        return cli_usage_error(&roofline_command, "--ceilings takes the ceilings as measured: give no --widths, "
                                                  "--levels, --threads or --repetitions with it");
    if (a.ceilings && !a.run)
        return cli_usage_error(&roofline_command, "--ceilings places a run's cases: give --run RUN with it");
    if (!a.reps)
        a.reps = 5;
    bool width_on[4], level_on[4];
    if (pick("--widths", a.widths, all_widths, 4, width_on) || pick("--levels", a.levels, all_levels, 4, level_on))
        return 2;
    int cpus[1024], ncpu = topo_cpus(cpus, 1024);
    if (a.threads && a.threads > (unsigned long long)ncpu) {
        char list[256];
        topo_cpu_list(list, sizeof(list));
        pm_error("roofline: --threads %llu: this process may use %d CPUs (%s); give --threads %d or fewer", a.threads,
                 ncpu, list, ncpu);
        return 2;
    }
    unsigned team = a.threads ? (unsigned)a.threads : (unsigned)ncpu;
    struct ceiling comp[4 * 2 * 2], bw[4 * 2];
    int ncomp = 0, nbw = 0;
    struct jvalue *given = NULL;   /* --ceilings: what the ceilings' names point into */
    char *given_file = NULL;
    bool given_bad = a.ceilings && (!(given = ceilings_load(a.ceilings, "--ceilings", &given_file)) ||
                                    ceilings_read(given, given_file, comp, &ncomp, 16, bw, &nbw, 8, &team));
    free(given_file);
    if (given_bad) {
        jread_free(given);
        return 2;
    }
    unsigned threads[2] = {1, team};
    int nthreads = team > 1 ? 2 : 1;
    if (a.run) {   /* the run is checked before anything is measured */
        struct runfile r;
        if (runfile_load(&r, a.run)) {
            jread_free(given);
            return 2;
        }
        runfile_free(&r);
    }
    struct session s;
    session_init(&s, &roofline_command, argc, argv);
    if (session_open(&s, a.out, a.label)) {
        jread_free(given);
        return 2;
    }
    json_int(&s.dir.manifest, "threads", team);
    if (a.ceilings)
        json_string(&s.dir.manifest, "ceilings", a.ceilings);
    session_start(&s);
    int rc = given ? 0 : measure_ceilings(&a, width_on, level_on, threads, nthreads, comp, &ncomp, bw, &nbw) ? 1 : 0;
    if (stop_requested()) {
        rc = session_stopped(&s, "stopped while measuring the ceilings");
        session_free(&s);
        return rc;
    }
    if (given) {
        printf("roofline of %s: 1 thread and %u\n", a.ceilings, team);
    } else {
        printf("roofline of this host: 1 thread and %u (CPU", team);
        for (unsigned t = 0; t < team; t++)
            printf("%s%d", t ? "," : " ", t == 0 ? cpus[0] : cpus[t]);
        printf(")\n");
    }
    print_ceilings("peak GFLOP/s", comp, ncomp, threads, nthreads);
    print_ceilings("bandwidth GB/s (triad)", bw, nbw, threads, nthreads);
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_int(&j, "threads", team);
    json_string(&j, "bytes", "loaded and stored by the kernel's instructions (STREAM's accounting)");
    ceilings_json(&j, "compute", "gflops", comp, ncomp);
    ceilings_json(&j, "bandwidth", "gbs", bw, nbw);
    if (a.run) {
        int above = place_run(a.run, comp, ncomp, bw, nbw, &j);
        if (above)
            rc = 1;
    }
    json_object_end(&j);
    if (run_dir_write(&s.dir, "roofline.json", &j) || write_svg(s.dir.path, &j))
        rc = 1;
    else
        printf("wrote %s/roofline.json and roofline.svg\n", s.dir.path);
    json_free(&j);
    jread_free(given);
    rc = session_end(&s, rc, rc ? "a ceiling could not be measured, a case is above its roof, or an output was "
                                  "not written" : NULL);
    session_free(&s);
    return rc;
}
