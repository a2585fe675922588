/* The SHA-256 of the snippet a case of kernel 'code' runs: what a run records when it starts, so
 * that a --resume runs that case only when its user hands the same snippet again (runs/run_cases.h). */
#ifndef PMUCAL_SNIPPET_DIGEST_H
#define PMUCAL_SNIPPET_DIGEST_H
#include "base/sha256.h"
#include "core/kernel.h"
#include <stdbool.h>
#include <stddef.h>

/* The most bytes the kernel reads of a file= snippet (assembly text) and of an object=. */
#define SNIPPET_FILE_MAX (1u << 20)
#define SNIPPET_OBJECT_MAX (16u << 20)

/* Does c run code its user gave (kernel 'code')? */
bool snippet_case_runs_code(const struct case_ *c);
/* The digest of c's asm= text, or of the bytes of its file= or object= file (read now) into hex;
 * -1 with why when the file cannot be read or the case names no snippet or more than one. */
int snippet_case_digest(const struct case_ *c, char hex[SHA256_HEX_LEN + 1], char *why, size_t n);
/* The bytes of path, read again when the case is set up, against the digest snippet_case_digest
 * took of that file first: -1 with why when they differ (the file changed since the run recorded
 * its SHA-256, so what would run is not what was recorded); 0 when they match or path was never
 * digested. */
int snippet_bytes_check(const char *path, const void *bytes, size_t len, char *why, size_t n);

#endif
