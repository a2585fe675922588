/* host/topo.h in a build without hwloc (HWLOC=0; every riscv64 build: Debian 12 has no riscv64
 * hwloc): the topology as Linux's sysfs states it (host/topo_sysfs.h), binding by
 * sched_setaffinity and mbind. Its levels are named "sysfs" where hwloc's are "hwloc". */
#include "base/util.h"
#include "host/topo.h"
#include "host/topo_shared.h"
#include "host/topo_sysfs.h"
#include <errno.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct topo_sysfs sys;
static bool loaded, handed_over, failed;

/* The machine's view, read once; false (with one message) when sysfs cannot be read. */
static bool sysfs_ready(void)
{
    if (loaded || failed)
        return loaded;
    /* A fixture topology is hwloc's XML: nothing here reads it, and this machine's must not stand in. */
    const char *xml = getenv("HWLOC_XMLFILE");
    if (xml && *xml) {
        pm_error("HWLOC_XMLFILE=%s: pmucal is built without hwloc (HWLOC=0), which reads XML topologies; unset "
                 "HWLOC_XMLFILE for this machine's (from sysfs), or build pmucal with hwloc (make HWLOC=1)", xml);
        exit(2);
    }
    char why[300];
    if (topo_sysfs_read(TOPO_SYSFS_ROOT, &sys, why, sizeof(why))) {
        pm_error("cannot read this machine's topology from sysfs: %s", why);
        failed = true;
        return false;
    }
    loaded = true;
    return true;
}

struct topo *topo_hwloc(bool *resolved)
{
    static struct topo topo;
    if (!sysfs_ready())
        return NULL;
    if (handed_over) {
        *resolved = true;
        return &topo;
    }
    const char *handed = getenv(ENV_TOPO);
    if (handed && *handed) {
        if (topo_decode(handed, &topo)) {
            pm_error("%s does not hold a topology of this pmucal build (%zu hex digits, want %zu); it is set by "
                     "pmucal for its own child processes only", ENV_TOPO, strlen(handed), 2 * sizeof(topo));
            return NULL;
        }
        handed_over = *resolved = true;
        return &topo;
    }
    *resolved = false;
    return &sys.t;
}

/* The child reads the same sysfs: only the resolved struct is handed over. */
int topo_handover(const struct topo *t, const char *dir)
{
    (void)dir;
    char *hex = topo_encode(t);
    setenv(ENV_TOPO, hex, 1);
    free(hex);
    return 0;
}

void topo_lib_version(char *out, size_t n)
{
    snprintf(out, n, "none (HWLOC=0)");
}

static int at(int os_cpu)
{
    return sysfs_ready() && os_cpu >= 0 && topo_inherited(os_cpu) ? topo_sysfs_at(&sys, os_cpu) : -1;
}

bool topo_cpu_valid(int os_cpu)
{
    return at(os_cpu) >= 0;
}

int topo_cpus(int *out, int max)
{
    int n = 0;
    for (int i = 0; sysfs_ready() && i < sys.ncpus && n < max; i++)
        if (topo_inherited(sys.cpu[i]))
            out[n++] = sys.cpu[i];
    return n;
}

int topo_bind_thread(int os_cpu)
{
    if (at(os_cpu) < 0 || os_cpu >= CPU_SETSIZE) {
        char list[256];
        topo_cpu_list(list, sizeof(list));
        pm_error("CPU %d does not exist or is not in this process's affinity mask (taskset, cgroup cpuset); it may "
                 "use CPUs %s: name one of them", os_cpu, list);
        return -1;
    }
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(os_cpu, &one);
    if (sched_setaffinity(0, sizeof(one), &one)) {
        pm_error("cannot bind to CPU %d: %s", os_cpu, strerror(errno));
        return -1;
    }
    return 0;
}

int topo_unbind_thread(void)
{
    int rc = topo_restore_inherited();
    if (rc <= 0)
        return rc;
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int i = 0; sysfs_ready() && i < sys.ncpus; i++)
        if (sys.cpu[i] < CPU_SETSIZE)
            CPU_SET(sys.cpu[i], &all);
    return sched_setaffinity(0, sizeof(all), &all) ? -1 : 0;
}

enum topo_relation topo_relation(int a, int b)
{
    int i = at(a), j = at(b);
    if (i < 0 || j < 0 || i == j)
        return TOPO_SAME_CPU;
    if (sys.core[i] == sys.core[j])
        return TOPO_SMT_SIBLING;
    if (sys.l3[i] >= 0 && sys.l3[i] == sys.l3[j])
        return TOPO_SAME_L3;
    if (sys.package[i] == sys.package[j])
        return TOPO_OTHER_L3;
    return TOPO_OTHER_PACKAGE;
}

int topo_cpu_node(int os_cpu)
{
    int i = at(os_cpu);
    return i < 0 ? -1 : sys.node[i];
}

int topo_nodes(int *out, int max)
{
    int n = 0;
    for (int i = 0; sysfs_ready() && i < sys.nnodes && n < max; i++)
        out[n++] = sys.nodes[i];
    return n;
}

int topo_node_cpu(int os_node)
{
    for (int i = 0; sysfs_ready() && i < sys.ncpus; i++)
        if (sys.node[i] == os_node && topo_inherited(sys.cpu[i]))
            return sys.cpu[i];
    return -1;
}

int topo_membind_area(void *p, size_t len, int os_node)
{
    unsigned long mask[TOPO_SYSFS_CPUS / (8 * sizeof(unsigned long))] = {0};
    bool known = false;
    for (int i = 0; sysfs_ready() && i < sys.nnodes; i++)
        known |= sys.nodes[i] == os_node;
    if (!known) {
        pm_error("cannot bind memory to NUMA node %d: sysfs lists no such node; 'pmucal info' counts them (nodes are "
                 "numbered from 0)", os_node);
        return -1;
    }
    mask[os_node / (8 * sizeof(unsigned long))] |= 1ul << (os_node % (8 * sizeof(unsigned long)));
    if (syscall(SYS_mbind, p, len, MPOL_BIND, mask, (unsigned long)TOPO_SYSFS_CPUS + 1,
                MPOL_MF_STRICT | MPOL_MF_MOVE)) {
        pm_error("cannot bind memory to NUMA node %d: %s; 'pmucal info' counts them (nodes are numbered from 0)",
                 os_node, strerror(errno));
        return -1;
    }
    return 0;
}
