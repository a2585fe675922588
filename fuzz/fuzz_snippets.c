/* The snippet-file grammar of 'pmucal code' (generators/snippet_file.c): every entry parsed or
 * one message naming the line; parsed entries hold a name of the grammar and a snippet. */
#include "fuzz.h"
#include "generators/snippet_file.h"
#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    struct snippet_entry *e;
    int n;
    if (!snippet_file_parse(text, "fuzz.txt", &e, &n, err, sizeof(err))) {
        for (int i = 0; i < n; i++)
            if (!e[i].name[0] || !e[i].text || !e[i].text[0] || !e[i].modes || strchr(e[i].text, '|'))
                __builtin_trap();
        snippet_entries_free(e, n);
    } else if (!err[0]) {
        __builtin_trap();   /* a refusal always says why */
    }
    free(text);
    return 0;
}
