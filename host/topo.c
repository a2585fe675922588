#include "arch/isa.h"
#include "base/util.h"
#include "host/topo.h"
#include "host/topo_shared.h"
#include <errno.h>
#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENV_TOPO_XML "PMUCAL_TOPO_XML" /* hwloc's export of the parent's machine */

static hwloc_topology_t hw;
static struct topo topo;
static bool loaded, handed_over;

/* For the binding and CPU queries, which need hwloc's view only. */
static bool hwloc_ready(void)
{
    bool resolved;
    return topo_hwloc(&resolved) != NULL;
}

static void fill_cache(struct cache_level *c, hwloc_obj_t o)
{
    c->level = (int)o->attr->cache.depth;
    c->size = o->attr->cache.size;
    c->linesize = (int)o->attr->cache.linesize;
    c->ways = o->attr->cache.associativity;
    c->sharing_pus = hwloc_bitmap_weight(o->cpuset);
}

int topo_handover(const struct topo *t, const char *dir)
{
    if (!hwloc_ready())
        return -1;
    char *xml = xasprintf("%s/topology.xml", dir);
    if (hwloc_topology_export_xml(hw, xml, 0)) {
        pm_error("cannot write the topology for the child process to %s: %s", xml, strerror(errno));
        free(xml);
        return -1;
    }
    char *hex = topo_encode(t);
    setenv(ENV_TOPO_XML, xml, 1);
    setenv(ENV_TOPO, hex, 1);
    free(hex);
    free(xml);
    return 0;
}

/* HWLOC_XMLFILE, read here (a bounded regular file, never a device or FIFO) and handed to hwloc
 * as a buffer. A file that cannot be used ends the process: another machine's topology was
 * asked for, and this machine's must not stand in for it. */
#define HWLOC_XML_MAX (64u << 20)
static void fixture_xml(void)
{
    const char *path = getenv("HWLOC_XMLFILE");
    char err[512];
    size_t len = 0;
    char *text = path ? read_file_bounded(path, HWLOC_XML_MAX, &len, err, sizeof(err)) : NULL;
    if (path && (!text || !len || hwloc_topology_set_xmlbuffer(hw, text, (int)len + 1))) {
        pm_error("HWLOC_XMLFILE=%s: %s%s; give an XML topology (lstopo topo.xml), or unset HWLOC_XMLFILE for this "
                 "machine's", path, text ? "" : "cannot read ", text ? (len ? "hwloc cannot read it as a topology" :
                 "an empty file") : err);
        free(text);
        exit(2);
    }
    free(text);
}

/* hwloc's view: the parent's export when one was handed over (binding still binds: it is this
 * machine), else HWLOC_XMLFILE's, else discovered. */
static int load_hwloc(void)
{
    const char *xml = getenv(ENV_TOPO_XML), *fixture = getenv("HWLOC_XMLFILE");
    /* A CPUID dump is read (and refused when it cannot be used) before hwloc sees it: hwloc
     * ignores a dump it cannot use and describes this machine instead. */
    char sig[128];
    if (getenv("HWLOC_CPUID_PATH"))
        isa_cpu_signature(sig, sizeof(sig), NULL, 0);
    if (hwloc_topology_init(&hw))
        return -1;
    /* hwloc 2 leaves instruction caches out unless asked: the sim source simulates the host's L1I
     * and the code kernels size their levels by it. Set before the load so that a fixture's XML
     * keeps its L1i as well. */
    hwloc_topology_set_icache_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_ALL);
    if (!(xml && *xml))
        fixture_xml();
    if (xml && *xml) {
        if (hwloc_topology_set_xml(hw, xml) || hwloc_topology_set_flags(hw, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM)) {
            pm_error("cannot read the topology the parent process handed over (%s=%s): %s", ENV_TOPO_XML, xml,
                     strerror(errno));
            return -1;
        }
    }
    if (hwloc_topology_load(hw)) {
        if (fixture && !(xml && *xml)) {
            pm_error("HWLOC_XMLFILE=%s: hwloc cannot read it as a topology; give an XML topology (lstopo topo.xml), "
                     "or unset HWLOC_XMLFILE for this machine's", fixture);
            exit(2);
        }
        pm_error("hwloc could not read this machine's topology%s", xml && *xml ? " from the handed-over XML" :
                 "; is /sys mounted?");
        return -1;
    }
    return 0;
}

