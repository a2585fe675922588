/* pmucal c2c: one-way core-to-core line transfer latency for every ordered pair of CPUs, from the
 * snoop kernel (the writer modifies a segment, the reader walks it with dependent loads). */
#include "base/stop.h"
#include "base/subprocess.h"
#include "base/util.h"
#include "base/version.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/session.h"
#include "core/measure.h"
#include "host/clock.h"
#include "host/topo.h"
#include "microkernels/snoop_transfer.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

static int c2c_main(int argc, char **argv);

enum { K_CPUS = CLI_LONG, K_MODE, K_SIZE, K_LABEL, K_OUT };

static const struct cli_option c2c_options[] = {
    {"cpus", K_CPUS, "LIST", "CPUs to pair, comma-separated OS indexes (default: every allowed CPU)"},
    {"mode", K_MODE, "hitm|shared", "modified lines (default) or clean ones"},
    {"size", K_SIZE, "SIZE", "segment the writer modifies: bytes or L1|L2 (default L2; it must stay in the\n"
                             "writer's private caches for every line to be a transfer)"},
    {"repetitions", 'r', "N", "repetitions per pair, 1..101 (default 5)"},
    {"label", K_LABEL, "NAME", "results folder label (default c2c)"},
    {"out", K_OUT, "DIR", "parent of the results folder (default $PMUCAL_RESULTS or results)"},
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
             "cycles and ns) and writes c2c.csv (one row per pair), c2c.svg (a heatmap, when gnuplot\n"
             "is installed) and manifest.json into results/<date>-<host>-<label>/.\n"
             "Exit status: 0; 1 when a pair or an output could not be measured or written; 2 on bad\n"
             "input; 130 (SIGINT) or 143 (SIGTERM) when interrupted: the finished pairs are kept in\n"
             "c2c.csv and the manifest says interrupted.\n",
    .options = c2c_options,
    .examples = "  pmucal c2c\n"
                "  pmucal c2c --cpus 0,1 --mode shared -r 9\n",
};

struct cell {
    int from, to;
    bool measured;
    struct stats cycles;
    double ghz;               /* core clock measured around this pair's measurement: its ns */
};

/* Through the run folder's writer (runs/rundir.h): a link planted at c2c.csv is replaced, never
 * written through. */
static int write_csv(const char *dir, const struct cell *cells, int n)
{
    struct run_out out;
    FILE *f = run_out_begin(&out, dir, "c2c.csv");
    if (!f)
        return -1;
    fprintf(f, "%s\n", c2c_csv_header);
    for (int i = 0; i < n; i++) {
        const struct cell *c = &cells[i];
        fprintf(f, "%d,%d,%s,%.2f,%.2f,%.2f,%.2f,%zu\n", c->from, c->to,
                topo_relation_name(topo_relation(c->from, c->to)), c->cycles.median, c->cycles.min, c->cycles.mad,
                c->cycles.median / c->ghz, c->cycles.n);
    }
    return run_out_commit(&out);
}

static bool have_gnuplot(void)
{
    char *argv[] = {"gnuplot", "--version", NULL};
    return spawn_run(argv, NULL) == 0;
}

/* A heatmap of the matrix in ns: gnuplot reads the CSV itself, one cell per pair. It runs in the
 * results folder, so the script names no path; the title is a single-quoted gnuplot string. */
