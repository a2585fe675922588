/* The recipes table. Kernels that another branch provides (branch, ifetch) are named here too:
 * until they are registered, their rows are reported as "kernel X not built" and skipped. */
#include "penalties/recipes.h"
#include "base/json.h"
#include "host/uarch.h"
#include <stdio.h>
#include <string.h>

const struct recipe recipes[] = {
    /* Load-to-use latency per data source: the walker's dependent loads, TLB misses kept out. */
    {"l1_hit", "load-to-use latency of a load hitting L1D", "walker size=L1", NULL, "ld.l1", DOMAIN_CORE, NULL, NULL,
     SPREAD_CORE, false},
    {"l2_hit", "load-to-use latency of a load served by L2", "walker size=L2", NULL, "ld.l2", DOMAIN_CORE,
     "load_latency", NULL, SPREAD_CORE, false},
    /* L3 in random order, as DRAM: in a guest's share of a busy L3 the default block order was both
     * faster (Zen 5 VM: 11.1 ns against a random walk's 12.5, prefetched) and slower (this project's
     * Zen 3 VM at 1M: 50.7 ns against 26.4, the order's lines pushed out) than the level. size=L3
     * keeps its working set to a few 2 MiB pages (1M-8M), which the TLBs hold. */
    {"l3_hit", "load-to-use latency of a load served by L3", "walker size=L3 order=random", NULL, "ld.l3", DOMAIN_CORE,
     "load_latency", NULL, SPREAD_HIERARCHY, false},
    /* DRAM in random order over the whole buffer, as the curve that checks it walks: the prefetchers
     * of Golden Cove-family cores follow order=block's blocks of pages in order (on this project's
     * Intel VM, 59.6 ns a load against the curve's 132; 49.9 against 132.3 on the Emerald Rapids
     * VM at 256M). With page=auto's 2 MiB pages the 128 pages of a 256M buffer stay in the STLB. */
    {"dram", "load-to-use latency of a load served by local DRAM", "walker size=DRAM order=random", NULL, "ld.dram",
     DOMAIN_MEMORY, "load_latency", NULL, SPREAD_HIERARCHY, false},
    /* DTLB: one element per 4 KiB page, random. 256 pages miss the first level on every load
     * (more than any core's first-level entries) and hit the second, their 256 lines in L1D so
     * that no cache miss overlaps the translation; 32768 pages miss both. Controls have the same
     * lines without the TLB misses. */
    {"stlb_hit", "first-level DTLB miss that hits the second-level TLB (4 KiB pages)",
     "walker size=1M page=4k page_stride=4096 order=random", "walker size=16K page=4k order=random", "dtlb.miss",
     DOMAIN_CORE, "tlb", NULL, SPREAD_CORE, false},
    {"page_walk", "DTLB miss in both levels: a page walk (4 KiB pages, page tables in cache)",
     "walker size=128M page=4k page_stride=4096 order=random",
     "walker size=128M page=2m page_stride=4096 order=random", "stlb.miss", DOMAIN_CORE, "tlb", NULL, SPREAD_HIERARCHY,
     false},
    /* Branches and instruction fetch: kernels from the code generators. */
    /* The control's branches are never taken: the same instructions, no mispredict, and no taken
     * branch, whose cost depends on where the predictor keeps it. On the Emerald Rapids guest the
     * loop with these branches all taken read anywhere from 8.32 to 13.97 cycles an iteration from
     * one repetition to the next of one process, never taken 8.32 in nearly every one
     * (tests/hosts/emr-vm/branch-controls.csv); over 85 clean passes the taken control lowered a
     * pass's figure by 1.4% at the median and by up to 10%. The figure now holds whatever a
     * predicted taken branch costs beyond a not-taken one, about one such branch a mispredict:
     * nothing on that guest, whose taken loop at its fastest matches the never-taken one. */
    {"mispredict", "a mispredicted conditional branch", "branch pattern=random", "branch pattern=never",
     "br.mispred", DOMAIN_CORE, "branch", NULL, SPREAD_CORE, true},
    /* 8192 jumps in random order overflow every BTB level of current cores, so each one is
     * re-steered; a jump the BTB knows costs about a cycle (64 jumps: 1.08 here), which this
     * whole-cost figure includes, as a control with as many jumps all known is not to be had. */
    {"btb_resteer", "a direct jump missing the BTB, re-steered at decode (whole cost of the jump)",
     "branch kind=uncond branches=8192 density=4", NULL, "br.uncond", DOMAIN_CORE, "branch", NULL, SPREAD_CORE, true},
    /* Straight-line code, whose lines a sequential instruction prefetcher streams: what a line costs
     * when code runs on into it, not a demand fetch's latency. ifetch order=random chains the lines
     * by jumps instead, and is no demand fetch either: a chain the BTB holds is fetched ahead of its
     * jumps (faster than straight-line code from L2 on the Emerald Rapids guest), and a longer one
     * pays a re-steer a jump beside its fetch, which no control of fewer lines has
     * (docs/penalties.md). */
    {"ifetch_l2", "a line of straight-line code fetched from L2, streamed in address order", "ifetch size=L2",
     "ifetch size=L1", "ifetch.lines.l2", DOMAIN_CORE, "ifetch", NULL, SPREAD_CORE, true},
    {"ifetch_l3", "a line of straight-line code fetched from L3, streamed in address order", "ifetch size=L3",
     "ifetch size=L1", "ifetch.lines.l3", DOMAIN_CORE, "ifetch", NULL, SPREAD_HIERARCHY, true},
    {"ifetch_dram", "a line of straight-line code fetched from DRAM, streamed in address order", "ifetch size=DRAM",
     "ifetch size=L1", "ifetch.lines.dram", DOMAIN_MEMORY, NULL, NULL, SPREAD_HIERARCHY, false},
    /* Memory ordering and alignment. */
    /* A store and a load of the same 8 bytes are renamed on Zen 4 and 5 (the load becomes a
     * register copy: 0.48 cycles a pair on this Zen 5, against 4 for an L1 load); a load inside
     * a wider store is forwarded, never renamed (7.1 cycles here). The forwarded case is what the
     * published forwarding latencies describe, so both recipes use it. */
    {"store_forward_block", "extra latency of a load overlapping an earlier, smaller store (forwarding fails, "
     "the load waits for the store to commit) over a load forwarded from a store",
     "stlf variant=block", "stlf variant=partial", "st.fwd.block", DOMAIN_CORE, "memory_order",
     "4-byte store then an 8-byte load of the same address (blocked), against an 8-byte store then a 4-byte load "
     "of its bytes 4-7 (forwarded, not renamed); one dependent chain each", SPREAD_CORE, false},
    {"store_forward", "latency of a load taking its data from an earlier store (forwarded, not renamed): a store "
     "and the load, whole", "stlf variant=partial", NULL, "st.fwd", DOMAIN_CORE, NULL,
     "8-byte store of the chain value, then a 4-byte load of its bytes 4-7 (contained: forwarded; an exact 8-byte "
     "pair would be renamed on Zen 4 and 5 and cost under a cycle); one dependent chain", SPREAD_CORE, false},
    {"line_split", "extra latency of a load crossing a 64-byte line", "linesplit offset=60", "linesplit offset=0",
     "ld.split", DOMAIN_CORE, "memory_order", NULL, SPREAD_CORE, false},
    {"page_split", "extra latency of a load crossing a 4 KiB page (and a line)", "linesplit offset=4092",
     "linesplit offset=0", "ld.split", DOMAIN_CORE, NULL, NULL, SPREAD_CORE, false},
    {"alias_4k", "extra latency of a load after a store 4096 bytes away (4K aliasing)", "alias4k store=alias",
     "alias4k store=apart", "ld.alias4k", DOMAIN_CORE, "memory_order", NULL, SPREAD_CORE, false},
    /* Divide and square root: latency (dependent) and reciprocal throughput (independent). */
    {"div64_latency", "DIV r64 latency (2^63-1 / 1)", "divsqrt op=div width=64", NULL, "arith.div", DOMAIN_CORE,
     NULL,
     "RDX:RAX = 2^63-1 divided by 1 (DIV r64, full-width dividend)", SPREAD_CORE, false},
    {"div32_latency", "DIV r32 latency (2^31-1 / 1)", "divsqrt op=div width=32", NULL, "arith.div", DOMAIN_CORE,
     NULL,
     "EDX:EAX = 2^31-1 divided by 1 (DIV r32)", SPREAD_CORE, false},
    {"div64_throughput", "DIV r64 reciprocal throughput", "divsqrt op=div width=64 chain=throughput", NULL,
     "arith.div", DOMAIN_CORE, NULL,
     "RDX:RAX = 2^63-1 divided by 1, a fresh RAX and zeroed RDX each (DIV r64)", SPREAD_CORE, false},
    {"div32_throughput", "DIV r32 reciprocal throughput", "divsqrt op=div width=32 chain=throughput", NULL,
     "arith.div", DOMAIN_CORE, NULL,
     "EDX:EAX = 2^31-1 divided by 1, a fresh EAX and zeroed EDX each (DIV r32)", SPREAD_CORE, false},
    {"fdiv64_latency", "DIVSD latency", "divsqrt op=fdiv width=64", NULL, "fp.div", DOMAIN_CORE, NULL,
     "1.5 / 1.0 in double (DIVSD)", SPREAD_CORE, false},
    {"fdiv32_latency", "DIVSS latency", "divsqrt op=fdiv width=32", NULL, "fp.div", DOMAIN_CORE, NULL,
     "1.5 / 1.0 in single (DIVSS)", SPREAD_CORE, false},
    {"fdiv64_throughput", "DIVSD reciprocal throughput", "divsqrt op=fdiv width=64 chain=throughput", NULL, "fp.div",
     DOMAIN_CORE, NULL,
     "1.5 / 1.0 in double, 8 registers in turn (DIVSD)", SPREAD_CORE, false},
    {"fdiv32_throughput", "DIVSS reciprocal throughput", "divsqrt op=fdiv width=32 chain=throughput", NULL, "fp.div",
     DOMAIN_CORE, NULL,
     "1.5 / 1.0 in single, 8 registers in turn (DIVSS)", SPREAD_CORE, false},
    {"sqrt64_latency", "SQRTSD latency", "divsqrt op=sqrt width=64", NULL, "fp.sqrt", DOMAIN_CORE, NULL,
     "sqrt(1.0) in double (SQRTSD)", SPREAD_CORE, false},
    {"sqrt32_latency", "SQRTSS latency", "divsqrt op=sqrt width=32", NULL, "fp.sqrt", DOMAIN_CORE, NULL,
     "sqrt(1.0) in single (SQRTSS)", SPREAD_CORE, false},
    {"sqrt64_throughput", "SQRTSD reciprocal throughput", "divsqrt op=sqrt width=64 chain=throughput", NULL,
     "fp.sqrt", DOMAIN_CORE, NULL,
     "sqrt(1.0) in double, 8 registers in turn (SQRTSD)", SPREAD_CORE, false},
    {"sqrt32_throughput", "SQRTSS reciprocal throughput", "divsqrt op=sqrt width=32 chain=throughput", NULL,
     "fp.sqrt", DOMAIN_CORE, NULL,
     "sqrt(1.0) in single, 8 registers in turn (SQRTSS)", SPREAD_CORE, false},
    /* FP assists: denormal operand and result with DAZ/FTZ off, against normal operands. An assist
     * runs from the microcode sequencer, which hardware threads take turns at: the front end's
     * (recipes.h recipe_front_end; measured for the multiply, the add marked alike). */
    {"fp_assist_mul", "extra cost of a MULSD on a denormal operand and result (DAZ/FTZ off)",
     "fpassist op=mul operand=denormal", "fpassist op=mul operand=normal", "fp.assist", DOMAIN_CORE, NULL,
     "x * 1.0 with x = 2^-1050 (denormal) against x = 1.5, MXCSR DAZ and FTZ off", SPREAD_CORE, true},
    {"fp_assist_add", "extra cost of an ADDSD on a denormal operand and result (DAZ/FTZ off)",
     "fpassist op=add operand=denormal", "fpassist op=add operand=normal", "fp.assist", DOMAIN_CORE, NULL,
     "x + 0.0 with x = 2^-1050 (denormal) against x = 1.5, MXCSR DAZ and FTZ off", SPREAD_CORE, true},
};
const int nrecipes = (int)(sizeof(recipes) / sizeof(recipes[0]));

