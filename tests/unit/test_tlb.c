/* The data-TLB facts: CPUID's decoding over host fixtures (replayed through HWLOC_CPUID_PATH, so
 * every host kind met is checked on any machine), and the knees a page-stride walk's recorded
 * timings give (tlb_knees_find, a pure function): a clean step, a noisy curve with none, two
 * steps, this Golden Cove guest's own walk, and points that are not a curve. */
#include "arch/isa.h"
#include "host/tlb.h"
#include "tap.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
struct dump_row {
    int line;
    const char *dir;          /* a fixture's cpuid folder, or NULL for text */
    const char *text;         /* a dump written here (pu0) when dir is NULL */
    int entries[TLB_KINDS];   /* l1_4k, l2_4k, l1_2m, l2_2m */
    const char *said_by;      /* the first level's 4k source, or NULL */
    const char *silent;       /* a word of why nothing is stated, or NULL */
};

/* Leaves 0 and 1 of a GenuineIntel family 6 part: what every dump holds. */
#define INTEL0 "1 0 0 0 0 => 20 756e6547 6c65746e 49656e69\n1 1 0 0 0 => 806f8 0 0 0\n"
static const struct dump_row dumps[] = {
    /* Emerald Rapids guest: leaf 2 is 00feff01 (0xFE: see leaf 0x18), leaf 0x18 all zeros. */
    {__LINE__, "tests/hosts/emr-vm/cpuid", NULL, {0, 0, 0, 0}, NULL, "descriptor 0xFE"},
    /* This session's Intel VM (CPUID 6-A7): the same silence. */
    {__LINE__, "tests/hosts/intel-a7-vm/cpuid", NULL, {0, 0, 0, 0}, NULL, "descriptor 0xFE"},
    /* Zen 5 guest: 0x80000005 EBX ff60ff40 (96 4k), 0x80000006 EBX 60804040 ([27:16] 0x080). */
    {__LINE__, "tests/hosts/zen5-vm/cpuid", NULL, {96, 128, 96, 128}, "CPUID leaf 0x80000005", NULL},
    /* Zen 4 guest: 72 first-level entries, 3072 second-level (0xc00). */
    {__LINE__, "tests/hosts/zen4-vm/cpuid", NULL, {72, 3072, 72, 3072}, "CPUID leaf 0x80000005", NULL},
    /* The second Zen 5 guest (32M L3): the same leaves as the first, 96 and 128. */
    {__LINE__, "tests/hosts/zen5-vm-32m/cpuid", NULL, {96, 128, 96, 128}, "CPUID leaf 0x80000005", NULL},
    /* The Zen 3 guest (EPYC 7xx3): 0x80000005 states 64 first-level entries, 0x80000006 2048. */
    {__LINE__, "tests/hosts/zen3-vm/cpuid", NULL, {64, 2048, 64, 2048}, "CPUID leaf 0x80000005", NULL},
    /* A Golden Cove-like leaf 0x18: load-only 4k 6 ways x 16 sets, a store-only one (not for
     * loads), load-only 2M/4M 4 x 8, a unified second level 4k+2M 8 x 256. */
    {__LINE__, NULL, INTEL0 "1 2 0 0 0 => 00feff01 f0 0 0\n"
                     "5 18 0 0 0 => 4 0 0 0\n"
                     "5 18 0 1 0 => 0 00060001 10 24\n"
                     "5 18 0 2 0 => 0 00100001 1 125\n"
                     "5 18 0 3 0 => 0 00040006 8 24\n"
                     "5 18 0 4 0 => 0 00080003 100 43\n",
     {96, 2048, 32, 2048}, "CPUID leaf 0x18", NULL},
    /* A Sandy Bridge-like leaf 2: 0x5a (2M, 32), 0x03 (4k, 64), 0xb2 (instructions), 0xca
     * (second level 4k, 512). */
    {__LINE__, NULL, INTEL0 "1 2 0 0 0 => 76035a01 00f0b2ff 0 00ca0000\n", {64, 512, 32, 0}, "CPUID leaf 2", NULL},
    /* A register with bit 31 set holds no descriptors. */
    {__LINE__, NULL, INTEL0 "1 2 0 0 0 => 00000001 8000b003 0 0\n", {0, 0, 0, 0}, NULL, "leaf 0x18 nor leaf 2"},
};

