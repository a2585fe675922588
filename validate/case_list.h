/* The cases a validate run measures, all built before anything is measured, so a bad --case
 * fails at once. */
#ifndef PMUCAL_CASE_LIST_H
#define PMUCAL_CASE_LIST_H
#include "core/kernel.h"
#include <stdint.h>

struct case_list {
    struct case_ **c;
    int n;
};

/* sweep cases drawn with seed from the kernels' declared domains (validate/sweep.h; kernels: the
 * nk named, else every kernel), else the nc --case texts, else the default matrix of the nk named
 * kernels (none named: of every kernel). -1 after a message naming the case or kernel. */
int case_list_collect(struct case_list *l, char **kernels, int nk, char **cases, int nc, uint64_t sweep,
                      uint64_t seed);
void case_list_free(struct case_list *l);
#endif
