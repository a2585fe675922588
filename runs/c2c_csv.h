/* c2c.csv of a 'pmucal c2c' run: one row per pair under runs/runfile.h's c2c_csv_header, which its
 * reader (runs/csvread.c) checks. */
#ifndef PMUCAL_C2C_CSV_H
#define PMUCAL_C2C_CSV_H
#include "microkernels/snoop_transfer.h"

/* dir/c2c.csv written whole through the run folder's writer (runs/rundir.h: a link planted at
 * c2c.csv is replaced, never written through): 0, or -1 after a message. */
int c2c_csv_write(const char *dir, const struct snoop_pair *pairs, int n);

/* c2c --resume: the pairs the run measured before, from its c2c.csv (none when it has none),
 * into *kept (the caller frees it), and rs's counts of what was kept. -1 after a message naming
 * the file when it is damaged, or holds a pair the run's cpus do not make, or one twice. */
struct resume;
int c2c_csv_kept(struct resume *rs, const int *cpus, int ncpu, struct snoop_pair **kept, int *n);
#endif
