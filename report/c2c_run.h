/* A c2c run's measuring, in its open run folder: every ordered pair of its CPUs measured
 * (microkernels/snoop_transfer.c), each kept in c2c.csv as it finishes (runs/c2c_csv.c), then the
 * matrix on stdout and the heatmap (c2c_matrix.c). The command (cmd/c2c.c) opens and closes the
 * folder and decides the exit status. */
#ifndef PMUCAL_C2C_RUN_H
#define PMUCAL_C2C_RUN_H
#include "core/measure.h"
#include "microkernels/snoop_transfer.h"
#include <stdbool.h>

#define C2C_MAX_CPUS 256

/* What a c2c run measures, and after a stop how far it got. */
struct c2c_pairs {
    const char *mode, *size;          /* hitm or shared; the writer's segment: bytes, L1 or L2 */
    const struct measure_opts *o;
    int cpus[C2C_MAX_CPUS], ncpu;     /* the CPUs paired, OS indexes */
    struct snoop_pair *kept;          /* --resume: the pairs of the run's c2c.csv (nkept; freed by the owner) */
    int nkept;
    char stopped[160];                /* after a stop: "stopped by SIGTERM after 1 of 2 pairs" */
};

/* The pairs measured into the run folder dir (resuming: a --resume's, whose kept pairs are
 * not measured again), the matrix printed, c2c.csv kept and c2c.svg drawn (when gnuplot is
 * installed and every pair was measured without a stop). 1 when a pair or an output could not
 * be measured or written, else 0. After a stop p->stopped says how far it got. */
int c2c_pairs_measure(struct c2c_pairs *p, const char *dir, bool resuming);
#endif
