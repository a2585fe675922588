/* A snippet file's bytes read when its case is set up must be the bytes whose SHA-256 the run
 * recorded when it started: a file changed in between is refused, an unchanged one passes. */
#include "core/kernel.h"
#include "generators/snippet_digest.h"
#include "tap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    const struct kernel *k = kernel_find("code");
    CHECK(k != NULL, __LINE__, "the code kernel is registered");
    if (!k)
        return done_testing();
    char path[] = "/tmp/pmucal-digest-XXXXXX";
    int fd = mkstemp(path);
    const char first[] = "add rax, 1\n", later[] = "add rax, 2\n";
    CHECK(fd >= 0 && write(fd, first, strlen(first)) == (ssize_t)strlen(first), __LINE__, "a snippet file %s", path);
    close(fd);
    char *text = malloc(strlen(path) + 8);
    sprintf(text, "file=%s", path);
    struct case_ *c = case_from_text(k, text);
    char hex[SHA256_HEX_LEN + 1], why[600];
    CHECK(c && !snippet_case_digest(c, hex, why, sizeof(why)), __LINE__, "its digest is taken");
    CHECK(!snippet_bytes_check(path, first, strlen(first), why, sizeof(why)), __LINE__, "the same bytes pass");
    CHECK(snippet_bytes_check(path, later, strlen(later), why, sizeof(why)) && strstr(why, path) &&
              strstr(why, hex), __LINE__, "changed bytes are refused, naming the file and the digest: '%s'", why);
    CHECK(!snippet_bytes_check("/tmp/never-digested", later, strlen(later), why, sizeof(why)), __LINE__,
          "a file never digested is not checked");
    unlink(path);
    case_free(c);
    free(text);
    return done_testing();
}