static void check_dump(const struct dump_row *r, const char *tmp)
{
    char dir[512];
    if (r->dir) {
        snprintf(dir, sizeof(dir), "%s", r->dir);
    } else {
        snprintf(dir, sizeof(dir), "%s/row%d", tmp, r->line);
        char path[600];
        snprintf(path, sizeof(path), "%s/pu0", dir);
        mkdir(dir, 0755);
        FILE *f = fopen(path, "w");
        if (!f || fputs(r->text, f) < 0 || fclose(f)) {
            CHECK(0, r->line, "cannot write %s", path);
            return;
        }
        snprintf(path, sizeof(path), "%s/hwloc-cpuid-info", dir);   /* hwloc's summary, which a dump has */
        f = fopen(path, "w");
        if (!f || fputs("Architecture: x86\n", f) < 0 || fclose(f)) {
            CHECK(0, r->line, "cannot write %s", path);
            return;
        }
    }
    setenv("HWLOC_CPUID_PATH", dir, 1);
    struct cpu_tlbs t;
    char why[600] = "";
    int rc = cpu_tlbs_read(&t, why, (int)sizeof(why));
    CHECK(rc == 0, r->line, "%s: read (%s)", dir, why);
    for (int k = 0; k < TLB_KINDS; k++)
        CHECK(t.entries[k] == r->entries[k], r->line, "%s: %s %d entries, want %d (from %s)", dir,
              tlb_kind_name((enum tlb_kind)k), t.entries[k], r->entries[k], t.said_by[k] ? t.said_by[k] : "none");
    if (r->said_by)
        CHECK(t.said_by[TLB_L1_4K] && !strcmp(t.said_by[TLB_L1_4K], r->said_by), r->line, "%s: stated by '%s', want '%s'",
              dir, t.said_by[TLB_L1_4K] ? t.said_by[TLB_L1_4K] : "(none)", r->said_by);
    if (r->silent)
        CHECK(strstr(t.silent, r->silent) != NULL, r->line, "%s: why none '%s' names '%s'", dir, t.silent, r->silent);
    unsetenv("HWLOC_CPUID_PATH");
}
#endif

/* ---- knees ---- */

static const struct tlb_point here[] = {
    /* This host (a Golden Cove-class KVM guest, CPUID silent), walked by pmucal info: 96 first-
     * level entries (the published Golden Cove load DTLB), the second level's 2048 rounded to its
     * step between 1792 and 2048. */
    {8, 1.219, 1.114, 0.012},
    {10, 1.138, 1.112, 0.064},
    {12, 1.135, 1.112, 0.063},
    {14, 1.125, 1.199, 0.021},
    {16, 1.139, 1.109, 0.111},
    {20, 1.173, 1.143, 0.046},
    {24, 1.174, 1.129, 0.049},
    {28, 1.166, 1.122, 0.054},
    {32, 1.149, 1.114, 0.069},
    {40, 1.154, 1.113, 0.056},
    {48, 1.131, 1.139, 0.042},
    {56, 1.146, 1.174, 0.043},
    {64, 1.104, 1.124, 0.072},
    {80, 1.176, 1.129, 0.089},
    {96, 1.140, 1.118, 0.072},
    {112, 2.378, 1.130, 0.020},
    {128, 2.742, 1.138, 0.014},
    {160, 2.757, 1.133, 0.066},
    {192, 2.794, 1.133, 0.132},
    {224, 2.776, 1.111, 0.079},
    {256, 2.794, 1.174, 0.045},
    {320, 2.817, 1.137, 0.109},
    {384, 2.708, 1.131, 0.087},
    {448, 2.695, 1.134, 0.105},
    {512, 2.767, 1.140, 0.050},
    {640, 2.725, 1.102, 0.170},
    {768, 2.826, 1.133, 0.043},
    {896, 5.574, 3.740, 0.106},
    {1024, 5.207, 4.266, 0.155},
    {1280, 5.515, 3.694, 0.176},
    {1536, 6.588, 4.064, 0.373},
    {1792, 7.683, 4.067, 0.209},
    {2048, 9.584, 3.618, 0.299},
    {2560, 14.861, 4.075, 0.286},
    {3072, 15.189, 3.784, 0.255},
    {3584, 15.689, 3.703, 0.676},
    {4096, 16.311, 4.170, 0.273},
    {5120, 15.859, 3.783, 1.431},
    {6144, 17.421, 4.248, 0.056},
    {7168, 16.637, 4.230, 0.458},
    {8192, 19.285, 4.017, 0.813} 
};

