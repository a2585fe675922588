#include "base/gzfile.h"
#include "base/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#if PMUCAL_ZLIB
#include <zlib.h>
#endif

bool gz_named(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

char *path_or_gz(const char *path)
{
    struct stat st;
    if (!stat(path, &st))
        return xstrdup(path);
    char *gz = xasprintf("%s.gz", path);
    if (!stat(gz, &st))
        return gz;
    free(gz);
    return NULL;
}

#if !PMUCAL_ZLIB
/* A build without zlib (ZLIB=0: Debian has no riscv64 zlib1g-dev beside the cross compiler's
 * libc): a compressed table is refused with the way to get one that reads. */
static char *inflate_members(const unsigned char *in, size_t n, size_t max, size_t *len, const char *path, char *err,
                             size_t errlen)
{
    (void)in, (void)n, (void)max, (void)len;
    snprintf(err, errlen, "%s: built without zlib (ZLIB=0), so a gzip-compressed table cannot be read; give it as "
             "plain JSON (gunzip it), or build pmucal with zlib (make ZLIB=1)", path);
    errno = EINVAL;   /* there is a file, not one to read: never ENOENT */
    return NULL;
}
#else
/* The gzip members of in[0..n) inflated into one NUL-terminated buffer of at most max bytes. */
static char *inflate_members(const unsigned char *in, size_t n, size_t max, size_t *len, const char *path, char *err,
                             size_t errlen)
{
    if (n < 2 || in[0] != 0x1f || in[1] != 0x8b) {
        snprintf(err, errlen, "%s: not gzip data (a .gz file must start with the gzip magic 1f 8b); store the table "
                 "as it came, or compress it with gzip", path);
        errno = EINVAL;
        return NULL;
    }
    size_t cap = n * 4 < max ? n * 4 : max, out = 0;
    char *text = xmalloc(cap + 1);
    z_stream z;
    memset(&z, 0, sizeof(z));
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {   /* 16: a gzip wrapper, not zlib's */
        snprintf(err, errlen, "%s: zlib could not start inflating: %s", path, z.msg ? z.msg : "no memory");
        free(text);
        errno = ENOMEM;
        return NULL;
    }
    z.next_in = (unsigned char *)in;   /* zlib's API is not const; it does not write the input */
    const char *why = NULL;
    char zwhy[160];
    for (;;) {
        if (out == cap) {
            if (cap >= max) {
                snprintf(zwhy, sizeof(zwhy), "inflates to more than the %zu MiB pmucal reads from one file",
                         max >> 20);
                why = zwhy;
                break;
            }
            cap = cap * 2 > max ? max : cap * 2;
            text = xrealloc(text, cap + 1);
        }
        size_t in_left = n - (size_t)(z.next_in - in);
        z.avail_in = in_left > 1u << 30 ? 1u << 30 : (uInt)in_left;
        z.next_out = (unsigned char *)text + out;
        z.avail_out = cap - out > 1u << 30 ? 1u << 30 : (uInt)(cap - out);
        size_t out_before = z.avail_out, in_before = z.avail_in;
        int rc = inflate(&z, Z_NO_FLUSH);
        out += out_before - z.avail_out;
        size_t rest = n - (size_t)(z.next_in - in);
        if (rc == Z_STREAM_END) {
            if (!rest)
                break;
            if (rest < 2 || z.next_in[0] != 0x1f || z.next_in[1] != 0x8b) {
                why = "data after the end of the gzip stream";
                break;
            }
            inflateReset(&z);   /* another member (gzip concatenates them) */
            continue;
        }
        if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR) {
            snprintf(zwhy, sizeof(zwhy), "corrupt gzip stream (zlib: %s)", z.msg ? z.msg : "data error");
            why = zwhy;
            break;
        }
        /* Z_OK or Z_BUF_ERROR: no progress with input left means the input ran out mid-stream. */
        if (!rest && z.avail_out && (rc == Z_BUF_ERROR || (in_before == z.avail_in && out_before == z.avail_out))) {
            why = "truncated gzip stream (it ends before the gzip trailer)";
            break;
        }
    }
    inflateEnd(&z);
    if (why) {
        snprintf(err, errlen, "%s: %s; fetch the table again (scripts/refresh-eventdata.sh) or replace it with "
                 "its plain JSON", path, why);
        free(text);
        errno = EINVAL;   /* there is a file, not one to read: never ENOENT */
        return NULL;
    }
    text[out] = '\0';
    *len = out;
    return text;
}

#endif

char *read_file_maybe_gz(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    char *raw = read_file_bounded(path, max, len, err, errlen);
    if (!raw || !gz_named(path))
        return raw;
    char *text = inflate_members((const unsigned char *)raw, *len, max, len, path, err, errlen);
    free(raw);
    return text;
}
