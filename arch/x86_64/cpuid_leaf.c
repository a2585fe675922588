#include "arch/x86_64/cpuid_leaf.h"
#include "base/util.h"
#include <cpuid.h>
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

/* The dump named by the environment, loaded once per path; NULL when CPUID is this CPU's. */
static const struct dump *dump_now(char *why, size_t n, bool *failed)
{
    const char *dir = getenv("HWLOC_CPUID_PATH");
    *failed = false;
    if (!dir || !*dir)
        return NULL;
    char *path = xasprintf("%s/pu0", dir);
    if (dump.path && !strcmp(dump.path, path)) {
        free(path);
        return &dump;
    }
    char err[512];
    size_t len;
    char *text = read_file_bounded(path, DUMP_BYTES, &len, err, sizeof(err));
    if (!text) {
        if (why)
            snprintf(why, n, "HWLOC_CPUID_PATH=%s: cannot read %s", dir, err);
        free(path);
        *failed = true;
        return NULL;
    }
    free(dump.path);
    dump.path = path;
    dump.n = 0;
    for (char *line = text, *next; line && *line && dump.n < DUMP_MAX; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        unsigned mask, in[4], out[4];
        if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &in[0], &in[1], &in[2], &in[3], &out[0], &out[1],
                   &out[2], &out[3]) != 9)
            continue;
        dump.in[dump.n][0] = in[0];
        dump.in[dump.n][1] = in[2];
        dump.has_sub[dump.n] = mask & 4;
        memcpy(dump.out[dump.n], out, sizeof(out));
        dump.n++;
    }
    free(text);
    return &dump;
}

const char *cpuid_origin(char *why, size_t n)
{
    bool failed;
    const struct dump *d = dump_now(why, n, &failed);
    return failed ? NULL : d ? d->path : "this CPU";
}

bool cpuid_query(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    memset(r, 0, 4 * sizeof(*r));
    bool failed;
    const struct dump *d = dump_now(NULL, 0, &failed);
    if (failed)
        return false;
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
