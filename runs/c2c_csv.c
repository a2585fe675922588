#include "runs/c2c_csv.h"
#include "base/util.h"
#include "host/topo.h"
#include "runs/resume.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int c2c_csv_write(const char *dir, const struct snoop_pair *pairs, int n)
{
    struct run_out out;
    FILE *f = run_out_begin(&out, dir, "c2c.csv");
    if (!f)
        return -1;
    fprintf(f, "%s\n", c2c_csv_header);
    for (int i = 0; i < n; i++) {
        const struct snoop_pair *c = &pairs[i];
        fprintf(f, "%d,%d,%s,%.2f,%.2f,%.2f,%.2f,%zu\n", c->from, c->to,
                topo_relation_name(topo_relation(c->from, c->to)), c->cycles.median, c->cycles.min, c->cycles.mad,
                c->cycles.median / c->ghz, c->cycles.n);
    }
    return run_out_commit(&out);
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
    char *text = run_file_read(rs->run, "c2c.csv", &size, err, sizeof(err)), *path = xasprintf("%s/c2c.csv", rs->run);
    struct runfile csv = {0};
    int rc = 0;
    if (!text && errno != ENOENT) {
        pm_error("--resume %s: cannot read %s", rs->run, err);
        rc = -1;
    } else if (text && (strlen(text) != size || c2c_csv_parse(&csv, text, path))) {
        if (strlen(text) != size)
            pm_error("--resume %s: c2c.csv is not text (it holds a NUL byte); start a new run", rs->run);
        rc = -1;
    }
    *kept = xcalloc((size_t)(csv.nc2c ? csv.nc2c : 1), sizeof(**kept));
    for (int i = 0; !rc && i < csv.nc2c; i++)
        if (kept_pair(&csv.c2c[i], cpus, ncpu, *kept, i, &(*kept)[i], why, sizeof(why))) {
            pm_error("--resume %s: c2c.csv, row %d: %s; start a new run", rs->run, i + 1, why);
            rc = -1;
        }
    *n = rc ? 0 : csv.nc2c;
    rs->records_kept = rs->cases_kept = *n;
    runfile_free(&csv);
    free(text);
    free(path);
    return rc;
}
