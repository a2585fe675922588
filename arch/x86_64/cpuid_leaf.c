#include "arch/x86_64/cpuid_leaf.h"
#include "base/util.h"
#include <cpuid.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_MAX 512
#define DUMP_BYTES (1u << 20)

/* A dump line: "mask eax ebx ecx edx => eax ebx ecx edx" in hex; mask bit 2 says ecx (the
 * subleaf) was an input. */
struct dump {
    char *path;   /* the pu0 file loaded, NULL when none */
    int n;
    uint32_t in[DUMP_MAX][2], out[DUMP_MAX][4];
    bool has_sub[DUMP_MAX];
};

static struct dump dump;

/* A dump that cannot be used ends the process: another CPU was asked for, and this one must not
 * stand in for it (as HWLOC_XMLFILE's topology, host/topo.c). */
static void refuse(const char *dir, const char *fmt, ...)
{
    char why[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    pm_error("HWLOC_CPUID_PATH=%s: %s; give a folder written by hwloc-gather-cpuid (its pu0 holds the leaves), or "
             "unset HWLOC_CPUID_PATH for this CPU's", dir, why);
    exit(2);
}

/* The dump named by the environment, loaded once per path; NULL when CPUID is this CPU's. Every
 * line of pu0 is a leaf or a '#' comment, leaves 0 and 1 are there: what is not is refused, never
 * skipped (an empty or garbage pu0 was read as a CPU with no leaves). */
static const struct dump *dump_now(void)
{
    const char *dir = getenv("HWLOC_CPUID_PATH");
    if (!dir)
        return NULL;
    if (!*dir)
        refuse(dir, "set but empty");
    if (strlen(dir) >= 4000)
        refuse("(a path)", "%zu characters, longer than any folder's name", strlen(dir));
    char *path = xasprintf("%s/pu0", dir);
    if (dump.path && !strcmp(dump.path, path)) {
        free(path);
        return &dump;
    }
    char err[512];
    size_t len;
    char *text = read_file_bounded(path, DUMP_BYTES, &len, err, sizeof(err));
    if (!text)
        refuse(dir, "cannot read %s", err);
    if (strlen(text) != len)
        refuse(dir, "%s holds a NUL byte, not text", path);
    free(dump.path);
    dump.path = path;
    dump.n = 0;
    int lineno = 0;
    bool leaf0 = false, leaf1 = false;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (*line == '#' || !line[strspn(line, " \t\r")])
            continue;
        unsigned mask, in[4], out[4];
        int end = 0;
        if (sscanf(line, "%x %x %x %x %x => %x %x %x %x %n", &mask, &in[0], &in[1], &in[2], &in[3], &out[0], &out[1],
                   &out[2], &out[3], &end) != 9 || line[end])
            refuse(dir, "%s line %d: not a leaf (mask eax ebx ecx edx => eax ebx ecx edx, in hex)", path, lineno);
        if (dump.n == DUMP_MAX)
            refuse(dir, "%s line %d: more leaves than a CPU has", path, lineno);
        dump.in[dump.n][0] = in[0];
        dump.in[dump.n][1] = in[2];
        dump.has_sub[dump.n] = mask & 4;
        memcpy(dump.out[dump.n], out, sizeof(out));
        leaf0 |= in[0] == 0;
        leaf1 |= in[0] == 1;
        dump.n++;
    }
    free(text);
    /* hwloc takes the topology from the dump only with its summary; without it hwloc ignores the
     * folder and describes this machine, while the leaves here would describe another. */
    char *info = xasprintf("%s/hwloc-cpuid-info", dir);
    text = read_file_bounded(info, DUMP_BYTES, &len, err, sizeof(err));
    if (!text)
        refuse(dir, "cannot read hwloc's summary %s", err);
    if (!strstr(text, "Architecture: x86"))
        refuse(dir, "%s does not say \"Architecture: x86\": not an x86 CPU's dump", info);
    free(text);
    free(info);
    if (!leaf0 || !leaf1)
        refuse(dir, "%s has no CPUID leaves 0 and 1 (the vendor and the signature)", path);
    return &dump;
}

