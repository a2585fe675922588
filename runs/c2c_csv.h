/* c2c.csv of a 'pmucal c2c' run: one row per pair under runs/runfile.h's c2c_csv_header, which its
 * reader (runs/csvread.c) checks. It grows a row per finished pair, so a run killed mid-way keeps
 * every pair it finished and a --resume measures only the others. */
#ifndef PMUCAL_C2C_CSV_H
#define PMUCAL_C2C_CSV_H
#include "microkernels/snoop_transfer.h"
#include <stdbool.h>
#include <stdio.h>

struct c2c_csv {
    FILE *f;      /* dir/c2c.csv, appended to */
    char *path;   /* for messages */
    bool lost;    /* a row could not be written */
};
/* dir/c2c.csv begun through the run folder's writer (runs/rundir.h: a link planted at c2c.csv is
 * replaced, never written through): the header and the kept pairs (a --resume's, none else)
 * written whole and atomically, then the file opened to append. 0, or -1 after a message. */
int c2c_csv_begin(struct c2c_csv *csv, const char *dir, const struct snoop_pair *kept, int nkept);
/* One finished pair's row, written with one write and flushed: after a kill the row is whole or
 * absent (a --resume drops a cut last line). 0, or -1 after a message. */
int c2c_csv_add(struct c2c_csv *csv, const struct snoop_pair *pair);
/* The file closed: 0, or -1 (after a message) when a row or the file was lost. */
int c2c_csv_end(struct c2c_csv *csv);

/* c2c --resume: the pairs the run measured before, from its c2c.csv (none when it has none),
 * into *kept (the caller frees it), and rs's counts of what was kept and dropped. A last line
 * the run was killed writing (no newline, or a row that does not parse) is dropped with a note;
 * c2c_csv_begin writes the file again without it. -1 after a message naming the file when it is
 * damaged, or holds a pair the run's cpus do not make, or one twice. */
struct resume;
int c2c_csv_kept(struct resume *rs, const int *cpus, int ncpu, struct snoop_pair **kept, int *n);
#endif
