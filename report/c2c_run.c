#include "report/c2c_run.h"
#include "base/stop.h"
#include "base/util.h"
#include "report/report.h"
#include "runs/c2c_csv.h"
#include <stdio.h>
#include <stdlib.h>

/* snoop_measure_pairs' word that a pair finished: its row into c2c.csv before the next begins. */
static int keep_pair(void *csv, const struct snoop_pair *pair)
{
    return c2c_csv_add(csv, pair);
}

/* c2c.svg, drawn by gnuplot from the finished c2c.csv: 0, or 1 when it could not be. */
static int draw_heatmap(const char *dir, const struct c2c_pairs *p)
{
    if (!c2c_have_gnuplot()) {
        pm_warn("gnuplot is not installed (Debian package gnuplot-nox): no c2c.svg, the CSV is written");
        return 0;
    }
    char *title = xasprintf("one-way line transfer latency (%s), ns", p->mode);
    int rc = c2c_heatmap_write(dir, p->cpus, p->ncpu, title) ? 1 : 0;
    if (!rc)
        printf("wrote %s/c2c.svg\n", dir);
    free(title);
    return rc;
}

int c2c_pairs_measure(struct c2c_pairs *p, const char *dir, bool resuming)
{
    int pairs = p->ncpu * (p->ncpu - 1);
    if (resuming)
        pm_note("resuming: %d of %d pairs measured before are kept from c2c.csv", p->nkept, pairs);
    struct c2c_csv csv;
    if (c2c_csv_begin(&csv, dir, p->kept, p->nkept)) {
        c2c_csv_end(&csv);
        return 1;   /* nowhere to keep a pair: measuring them would be lost time */
    }
    struct snoop_pair *cells = xcalloc((size_t)(p->ncpu * p->ncpu), sizeof(*cells));
    int ncell = 0, rc = snoop_measure_pairs(p->mode, p->size, p->o, p->cpus, p->ncpu, p->kept, p->nkept, cells,
                                            &ncell, keep_pair, &csv);
    bool csv_lost = c2c_csv_end(&csv) != 0;
    c2c_print_matrix(p->mode, p->size, p->o->repetitions, p->cpus, p->ncpu, cells, ncell);
    free(cells);
    if (csv_lost)
        rc = 1;
    else
        printf("wrote %s/c2c.csv\n", dir);
    if (stop_requested())
        snprintf(p->stopped, sizeof(p->stopped), "stopped by %s after %d of %d pairs", stop_signal_name(), ncell,
                 pairs);
    else if (!rc && draw_heatmap(dir, p))
        rc = 1;
    return rc;
}
