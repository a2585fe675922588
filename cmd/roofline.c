/* pmucal roofline: the ceilings of the roofline model on this host, one thread and a team, and
 * the cases of a run placed under them. Compute ceilings are the flops kernel (FMA where CPUID
 * advertises it, else adds and multiplies in turn) at every width and precision the CPU runs;
 * bandwidth ceilings are triad at each level's size, counting the bytes its instructions load and
 * store (STREAM's accounting). Everything is timed by the measurement core (TSC x measured clock
 * ratio), no counters needed. The model is penalties/roofline_model.h's; this is its options and exit
 * status. */
#include "base/jread.h"
#include "base/json.h"
#include "base/stop.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "runs/session.h"
#include "core/measure.h"
#include "host/topo.h"
#include "penalties/ceilings.h"
#include "penalties/roofline_model.h"
#include "report/report.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
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
    {"label", K_LABEL, "NAME", "run folder label (default roofline)"},
    {"out", K_OUT, CLI_OUT_DIR, "parent of the run folder (default $PMUCAL_RESULTS or results)"},
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

/* Each word of a comma list must be one of the choices: which were named, as flags. -1 after a
 * message naming the word and the choices. */
static int parse_choices(const char *opt, const char *list, const char *const *choices, int n, bool *on)
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
    if (parse_choices("--widths", a.widths, roofline_widths, 4, width_on) ||
        parse_choices("--levels", a.levels, roofline_levels, 4, level_on))
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
    struct ceiling comp[ROOFLINE_MAX_COMPUTE], bw[ROOFLINE_MAX_BANDWIDTH];
    int ncomp = 0, nbw = 0;
    struct jvalue *given = NULL;   /* --ceilings: what the ceilings' names point into */
    char *given_file = NULL;
    bool given_bad = a.ceilings && (!(given = ceilings_load(a.ceilings, "--ceilings", &given_file)) ||
                                    roofline_read(given, given_file, comp, &ncomp, bw, &nbw, &team));
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
    session_init(&s, roofline_command.name, argc, argv);
    if (session_open(&s, a.out, a.label)) {
        jread_free(given);
        return 2;
    }
    json_int(&s.dir.manifest, "threads", team);
    if (a.ceilings)
        json_string(&s.dir.manifest, "ceilings", a.ceilings);
    if (session_start(&s)) {
        int rc = session_end(&s, 1, SESSION_NO_MANIFEST);
        jread_free(given);
        session_free(&s);
        return rc;
    }
    int rc = given ? 0 : roofline_measure((int)a.reps, width_on, level_on, threads, nthreads, comp, &ncomp, bw, &nbw) ? 1 : 0;
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
    roofline_print_ceilings("peak GFLOP/s", comp, ncomp, threads, nthreads);
    roofline_print_ceilings("bandwidth GB/s (triad)", bw, nbw, threads, nthreads);
    struct json j;
    if (roofline_document(&j, team, comp, ncomp, bw, nbw, a.run))
        rc = 1;
    if (run_dir_write(&s.dir, "roofline.json", &j) || roofline_svg_write(s.dir.path, &j))
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
