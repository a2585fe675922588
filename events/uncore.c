#include "events/uncore.h"
#include "base/util.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The units of the vendor tables pmucal counts, with the field layout of their kernel driver
 * (the format/ files of arch/x86/events/amd/uncore.c). Units not listed stay out of the
 * catalog: L3PMC counts per CCX with slice and thread masks; DFPMC's fields differ with
 * PerfMonV2 (Zen 3's event bits 13:12 sit at config 60:59, Zen 4's and 5's at 37:36) and its DRAM
 * read beats are one event per channel, twelve to sum for a socket, where one UMC event is summed
 * over its instances. */
static const struct unit {
    const char *table_unit, *stem;
    uint64_t max_event, max_umask;
} units[] = {
    {"UMCPMC", "amd_umc", 0xff, 0x3},   /* PerfMonV2 UMC: event 7:0, rdwrmask 9:8 */
};

static const struct unit *unit_of_stem(const char *stem)
{
    for (size_t i = 0; i < ARRAY_SIZE(units); i++)
        if (!strcmp(units[i].stem, stem))
            return &units[i];
    return NULL;
}

const char *uncore_unit_stem(const char *table_unit)
{
    for (size_t i = 0; table_unit && i < ARRAY_SIZE(units); i++)
        if (!strcmp(units[i].table_unit, table_unit))
            return units[i].stem;
    return NULL;
}

uint64_t uncore_max_event(const char *stem)
{
    const struct unit *u = unit_of_stem(stem);
    return u ? u->max_event : 0xff;
}

uint64_t uncore_max_umask(const char *stem)
{
    const struct unit *u = unit_of_stem(stem);
    return u ? u->max_umask : 0xff;
}

uint64_t uncore_config(const char *stem, unsigned event, unsigned umask)
{
    (void)stem;   /* every unit counted so far has one layout */
    return (uint64_t)(event & 0xff) | (uint64_t)(umask & 0xff) << 8;   /* amd_umc's rdwrmask at 9:8 */
}

bool uncore_stem_of_pfm(const char *pfm_pmu, char *stem, size_t n)
{
    const char *unc = strstr(pfm_pmu, "_unc_");
    if (!unc || !unc[5])
        return false;
    size_t len = strlen(unc + 5);
    while (len > 0 && isdigit((unsigned char)unc[5 + len - 1]))
        len--;   /* the instance number: every instance is counted */
    return len > 0 && snprintf(stem, n, "uncore_%.*s", (int)len, unc + 5) < (int)n;
}

const char *pmu_sysfs_root(void)
{
    const char *r = getenv("PMUCAL_SYSFS");
    if (!r)
        return "/sys";
    /* A tree that is not a folder would read as a machine with no uncore units: refused. */
    struct stat st;
    int got = *r ? stat(r, &st) : -1, e = *r ? errno : 0;
    if (got || !S_ISDIR(st.st_mode)) {
        pm_error("PMUCAL_SYSFS=%.200s: %s; name a folder laid out as /sys, or unset PMUCAL_SYSFS for /sys", r,
                 !*r ? "set but empty" : got ? strerror(e) : "not a folder");
        exit(2);
    }
    return r;
}

/* A small sysfs file's first line; NULL when absent. */
static char *sysfs_line(const char *path)
{
    char err[256];
    size_t len;
    char *s = read_file_bounded(path, 4096, &len, err, sizeof(err));
    if (s)
        s[strcspn(s, "\n")] = '\0';
    return s;
}

static long package_of(int cpu)
{
    char *p = xasprintf("%s/devices/system/cpu/cpu%d/topology/physical_package_id", pmu_sysfs_root(), cpu);
    char *s = sysfs_line(p);
    free(p);
    long pkg = s ? strtol(s, NULL, 10) : 0;   /* no topology: one socket */
    free(s);
    return pkg;
}

/* The first CPU of a cpulist ("0,28", "0-3") in package pkg, -1 when none. */
static int cpu_in_package(const char *list, long pkg)
{
    for (const char *p = list; *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p)
            return -1;
        if (*end == '-')
            hi = strtol(end + 1, &end, 10);
        for (long c = lo; c <= hi && c < 65536; c++)
            if (package_of((int)c) == pkg)
                return (int)c;
        p = *end == ',' ? end + 1 : end;
        if (*p && !isdigit((unsigned char)*p))
            return -1;
    }
    return -1;
}

/* stem itself or stem_N: the instances of one unit, not another unit sharing the prefix. */
static bool is_instance(const char *name, const char *stem)
{
    size_t len = strlen(stem);
    if (strncmp(name, stem, len))
        return false;
    if (!name[len])
        return true;
    if (name[len] != '_' || !name[len + 1])
        return false;
    for (const char *p = name + len + 1; *p; p++)
        if (!isdigit((unsigned char)*p))
            return false;
    return true;
}

static int cmp_instance(const void *a, const void *b)
{
    const struct uncore_instance *x = a, *y = b;
    size_t lx = strlen(x->name), ly = strlen(y->name);
    return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);   /* amd_umc_2 before amd_umc_10 */
}

int uncore_instances(const char *stem, int cpu, struct uncore_instance *out, int max, char *why, size_t n)
{
    char *dir = xasprintf("%s/bus/event_source/devices", pmu_sysfs_root());
    DIR *d = opendir(dir);
    int found = 0, other_socket = 0;
    long pkg = package_of(cpu);
    struct dirent *de;
    while (d && (de = readdir(d)) && found < max) {
        if (!is_instance(de->d_name, stem) || strlen(de->d_name) >= sizeof(out->name))
            continue;
        char *tp = xasprintf("%s/%s/type", dir, de->d_name), *mp = xasprintf("%s/%s/cpumask", dir, de->d_name);
        char *type = sysfs_line(tp), *mask = sysfs_line(mp);
        int on = mask ? cpu_in_package(mask, pkg) : -1;
        if (type && on >= 0) {
            struct uncore_instance *u = &out[found++];
            snprintf(u->name, sizeof(u->name), "%s", de->d_name);
            u->type = (uint32_t)strtoul(type, NULL, 10);
            u->cpu = on;
        } else if (type)
            other_socket++;
        free(type);
        free(mask);
        free(tp);
        free(mp);
    }
    if (d)
        closedir(d);
    qsort(out, (size_t)found, sizeof(*out), cmp_instance);
    if (!found && other_socket)
        snprintf(why, n, "no %s PMU counts the socket of CPU %d (package %ld): its %d instance(s) in %s count "
                 "other sockets", stem, cpu, pkg, other_socket, dir);
    else if (!found)
        snprintf(why, n, "no uncore PMU %s on this host (%s has no %s or %s_N): the Linux kernel exposes no such "
                 "unit here (a VM without uncore passthrough, another CPU model, or its driver not loaded)",
                 stem, dir, stem, stem);
    free(dir);
    return found;
}
