#include "generators/snippet_digest.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool snippet_case_runs_code(const struct case_ *c)
{
    return !strcmp(c->kernel->name, "code");
}

int snippet_case_digest(const struct case_ *c, char hex[SHA256_HEX_LEN + 1], char *why, size_t n)
{
    const char *text = case_str(c, "asm"), *file = case_str(c, "file"), *object = case_str(c, "object");
    if (!!*text + !!*file + !!*object != 1) {
        snprintf(why, n, "it names no snippet or more than one (asm=, file=, object=)");
        return -1;
    }
    if (*text) {
        sha256_hex(text, strlen(text), hex);
        return 0;
    }
    size_t len;
    char err[512];
    /* The bounds the kernel reads them with: a file of assembly of 1 MiB, an object of any size
     * pmucal reads. */
    char *bytes = read_file_bounded(*file ? file : object, *file ? 1u << 20 : INPUT_FILE_MAX, &len, err, sizeof(err));
    if (!bytes) {
        snprintf(why, n, "cannot read %s", err);
        return -1;
    }
    sha256_hex(bytes, len, hex);
    free(bytes);
    return 0;
}
