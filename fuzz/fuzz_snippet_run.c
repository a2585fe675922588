/* The user's code run (generators/snippet.c): random instruction bytes, assembled as .byte,
 * decoded, judged and, when accepted, run through the code kernel's trial and loops. Whatever
 * they do, pmucal goes on: every refusal and every failure says why, and the direction flag,
 * MXCSR and x87 control word are pmucal's again afterwards. */
#include "fuzz.h"
#include "core/kernel.h"
#include "generators/snippet.h"

#define MAX_BYTES 48

static uint64_t fp_state(void)
{
#if defined(__x86_64__)
    uint32_t mxcsr;
    uint16_t fcw;
    uint64_t flags;
    __asm__ volatile("stmxcsr %0; fnstcw %1; pushfq; popq %2" : "=m"(mxcsr), "=m"(fcw), "=r"(flags));
    /* MXCSR's control bits (its low six are sticky flags pmucal's own arithmetic sets), the x87
     * control word, DF at bit 48 */
    return (mxcsr & ~0x3fu) | (uint64_t)fcw << 32 | (flags & 0x400) << 38;
#else
    return isa_snippet_state_save();
#endif
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size || size > MAX_BYTES)
        return 0;
    char text[16 + 5 * MAX_BYTES] = ".byte ";
    size_t n = strlen(text);
    for (size_t i = 0; i < size; i++)
        n += (size_t)snprintf(text + n, sizeof(text) - n, "%s0x%02x", i ? "," : "", data[i]);
    char *asm_arg = xasprintf("asm=%s", text);
    char *args[] = {asm_arg, "chain=none", "copies=1"};
    const struct kernel *k = kernel_find("code");
    struct case_ *c = case_new(k, 3, args);
    free(asm_arg);
    if (!c)
        __builtin_trap();   /* the parameters are the kernel's own */
    uint64_t before = fp_state();
    int rc = case_setup(c);
    if (rc == CASE_OK) {
        for (uint64_t iters = 0; iters < 4 && !c->failed[0]; iters++)
            k->loop(c, iters * 3);
    } else if (!snippet_last_problem()[0]) {
        __builtin_trap();   /* a refusal always says why */
    }
    if (k->teardown)
        k->teardown(c);
    case_free(c);
    if (fp_state() != before)
        __builtin_trap();   /* the snippet's state reached pmucal */
    return 0;
}
