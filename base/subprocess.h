/* Other programs (gnuplot, valgrind, perf) started without a shell: an argument vector looked
 * up in PATH, a working folder, files for stdout and stderr, an optional time limit. No string
 * of ours is ever parsed by /bin/sh, so a quote or a newline in a path is only a character. */
#ifndef PMUCAL_SUBPROCESS_H
#define PMUCAL_SUBPROCESS_H
#include <stddef.h>

struct spawn_opts {
    const char *cwd;        /* working folder of the program (NULL: ours) */
    const char *out_path;   /* stdout to this file, relative to cwd (NULL: /dev/null unless captured) */
    const char *err_path;   /* stderr to this file, relative to cwd (NULL: /dev/null) */
    char *capture;          /* when set: the first capture_size - 1 bytes of stdout, NUL-terminated */
    size_t capture_size;
    int timeout_ms;         /* > 0: killed (SIGKILL) after this long; also when a stop is requested */
};

#define SPAWN_NOT_STARTED (-1)   /* not found in PATH, or could not start (errno says why) */
#define SPAWN_TIMED_OUT (-2)

/* Runs argv[0] with argv in a process group of its own and waits: its exit status (0..255),
 * 128 + N when signal N ended it, SPAWN_NOT_STARTED, or SPAWN_TIMED_OUT (over its time limit, or
 * killed because pmucal was asked to stop: stop_requested). */
int spawn_run(char *const argv[], const struct spawn_opts *o);

/* s as a gnuplot single-quoted string literal: no backquote or backslash processing happens
 * there; quotes are doubled and control characters (a newline would end the command) become
 * spaces. Caller frees. */
char *gnuplot_quote(const char *s);

#endif
