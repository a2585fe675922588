/* Kernel parameters, "p=v p=v" as on the command line and in --case (core/kernel.c): the first
 * byte picks the kernel, the rest is the text. Nothing is set up or run. */
#include "core/kernel.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size)
        return 0;
    const struct kernel **list = kernel_list();
    int n = 0;
    while (list[n])
        n++;
    char *text = fuzz_text(data + 1, size - 1);
    struct case_ *c = case_from_text(list[data[0] % n], text);
    if (c)
        case_free(c);
    free(text);
    return 0;
}
