/* The reference figures. Values are facts taken from the publications named in each row; a row
 * that derives its figure says how in its note. The instruction rows of Zen 4 and Zen 5 are
 * third-party measurements whose exact publication was not recorded when they were collected:
 * their source says so rather than name one it cannot be checked against.
 * Instruction latencies depend on the operands: each recipe states its own (pmucal calibrate
 * --list), and a note here says which operands the published figure was taken with. */
#include "penalties/reference.h"
#include "base/stats.h"
#include "penalties/penalty_fit.h"
#include "penalties/models.h"
#include <math.h>
#include <string.h>

#define ZEN4_SOG "AMD, Software Optimization Guide for the AMD Zen4 Microarchitecture (publication 57647)"
#define ZEN5_SOG "AMD, Software Optimization Guide for the AMD Zen5 Microarchitecture (publication 58455, rev. 1.00, " \
                 "2024)"
#define ZEN4_LAT "published third-party Zen 4 instruction latency/throughput measurements (publication not " \
                 "recorded; indicative only)"
#define ZEN5_LAT "published third-party Zen 5 instruction latency/reciprocal throughput measurements " \
                 "(publication not recorded; indicative only)"
#define GLC_LLVM "Intel's scheduling model for Sapphire Rapids in LLVM (X86SchedSapphireRapids.td: Golden Cove " \
                 "P-core latencies)"
#define GLC_LLVM_COST "Intel's scheduling model for Sapphire Rapids in LLVM (X86SchedSapphireRapids.td): a compiler's " \
                      "cost figure, not a measurement of these operands; indicative only"
#define GLC_EMR "measured on this project's Emerald Rapids VM (../shared/hosts/emr-vm: its latency curve, 3.1 " \
                "GHz; indicative only)"
#define SKL_ORM "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), Skylake client " \
                "microarchitecture: cache parameters table (fastest latency)"

