/* The machine's topology as Linux states it in sysfs (cpu/cpuN/cache/indexK, cpu/cpuN/topology,
 * node/nodeN): what a build without hwloc (HWLOC=0, host/topo_nohwloc.c) uses in its place. The
 * reader takes the folder that stands for /sys/devices/system, so a fixture tree can stand in. */
#ifndef PMUCAL_TOPO_SYSFS_H
#define PMUCAL_TOPO_SYSFS_H
#include "host/topo.h"

#define TOPO_SYSFS_CPUS 1024
#define TOPO_SYSFS_ROOT "/sys/devices/system"

/* The online CPUs in order, and for each the keys of what it shares (the lowest CPU of the set:
 * two CPUs with one key share it), -1 where sysfs states nothing. */
struct topo_sysfs {
    struct topo t;
    int ncpus;
    int cpu[TOPO_SYSFS_CPUS];       /* OS indexes */
    int core[TOPO_SYSFS_CPUS];      /* thread siblings */
    int package[TOPO_SYSFS_CPUS];   /* package siblings */
    int l3[TOPO_SYSFS_CPUS];        /* the CPUs sharing its last unified level 3 */
    int node[TOPO_SYSFS_CPUS];      /* its NUMA node */
    int nnodes;
    int nodes[TOPO_SYSFS_CPUS];
    char note[200];                 /* what sysfs left out ("no cache/ folders: ..."), or "" */
};

/* Read s from root (TOPO_SYSFS_ROOT, or a fixture's folder). 0, or -1 with why (no online CPU
 * list, no CPU folder). Missing caches or topology files are no error: the levels stay 0 and
 * note says so. */
int topo_sysfs_read(const char *root, struct topo_sysfs *s, char *why, size_t n);
/* The index of OS CPU cpu in s->cpu, or -1. */
int topo_sysfs_at(const struct topo_sysfs *s, int cpu);
/* A kernel cpulist ("0-3,8") into set[0..TOPO_SYSFS_CPUS): false when it is not one. */
bool topo_cpulist_parse(const char *text, bool *set);

#endif
