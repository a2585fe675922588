/* The clock decision (host/clock.c clock_decide) over the chain timings recorded on every host this
 * project has met: which clock, whether it is trusted, and, where it is not, which instruction
 * misbehaved and by how much. Ticks are the reference counter's per operation, each chain's
 * fastest trip, as the hosts' notes in ../shared/hosts/ give them. */
#include "arch/isa.h"
#include "host/clock.h"
#include "tap.h"
#include <math.h>
#include <string.h>

int main(void)
{
    static const struct {
        int line;
        const char *host, *isa;
        struct clock_chains m;
        bool trusted;
        double ghz;        /* the clock decided, within 0.5% */
        int mul;           /* the multiply's latency taken, 0 = none */
        const char *why;   /* a word of the reason it is not trusted */
        const char *note;  /* a word of the immediate adds' note, NULL = none */
    } rows[] = {
        /* Emerald Rapids VM (emr-vm/README.md): TSC 2.3 GHz, imm add 0.186, reg add 0.743, imul 2.229. */
        {__LINE__, "emr-vm", "x86-64", {2.3e9, 0.743, 2.229, 0.186}, true, 3.096, 3, NULL, "retire 4.0 a cycle"},
        /* The same host as 33c85fa timed it: its "adds" were the immediate ones the renamer folds. */
        {__LINE__, "emr-vm at 33c85fa", "x86-64", {2.3e9, 0.186, 2.229, 0}, false, 12.37, 0,
         "the register adds misbehaved: at the 3-cycle multiplies' clock (3.10 GHz) an add took 0.25 cycles, not 1 (4.0x off)",
         NULL},
        /* The Intel VM of this session (CPUID 6-A7 with AMX: a Golden Cove-family core), TSC 2.6 GHz. */
        {__LINE__, "intel-a7-vm", "x86-64", {2.6e9, 0.6355, 1.9061, 0.1085}, true, 4.091, 3, NULL, "retire 5.9 a cycle"},
        /* Zen 5 VM (zen5-vm/pmucal-info.txt: 1.7236 cycles a tick of 2.096 GHz); no folding. */
        {__LINE__, "zen5-vm", "x86-64", {2.096e9, 0.5802, 1.7406, 0.5802}, true, 3.613, 3, NULL, NULL},
        /* Zen 5 VM while something held the adders (stop 34's note: 1.58 by the adds, 1.63 by the
         * multiplies): the higher is the clock. */
        {__LINE__, "zen5-vm, adders held", "x86-64", {2.096e9, 1 / 1.58, 3 / 1.63, 1 / 1.58}, true, 2.096 * 1.63, 3,
         NULL, NULL},
        /* The emulated Neoverse N1 (QEMU -icount shift=0): one instruction a nanosecond, the generic
         * timer at 62.5 MHz; a multiply is one instruction like any other (the trip's two loop
         * instructions make 1002 a 1000-operation trip). */
        {__LINE__, "qemu-n1", "AArch64", {62.5e6, 1.002 / 16, 1.002 / 16, 1.002 / 16}, true, 0.998, 1, NULL, NULL},
        /* Hosts not met, each a way to be wrong: multiplies that take 2 adds' time on x86 ... */
        {__LINE__, "x86, 2-cycle multiplies", "x86-64", {1.5e9, 0.5, 1.0, 0.5}, false, 3.0, 0,
         "the references disagree: a multiply took 2.00 register adds' time", NULL},
        /* ... a register add the counter says ran at 8 GHz while the multiplies say 2.7 ... */
        {__LINE__, "x86, adds too fast", "x86-64", {2.0e9, 0.25, 2.25, 0}, false, 8.0, 0,
         "the register adds misbehaved", NULL},
        /* ... multiplies that would make the core 0.1 GHz ... */
        {__LINE__, "x86, multiplies too slow", "x86-64", {2.0e9, 0.5, 60, 0}, false, 4.0, 0, "the multiplies misbehaved",
         NULL},
        /* ... both agreeing on a clock no core runs at (7.5 GHz) ... */
        {__LINE__, "x86, agreeing too fast", "x86-64", {3.0e9, 0.4, 1.2, 0.4}, false, 7.5, 3, "agree on a clock that cannot be",
         NULL},
        /* ... a core at 5 cycles a TSC tick ... */
        {__LINE__, "x86, 5 cycles a tick", "x86-64", {1.0e9, 0.2, 0.6, 0.2}, false, 5.0, 3, "outside 0.2-3", NULL},
        /* ... no multiplies timed, or no adds. */
        {__LINE__, "x86, adds alone", "x86-64", {2.0e9, 0.5, 0, 0}, false, 4.0, 0, "one reference alone", NULL},
        {__LINE__, "x86, nothing timed", "x86-64", {2.0e9, 0, 0, 0}, false, NAN, 0, "not timed", NULL},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct clock_info ci = {0};
        const struct clock_bounds *b = clock_bounds_of(rows[i].isa);
        clock_decide(&rows[i].m, b, &ci);
        double ghz = ci.core_per_tsc * rows[i].m.tsc_hz / 1e9;
        bool good = ci.trusted == rows[i].trusted && ci.mul_latency == rows[i].mul &&
                    (isnan(rows[i].ghz) ? isnan(ghz) : fabs(ghz / rows[i].ghz - 1) < 0.005) &&
                    (rows[i].why ? strstr(ci.why, rows[i].why) != NULL : !ci.why[0]) &&
                    (rows[i].note ? strstr(ci.note, rows[i].note) != NULL : !ci.note[0]);
        CHECK(good, rows[i].line, "%s: %s, %.3f GHz, %d-cycle multiplies%s%s%s%s", rows[i].host,
              ci.trusted ? "trusted" : "not trusted", ghz, ci.mul_latency, ci.why[0] ? "; " : "", ci.why,
              ci.note[0] ? "; " : "", ci.note);
    }
    CHECK(clock_bounds_of(ISA_NAME) != NULL && clock_bounds_of("z80") == NULL, __LINE__,
          "this build's ISA (%s) has its bounds written", ISA_NAME);
    return done_testing();
}
