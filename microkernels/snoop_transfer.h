/* Line transfers between cores, measured with the snoop kernel (whose writer/reader handshake
 * lives in snoop.c): the cycles a load pays per line that comes from another core's cache, modified
 * (HITM) or clean (snoop hit), over the same dependent walk on the reader's own copies. Used by
 * 'pmucal run snoop' and 'pmucal c2c'. */
#ifndef PMUCAL_SNOOP_TRANSFER_H
#define PMUCAL_SNOOP_TRANSFER_H
#include "base/stats.h"
#include "core/kernel.h"
#include "core/measure.h"
#include <stdio.h>

struct snoop_penalty {
    char name[32];              /* "snoop.hitm" or "snoop.hit" */
    char relation[32];          /* of the writer and reader CPUs: "same-l3" ... */
    int writer_cpu, reader_cpu;
    struct stats transfer;      /* core cycles per line, lines from the writer */
    struct stats local;         /* core cycles per line, the same walk over the reader's own copies */
    double lines;               /* transferred lines per iteration (the model's lines.xfer) */
    double cycles;              /* penalty per transferred line: (transfer - local) / lines, medians */
    double spread;              /* (MAD transfer + MAD local) / lines: an upper bound of the penalty's MAD */
    double transfer_ghz, local_ghz;   /* core clock measured around each of the two measurements */
    double ns;                  /* transfer ns - local ns per line, each at its own clock */
};

/* Delta cycles / delta occurrences between two cases that differ only in where the lines come from. */
void snoop_penalty_compute(const char *name, const struct stats *transfer, double transfer_ghz,
                           const struct stats *local, double local_ghz, double lines, struct snoop_penalty *p);

/* Measures one snoop case, given as "p=v p=v" text, with the measurement core (perf source, no
 * programmable events: cycles from the TSC): core cycles per iteration and the model.
 * 0 ok, 1 the case SKIPs (reason printed), -1 failed (message printed). */
int snoop_measure_cycles(const char *case_text, const struct measure_opts *o, struct stats *cycles,
                         double *core_ghz, struct quantities *q);

/* A case already measured (transfer): measures its local reference and computes the penalty. */
int snoop_penalty_from_case(const struct case_ *c, const struct stats *cycles, double core_ghz,
                            const struct quantities *q, struct snoop_penalty *p);

/* Both cases from scratch: mode hitm or shared, a segment size (L1 ...), the two CPUs. */
int snoop_penalty_measure(const char *mode, const char *size, int writer_cpu, int reader_cpu,
                          const struct measure_opts *o, struct snoop_penalty *p);

void snoop_penalty_print(const struct snoop_penalty *p, FILE *f);

/* The segment size of a pair's transfer (c2c --size: bytes, L1 or L2), checked once before the
 * long part: 0, or -1 after a message. */
int snoop_pair_segment_check(const char *size);

/* 'pmucal c2c': one ordered pair of CPUs, the line's one-way trip from the writer to the reader. */
struct snoop_pair {
    int from, to;               /* the writer's CPU, the reader's */
    struct stats cycles;        /* core cycles per load */
    double ghz;                 /* core clock measured around this pair's measurement: its ns */
};
/* Told of each pair as soon as it is measured (never of a kept one), so the caller keeps it
 * before the next begins (c2c.csv grows a row per pair): 0, or nonzero to stop the pairs there as
 * a pair that could not be measured does. */
typedef int snoop_pair_done_fn(void *ctx, const struct snoop_pair *pair);
/* Every ordered pair of cpus (mode hitm or shared, a segment of size) into pairs (ncpu * (ncpu - 1)
 * of them), in order, until a pair fails, done refuses one, or a stop: 1 when a pair could not be
 * measured or kept, else 0; *npairs: the pairs done. A pair among the nkept kept (measured before
 * a --resume) is copied from there, not measured again. done (NULL: none) gets ctx. */
int snoop_measure_pairs(const char *mode, const char *size, const struct measure_opts *o, const int *cpus, int ncpu,
                        const struct snoop_pair *kept, int nkept, struct snoop_pair *pairs, int *npairs,
                        snoop_pair_done_fn *done, void *ctx);

#endif
