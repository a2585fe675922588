/* Uncore units: which sysfs PMUs count a CPU's socket (a fixture tree under $PMUCAL_SYSFS: two
 * sockets, six IMC channels each named once with a CPU of every socket, AMD UMCs one per channel
 * with their own socket's CPU), libpfm4 names to sysfs stems, and table entries' configs. */
#include "events/uncore.h"
#include "tap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[64];

static void put(const char *rel, const char *text)
{
    char path[512], dir[512];
    snprintf(path, sizeof(path), "%s/%s", root, rel);
    for (char *p = strchr(path + strlen(root) + 1, '/'); p; p = strchr(p + 1, '/')) {
        snprintf(dir, sizeof(dir), "%.*s", (int)(p - path), path);
        mkdir(dir, 0700);
    }
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static const struct {
    int line;
    const char *stem;
    int cpu;
    const char *want;   /* "name@cpu ..." in order, or "" for none */
    const char *why;    /* a part of the reason when none */
} rows[] = {
    /* Intel: uncore_imc_N lists one CPU per socket; the measuring CPU's socket picks which. */
    {__LINE__, "uncore_imc", 1, "uncore_imc_0@0 uncore_imc_1@0 uncore_imc_2@0 uncore_imc_3@0 uncore_imc_4@0 uncore_imc_5@0", ""},
    {__LINE__, "uncore_imc", 3, "uncore_imc_0@2 uncore_imc_1@2 uncore_imc_2@2 uncore_imc_3@2 uncore_imc_4@2 uncore_imc_5@2", ""},
    /* AMD: a UMC per channel, each on its own socket's CPU; amd_umc_10 sorts after amd_umc_2. */
    {__LINE__, "amd_umc", 0, "amd_umc_0@0 amd_umc_2@1 amd_umc_10@0", ""},
    {__LINE__, "amd_umc", 2, "amd_umc_1@2", ""},
    /* A stem is not a prefix of another unit (uncore_imc_free_running is not an IMC channel). */
    {__LINE__, "uncore_im", 0, "", "no uncore PMU uncore_im on this host"},
    {__LINE__, "amd_df", 0, "", "no uncore PMU amd_df on this host"},
    /* The unit exists, but not in this socket. */
    {__LINE__, "uncore_m2m", 2, "", "count other sockets"},
};

static const struct {
    int line;
    const char *pfm, *want;   /* libpfm4 PMU -> sysfs stem, NULL: not an uncore name */
} stems[] = {
    {__LINE__, "skx_unc_imc0", "uncore_imc"},
    {__LINE__, "skx_unc_imc5", "uncore_imc"},
    {__LINE__, "bdx_unc_cha12", "uncore_cha"},
    {__LINE__, "skx_unc_pcu", "uncore_pcu"},
    {__LINE__, "skx", NULL},
    {__LINE__, "skx_unc_", NULL},
    {__LINE__, "skx_unc_7", NULL},
};

int main(void)
{
    snprintf(root, sizeof(root), "/tmp/pmucal-uncore-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    setenv("PMUCAL_SYSFS", root, 1);
    static const int package[] = {0, 0, 1, 1};
    for (int c = 0; c < 4; c++) {
        char rel[128], v[8];
        snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", c);
        snprintf(v, sizeof(v), "%d\n", package[c]);
        put(rel, v);
    }
    for (int k = 0; k < 6; k++) {
        char rel[128], v[8];
        snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_imc_%d/type", k);
        snprintf(v, sizeof(v), "%d\n", 20 + k);
        put(rel, v);
        snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_imc_%d/cpumask", k);
        put(rel, "0,2\n");
    }
    put("bus/event_source/devices/uncore_imc_free_running_0/type", "30\n");
    put("bus/event_source/devices/uncore_imc_free_running_0/cpumask", "0,2\n");
    put("bus/event_source/devices/amd_umc_0/type", "40\n");
    put("bus/event_source/devices/amd_umc_0/cpumask", "0\n");
    put("bus/event_source/devices/amd_umc_1/type", "41\n");
    put("bus/event_source/devices/amd_umc_1/cpumask", "2\n");
    put("bus/event_source/devices/amd_umc_2/type", "42\n");
    put("bus/event_source/devices/amd_umc_2/cpumask", "1\n");
    put("bus/event_source/devices/amd_umc_10/type", "50\n");
    put("bus/event_source/devices/amd_umc_10/cpumask", "0\n");
    put("bus/event_source/devices/uncore_m2m_0/type", "60\n");
    put("bus/event_source/devices/uncore_m2m_0/cpumask", "0-1\n");   /* a range, all in socket 0 */

    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct uncore_instance inst[UNCORE_MAX_INSTANCES];
        char why[512] = "", got[8192] = "";
        int n = uncore_instances(rows[i].stem, rows[i].cpu, inst, UNCORE_MAX_INSTANCES, why, sizeof(why));
        for (int k = 0; k < n; k++) {
            size_t len = strlen(got);
            snprintf(got + len, sizeof(got) - len, "%s%s@%d", k ? " " : "", inst[k].name, inst[k].cpu);
        }
        bool types = true;   /* each instance keeps its own perf type */
        for (int k = 0; k < n; k++)
            types &= inst[k].type >= 20 && inst[k].type <= 50;
        CHECK(!strcmp(got, rows[i].want) && types && (n > 0 || strstr(why, rows[i].why)), rows[i].line,
              "%s for CPU %d: '%s' (want '%s'); %s", rows[i].stem, rows[i].cpu, got, rows[i].want, why);
    }
    for (size_t i = 0; i < sizeof(stems) / sizeof(stems[0]); i++) {
        char stem[24] = "";
        bool ok = uncore_stem_of_pfm(stems[i].pfm, stem, sizeof(stem));
        CHECK(stems[i].want ? ok && !strcmp(stem, stems[i].want) : !ok, stems[i].line, "%s -> %s (want %s)",
              stems[i].pfm, ok ? stem : "none", stems[i].want ? stems[i].want : "none");
    }
    /* Table units: UMC reads and writes (RdWrMask in config 9:8); units not counted stay out. */
    CHECK(uncore_config("amd_umc", 0x0a, 0x1) == 0x10a && uncore_config("amd_umc", 0x0a, 0x2) == 0x20a, __LINE__,
          "umc_cas_cmd.rd/.wr: 0x%llx 0x%llx", (unsigned long long)uncore_config("amd_umc", 0x0a, 1),
          (unsigned long long)uncore_config("amd_umc", 0x0a, 2));
    CHECK(uncore_unit_stem("UMCPMC") && !strcmp(uncore_unit_stem("UMCPMC"), "amd_umc") && !uncore_unit_stem("L3PMC") &&
              !uncore_unit_stem("DFPMC") && !uncore_unit_stem(NULL),
          __LINE__, "UMCPMC is amd_umc; L3PMC and DFPMC are not counted");
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
    if (system(cmd))
        return 1;
    return done_testing();
}
