#include "runs/c2c_csv.h"
#include "host/topo.h"
#include "runs/rundir.h"
#include "runs/runfile.h"

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
