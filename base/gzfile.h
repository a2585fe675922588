/* Files that may be stored gzip-compressed: the vendor event tables ship as NAME.json.gz (Intel's
 * perfmon tables are 15 MB as JSON, under 2 MB compressed). zlib inflates them; nothing here
 * parses the deflate format by hand. */
#ifndef PMUCAL_GZFILE_H
#define PMUCAL_GZFILE_H
#include <stdbool.h>
#include <stddef.h>

/* Does the name end in ".gz"? */
bool gz_named(const char *path);
/* read_file_bounded (base/util.h), except that a path ending in ".gz" is inflated: the whole of
 * it must be gzip members, each complete and with a matching CRC, inflating to at most max bytes.
 * NULL with err starting with the path and saying what is wrong ("not gzip data", "truncated
 * gzip stream", zlib's own words) otherwise. */
char *read_file_maybe_gz(const char *path, size_t max, size_t *len, char *err, size_t errlen);
/* PATH when it is there, else PATH.gz when that is (a table a mapfile names as NAME.json, shipped
 * compressed); NULL when neither. Caller frees. */
char *path_or_gz(const char *path);

#endif