static int write_svg(const char *dir, const int *cpus, int ncpu, const char *title)
{
    struct run_out out;
    FILE *f = run_out_begin(&out, dir, "c2c.gp");
    if (!f)
        return -1;
    char *quoted = gnuplot_quote(title);
    fprintf(f, "set terminal svg size %d,%d dynamic background rgb 'white'\n", 320 + 60 * ncpu, 240 + 60 * ncpu);
    fprintf(f, "set output 'c2c.svg'\n");
    fprintf(f, "set datafile separator ','\nset title %s noenhanced\n", quoted);
    free(quoted);
    fprintf(f, "set xlabel 'to CPU (reader)'\nset ylabel 'from CPU (writer)'\nset cblabel 'ns, median'\n");
    fprintf(f, "set xtics (");
    for (int i = 0; i < ncpu; i++)
        fprintf(f, "%s'%d' %d", i ? ", " : "", cpus[i], i);
    fprintf(f, ")\nset ytics (");
    for (int i = 0; i < ncpu; i++)
        fprintf(f, "%s'%d' %d", i ? ", " : "", cpus[i], i);
    fprintf(f, ")\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\nset palette defined (0 'white', 1 'orange', 2 'red')\nset cbrange [0:*]\n",
            ncpu - 1, ncpu - 1);
    /* Map OS indexes to positions so any --cpus list plots as a dense square. */
    fprintf(f, "pos(c) = ");
    for (int i = 0; i < ncpu; i++)
        fprintf(f, "c == %d ? %d : ", cpus[i], i);
    fprintf(f, "NaN\n");
    /* Boxes, not 'with image': the diagonal has no cell, and an image needs a full grid. */
    fprintf(f, "set style fill solid 1.0 border rgb 'gray'\n");
    fprintf(f, "plot 'c2c.csv' skip 1 using (pos($2)):(pos($1)):(0.5):(0.5):7 with boxxyerror fc palette notitle, \\\n"
               "     '' skip 1 using (pos($2)):(pos($1)):(sprintf('%%.1f', $7)) with labels notitle\n");
    /* gnuplot makes c2c.svg and gnuplot.err by name in the folder: what was there is removed
     * first, a planted link included, so it makes new files instead of writing through one. */
    if (run_out_commit(&out) || run_file_clear(dir, "gnuplot.err") || run_file_clear(dir, "c2c.svg"))
        return -1;
    char *argv[] = {"gnuplot", "c2c.gp", NULL};
    struct spawn_opts so = {.cwd = dir, .err_path = "gnuplot.err", .timeout_ms = 60000};
    int rc = spawn_run(argv, &so);
    char *err = xasprintf("%s/gnuplot.err", dir);
    struct stat st;
    if (rc == 0 && !stat(err, &st) && st.st_size == 0)
        unlink(err);
    free(err);
    if (rc != 0) {
        pm_error("gnuplot failed drawing %s/c2c.svg (see %s/gnuplot.err); the CSV is written", dir, dir);
        return -1;
    }
    return 0;
}

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
};