/* A synthetic walk: 4 points an octave from 8 to 8192 pages, the control at 1 ns, the walk
 * 1 ns plus a staircase, plus noise of amplitude jitter from a fixed generator. */
static int synth(struct tlb_point *p, uint64_t knee1, double step1, uint64_t knee2, double step2, double jitter)
{
    int n = 0;
    uint32_t x = 12345;
    for (uint64_t oct = 8; oct <= 8192; oct *= 2)
        for (uint64_t m = 4; m < 8; m++) {
            uint64_t pages = oct * m / 4;
            if (pages > 8192)
                break;
            x = x * 1103515245u + 12345u;
            double noise = jitter * ((double)(x >> 8 & 0xffff) / 65535.0 - 0.5) * 2;
            double extra = (knee1 && pages > knee1 ? step1 : 0) + (knee2 && pages > knee2 ? step2 : 0);
            p[n++] = (struct tlb_point){pages, 1 + extra + noise, 1, 0.01};
        }
    return n;
}

struct knee_row {
    int line;
    uint64_t knee1;
    double step1;
    uint64_t knee2;
    double step2, jitter;
    int want;                 /* knees, or -1 */
    uint64_t entries[2];
};

static const struct knee_row knees[] = {
    {__LINE__, 64, 2.0, 0, 0, 0.02, 1, {64, 0}},              /* a clean step */
    {__LINE__, 0, 0, 0, 0, 0.6, 0, {0, 0}},                    /* noise only: no knee */
    {__LINE__, 64, 0.3, 0, 0, 0.6, 0, {0, 0}},                 /* a step under the noise: none */
    {__LINE__, 64, 2.0, 2048, 10.0, 0.05, 2, {64, 2048}},      /* two steps */
    {__LINE__, 96, 1.6, 1536, 8.0, 0.05, 2, {96, 1536}},       /* two steps, other sizes */
};

int main(void)
{
#if defined(__x86_64__)
    char tmp[] = "/tmp/pmucal-test-tlb-XXXXXX";
    if (!mkdtemp(tmp)) {
        printf("Bail out! mkdtemp\n");
        return 1;
    }
    for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++)
        check_dump(&dumps[i], tmp);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
    if (system(cmd))
        printf("# could not remove %s\n", tmp);
#endif
    struct tlb_knees k;
    char why[300];
    int n = tlb_knees_find(here, (int)(sizeof(here) / sizeof(here[0])), &k, why, sizeof(why));
    CHECK(n == 2 && k.knee[0].entries == 96 && k.knee[1].entries >= 1536 && k.knee[1].next <= 2560, __LINE__,
          "this host's walk: %d knees, %llu and %llu entries (next %llu), want 96 and 1536..2048 (%s)", n,
          (unsigned long long)k.knee[0].entries, (unsigned long long)k.knee[1].entries,
          (unsigned long long)k.knee[1].next, n > 0 ? "found" : why);
    for (size_t i = 0; i < sizeof(knees) / sizeof(knees[0]); i++) {
        const struct knee_row *r = &knees[i];
        struct tlb_point p[TLB_MAX_POINTS];
        int np = synth(p, r->knee1, r->step1, r->knee2, r->step2, r->jitter);
        why[0] = 0;
        n = tlb_knees_find(p, np, &k, why, sizeof(why));
        bool right = n == r->want;
        for (int j = 0; right && j < n; j++)
            right = k.knee[j].entries == r->entries[j];
        CHECK(right, r->line, "%d knees (%llu, %llu), want %d (%llu, %llu)%s%s", n,
              (unsigned long long)(n > 0 ? k.knee[0].entries : 0), (unsigned long long)(n > 1 ? k.knee[1].entries : 0),
              r->want, (unsigned long long)r->entries[0], (unsigned long long)r->entries[1], why[0] ? ": " : "", why);
        if (r->want == 0)
            CHECK(strstr(why, "noise") != NULL, r->line, "no knee says why: '%s'", why);
    }
    /* Points that are not a curve: an error, not a knee. */
    struct tlb_point p[TLB_MAX_POINTS];
    int np = synth(p, 64, 2.0, 0, 0, 0.02);
    p[5].pages = p[4].pages;
    CHECK(tlb_knees_find(p, np, &k, why, sizeof(why)) == -1 && strstr(why, "ascending"), __LINE__,
          "unsorted pages are refused: %s", why);
    CHECK(tlb_knees_find(p, 3, &k, why, sizeof(why)) == -1, __LINE__, "3 points are refused: %s", why);
    return done_testing();
}
