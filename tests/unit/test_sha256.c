/* base/sha256.c against the known digests of FIPS 180-4's examples and of lengths around the
 * block's edges (55, 56, 63, 64 bytes: the padding takes one block or two), computed elsewhere. */
#include "base/sha256.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

static const struct {
    int line;
    const char *text;
    size_t repeat;   /* the text this many times */
    const char *want;
} rows[] = {
    {__LINE__, "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {__LINE__, "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {__LINE__, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {__LINE__, "a", 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
    {__LINE__, "a", 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
    {__LINE__, "a", 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
    {__LINE__, "a", 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
    {__LINE__, "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        size_t n = strlen(rows[i].text);
        char *buf = malloc(n * rows[i].repeat + 1), hex[SHA256_HEX_LEN + 1];
        for (size_t r = 0; r < rows[i].repeat; r++)
            memcpy(buf + r * n, rows[i].text, n);
        sha256_hex(buf, n * rows[i].repeat, hex);
        CHECK(!strcmp(hex, rows[i].want), rows[i].line, "sha256('%.20s' x %zu) = %s", rows[i].text, rows[i].repeat, hex);
        free(buf);
    }
    return done_testing();
}
