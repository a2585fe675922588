/* The branch predictors of the machine the sim source simulates (valgrind 3.19's callgrind with
 * --branch-sim=yes, cachegrind/cg_branchpred.c), so that a model's mispredicts under sim follow
 * what it does, not what a default case happens to allow. That machine:
 * - conditional branches: one table of 16384 2-bit saturating counters (0..3, taken predicted at
 *   2 and above, all 0 at the start), indexed by (7 bits of global history) << 7 | (the branch instruction's address &
 *   127): 7 address bits, none dropped on x86 (2 on fixed-width ISAs). The history is the outcomes
 *   of the last 7 conditional branches executed anywhere (the newest in bit 0), updated after
 *   each; a counter moves one step toward the outcome. So branches 128 bytes apart share
 *   counters, told apart only by the history: a pattern the history does not tell apart is
 *   mispredicted whatever it is;
 * - indirect jumps and calls: a 512-entry table of last targets indexed by the instruction's
 *   address & 511 (address bits as above); a jump is mispredicted when its entry holds another
 *   target, then the entry takes this one. Sites 512 bytes apart share an entry;
 * - the outcome the predictor is given is that of the side exit VEX made of the jump, taken as
 *   inverted where that exit goes to the next instruction (cachegrind/callgrind's 'inverted'
 *   test: side-exit address == fall-through address). A jump whose target is the next instruction
 *   (the branch kernel's: taken or not, the same code follows) therefore reaches the predictor as
 *   taken when its condition is false. Measured: 'branch pattern=period period=8 branches=82
 *   density=4' mispredicts 0.126 a iteration as this gives, against 0.25 with the outcomes as run;
 * - returns are not predicted (never counted as mispredicted, nor as Bi).
 * Nothing is reset between loops: the harness's few branches between loops perturb a few counters
 * and the history, a few mispredicts a loop (the sources' slack). */
#ifndef PMUCAL_BPRED_H
#define PMUCAL_BPRED_H
#include <stdbool.h>
#include <stdint.h>

#define BPRED_HIST_BITS 7
#define BPRED_ADDR_BITS 7
#define BPRED_IND_BITS 9

struct bpred_cond {
    uint8_t counter[1u << (BPRED_HIST_BITS + BPRED_ADDR_BITS)];
    unsigned history;
    unsigned addr_shift;   /* low address bits always zero on the ISA (arch: isa_insn_align_bits) */
    uint32_t *miss_at;     /* NULL, or mispredicts counted per counter */
};
void bpred_cond_init(struct bpred_cond *p, unsigned addr_shift);
/* One conditional branch at addr with its outcome: true when mispredicted. */
bool bpred_cond_step(struct bpred_cond *p, uintptr_t addr, bool taken);

/* A periodic stream of conditional branches: lap() runs one period of the stream through
 * bpred_cond_step and returns its mispredicts. Laps run until one leaves every counter and the
 * history as it found them (at most max_laps): that lap's mispredicts, which every later lap
 * repeats; -1 when it does not settle, or when a counter's share of it depends on the value it
 * starts from (each counter runs on its own, the outcomes fixed: its start is whatever other code
 * left, so all four are tried). laps (or NULL): how many laps it took. */
double bpred_cond_steady(uint64_t (*lap)(struct bpred_cond *p, const void *arg), const void *arg, unsigned addr_shift,
                         int max_laps, int *laps);

/* One indirect jump site whose targets follow targets[0..n-1] cyclically: its mispredicts in one
 * lap of the steady state (entries of other sites never share its slot here). */
uint64_t bpred_indirect_lap(const uint64_t *targets, uint64_t n);

#endif
