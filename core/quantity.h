/* The one vocabulary of analytically known amounts per iteration that kernel models state. */
#ifndef PMUCAL_QUANTITY_H
#define PMUCAL_QUANTITY_H
#include <stdbool.h>
#include <stddef.h>

/* X(identifier, "name", "meaning") — add a quantity here and nowhere else. */
#define QUANTITY_LIST(X) \
    X(INST,            "inst",             "instructions retired") \
    X(LD_ALL,          "ld.all",           "instructions that read memory: loads, memory-source operands, and the stack reads of ret and pop") \
    X(ST_ALL,          "st.all",           "instructions that write memory: stores, and the stack writes of call and push") \
    X(LD_L1,           "ld.l1",            "loads whose data comes from L1D") \
    X(LD_L2,           "ld.l2",            "loads whose data comes from L2") \
    X(LD_L3,           "ld.l3",            "loads whose data comes from L3 / LLC") \
    X(LD_DRAM,         "ld.dram",          "loads whose data comes from DRAM") \
    X(BR_ALL,          "br.all",           "branch instructions of every kind") \
    X(BR_COND,         "br.cond",          "conditional branches") \
    X(BR_COND_TAKEN,   "br.cond.taken",    "conditional branches taken") \
    X(BR_COND_NTAKEN,  "br.cond.ntaken",   "conditional branches not taken") \
    X(BR_UNCOND,       "br.uncond",        "unconditional direct jumps") \
    X(BR_INDIRECT,     "br.indirect",      "indirect jumps and calls") \
    X(BR_CALL,         "br.call",          "calls") \
    X(BR_RET,          "br.ret",           "returns") \
    X(BR_MISPRED,      "br.mispred",       "mispredicted branches of every kind") \
    X(BR_COND_MISPRED, "br.cond.mispred",  "mispredicted conditional branches") \
    X(BR_INDIRECT_MISPRED, "br.indirect.mispred", "mispredicted indirect jumps and calls") \
    X(DTLB_MISS,       "dtlb.miss",        "loads missing the first-level data TLB") \
    X(STLB_MISS,       "stlb.miss",        "loads missing every TLB level (page walks)") \
    X(PF_MINOR,        "pf.minor",         "minor page faults (first touch)") \
    X(FP_SCALAR_DP,    "fp.scalar_dp",     "scalar double FP arithmetic instructions") \
    X(FP_128_DP,       "fp.128_dp",        "128-bit packed double FP arithmetic instructions") \
    X(FP_256_DP,       "fp.256_dp",        "256-bit packed double FP arithmetic instructions") \
    X(FP_512_DP,       "fp.512_dp",        "512-bit packed double FP arithmetic instructions") \
    X(FLOPS_DP,        "flops.dp",         "double-precision floating-point operations") \
    X(BYTES_READ,      "bytes.read",       "bytes loaded by the kernel's instructions") \
    X(BYTES_WRITTEN,   "bytes.written",    "bytes stored by the kernel's instructions") \
    X(LINES_L2,        "lines.l2",         "cache lines brought into L1D from L2") \
    X(LINES_L3,        "lines.l3",         "cache lines brought into L1D from L3") \
    X(LINES_DRAM,      "lines.dram",       "cache lines brought in from DRAM") \
    X(LINES_RFO,       "lines.rfo",        "lines read for ownership by ordinary stores") \
    X(LINES_NT,        "lines.nt",         "lines written by non-temporal stores") \
    X(L2_FILL_LINES,   "l2.fill.lines",    "lines L2 takes from beyond itself (L3 or memory) of every kind: demand, prefetch, read for ownership") \
    X(MEM_READ_LINES,  "mem.read.lines",   "lines read from memory, write-allocate reads included: bytes read / 64 x the kernel's write-allocate factor") \
    X(MEM_WRITE_LINES, "mem.write.lines",  "lines written to memory: dirty lines evicted and non-temporal stores") \
    X(D1_MISS_COLD,    "d1.miss.cold",     "L1D misses with a cold cache (every line first touched)") \
    X(D1_MISS_WARM,    "d1.miss.warm",     "L1D misses with a warm cache, LRU") \
    X(LL_MISS_COLD,    "ll.miss.cold",     "last-level misses with a cold cache") \
    X(LL_MISS_WARM,    "ll.miss.warm",     "last-level misses with a warm cache, LRU") \
    X(I1_MISS_WARM,    "i1.miss.warm",     "instruction fetches missing L1I with a warm cache, LRU (lines)") \
    X(IL_MISS_WARM,    "il.miss.warm",     "instruction fetches missing L1I and the last level with a warm cache, LRU") \
    X(CTX_SWITCH,      "ctx.switch",       "context switches (0 on a quiet, pinned run)") \
    X(CPU_MIGRATION,   "cpu.migration",    "CPU migrations (0 when pinned)") \
    X(LINES_XFER,      "lines.xfer",       "cache lines the load brings from another core's cache") \
    X(XSNP_HITM,       "xsnp.hitm",        "loads served by a modified line in another core's cache (HITM)") \
    X(XSNP_HIT,        "xsnp.hit",         "loads served by a clean line in another core's cache (snoop hit)") \
    X(XSNP_MISS,       "xsnp.miss",        "loads hitting L3 whose cross-core snoop found no copy") \
    X(IFETCH_LINES,    "ifetch.lines",     "64-byte lines of code the executed instructions span (instruction fetch)") \
    X(IFETCH_LINES_L2, "ifetch.lines.l2",  "code lines brought into L1I from L2") \
    X(IFETCH_LINES_L3, "ifetch.lines.l3",  "code lines brought into L1I from L3") \
    X(IFETCH_LINES_DRAM, "ifetch.lines.dram", "code lines brought in from DRAM") \
    X(ITLB_PAGES,      "itlb.pages",       "code pages the executed instructions span (ITLB entries needed)") \
    X(BR_RET_MISPRED,  "br.ret.mispred",   "mispredicted returns") \
    X(SQRT_OPS,        "sqrt.ops",         "square-root instructions (double precision, scalar)") \
    X(FP_SCALAR_SP,    "fp.scalar_sp",     "scalar single FP arithmetic instructions") \
    X(FP_128_SP,       "fp.128_sp",        "128-bit packed single FP arithmetic instructions") \
    X(FP_256_SP,       "fp.256_sp",        "256-bit packed single FP arithmetic instructions") \
    X(FP_512_SP,       "fp.512_sp",        "512-bit packed single FP arithmetic instructions") \
    X(FLOPS_SP,        "flops.sp",         "single-precision floating-point operations") \
    X(FMA_SCALAR_DP,   "fma.scalar_dp",    "of fp.scalar_dp, fused multiply-adds (two flops; Intel's FP_ARITH_INST_RETIRED counts them twice)") \
    X(FMA_128_DP,      "fma.128_dp",       "of fp.128_dp, fused multiply-adds") \
    X(FMA_256_DP,      "fma.256_dp",       "of fp.256_dp, fused multiply-adds") \
    X(FMA_512_DP,      "fma.512_dp",       "of fp.512_dp, fused multiply-adds") \
    X(FMA_SCALAR_SP,   "fma.scalar_sp",    "of fp.scalar_sp, fused multiply-adds") \
    X(FMA_128_SP,      "fma.128_sp",       "of fp.128_sp, fused multiply-adds") \
    X(FMA_256_SP,      "fma.256_sp",       "of fp.256_sp, fused multiply-adds") \
    X(FMA_512_SP,      "fma.512_sp",       "of fp.512_sp, fused multiply-adds") \
    X(IFETCH_MISS,     "ifetch.miss",      "instruction fetches missing L1I (lines)") \
    X(ITLB_MISS,       "itlb.miss",        "instruction fetches missing the first-level instruction TLB") \
    X(ST_FWD,          "st.fwd",           "loads that take their data from an earlier store (forwarded)") \
    X(ST_FWD_BLOCK,    "st.fwd.block",     "loads overlapping an earlier store that cannot take its data (forwarding blocked)") \
    X(LD_SPLIT,        "ld.split",         "loads that cross a 64-byte cache-line boundary") \
    X(LD_ALIAS4K,      "ld.alias4k",       "loads after a store to another address equal in its low 12 bits (4K aliasing)") \
    X(ARITH_DIV,       "arith.div",        "integer divide instructions") \
    X(FP_DIV,          "fp.div",           "floating-point divide instructions (scalar)") \
    X(FP_SQRT,         "fp.sqrt",          "floating-point square-root instructions (scalar)") \
    X(FP_ASSIST,       "fp.assist",        "FP instructions with a denormal operand or result while DAZ and FTZ are off") \
    X(THREADS,         "threads",          "threads that run the region at once: 1 but for a team (core/team.h), whose other members each add a hand-off to a run") \
    X(COPIES,          "copies",           "copies of the user's snippet an iteration executes (the code kernel: cycles per copy)") \
    X(ITER,            "iter",             "1 per iteration: for rules like 'x = 3*iter'")

