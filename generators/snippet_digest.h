/* The SHA-256 of the snippet a case of kernel 'code' runs: what a run records when it starts, so
 * that a --resume runs that case only when its user hands the same snippet again (runs/run_cases.h). */
#ifndef PMUCAL_SNIPPET_DIGEST_H
#define PMUCAL_SNIPPET_DIGEST_H
#include "base/sha256.h"
#include "core/kernel.h"
#include <stdbool.h>
#include <stddef.h>

/* Does c run code its user gave (kernel 'code')? */
bool snippet_case_runs_code(const struct case_ *c);
/* The digest of c's asm= text, or of the bytes of its file= or object= file (read now) into hex;
 * -1 with why when the file cannot be read or the case names no snippet or more than one. */
int snippet_case_digest(const struct case_ *c, char hex[SHA256_HEX_LEN + 1], char *why, size_t n);

#endif
