/* SHA-256 (FIPS 180-4): the digest a run records of the snippet a 'code' case runs, so that a
 * --resume runs that case only when its user hands the same snippet again (runs/run_cases.h).
 * Our own few lines rather than a library: one digest of a few KiB a case, no key, no speed need. */
#ifndef PMUCAL_SHA256_H
#define PMUCAL_SHA256_H
#include <stddef.h>
#include <stdint.h>

#define SHA256_HEX_LEN 64

/* The digest of len bytes at data, as 64 lower-case hex digits and a NUL into hex. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

#endif
