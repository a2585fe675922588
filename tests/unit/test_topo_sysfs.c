/* host/topo_sysfs.c, the topology a build without hwloc (HWLOC=0) reads from Linux's sysfs, over
 * fixture trees shaped as /sys/devices/system (tests/unit/fixtures/): every field the rest of
 * pmucal reads from struct topo, and what it says when sysfs states nothing. */
#include "host/topo_sysfs.h"
#include "base/util.h"
#include "tap.h"
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

static char *fixture(const char *name)
{
    char *self = xstrdup(__FILE__);
    char *path = xasprintf("%s/fixtures/%s", dirname(self), name);
    free(self);
    return path;
}

int main(void)
{
    static struct topo_sysfs s;
    char why[300] = "";
    char *smt = fixture("sysfs-smt"), *bare = fixture("sysfs-bare"), *none = fixture("no-such-tree");

    int rc = topo_sysfs_read(smt, &s, why, sizeof(why));
    CHECK(rc == 0, __LINE__, "sysfs-smt reads (%s)", why);
    CHECK(s.t.pus == 4 && s.t.cores == 2 && s.t.packages == 1, __LINE__, "4 PUs, 2 cores, 1 package (got %d, %d, %d)",
          s.t.pus, s.t.cores, s.t.packages);
    CHECK(s.t.data[1].size == 32768 && s.t.data[1].ways == 8 && s.t.data[1].linesize == 64 && s.t.data[1].level == 1,
          __LINE__, "L1d 32K 8-way 64-byte lines (got %llu %d-way %d)", (unsigned long long)s.t.data[1].size,
          s.t.data[1].ways, s.t.data[1].linesize);
    CHECK(s.t.data[2].size == 1u << 20 && s.t.data[2].sharing_pus == 2, __LINE__, "L2 1M shared by 2 (got %llu, %d)",
          (unsigned long long)s.t.data[2].size, s.t.data[2].sharing_pus);
    CHECK(s.t.data[3].size == 8u << 20 && s.t.data[3].ways == 16 && s.t.data[3].sharing_pus == 4, __LINE__,
          "L3 8M 16-way shared by 4 (got %llu, %d, %d)", (unsigned long long)s.t.data[3].size, s.t.data[3].ways,
          s.t.data[3].sharing_pus);
    CHECK(s.t.l1i.size == 65536 && s.t.l1i.ways == 4, __LINE__, "L1i 64K 4-way, not taken for a data level (got %llu)",
          (unsigned long long)s.t.l1i.size);
    CHECK(s.t.numa_nodes == 1 && s.t.memory_total == 4096000ull << 10, __LINE__, "one node of 4096000 kB (got %d, %llu)",
          s.t.numa_nodes, (unsigned long long)s.t.memory_total);
    CHECK(s.core[0] == s.core[1] && s.core[1] != s.core[2], __LINE__, "CPUs 0 and 1 are SMT siblings, 2 is not");
    CHECK(s.l3[0] == s.l3[3] && s.l3[0] >= 0 && s.package[0] == s.package[3], __LINE__, "CPUs 0 and 3 share L3 and package");
    CHECK(s.node[2] == 0 && topo_sysfs_at(&s, 3) == 3 && topo_sysfs_at(&s, 9) == -1, __LINE__, "CPU 2 on node 0; CPU 9 absent");
    CHECK(!s.note[0], __LINE__, "nothing left out (note '%s')", s.note);

    rc = topo_sysfs_read(bare, &s, why, sizeof(why));
    CHECK(rc == 0 && s.t.pus == 2 && s.t.cores == 2 && s.t.packages == 1, __LINE__,
          "sysfs-bare: 2 PUs, each its own core, one package (got %d: %d, %d, %d)", rc, s.t.pus, s.t.cores, s.t.packages);
    CHECK(!s.t.data[1].size && !s.t.data[2].size && !s.t.data[3].size && s.l3[0] == -1, __LINE__,
          "no cache/ folders: no level at all, none invented");
    CHECK(strstr(s.note, "no data cache") && strstr(s.note, "topology"), __LINE__, "the note says both: '%s'", s.note);

    rc = topo_sysfs_read(none, &s, why, sizeof(why));
    CHECK(rc == -1 && strstr(why, "cpu/online") && strstr(why, "no-such-tree"), __LINE__,
          "a missing tree is refused, naming the file: '%s'", why);

    static bool set[TOPO_SYSFS_CPUS];
    CHECK(topo_cpulist_parse("0-3,8\n", set) && set[0] && set[3] && !set[4] && set[8], __LINE__, "0-3,8 parses");
    CHECK(!topo_cpulist_parse("3-1", set), __LINE__, "3-1 is refused");
    CHECK(!topo_cpulist_parse("0,x", set), __LINE__, "0,x is refused");
    CHECK(!topo_cpulist_parse("0-5000", set), __LINE__, "a CPU past %d is refused", TOPO_SYSFS_CPUS - 1);
    free(smt), free(bare), free(none);
    return done_testing();
}
