#include "host/topo_shared.h"
#include "base/util.h"
#include <sched.h>
#include <stdio.h>
#include <string.h>

char *topo_encode(const struct topo *t)
{
    const unsigned char *b = (const unsigned char *)t;
    char *hex = xmalloc(2 * sizeof(*t) + 1);
    for (size_t i = 0; i < sizeof(*t); i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    return hex;
}

int topo_decode(const char *hex, struct topo *t)
{
    unsigned char *b = (unsigned char *)t;
    if (strlen(hex) != 2 * sizeof(*t))
        return -1;
    for (size_t i = 0; i < sizeof(*t); i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return -1;
        b[i] = (unsigned char)v;
    }
    return 0;
}

/* The first name is where the machine's own levels come from: hwloc, or in a build without it
 * (HWLOC=0) Linux's sysfs read by pmucal itself. */
const char *topo_source_name(enum topo_source s)
{
    static const char *const names[] = {PMUCAL_HWLOC ? "hwloc" : "sysfs", "measured", "cpuid"};
    return names[s];
}

int topo_last_level(const struct topo *t)
{
    for (int l = TOPO_MAX_LEVEL; l >= 1; l--)
        if (t->data[l].size)
            return l;
    return 0;
}

/* The affinity mask the process was started with (taskset, a cgroup's cpuset, a batch system),
 * taken before any thread is bound: hwloc's allowed set follows cgroups but not taskset, and
 * binding a thread changes the mask sched_getaffinity reports later. */
static cpu_set_t inherited;
static bool inherited_known;
static void __attribute__((constructor)) take_inherited_affinity(void)
{
    inherited_known = sched_getaffinity(0, sizeof(inherited), &inherited) == 0;
}

bool topo_inherited(int cpu)
{
    return !inherited_known || cpu >= CPU_SETSIZE || CPU_ISSET(cpu, &inherited);
}

int topo_restore_inherited(void)
{
    if (!inherited_known)
        return 1;
    return sched_setaffinity(0, sizeof(inherited), &inherited) ? -1 : 0;
}

void topo_cpu_list(char *out, size_t n)
{
    int cpus[1024], k = topo_cpus(cpus, 1024);
    size_t len = 0;
    out[0] = 0;
    for (int i = 0; i < k && len + 1 < n; i++) {
        int j = i;
        while (j + 1 < k && cpus[j + 1] == cpus[j] + 1)
            j++;
        len += (size_t)snprintf(out + len, n - len, j > i ? "%s%d-%d" : "%s%d", i ? "," : "", cpus[i], cpus[j]);
        i = j;
        if (len >= n)
            break;
    }
}

int topo_current_cpu(void)
{
    return sched_getcpu();
}

const char *topo_relation_name(enum topo_relation r)
{
    static const char *const names[] = {"same-cpu", "smt-sibling", "same-l3", "other-l3", "other-package"};
    return names[r];
}