struct topo *topo_hwloc(bool *resolved)
{
    static const hwloc_obj_type_t data_types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE};
    if (loaded) {
        *resolved = handed_over;
        return &topo;
    }
    if (load_hwloc())
        return NULL;
    const char *handed = getenv(ENV_TOPO);
    if (handed && *handed) {
        if (topo_decode(handed, &topo)) {
            pm_error("%s does not hold a topology of this pmucal build (%zu hex digits, want %zu); it is set by "
                     "pmucal for its own child processes only", ENV_TOPO, strlen(handed), 2 * sizeof(topo));
            return NULL;
        }
        loaded = handed_over = *resolved = true;
        return &topo;
    }
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(hw, data_types[l - 1], 0);
        if (o && (o->attr->cache.type == HWLOC_OBJ_CACHE_DATA || o->attr->cache.type == HWLOC_OBJ_CACHE_UNIFIED))
            fill_cache(&topo.data[l], o);
    }
    hwloc_obj_t i1 = hwloc_get_obj_by_type(hw, HWLOC_OBJ_L1ICACHE, 0);
    if (i1)
        fill_cache(&topo.l1i, i1);
    topo.packages = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PACKAGE);
    topo.numa_nodes = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
    topo.cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    topo.pus = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
    for (int n = 0; n < topo.numa_nodes; n++)
        topo.memory_total += hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, n)->attr->numanode.local_memory;
    loaded = true;
    *resolved = false;
    return &topo;
}

static bool allowed(int os_cpu)
{
    return hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(hw), (unsigned)os_cpu) && topo_inherited(os_cpu);
}

static hwloc_obj_t pu_of(int os_cpu)
{
    if (!hwloc_ready() || os_cpu < 0)
        return NULL;
    hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(hw, (unsigned)os_cpu);
    return pu && allowed(os_cpu) ? pu : NULL;
}

bool topo_cpu_valid(int os_cpu)
{
    return pu_of(os_cpu) != NULL;
}

int topo_cpus(int *out, int max)
{
    int n = 0;
    if (!hwloc_ready())
        return 0;
    hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(hw);
    for (int i = hwloc_bitmap_first(allowed); i >= 0 && n < max; i = hwloc_bitmap_next(allowed, i))
        if (topo_inherited(i))
            out[n++] = i;
    return n;
}

int topo_bind_thread(int os_cpu)
{
    hwloc_obj_t pu = pu_of(os_cpu);
    if (!pu) {
        char list[256];
        topo_cpu_list(list, sizeof(list));
        pm_error("CPU %d does not exist or is not in this process's affinity mask (taskset, cgroup cpuset); it may "
                 "use CPUs %s: name one of them", os_cpu, list);
        return -1;
    }
    if (hwloc_set_cpubind(hw, pu->cpuset, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT)) {
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
    return hwloc_ready() && hwloc_set_cpubind(hw, hwloc_topology_get_allowed_cpuset(hw), HWLOC_CPUBIND_THREAD) ? -1 : 0;
}

static bool share_type(hwloc_obj_t a, hwloc_obj_t b, hwloc_obj_type_t type)
{
    hwloc_obj_t x = hwloc_get_ancestor_obj_by_type(hw, type, a);
    return x && x == hwloc_get_ancestor_obj_by_type(hw, type, b);
}

enum topo_relation topo_relation(int a, int b)
{
    hwloc_obj_t pa = pu_of(a), pb = pu_of(b);
    if (!pa || !pb || pa == pb)
        return TOPO_SAME_CPU;
    if (share_type(pa, pb, HWLOC_OBJ_CORE))
        return TOPO_SMT_SIBLING;
    if (share_type(pa, pb, HWLOC_OBJ_L3CACHE))
        return TOPO_SAME_L3;
    if (share_type(pa, pb, HWLOC_OBJ_PACKAGE))
        return TOPO_OTHER_L3;
    return TOPO_OTHER_PACKAGE;
}

int topo_cpu_node(int os_cpu)
{
    hwloc_obj_t pu = pu_of(os_cpu);
    if (!pu)
        return -1;
    hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
    hwloc_cpuset_to_nodeset(hw, pu->cpuset, nodes);
    int n = hwloc_bitmap_first(nodes);
    hwloc_bitmap_free(nodes);
    return n;
}

int topo_nodes(int *out, int max)
{
    int n = 0;
    if (!hwloc_ready())
        return 0;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, NULL); o && n < max;
         o = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, o))
        out[n++] = (int)o->os_index;
    return n;
}

int topo_node_cpu(int os_node)
{
    if (!hwloc_ready())
        return -1;
    hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(hw, (unsigned)os_node);
    if (!node)
        return -1;
    hwloc_bitmap_t set = hwloc_bitmap_dup(node->cpuset);
    hwloc_bitmap_and(set, set, hwloc_topology_get_allowed_cpuset(hw));
    int cpu = hwloc_bitmap_first(set);
    hwloc_bitmap_free(set);
    return cpu;
}

int topo_membind_area(void *p, size_t len, int os_node)
{
    if (!hwloc_ready())
        return -1;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, (unsigned)os_node);
    int rc = hwloc_set_area_membind(hw, p, len, set, HWLOC_MEMBIND_BIND,
                                    HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT | HWLOC_MEMBIND_MIGRATE);
    int err = errno;
    hwloc_bitmap_free(set);
    if (rc) {
        pm_error("cannot bind memory to NUMA node %d: %s; 'pmucal info' counts them (nodes are numbered from 0)", os_node, strerror(err));
        return -1;
    }
    return 0;
}

void topo_lib_version(char *out, size_t n)
{
    unsigned v = hwloc_get_api_version();
    snprintf(out, n, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
}