const char *cpuid_origin(char *why, size_t n)
{
    (void)why, (void)n;
    const struct dump *d = dump_now();
    return d ? d->path : "this CPU";
}

bool cpuid_query(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    memset(r, 0, 4 * sizeof(*r));
    const struct dump *d = dump_now();
    if (!d) {
        if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
            return false;
        __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
        return true;
    }
    for (int i = 0; i < d->n; i++)
        if (d->in[i][0] == leaf && (!d->has_sub[i] || d->in[i][1] == sub)) {
            memcpy(r, d->out[i], 4 * sizeof(*r));
            return true;
        }
    return false;
}

const char *cpuid_vendor_of(char vendor[13], char *why, size_t n)
{
    uint32_t r[4];
    vendor[0] = '\0';
    const char *from = cpuid_origin(why, n);
    if (from && cpuid_query(0, 0, r)) {
        memcpy(vendor, &r[1], 4), memcpy(vendor + 4, &r[3], 4), memcpy(vendor + 8, &r[2], 4);
        vendor[12] = '\0';
    }
    return from;
}

/* A dump's puN is read for the leaves asked alone: the whole-file checks are pu0's (dump_now). */
static bool dump_leaves_of(const char *dir, int pu, int nleaves, const uint32_t (*leaf)[2], uint32_t (*out)[4],
                           bool *got, char *why, size_t n)
{
    char *path = xasprintf("%s/pu%d", dir, pu), err[512];
    size_t len;
    char *text = read_file_bounded(path, DUMP_BYTES, &len, err, sizeof(err));
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        unsigned mask, in[4], o[4];
        if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &in[0], &in[1], &in[2], &in[3], &o[0], &o[1], &o[2],
                   &o[3]) != 9)
            continue;
        for (int k = 0; k < nleaves; k++)
            if (in[0] == leaf[k][0] && (!(mask & 4) || in[2] == leaf[k][1])) {
                memcpy(out[k], o, sizeof(o));
                got[k] = true;
            }
    }
    if (!text)
        snprintf(why, n, "cannot read %s", err);
    free(text);
    free(path);
    return text != NULL;
}

bool cpuid_leaves_of(int pu, int nleaves, const uint32_t (*leaf)[2], uint32_t (*out)[4], bool *got, char *why,
                     size_t n)
{
    for (int k = 0; k < nleaves; k++) {
        memset(out[k], 0, sizeof(out[k]));
        got[k] = false;
    }
    const char *dir = getenv("HWLOC_CPUID_PATH");
    if (dump_now()) {
        if (pu != 0)
            return dump_leaves_of(dir, pu, nleaves, leaf, out, got, why, n);
        for (int k = 0; k < nleaves; k++)
            got[k] = cpuid_query(leaf[k][0], leaf[k][1], out[k]);
        return true;
    }
    /* CPUID answers for the CPU that runs it: the thread moves there for the leaves and back. */
    cpu_set_t was, one;
    if (pu < 0 || pu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(was), &was)) {
        snprintf(why, n, "CPU %d: cannot read this thread's CPUs: %s", pu, pu < 0 || pu >= CPU_SETSIZE ?
                 "out of range" : strerror(errno));
        return false;
    }
    CPU_ZERO(&one);
    CPU_SET(pu, &one);
    if (sched_setaffinity(0, sizeof(one), &one)) {
        snprintf(why, n, "CPU %d: cannot run on it: %s", pu, strerror(errno));
        return false;
    }
    for (int k = 0; k < nleaves; k++)
        if ((unsigned)__get_cpuid_max(leaf[k][0] & 0x80000000u, NULL) >= leaf[k][0]) {
            __cpuid_count(leaf[k][0], leaf[k][1], out[k][0], out[k][1], out[k][2], out[k][3]);
            got[k] = true;
        }
    sched_setaffinity(0, sizeof(was), &was);
    return true;
}
