/* pmucal c2c: one-way core-to-core line transfer latency for every ordered pair of CPUs, from the
 * snoop kernel (the writer modifies a segment, the reader walks it with dependent loads). */
#include "base/stop.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "runs/session.h"
#include "core/measure.h"
#include "host/topo.h"
#include "microkernels/snoop_transfer.h"
#include "report/c2c_run.h"
#include "runs/c2c_csv.h"
#include <stdlib.h>
#include <string.h>

static int c2c_main(int argc, char **argv);

enum { K_CPUS = CLI_LONG, K_MODE, K_SIZE, K_LABEL, K_OUT, K_RESUME };

static const struct cli_option c2c_options[] = {
    {"cpus", K_CPUS, "LIST", "CPUs to pair, comma-separated OS indexes (default: every allowed CPU)"},
    {"mode", K_MODE, "hitm|shared", "modified lines (default) or clean ones"},
    {"size", K_SIZE, "SIZE", "segment the writer modifies: bytes or L1|L2 (default L2; it must stay in the\n"
                             "writer's private caches for every line to be a transfer)"},
    {"repetitions", 'r', "N", "repetitions per pair, 1..101 (default 5)"},
    {"label", K_LABEL, "NAME", "run folder label (default c2c)"},
    {"out", K_OUT, CLI_OUT_DIR, "parent of the run folder (default $PMUCAL_RESULTS or results)"},
    {"resume", K_RESUME, "RUN",
     "complete the interrupted (or crashed) c2c run folder RUN with its own\n"
     "options (from its manifest; no other option is taken with it): the pairs\n"
     "in its c2c.csv are kept, the rest measured; same host, CPU and build"},
    CLI_END,
};

const struct command c2c_command = {
    .name = "c2c",
    .fn = c2c_main,
    .summary = "core-to-core transfer latency of a cache line for every pair of CPUs: matrix, CSV, SVG",
    .synopsis = "[options]",
    .usage = "For every ordered pair of CPUs (FROM, TO), a writer thread on FROM modifies every line\n"
             "of a segment (mode hitm) or reads it clean (mode shared); the measuring thread on TO then\n"
             "walks the segment with dependent loads: the time per load is the one-way latency of a\n"
             "line moving FROM -> TO. Pairs are labelled by how they share hardware (smt-sibling,\n"
             "same-l3, other-l3, other-package). Prints the matrix (rows FROM, columns TO; median core\n"
             "cycles and ns) and writes c2c.csv (one row per pair, added as the pair finishes), c2c.svg\n"
             "(a heatmap, when gnuplot is installed) and manifest.json into results/<date>-<host>-<label>/.\n"
             "Exit status: 0; 1 when a pair or an output could not be measured or written; 2 on bad\n"
             "input; 130 (SIGINT) or 143 (SIGTERM) when interrupted: the finished pairs are kept in\n"
             "c2c.csv and the manifest says interrupted. A run killed outright (kill -9) keeps them too.\n"
             "--resume RUN completes such a run in its folder: the pairs of its c2c.csv are not measured\n"
             "again (a last row cut short by the kill is dropped, with a note), c2c.csv ends with every\n"
             "pair once and the manifest lists each resumption under \"resumed\". Refused (exit 2) as\n"
             "validate --resume refuses: a complete run, a live one, another command, host, CPU or build.\n",
    .options = c2c_options,
    .examples = "  pmucal c2c\n"
                "  pmucal c2c --cpus 0,1 --mode shared -r 9\n"
                "  pmucal c2c --resume results/2026-11-23-vm-c2c\n",
};

static int parse_cpus(const char *list, int *cpus, int max)
{
    int n;
    char **words = split_list(list, ',', &n);
    int rc = n;
    for (int i = 0; i < n && rc >= 0; i++) {
        uint64_t v;
        if (!parse_u64(words[i], &v) || v >= 1u << 20 || !topo_cpu_valid((int)v)) {
            int all[1024], na = topo_cpus(all, 1024);
            pm_error("c2c: --cpus %s: '%s' is not a CPU of this machine; give OS indexes from %d..%d",
                     list, words[i], na ? all[0] : 0, na ? all[na - 1] : 0);
            rc = -1;
        } else if (i >= max) {
            pm_error("c2c: --cpus lists more than %d CPUs", max);
            rc = -1;
        } else {
            cpus[i] = (int)v;
            for (int k = 0; k < i; k++)
                if (cpus[k] == cpus[i]) {
                    pm_error("c2c: --cpus %s names CPU %d twice", list, cpus[i]);
                    rc = -1;
                }
        }
    }
    free_list(words);
    return rc;
}

