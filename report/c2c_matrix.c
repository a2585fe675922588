/* pmucal c2c's outputs other than c2c.csv: the matrix on stdout and the heatmap gnuplot draws. */
#include "base/subprocess.h"
#include "base/util.h"
#include "host/clock.h"
#include "host/topo.h"
#include "microkernels/snoop_transfer.h"
#include "report/report.h"
#include "runs/rundir.h"
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void c2c_print_matrix(const char *mode, const char *size, int reps, const int *cpus, int ncpu,
                      const struct snoop_pair *cells, int ncell)
{
    printf("one-way line transfer latency, mode %s, segment %s, %d repetitions; core clock %.3f GHz at the start, "
           "ns at the clock measured around each pair\n", mode, size, reps, clock_get()->core_hz / 1e9);
    printf("median core cycles (ns); rows: from CPU (writer), columns: to CPU (reader)\n%8s", "from\\to");
    for (int y = 0; y < ncpu; y++)
        printf(" %16d", cpus[y]);
    printf("\n");
    for (int x = 0; x < ncpu; x++) {
        printf("%8d", cpus[x]);
        for (int y = 0; y < ncpu; y++) {
            const struct snoop_pair *c = NULL;
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

bool c2c_have_gnuplot(void)
{
    char *argv[] = {"gnuplot", "--version", NULL};
    return spawn_run(argv, NULL) == 0;
}

/* A heatmap of the matrix in ns: gnuplot reads the CSV itself, one cell per pair. It runs in the
 * run folder, so the script names no path; the title is a single-quoted gnuplot string. */
int c2c_heatmap_write(const char *dir, const int *cpus, int ncpu, const char *title)
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
