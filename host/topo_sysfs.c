#include "host/topo_sysfs.h"
#include "base/util.h"
#include "host/kpmu.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool topo_cpulist_parse(const char *text, bool *set)
{
    memset(set, 0, TOPO_SYSFS_CPUS * sizeof(*set));
    const char *p = text;
    while (*p && *p != '\n') {
        char *end;
        if (!isdigit((unsigned char)*p))
            return false;
        long lo = strtol(p, &end, 10), hi = lo;
        if (*end == '-') {
            if (!isdigit((unsigned char)end[1]))
                return false;
            hi = strtol(end + 1, &end, 10);
        }
        if (hi < lo || hi >= TOPO_SYSFS_CPUS)
            return false;
        for (long c = lo; c <= hi; c++)
            set[c] = true;
        p = end;
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return false;
    }
    return true;
}

/* The lowest CPU of the list in the file, and how many it holds; -1 when the file is missing or
 * not a list. */
static int list_file(const char *path, int *count)
{
    char line[256];
    static bool set[TOPO_SYSFS_CPUS];
    if (count)
        *count = 0;
    if (!host_read_line(path, line, sizeof(line)) || !topo_cpulist_parse(line, set))
        return -1;
    int first = -1;
    for (int c = TOPO_SYSFS_CPUS - 1; c >= 0; c--)
        if (set[c]) {
            first = c;
            if (count)
                (*count)++;
        }
    return first;
}

static long number_file(const char *path)
{
    char line[64];
    char *end;
    if (!host_read_line(path, line, sizeof(line)))
        return -1;
    long v = strtol(line, &end, 10);
    return end == line ? -1 : v;
}

int topo_sysfs_at(const struct topo_sysfs *s, int cpu)
{
    for (int i = 0; i < s->ncpus; i++)
        if (s->cpu[i] == cpu)
            return i;
    return -1;
}

/* The cache folders of CPU cpu: the data and unified levels into t->data, the level-1
 * instruction cache into t->l1i (from the first CPU only), its level-3 sharing key. */
static int read_caches(const char *root, int cpu, struct topo *t, bool fill)
{
    int l3 = -1;
    for (int k = 0; k < 16; k++) {
        char dir[256], path[300], type[32], size[32];
        snprintf(dir, sizeof(dir), "%s/cpu/cpu%d/cache/index%d", root, cpu, k);
        snprintf(path, sizeof(path), "%s/type", dir);
        if (!host_read_line(path, type, sizeof(type)))
            break;
        snprintf(path, sizeof(path), "%s/level", dir);
        long level = number_file(path);
        if (level < 1 || level > TOPO_MAX_LEVEL)
            continue;
        bool data = !strcmp(type, "Data") || !strcmp(type, "Unified"), inst = !strcmp(type, "Instruction");
        snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
        int sharing, first = list_file(path, &sharing);
        if (level == 3 && data)
            l3 = first;
        if (!fill || !(data || (inst && level == 1)))
            continue;
        struct cache_level c = {.level = (int)level};
        snprintf(path, sizeof(path), "%s/size", dir);
        if (!host_read_line(path, size, sizeof(size)) || !parse_size(size, &c.size))
            continue;
        snprintf(path, sizeof(path), "%s/coherency_line_size", dir);
        c.linesize = (int)number_file(path);
        snprintf(path, sizeof(path), "%s/ways_of_associativity", dir);
        c.ways = (int)number_file(path);
        c.linesize = c.linesize < 0 ? 0 : c.linesize;
        c.ways = c.ways < 0 ? 0 : c.ways;
        c.sharing_pus = sharing ? sharing : 1;
        if (data)
            t->data[level] = c;
        else
            t->l1i = c;
    }
    return l3;
}

/* A NUMA node's memory from its meminfo ("Node 0 MemTotal:  8000000 kB"). */
static uint64_t node_memory(const char *root, int node)
{
    char path[256], line[256];
    snprintf(path, sizeof(path), "%s/node/node%d/meminfo", root, node);
    FILE *f = fopen(path, "r");
    unsigned long long kb = 0;
    while (f && fgets(line, sizeof(line), f)) {
        const char *m = strstr(line, "MemTotal:");
        if (m && sscanf(m + 9, "%llu", &kb) == 1)
            break;
    }
    if (f)
        fclose(f);
    return (uint64_t)kb << 10;
}

int topo_sysfs_read(const char *root, struct topo_sysfs *s, char *why, size_t n)
{
    static bool online[TOPO_SYSFS_CPUS];
    char path[256], line[256];
    memset(s, 0, sizeof(*s));
    snprintf(path, sizeof(path), "%s/cpu/online", root);
    if (!host_read_line(path, line, sizeof(line)) || !topo_cpulist_parse(line, online)) {
        snprintf(why, n, "%s: no list of online CPUs (is /sys mounted?)", path);
        return -1;
    }
    for (int c = 0; c < TOPO_SYSFS_CPUS; c++) {
        if (!online[c])
            continue;
        int i = s->ncpus++;
        s->cpu[i] = c;
        snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/thread_siblings_list", root, c);
        s->core[i] = list_file(path, NULL);
        snprintf(path, sizeof(path), "%s/cpu/cpu%d/topology/core_siblings_list", root, c);
        s->package[i] = list_file(path, NULL);
        s->l3[i] = read_caches(root, c, &s->t, i == 0);
        s->node[i] = -1;
    }
    if (!s->ncpus) {
        snprintf(why, n, "%s/cpu/online lists no CPU", root);
        return -1;
    }
    /* Without topology/ (some kernels, some emulated machines) every CPU is its own core, all in
     * one package: the fewest claims. */
    bool topology = true;
    for (int i = 0; i < s->ncpus; i++) {
        if (s->core[i] < 0)
            s->core[i] = s->cpu[i], topology = false;
        if (s->package[i] < 0)
            s->package[i] = s->cpu[0], topology = false;
    }
    for (int i = 0; i < s->ncpus; i++) {
        bool new_core = true, new_package = true;
        for (int j = 0; j < i; j++) {
            new_core &= s->core[j] != s->core[i];
            new_package &= s->package[j] != s->package[i];
        }
        s->t.cores += new_core;
        s->t.packages += new_package;
    }
    s->t.pus = s->ncpus;
    for (int node = 0; node < TOPO_SYSFS_CPUS; node++) {
        snprintf(path, sizeof(path), "%s/node/node%d/cpulist", root, node);
        if (!host_read_line(path, line, sizeof(line)) || !topo_cpulist_parse(line, online))
            continue;
        s->nodes[s->nnodes++] = node;
        s->t.memory_total += node_memory(root, node);
        for (int i = 0; i < s->ncpus; i++)
            if (online[s->cpu[i]])
                s->node[i] = node;
    }
    s->t.numa_nodes = s->nnodes;
    if (!s->nnodes) {   /* a kernel without NUMA: one node, all of the memory */
        s->t.numa_nodes = 1;
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        s->t.memory_total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
    }
    bool caches = s->t.data[1].size || s->t.data[2].size || s->t.data[3].size;
    snprintf(s->note, sizeof(s->note), "%s%s%s", caches ? "" : "sysfs states no data cache (no cpu/cpu*/cache/index*)",
             !caches && !topology ? "; " : "", topology ? "" : "no cpu/cpu*/topology: each CPU counted as its own core");
    return 0;
}