struct c2c_args {
    const char *cpu_list, *mode, *size, *label, *out;
    struct measure_opts o;
    const char *resume;   /* --resume RUN */
    int given;            /* options other than --resume */
};
#define C2C_DEFAULTS {.mode = "hitm", .size = "L2", .label = "c2c", .o = MEASURE_OPTS_DEFAULT}

static int c2c_option(void *ctx, int key, const char *v)
{
    struct c2c_args *a = ctx;
    unsigned long long r;
    int rc = 0;
    if (key == K_RESUME) {
        a->resume = v;
        return 0;
    }
    a->given++;
    switch (key) {
    case K_CPUS:
        a->cpu_list = v;
        break;
    case K_MODE:
        if (strcmp(v, "hitm") && strcmp(v, "shared"))
            return cli_usage_error(&c2c_command, "--mode %s: give hitm or shared", v);
        a->mode = v;
        break;
    case K_SIZE:
        a->size = v;
        break;
    case 'r':
        if (!(rc = cli_number(&c2c_command, "-r", v, 1, MEASURE_MAX_REPS, &r)))
            a->o.repetitions = (int)r;
        break;
    case K_LABEL:
        a->label = v;
        break;
    case K_OUT:
        a->out = v;
        break;
    }
    return rc;
}

/* --resume RUN: the run's own options, parsed again. */
static int reparse(void *args, int argc, char **argv)
{
    struct c2c_args *a = args, fresh = C2C_DEFAULTS;
    *a = fresh;
    return cli_reparse(&c2c_command, argc, argv, c2c_option, a, NULL);
}

static const struct session_resumer c2c_resumer = {.reparse = reparse};

/* A c2c run: its options, what it measures (the CPUs, the pairs a --resume keeps), and the
 * session that writes its folder. */
struct c2c_run {
    struct c2c_args a;
    struct session s;
    struct c2c_pairs p;
};

/* The CPUs and the segment checked before the long part and, when resuming, the folder claimed
 * and its pairs read. 0, or 2 after a message. */
static int c2c_check(struct c2c_run *r)
{
    const struct c2c_args *a = &r->a;
    struct c2c_pairs *p = &r->p;
    p->ncpu = a->cpu_list ? parse_cpus(a->cpu_list, p->cpus, C2C_MAX_CPUS) : topo_cpus(p->cpus, C2C_MAX_CPUS);
    if (p->ncpu < 0)
        return 2;
    if (p->ncpu < 2) {
        pm_error("c2c: needs at least two CPUs, %s %d; a transfer goes from one core to another",
                 a->cpu_list ? "--cpus names" : "this process may use", p->ncpu);
        return 2;
    }
    if (snoop_pair_segment_check(a->size))
        return 2;
    if (session_resuming(&r->s) &&
        (resume_claim(&r->s.rs) || c2c_csv_kept(&r->s.rs, p->cpus, p->ncpu, &p->kept, &p->nkept)))
        return 2;
    return 0;
}

/* The folder opened, the pairs measured into it, the folder closed: the exit status. */
static int c2c_measure(struct c2c_run *r)
{
    const struct c2c_args *a = &r->a;
    if (session_open(&r->s, a->out, a->label))
        return 2;   /* before anything is measured: the folder named is the bad input */
    if (session_start(&r->s))
        return session_end(&r->s, 1, SESSION_NO_MANIFEST);
    r->p.mode = a->mode;
    r->p.size = a->size;
    r->p.o = &a->o;
    int rc = c2c_pairs_measure(&r->p, r->s.dir.path, session_resuming(&r->s));
    if (!r->p.stopped[0])   /* no stop while the pairs were measured */
        return session_end(&r->s, rc, rc ? "a pair or an output could not be measured or written" : NULL);
    pm_note("interrupted: %s; the finished pairs are in %s/c2c.csv; 'pmucal c2c --resume %s' completes it",
            r->p.stopped, r->s.dir.path, r->s.dir.path);
    return session_stopped(&r->s, r->p.stopped);
}

static int c2c_main(int argc, char **argv)
{
    struct c2c_run r = {.a = C2C_DEFAULTS};
    session_init(&r.s, c2c_command.name, argc, argv);
    if (cli_parse(&c2c_command, argc, argv, c2c_option, &r.a, NULL))
        return 2;
    int status = r.a.resume ? cli_resume(&c2c_command, &r.s, r.a.resume, r.a.given, &c2c_resumer, &r.a) : 0;
    if (!status && !(status = c2c_check(&r)))
        status = c2c_measure(&r);
    free(r.p.kept);
    session_free(&r.s);
    return status;
}
