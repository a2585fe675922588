#include "microkernels/snoop_transfer.h"
#include "base/stop.h"
#include "base/util.h"
#include "core/source.h"
#include "host/clock.h"
#include "host/topo.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void snoop_penalty_compute(const char *name, const struct stats *transfer, double transfer_ghz,
                           const struct stats *local, double local_ghz, double lines, struct snoop_penalty *p)
{
    snprintf(p->name, sizeof(p->name), "%s", name);
    p->transfer = *transfer;
    p->local = *local;
    p->lines = lines;
    p->transfer_ghz = transfer_ghz;
    p->local_ghz = local_ghz;
    if (!(lines > 0)) {
        p->cycles = p->spread = p->ns = NAN;
        return;
    }
    p->cycles = (transfer->median - local->median) / lines;
    p->spread = (transfer->mad + local->mad) / lines;
    p->ns = (transfer->median / transfer_ghz - local->median / local_ghz) / lines;
}

int snoop_measure_cycles(const char *case_text, const struct measure_opts *o, struct stats *cycles,
                         double *core_ghz, struct quantities *q)
{
    return measure_case_cycles("snoop", case_text, o, cycles, core_ghz, q);
}

int snoop_penalty_from_case(const struct case_ *c, const struct stats *cycles, double core_ghz,
                            const struct quantities *q, struct snoop_penalty *p)
{
    char *text = xasprintf("mode=local size=%s init_cpu=%s writer_cpu=%s run_cpu=%s numa=%s seed=%s",
                           case_str(c, "size"), case_str(c, "init_cpu"), case_str(c, "writer_cpu"),
                           case_str(c, "run_cpu"), case_str(c, "numa"), case_str(c, "seed"));
    struct measure_opts o = MEASURE_OPTS_DEFAULT;
    o.repetitions = cycles->n ? (int)cycles->n : o.repetitions;
    struct stats local;
    struct quantities ql;
    double local_ghz;
    int rc = snoop_measure_cycles(text, &o, &local, &local_ghz, &ql);
    free(text);
    if (rc)
        return rc;
    bool hitm = case_is(c, "mode", "hitm");
    snoop_penalty_compute(hitm ? "snoop.hitm" : "snoop.hit", cycles, core_ghz, &local, local_ghz, q->v[Q_LINES_XFER], p);
    p->writer_cpu = case_cpu(c, "writer_cpu");
    p->reader_cpu = case_cpu(c, "run_cpu");
    snprintf(p->relation, sizeof(p->relation), "%s", topo_relation_name(topo_relation(p->writer_cpu, p->reader_cpu)));
    return 0;
}

int snoop_penalty_measure(const char *mode, const char *size, int writer_cpu, int reader_cpu,
                          const struct measure_opts *o, struct snoop_penalty *p)
{
    char *text = xasprintf("mode=%s size=%s init_cpu=%d writer_cpu=%d run_cpu=%d", mode, size, reader_cpu,
                           writer_cpu, reader_cpu);
    struct stats cycles;
    struct quantities q;
    double ghz;
    int rc = snoop_measure_cycles(text, o, &cycles, &ghz, &q);
    if (rc == 0) {
        const struct kernel *k = kernel_find("snoop");
        struct case_ *c = case_from_text(k, text);
        rc = snoop_penalty_from_case(c, &cycles, ghz, &q, p);
        case_free(c);
    }
    free(text);
    return rc;
}

void snoop_penalty_print(const struct snoop_penalty *p, FILE *f)
{
    fprintf(f, "  penalty %s (CPU %d -> CPU %d, %s): %.1f cycles per transferred line (spread %.1f), %.1f ns;\n"
               "    transfer %.1f cycles/line (min %.1f, MAD %.1f) - local walk %.1f (min %.1f, MAD %.1f), "
               "%.3f lines transferred per iteration\n",
            p->name, p->writer_cpu, p->reader_cpu, p->relation, p->cycles, p->spread, p->ns, p->transfer.median,
            p->transfer.min, p->transfer.mad, p->local.median, p->local.min, p->local.mad, p->lines);
    fflush(f);
}

int snoop_pair_segment_check(const char *size)
{
    /* A segment in a shared level (L3, DRAM) is no core-to-core transfer: the reader finds the
     * lines there whoever wrote them. */
    bool shared_level = ((size[0] == 'L' || size[0] == 'l') && strcmp(size + 1, "1") && strcmp(size + 1, "2")) ||
                        !strcasecmp(size, "DRAM");
    if (shared_level) {
        pm_error("c2c: --size %s: the segment must stay in the writer's private caches (L1 or L2) for every line to "
                 "move between cores; give --size L1, L2 or bytes", size);
        return -1;
    }
    /* Checked like any snoop parameter. */
    char *probe = xasprintf("size=%s", size);
    struct case_ *check = case_from_text(kernel_find("snoop"), probe);
    free(probe);
    bool valid = check != NULL;
    case_free(check);
    return valid ? 0 : -1;
}

static const struct snoop_pair *pair_kept(const struct snoop_pair *kept, int nkept, int from, int to)
{
    for (int i = 0; i < nkept; i++)
        if (kept[i].from == from && kept[i].to == to)
            return &kept[i];
    return NULL;
}

int snoop_measure_pairs(const char *mode, const char *size, const struct measure_opts *o, const int *cpus, int ncpu,
                        const struct snoop_pair *kept, int nkept, struct snoop_pair *pairs, int *npairs,
                        snoop_pair_done_fn *done, void *ctx)
{
    int rc = 0;
    for (int x = 0; x < ncpu && !rc && !stop_requested(); x++)
        for (int y = 0; y < ncpu && !rc && !stop_requested(); y++) {
            if (x == y)
                continue;
            struct snoop_pair *c = &pairs[*npairs];
            const struct snoop_pair *before = pair_kept(kept, nkept, cpus[x], cpus[y]);
            if (before) {
                *c = *before;
                ++*npairs;
                continue;
            }
            c->from = cpus[x];
            c->to = cpus[y];
            char *text = xasprintf("mode=%s size=%s init_cpu=%d writer_cpu=%d run_cpu=%d", mode, size, cpus[y],
                                   cpus[x], cpus[y]);
            struct quantities q;
            pm_progress("c2c: CPU %d -> CPU %d (%s)", c->from, c->to, topo_relation_name(topo_relation(c->from, c->to)));
            if (snoop_measure_cycles(text, o, &c->cycles, &c->ghz, &q) && !stop_requested())
                rc = 1;
            free(text);
            if (stop_requested())
                break;
            if (!rc) {
                ++*npairs;
                if (done && done(ctx, c))
                    rc = 1;
            }
        }
    return rc;
}
