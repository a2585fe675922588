#include "generators/snippet_digest.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each file digested, with its first digest: the one a manifest records. */
static struct digested {
    char *path;
    char hex[SHA256_HEX_LEN + 1];
} *digested;
static int ndigested;

static struct digested *digested_find(const char *path)
{
    for (int i = 0; i < ndigested; i++)
        if (!strcmp(digested[i].path, path))
            return &digested[i];
    return NULL;
}

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
    const char *path = *file ? file : object;
    /* The bounds the kernel reads them with. */
    char *bytes = read_file_bounded(path, *file ? SNIPPET_FILE_MAX : SNIPPET_OBJECT_MAX, &len, err, sizeof(err));
    if (!bytes) {
        snprintf(why, n, "cannot read %s", err);
        return -1;
    }
    sha256_hex(bytes, len, hex);
    free(bytes);
    if (!digested_find(path)) {
        digested = xrealloc(digested, sizeof(*digested) * (size_t)(ndigested + 1));
        digested[ndigested].path = xstrdup(path);
        memcpy(digested[ndigested++].hex, hex, sizeof(digested->hex));
    }
    return 0;
}

int snippet_bytes_check(const char *path, const void *bytes, size_t len, char *why, size_t n)
{
    const struct digested *d = digested_find(path);
    char hex[SHA256_HEX_LEN + 1];
    if (!d)
        return 0;
    sha256_hex(bytes, len, hex);
    if (!strcmp(hex, d->hex))
        return 0;
    snprintf(why, n, "%.150s changed since the run recorded its SHA-256 (%s, now %s): what would run is not the "
             "snippet the run recorded; leave the file as it is while a run uses it", path, d->hex, hex);
    return -1;
}