static int c2c_option(void *ctx, int key, const char *v)
{
    struct c2c_args *a = ctx;
    unsigned long long r;
    int rc = 0;
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

/* Every ordered pair of the CPUs measured into cells, in order, until a pair fails or a stop;
 * 1 when a pair could not be measured, else 0. *ncell: the pairs measured. */
static int measure_pairs(const struct c2c_args *a, const int *cpus, int ncpu, struct cell *cells, int *ncell)
{
    int rc = 0;
    for (int x = 0; x < ncpu && !rc && !stop_requested(); x++)
        for (int y = 0; y < ncpu && !rc && !stop_requested(); y++) {
            if (x == y)
                continue;
            struct cell *c = &cells[*ncell];
            c->from = cpus[x];
            c->to = cpus[y];
            char *text = xasprintf("mode=%s size=%s init_cpu=%d writer_cpu=%d run_cpu=%d", a->mode, a->size, cpus[y],
                                   cpus[x], cpus[y]);
            struct quantities q;
            pm_note("c2c: CPU %d -> CPU %d (%s)", c->from, c->to, topo_relation_name(topo_relation(c->from, c->to)));
            if (snoop_measure_cycles(text, &a->o, &c->cycles, &c->ghz, &q) && !stop_requested())
                rc = 1;
            free(text);
            if (stop_requested())
                break;
            *ncell += !rc;
        }
    return rc;
}

/* The matrix (rows FROM, columns TO) and the list of pairs, on stdout. */
static void print_matrix(const struct c2c_args *a, const int *cpus, int ncpu, const struct cell *cells, int ncell)
{
    printf("one-way line transfer latency, mode %s, segment %s, %d repetitions; core clock %.3f GHz at the start, "
           "ns at the clock measured around each pair\n", a->mode, a->size, a->o.repetitions, clock_get()->core_hz / 1e9);
    printf("median core cycles (ns); rows: from CPU (writer), columns: to CPU (reader)\n%8s", "from\\to");
    for (int y = 0; y < ncpu; y++)
        printf(" %16d", cpus[y]);
    printf("\n");
    for (int x = 0; x < ncpu; x++) {
        printf("%8d", cpus[x]);
        for (int y = 0; y < ncpu; y++) {
            const struct cell *c = NULL;
            for (int k = 0; k < ncell; k++)
                if (cells[k].from == cpus[x] && cells[k].to == cpus[y])
                    c = &cells[k];
            if (!c)
                printf(" %16s", "-");
            else {
                char buf[40];
                snprintf(buf, sizeof(buf), "%.1f (%.1f)", c->cycles.median, c->cycles.median / c->ghz);
                printf(" %16s", buf);
            }
        }
        printf("\n");
    }
    printf("pairs:\n");
    for (int k = 0; k < ncell; k++)
        printf("  %d -> %d  %-14s median %.1f cycles, min %.1f, MAD %.1f, %.1f ns\n", cells[k].from, cells[k].to,
               topo_relation_name(topo_relation(cells[k].from, cells[k].to)), cells[k].cycles.median,
               cells[k].cycles.min, cells[k].cycles.mad, cells[k].cycles.median / cells[k].ghz);
}

/* c2c.csv, and c2c.svg when every pair was measured (whole) and no stop came; 1 when one could
 * not be written, else 0. */
static int write_outputs(const char *dir, const struct c2c_args *a, const int *cpus, int ncpu, const struct cell *cells,
                         int ncell, bool whole)
{
    int rc = 0;
    if (write_csv(dir, cells, ncell))
        rc = 1;
    else
        printf("wrote %s/c2c.csv\n", dir);
    if (!rc && whole && !stop_requested()) {
        if (!have_gnuplot())
            pm_warn("gnuplot is not installed (Debian package gnuplot-nox): no c2c.svg, the CSV is written");
        else {
            char *title = xasprintf("one-way line transfer latency (%s), ns", a->mode);
            if (write_svg(dir, cpus, ncpu, title))
                rc = 1;
            else
                printf("wrote %s/c2c.svg\n", dir);
            free(title);
        }
    }
    return rc;
}

static int c2c_main(int argc, char **argv)
{
    struct c2c_args a = {.mode = "hitm", .size = "L2", .label = "c2c", .o = MEASURE_OPTS_DEFAULT};
    if (cli_parse(&c2c_command, argc, argv, c2c_option, &a, NULL))
        return 2;
    int cpus[256], ncpu = a.cpu_list ? parse_cpus(a.cpu_list, cpus, 256) : topo_cpus(cpus, 256);
    if (ncpu < 0)
        return 2;
    if (ncpu < 2) {
        pm_error("c2c: needs at least two CPUs, %s %d; a transfer goes from one core to another",
                 a.cpu_list ? "--cpus names" : "this process may use", ncpu);
        return 2;
    }
    /* A segment in a shared level (L3, DRAM) is no core-to-core transfer: the reader finds the
     * lines there whoever wrote them. */
    bool shared_level = ((a.size[0] == 'L' || a.size[0] == 'l') && strcmp(a.size + 1, "1") && strcmp(a.size + 1, "2")) ||
                        !strcasecmp(a.size, "DRAM");
    if (shared_level) {
        pm_error("c2c: --size %s: the segment must stay in the writer's private caches (L1 or L2) for every line to "
                 "move between cores; give --size L1, L2 or bytes", a.size);
        return 2;
    }
    /* The size is checked like any snoop parameter, once, before the long part. */
    char *probe = xasprintf("size=%s", a.size);
    struct case_ *check = case_from_text(kernel_find("snoop"), probe);
    free(probe);
    if (!check)
        return 2;
    case_free(check);
    struct session s;
    session_init(&s, &c2c_command, argc, argv);
    if (session_open(&s, a.out, a.label))
        return 2;   /* before anything is measured: the folder named is the bad input */
    session_start(&s);
    struct cell *cells = xcalloc((size_t)(ncpu * ncpu), sizeof(*cells));
    int ncell = 0, rc = measure_pairs(&a, cpus, ncpu, cells, &ncell);
    print_matrix(&a, cpus, ncpu, cells, ncell);
    if (write_outputs(s.dir.path, &a, cpus, ncpu, cells, ncell, !rc))
        rc = 1;
    free(cells);
    if (stop_requested()) {
        char why[160];
        snprintf(why, sizeof(why), "stopped by %s after %d of %d pairs", stop_signal_name(), ncell,
                 ncpu * (ncpu - 1));
        pm_note("interrupted: %s; the finished pairs are in %s/c2c.csv", why, s.dir.path);
        rc = session_stopped(&s, why);
    } else {
        rc = session_end(&s, rc, rc ? "a pair or an output could not be measured or written" : NULL);
    }
    session_free(&s);
    return rc;
}
