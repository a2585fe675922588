/* Running another program without a shell: an argv, fork/exec, a deadline. */
#ifndef PMUCAL_PROC_H
#define PMUCAL_PROC_H
#include <stddef.h>

/* Run argv[0] (searched in PATH) with argv, its stdout into out (NUL-terminated, at most n-1 bytes,
 * the rest read and dropped), stderr discarded, stdin /dev/null. It is killed when it runs past
 * timeout_ms. Returns its exit status, or -1 when it could not start, was killed or timed out
 * (out then holds what it printed before). */
int proc_capture(char *const argv[], int timeout_ms, char *out, size_t n);
/* The first line of `prog --version` (2 s at most), or NULL when it fails or prints nothing;
 * buf holds it. */
const char *proc_version_line(const char *prog, char *buf, size_t n);

#endif