enum quantity_id {
#define QUANTITY_ENUM(id, name, help) Q_##id,
    QUANTITY_LIST(QUANTITY_ENUM)
#undef QUANTITY_ENUM
    Q_COUNT
};

/* Per-iteration amounts; a model leaves what it cannot state as NaN ("not stated"). */
struct quantities {
    double v[Q_COUNT];
    /* Why the model left quantities it states on other hosts unstated: a fact this host lacks
     * ("dtlb.miss, stlb.miss: the first-level DTLB's entries are not known: ..."); NULL. Static
     * storage. A verdict or a penalty that needs such a quantity is a SKIP with this reason. */
    const char *unstated_why;
};

/* The part of q->unstated_why about an expression: a reason is one or more parts "NAME, NAME: why"
 * joined by "; " (a NAME may end in ".*"); the parts naming a quantity the expression uses, else the
 * whole reason. "" when there is none. */
const char *quantity_unstated_why(const struct quantities *q, const char *expr_text, char *buf, size_t n);
void quantities_unstated(struct quantities *q);  /* all NaN, then ITER = 1 */
/* Fill in what follows from what a model stated: parts of a zero total are zero, a branch kind
 * that never executes never mispredicts, and one unstated part is the total less the others. */
void quantities_derive(struct quantities *q);
bool quantity_stated(const struct quantities *q, enum quantity_id id);
const char *quantity_name(enum quantity_id id);
const char *quantity_help(enum quantity_id id);
/* -1 when the name is not in the vocabulary. */
int quantity_lookup(const char *name);

#endif