const struct uarch_event *recipe_uarch_event(const struct recipe *r, const char *uarch)
{
    return uarch_event(uarch_named(uarch, NULL), r->name);
}

bool recipe_known(const char *name)
{
    return recipe_named(name) != NULL;
}

/* perf names a later CPU gave a recipe's event (perfmon's tables from Ice Lake-SP and Golden Cove
 * on): tried after the names the uarch files give it. */
static const struct {
    const char *recipe, *perf;
} perf_renamed[] = {
    {"alias_4k", "LD_BLOCKS.ADDRESS_ALIAS"},
    {"fp_assist_mul", "ASSISTS.FP"},
    {"fp_assist_add", "ASSISTS.FP"},
};

const char *recipe_perf_name(const struct recipe *r, int k)
{
    int n;
    const struct uarch *u = uarch_all(&n);
    for (int i = 0; i < n; i++) {
        const struct uarch_event *e = uarch_event(&u[i], r->name);
        if (e && k-- == 0)
            return e->perf;
    }
    for (size_t i = 0; i < sizeof(perf_renamed) / sizeof(perf_renamed[0]); i++)
        if (!strcmp(perf_renamed[i].recipe, r->name) && k-- == 0)
            return perf_renamed[i].perf;
    return NULL;
}

const char *recipe_event(const struct recipe *r, const char *pfm_pmu)
{
    const struct uarch_cpu *c = uarch_cpu_of_pfm(pfm_pmu);
    const struct uarch_event *e = c ? uarch_event(c->uarch, r->name) : NULL;
    return e ? e->pfm : NULL;
}