const struct reference references[] = {
    {"zen4", "l1_hit", 4, 4, NULL, ZEN4_SOG, false, false},
    {"zen4", "l2_hit", 14, 14, NULL, ZEN4_SOG, false, false},
    {"zen4", "l3_hit", 50, 54, "about 50-54", ZEN4_SOG, false, false},
    {"zen4", "mispredict", 11, 18, NULL, ZEN4_SOG, false, false},
    {"zen4", "div64_latency", 20.2, 20.2, "full-width 64-bit operands", ZEN4_LAT, false, true},
    {"zen4", "fdiv64_latency", 13.2, 13.2, NULL, ZEN4_LAT, false, true},
    {"zen4", "fdiv64_throughput", 4.75, 4.75, NULL, ZEN4_LAT, false, true},

    {"zen5", "l1_hit", 4, 4, NULL, ZEN5_SOG, false, false},
    {"zen5", "l2_hit", 14, 14, NULL, ZEN5_SOG, false, false},
    {"zen5", "mispredict", 12, 18, "15 typical", ZEN5_SOG, false, false},
    {"zen5", "stlb_hit", 11, 11, "a load that misses the L1 DTLB and hits the L2 DTLB, whole: load to use, as the "
     "guide's 4-cycle L1 hit is (the recipe's issue case per miss, its lines in L1D)", ZEN5_SOG, true, false},
    {"zen5", "store_forward", 8, 8, "a store and the load forwarded from it, whole (an absolute latency, as the "
     "recipe measures: no control); a renamed pair (same address and size) has no such latency", ZEN5_SOG, false, false},
    {"zen5", "store_forward_block", 14, 15, "a failed forward, whole: the store and the load that waits for it "
     "(the recipe's issue case alone; its penalty is that less a forward, 8 by the same guide)", ZEN5_SOG, true,
     false},
    {"zen5", "div32_latency", 12.9, 12.9, NULL, ZEN5_LAT, false, true},
    {"zen5", "div32_throughput", 6.0, 6.0, NULL, ZEN5_LAT, false, true},
    {"zen5", "div64_latency", 17.9, 18.9, NULL, ZEN5_LAT, false, true},
    {"zen5", "div64_throughput", 7, 13, NULL, ZEN5_LAT, false, true},
    {"zen5", "fdiv32_latency", 9.95, 9.95, NULL, ZEN5_LAT, false, true},
    {"zen5", "fdiv32_throughput", 2.49, 2.49, NULL, ZEN5_LAT, false, true},
    {"zen5", "fdiv64_latency", 12.93, 12.93, NULL, ZEN5_LAT, false, true},
    {"zen5", "fdiv64_throughput", 3.98, 3.98, NULL, ZEN5_LAT, false, true},
    {"zen5", "sqrt32_latency", 13.93, 13.93, NULL, ZEN5_LAT, false, true},
    {"zen5", "sqrt32_throughput", 4.47, 4.47, NULL, ZEN5_LAT, false, true},
    {"zen5", "sqrt64_latency", 19.89, 19.89, NULL, ZEN5_LAT, false, true},
    {"zen5", "sqrt64_throughput", 7.46, 7.46, NULL, ZEN5_LAT, false, true},

    /* Golden Cove and its server and client kin (SPR, EMR, ADL-P, RPL-P P-cores). */
    {"goldencove", "l1_hit", 5, 5, "integer load to use", GLC_LLVM, false, false},
    {"goldencove", "l2_hit", 15, 16, "about 16 cycles on the EMR VM's curve (5.2 ns at 3.1 GHz)", GLC_EMR, false, true},
    {"goldencove", "mispredict", 14, 14, "the model's MispredictPenalty: a scheduling parameter (this project's "
     "Intel VM measures 20.6 with its generator's branches)", GLC_LLVM_COST, false, true},
    {"goldencove", "div64_latency", 18, 18, "DIV r64", GLC_LLVM, false, false},
    {"goldencove", "div32_latency", 15, 15, "DIV r32", GLC_LLVM, false, false},
    {"goldencove", "fdiv64_latency", 14, 14, "DIVSD", GLC_LLVM, false, false},
    {"goldencove", "fdiv32_latency", 11, 11, "DIVSS", GLC_LLVM, false, false},
    {"goldencove", "sqrt64_latency", 18, 18, "SQRTSD, one figure for all operands (the slowest); the recipe takes "
     "sqrt(1.0), 13 cycles on this project's Intel VM", GLC_LLVM_COST, false, true},
    {"goldencove", "sqrt32_latency", 12, 12, "SQRTSS", GLC_LLVM, false, false},

    {"skylake", "l1_hit", 4, 5, "4, 5 with a complex address", SKL_ORM, false, false},
    {"skylake", "l2_hit", 12, 12, NULL, SKL_ORM, false, false},
    {"skylake", "l3_hit", 44, 44, NULL, SKL_ORM, false, false},
    {"skylake", "page_split", 5, 5, "a load across a 4 KiB page: 5 cycles, down from about 100", SKL_ORM, false, false},
};
const int nreferences = (int)(sizeof(references) / sizeof(references[0]));

/* The model's own rows first, then its core design's. */
const struct reference *reference_find(const char *model, const char *penalty)
{
    const struct cpu_model *m = cpu_model_named(model);
    const char *names[] = {model, m ? m->core : NULL};
    for (int n = 0; n < 2; n++)
        for (int i = 0; names[n] && i < nreferences; i++)
            if (!strcmp(references[i].model, names[n]) && !strcmp(references[i].penalty, penalty))
                return &references[i];
    return NULL;
}

bool reference_case_differs(const struct reference *r, const struct penalty *p)
{
    return r->whole && p->issue && p->issue->text && strcmp(p->issue->text, p->rc->issue) != 0;
}

bool reference_value(const struct reference *r, const struct penalty *p, double *v, double *lo, double *hi)
{
    if (!r->whole) {
        *v = p->cycles, *lo = p->cycles_lo, *hi = p->cycles_hi;
        return !isnan(p->cycles);
    }
    const struct case_result *is = p->issue;
    /* A whole figure describes the recipe's own issue case; a run made before the recipe changed
     * measured another (reference_case_differs says so). */
    if (!is || !is->reps || !(p->occ_issue > 0) || reference_case_differs(r, p))
        return false;
    struct stats s = stats_of(is->cycles, (size_t)is->reps);
    *v = s.median / p->occ_issue, *lo = s.min / p->occ_issue, *hi = s.max / p->occ_issue;
    return true;
}

double reference_deviation(const struct reference *r, double value)
{
    if (value > r->hi)
        return (value - r->hi) / r->hi;
    if (value < r->lo)
        return (value - r->lo) / r->lo;
    return isnan(value) ? NAN : 0;
}

bool reference_deviation_large(double deviation)
{
    return fabs(deviation) > 0.25;
}
