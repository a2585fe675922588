#include "core/sites.h"
#include <string.h>

/* The linker's bounds of the section ISA_SITES writes into (weak: a build without records). */
extern const uintptr_t __start_pmucal_sites[] __attribute__((weak));
extern const uintptr_t __stop_pmucal_sites[] __attribute__((weak));

const uintptr_t *sites_find(const char *key, int *n)
{
    const uintptr_t *p = __start_pmucal_sites, *end = __stop_pmucal_sites;
    while (p && p < end) {
        const char *k = (const char *)p[0];
        const uintptr_t *addr = p + 1;
        int count = 0;
        while (addr + count < end && addr[count])
            count++;
        if (k && !strcmp(k, key)) {
            *n = count;
            return addr;
        }
        p = addr + count + 1;
        while (p < end && !*p)   /* .balign's padding between records */
            p++;
    }
    *n = 0;
    return NULL;
}

int site_add(struct site_map *m, uintptr_t addr, const char *what)
{
    if (m->n >= SITE_MAX_INST)
        return -1;
    m->addr[m->n] = addr;
    strncpy(m->what[m->n], what, sizeof(m->what[0]) - 1);
    m->what[m->n][sizeof(m->what[0]) - 1] = '\0';
    memset(m->weight[m->n], 0, sizeof(m->weight[0]));
    m->n++;
    return 0;
}

void site_all(struct site_map *m, int q, double w)
{
    for (int i = 0; i < m->n; i++)
        m->weight[i][q] = w;
}

int site_index(const struct site_map *m, uintptr_t addr)
{
    for (int i = 0; i < m->n; i++)
        if (m->addr[i] == addr)
            return i;
    return -1;
}

int site_causes(const struct site_map *m, int q, double *total)
{
    int k = 0;
    double t = 0;
    for (int i = 0; i < m->n; i++)
        if (m->weight[i][q] > 0) {
            k++;
            t += m->weight[i][q];
        }
    if (total)
        *total = t;
    return k;
}