bool recipe_wanted(const struct recipe *r, char *const *only, int nonly)
{
    if (!nonly)
        return true;
    for (int i = 0; i < nonly; i++)
        if (!strcmp(only[i], r->name))
            return true;
    return false;
}

bool recipe_front_end(const struct recipe *rc)
{
    return rc->front_end;
}

const struct recipe *recipe_named(const char *name)
{
    for (int i = 0; i < nrecipes; i++)
        if (!strcmp(recipes[i].name, name))
            return &recipes[i];
    return NULL;
}

const char *domain_name(enum domain d)
{
    return d == DOMAIN_MEMORY ? "memory" : "core";
}

const char *spread_class_name(enum spread_class s)
{
    return s == SPREAD_HIERARCHY ? "hierarchy" : "core";
}

double spread_allowed(const struct recipe *r)
{
    return r->spread == SPREAD_HIERARCHY ? CAL_SPREAD_HIERARCHY : CAL_SPREAD_CORE;
}

int recipes_list(bool as_json)
{
    if (!as_json) {
        for (int r = 0; r < nrecipes; r++)
            printf("%-20s %-6s %s\n    issue   %s\n    control %s\n    per     %s\n    spread  at most %.0f%% (%s)\n"
                   "%s%s%s%s", recipes[r].name, domain_name(recipes[r].domain), recipes[r].brief, recipes[r].issue,
                   recipes[r].control ? recipes[r].control : "(none: the whole cost per occurrence)",
                   recipes[r].occurrence, 100 * spread_allowed(&recipes[r]), spread_class_name(recipes[r].spread),
                   recipes[r].front_end
                       ? "    front   its cost is the front end's: a pass is left out whose load witness "
                         "reads 0.5% over its whole, or front-end witness 2% over the run's pace\n"
                       : "",
                   recipes[r].operands ? "    operands " : "",
                   recipes[r].operands ? recipes[r].operands : "", recipes[r].operands ? "\n" : "");
        return fflush(stdout) ? 1 : 0;
    }
    struct json j;
    json_init(&j);
    json_array_begin(&j, NULL);
    for (int r = 0; r < nrecipes; r++) {
        json_object_begin(&j, NULL);
        json_string(&j, "name", recipes[r].name);
        json_string(&j, "domain", domain_name(recipes[r].domain));
        json_string(&j, "brief", recipes[r].brief);
        json_string(&j, "issue", recipes[r].issue);
        json_string(&j, "control", recipes[r].control);
        json_string(&j, "occurrence", recipes[r].occurrence);
        json_string(&j, "operands", recipes[r].operands);
        json_string(&j, "spread_class", spread_class_name(recipes[r].spread));
        json_number(&j, "spread_allowed", spread_allowed(&recipes[r]));
        json_bool(&j, "front_end", recipes[r].front_end);
        json_object_end(&j);
    }
    json_array_end(&j);
    int rc = json_write_line(&j, stdout);
    json_free(&j);
    return rc ? 1 : 0;
}
