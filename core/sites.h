/* Where a kernel's events happen: the instructions of its loop body, in program order, and
 * for each the amount of every quantity it causes per iteration. Sampling (pmucal sample) holds
 * sample addresses against this map: the skid from the causing instruction, and whether every
 * causing instruction gets its share (shadowing).
 *
 * Inline-asm regions mark their instructions with local labels and a record in the section
 * pmucal_sites (ISA_SITES in arch/<ARCH>/regions.h): a key ("touch:microkernels/walker.c",
 * "exact:microkernels/walker.c:16") and the labels' addresses. Only data: no instruction is added
 * to a region, so no count changes. */
#ifndef PMUCAL_SITES_H
#define PMUCAL_SITES_H
#include "core/quantity.h"
#include <stddef.h>
#include <stdint.h>

#define SITE_MAX_INST 40

struct site_map {
    int n;                                    /* instructions of the loop, in program order */
    uintptr_t addr[SITE_MAX_INST + 1];        /* addr[n]: one past the loop's last instruction */
    char what[SITE_MAX_INST][16];             /* "store", "load", "branch"... for listings */
    double weight[SITE_MAX_INST][Q_COUNT];    /* amount of each quantity per iteration, 0: none */
};

/* The addresses a region's record holds (labels in order), NULL terminated; NULL when no record
 * has that key. The first record of a key wins (a macro expanded twice in one file with the same
 * key names the first). */
const uintptr_t *sites_find(const char *key, int *n);
/* One instruction appended at addr: 0, or -1 when the map is full. Its weights start at 0. */
int site_add(struct site_map *m, uintptr_t addr, const char *what);
/* Every instruction of the map causes w of quantity q (inst: w = 1 each). */
void site_all(struct site_map *m, int q, double w);
/* The instruction at addr: its index, or -1 when addr is not the start of one of the loop's. */
int site_index(const struct site_map *m, uintptr_t addr);
/* Instructions causing quantity q (weight > 0), and their total weight per iteration. */
int site_causes(const struct site_map *m, int q, double *total);
#endif
