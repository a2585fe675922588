/* Kernel parameters, "p=v p=v" as on the command line and in --case (core/kernel.c,
 * docs/grammar.md): the first byte picks the kernel, the rest is the text. Nothing is set up or
 * run. Oracles beyond no crash: an accepted case's label ("kernel p=v ...", its values other than
 * the defaults) parses to the same case; a refusal names the kernel. Dictionary: fuzz/params.dict. */
#include "core/kernel.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    /* A cache level name (size=L3) asks for the host's levels: hwloc's as they are, never the
     * latency curve measured (tens of seconds under ASan when no cache of host facts exists). */
    setenv("PMUCAL_GEOMETRY", "hwloc", 1);
    const struct kernel **list = kernel_list();
    int n = 0;
    while (list[n])
        n++;
    const struct kernel *k = list[data[0] % n];
    char *text = fuzz_text(data + 1, size - 1);
    fuzz_capture();
    struct case_ *c = case_from_text(k, text);
    char *said = fuzz_captured();
    if (!c) {
        char prefix[96];
        snprintf(prefix, sizeof(prefix), "pmucal: error: %s: ", k->name);
        if (!said || strncmp(said, prefix, strlen(prefix)))
            fuzz_oracle_failed("a refused case's message does not name its kernel", said);
    } else {
        const char *params = c->label + strlen(k->name);
        fuzz_capture();
        struct case_ *again = case_from_text(k, params + (*params == ' '));
        char *said2 = fuzz_captured();
        if (!again || strcmp(again->label, c->label))
            fuzz_oracle_failed(again ? "an accepted case's label parses to another case"
                                     : "an accepted case's label is refused", said2 ? said2 : c->label);
        case_free(again);
        free(said2);
        case_free(c);
    }
    free(said);
    free(text);
    return 0;
}
