/* Shared by the libFuzzer harnesses (make fuzz): the input as a C string, a scratch folder, and
 * pmucal's own messages kept off the terminal (sanitizer reports still reach fd 2). */
#ifndef PMUCAL_FUZZ_H
#define PMUCAL_FUZZ_H
#include "base/util.h"
#include "cmd/commands.h"
#include "runs/rundir.h"
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
    run_file_sync = false;   /* thousands of runs a second: no fsync, the folder is in memory */
    if (null) {
        stderr = null;   /* pm_error/pm_note print through stdio; ASan writes fd 2 directly */
        stdout = null;
    }
    return 0;
}

/* A per-process scratch folder, made once: in /dev/shm (memory) where there is one. */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof(dir), "%s/pmucal-fuzz.XXXXXX", access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
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

/* A run folder from one input: its parts, split at NUL bytes, become the files names[0..n-1] of
 * the scratch folder in order; a file with no part is removed, so runs without it are tried too.
 * Returns the folder. The seeds (fuzz/corpus/NAME) are real run folders joined the same way. */
static inline const char *fuzz_run_folder(const uint8_t *data, size_t size, const char *const *names, int n)
{
    const char *dir = fuzz_dir();
    const uint8_t *at = data, *end = data + size;
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        if (!at) {
            unlink(path);
            continue;
        }
        const uint8_t *nul = memchr(at, 0, (size_t)(end - at));
        fuzz_write(dir, names[i], at, nul ? (size_t)(nul - at) : (size_t)(end - at));
        at = nul ? nul + 1 : NULL;
    }
    return dir;
}

/* The grammar oracles (docs/grammar.md): pmucal's messages of one parse, kept in memory. */
static FILE *fuzz_quiet;
static char *fuzz_said;
static size_t fuzz_said_len;

static inline void fuzz_capture(void)
{
    if (!fuzz_quiet)
        fuzz_quiet = stderr;
    stderr = open_memstream(&fuzz_said, &fuzz_said_len);
    if (!stderr)
        abort();
}

/* What was said since fuzz_capture (the caller frees it); pmucal's messages go to /dev/null again. */
static inline char *fuzz_captured(void)
{
    fclose(stderr);
    stderr = fuzz_quiet;
    char *s = fuzz_said;
    fuzz_said = NULL;
    return s;
}

/* An oracle failed: the input, the finding and the messages on the real stderr, then abort (libFuzzer
 * keeps the input as a crash). */
static inline void fuzz_oracle_failed(const char *what, const char *said)
{
    dprintf(2, "grammar oracle: %s\nmessages: %s\n", what, said ? said : "(none)");
    abort();
}

/* Lines in text (to its first NUL): a message may name 1..that many. */
static inline int fuzz_lines(const char *text)
{
    int n = 1;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

/* A refusal's first message must be "pmucal: error: ORIGIN:LINE: ..." with LINE a line of text, or
 * one of the whole-input messages given in whole (NULL-terminated prefixes after "pmucal: error: "). */
static inline void fuzz_check_refusal(const char *said, const char *origin, const char *text,
                                      const char *const *whole)
{
    char prefix[128];
    snprintf(prefix, sizeof(prefix), "pmucal: error: %s:", origin);
    if (said && !strncmp(said, prefix, strlen(prefix))) {
        char *end;
        long line = strtol(said + strlen(prefix), &end, 10);
        if (end == said + strlen(prefix) || *end != ':' || line < 1 || line > fuzz_lines(text))
            fuzz_oracle_failed("a refusal names no line of the input", said);
        return;
    }
    for (int i = 0; whole && whole[i]; i++)
        if (said && !strncmp(said, "pmucal: error: ", 15) && !strncmp(said + 15, whole[i], strlen(whole[i])))
            return;
    fuzz_oracle_failed("a refusal without a message naming its line", said);
}

/* pmucal COMMAND ARGS... as typed, its exit status ignored (only crashes, leaks and hangs count). */
static inline void fuzz_command(const char *name, int argc, char **argv)
{
    const struct command *c = command_find(name);
    if (!c)
        abort();
    (void)c->fn(argc, argv);
}

#endif
