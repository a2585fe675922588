/* Shared by the libFuzzer harnesses (make fuzz): the input as a C string, a scratch folder, and
 * pmucal's own messages kept off the terminal (sanitizer reports still reach fd 2). */
#ifndef PMUCAL_FUZZ_H
#define PMUCAL_FUZZ_H
#include "base/util.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input, NUL-terminated; text parsers stop at an embedded NUL as they would in a file. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = xmalloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Each harness is its own program and includes this once: libFuzzer calls this first. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        stderr = null;   /* pm_error/pm_note print through stdio; ASan writes fd 2 directly */
        stdout = null;
    }
    return 0;
}

/* A per-process scratch folder, made once. */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "/tmp/pmucal-fuzz.XXXXXX");
        if (!mkdtemp(dir))
            abort();
    }
    return dir;
}

/* Writes n bytes to dir/name; aborts on failure (the harness, not the parser, is broken). */
static inline void fuzz_write(const char *dir, const char *name, const void *data, size_t n)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f))
        abort();
}

#endif
