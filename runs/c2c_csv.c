#include "runs/c2c_csv.h"
#include "base/util.h"
#include "host/topo.h"
#include "runs/resume.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A pair's row, its newline included (the caller frees it). */
static char *pair_row(const struct snoop_pair *c)
{
    return xasprintf("%d,%d,%s,%.2f,%.2f,%.2f,%.2f,%zu\n", c->from, c->to,
                     topo_relation_name(topo_relation(c->from, c->to)), c->cycles.median, c->cycles.min,
                     c->cycles.mad, c->cycles.median / c->ghz, c->cycles.n);
}

int c2c_csv_begin(struct c2c_csv *csv, const char *dir, const struct snoop_pair *kept, int nkept)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        pm_fatal("out of memory");
    fprintf(m, "%s\n", c2c_csv_header);
    for (int i = 0; i < nkept; i++) {
        char *row = pair_row(&kept[i]);
        fputs(row, m);
        free(row);
    }
    if (fclose(m))
        pm_fatal("out of memory");
    int rc = run_file_write(dir, "c2c.csv", text, len);
    free(text);
    *csv = (struct c2c_csv){.f = rc ? NULL : run_file_open(dir, "c2c.csv", "a"),
                            .path = xasprintf("%s/c2c.csv", dir)};
    csv->lost = !csv->f;
    return csv->f ? 0 : -1;
}

int c2c_csv_add(struct c2c_csv *csv, const struct snoop_pair *pair)
{
    /* The row fits the stream's buffer, which is empty after the last flush: the flush is the
     * row's one write. */
    char *row = pair_row(pair);
    int rc = fputs(row, csv->f) < 0 || fflush(csv->f) ? -1 : 0;
    free(row);
    csv->lost |= rc != 0;
    if (rc)
        pm_error("cannot write %s: %s; the pair %d -> %d is not kept (a --resume measures it again)", csv->path,
                 strerror(errno), pair->from, pair->to);
    return rc;
}

int c2c_csv_end(struct c2c_csv *csv)
{
    int rc = csv->lost ? -1 : 0;
    if (csv->f && (ferror(csv->f) | fclose(csv->f)) && !csv->lost) {
        pm_error("cannot write %s: %s", csv->path, strerror(errno));
        rc = -1;
    }
    csv->f = NULL;
    free(csv->path);
    csv->path = NULL;
    return rc;
}

static bool cpu_of(const int *cpus, int ncpu, int cpu)
{
    for (int i = 0; i < ncpu; i++)
        if (cpus[i] == cpu)
            return true;
    return false;
}

/* Row i of the file as the pair it measured: -1 with why when the run's CPUs do
 * not make it, it comes twice, or it holds no time. */
static int kept_pair(const struct c2c_pair *c, const int *cpus, int ncpu, const struct snoop_pair *before, int i,
                     struct snoop_pair *p, char *why, size_t n)
{
    if (c->from == c->to || !cpu_of(cpus, ncpu, c->from) || !cpu_of(cpus, ncpu, c->to)) {
        snprintf(why, n, "the pair %d -> %d is not one of the run's CPUs", c->from, c->to);
        return -1;
    }
    for (int k = 0; k < i; k++)
        if (before[k].from == c->from && before[k].to == c->to) {
            snprintf(why, n, "the pair %d -> %d comes twice", c->from, c->to);
            return -1;
        }
    if (!(c->cycles > 0 && c->ns > 0 && c->repetitions > 0)) {
        snprintf(why, n, "the pair %d -> %d holds no measured time", c->from, c->to);
        return -1;
    }
    *p = (struct snoop_pair){.from = c->from, .to = c->to, .ghz = c->cycles / c->ns,
                             .cycles = {.n = (size_t)c->repetitions, .median = c->cycles, .min = c->cycles_min,
                                        .mad = c->cycles_mad}};
    return 0;
}

int c2c_csv_kept(struct resume *rs, const int *cpus, int ncpu, struct snoop_pair **kept, int *n)
{
    char err[512], why[256];
    size_t size;
    *kept = NULL;
    *n = 0;
    char *text = run_file_read(rs->run, "c2c.csv", &size, err, sizeof(err));
    bool absent = !text && errno == ENOENT;   /* taken before anything else may set errno */
    char *path = xasprintf("%s/c2c.csv", rs->run);
    struct runfile csv = {0};
    struct csv_cut cut = {0};
    int rc = 0;
    if (!text && !absent) {
        pm_error("--resume %s: cannot read %s", rs->run, err);
        rc = -1;
    } else if (text && (strlen(text) != size || c2c_csv_parse_cut(&csv, text, path, &cut))) {
        if (strlen(text) != size)
            pm_error("--resume %s: c2c.csv is not text (it holds a NUL byte); start a new run", rs->run);
        rc = -1;
    } else if (cut.line)
        pm_note("--resume %s: %s:%d, the last line, is not a whole row (%s): cut short by a kill mid-write, "
                "dropped, as every pair not kept is measured", rs->run, path, cut.line, cut.why);
    *kept = xcalloc((size_t)(csv.nc2c ? csv.nc2c : 1), sizeof(**kept));
    for (int i = 0; !rc && i < csv.nc2c; i++)
        if (kept_pair(&csv.c2c[i], cpus, ncpu, *kept, i, &(*kept)[i], why, sizeof(why))) {
            pm_error("--resume %s: c2c.csv, row %d: %s; start a new run", rs->run, i + 1, why);
            rc = -1;
        }
    *n = rc ? 0 : csv.nc2c;
    rs->records_kept = rs->cases_kept = *n;
    rs->records_dropped = !rc && cut.line;
    runfile_free(&csv);
    free(text);
    free(path);
    return rc;
}
