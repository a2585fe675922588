/* The data-TLB facts a run uses, each with where it came from: what the CPU states (arch/tlbs.h:
 * CPUID leaf 0x18, 0x80000005/6, leaf 2), else the knees of a page-stride walk measured on this
 * host (cached per host beside the load-latency curve, host/geometry.h), else none with why. A
 * hypervisor may describe no TLB (an Emerald Rapids guest: leaf 2 points to an empty leaf 0x18),
 * and a model that divides by the entries must then say so rather than divide by nothing. */
#ifndef PMUCAL_TLB_H
#define PMUCAL_TLB_H
#include "arch/isa.h"
#include "base/json.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One size of the walk: a ring of one line a 4 KiB page over this many pages, in random order,
 * the lines at rotating offsets (no cache set holds more than its share), against a control of
 * as many lines packed into few pages; each the minimum over repetitions, ns per load, and how
 * far the repetitions' median stood above it (the noise of that point). */
struct tlb_point {
    uint64_t pages;
    double walk_ns, control_ns, spread_ns;
};
#define TLB_MAX_POINTS 128

/* A knee: the last size on the plateau below (the entries), the first clearly above it, and the
 * plateaus' extra time a load over the control. */
struct tlb_knee {
    uint64_t entries, next;
    double below_ns, above_ns;
};
struct tlb_knees {
    int n;                      /* 0, 1 (first level) or 2 (and the second) */
    struct tlb_knee knee[2];
    double noise_ns;            /* the largest noise a step had to stand clear of */
};
/* A step stands clear when it is at least TLB_CLEAR times its noise: the points' own spread or
 * the scatter of the two plateaus beside it about their levels, never less than
 * TLB_NOISE_FLOOR_NS. A knee is where the step is LATENCY_CAPACITY_FRACTION of the way up. */
#define TLB_CLEAR 4.0
#define TLB_NOISE_FLOOR_NS 0.02
/* Reads the knees off n points sorted by pages: the walk's extra time a load over its control
 * is a staircase (first-level hits, second-level hits, page walks); each curve is first lowered
 * to its least time at any larger size, as load only adds time and neither falls with size.
 * Returns the knees found (0 with why: no step clear of the noise, or the smallest walk already
 * slow), or -1 with why when the points are not a curve (fewer than 6, unsorted, not finite). */
int tlb_knees_find(const struct tlb_point *p, int n, struct tlb_knees *out, char *why, size_t whylen);

struct tlb_facts {
    int entries[TLB_KINDS];           /* 0 = not known */
    const char *from[TLB_KINDS];      /* "CPUID leaf 0x18", TLB_FROM_WALK; NULL when not known */
    char why[TLB_KINDS][400];         /* not known: why */
    struct cpu_tlbs cpuid;
    struct tlb_point points[TLB_MAX_POINTS];
    int npoints;
    struct tlb_knees knees;
    bool walked;                      /* a walk (measured now or cached) was read */
    double seconds;                   /* what measuring took (0: not measured in this process) */
    char note[600];                   /* the walk: when and where cached, or why there is none */
    char cache_file[4096];
};
#define TLB_FROM_WALK "measured page-stride walk"

/* Measures the walk on this machine: points sorted by pages, their count, or -1 with why.
 * Registered by the calibrator, which owns the walker measurement. */
typedef int (*tlb_measurer)(struct tlb_point *p, int max, char *why, size_t whylen);
void tlb_register_measurer(tlb_measurer fn);

/* The facts without measuring: the CPU's, and a cached walk's where the CPU is silent. */
const struct tlb_facts *tlb_get(void);
/* The same, measuring the walk first (about a second, once per host) when the CPU states no
 * 4 KiB entries, no walk is cached and this machine is the one described (no fixture, not
 * under valgrind). */
const struct tlb_facts *tlb_resolved(void);
/* The entries of one kind, 0 with *why (static storage) when not known. */
int tlb_entries(enum tlb_kind k, const char **why);
/* pmucal info's lines, and the manifest's cpu.dtlb_entries / dtlb_from / dtlb_why. */
void tlb_print(FILE *f);
void tlb_json(struct json *j);

#endif
