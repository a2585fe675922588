/* A file of snippets, one a line, for 'pmucal code': the grammar
 *
 *     file    = { line "\n" }
 *     line    = blank | "#" comment | entry
 *     entry   = [ name "|" ] snippet [ "|" option { " " option } ]
 *     name    = [a-z_][a-z0-9_]*  (at most 40; unique in the file; default "line<N>")
 *     snippet = the instructions, ';' between them (no '|')
 *     option  = ("init" | "chain" | "expect" | "copies" | "mode") "=" value (no blank)
 *
 * mode=latency or mode=throughput measures one of the two (both by default); the others are the
 * kernel's parameters (pmucal kernels code). */
#ifndef PMUCAL_SNIPPET_FILE_H
#define PMUCAL_SNIPPET_FILE_H
#include <stdbool.h>
#include <stddef.h>

#define SNIPPET_NAME_MAX 40
enum { SNIPPET_LATENCY = 1, SNIPPET_THROUGHPUT = 2 };

struct snippet_entry {
    int line;
    char name[SNIPPET_NAME_MAX + 1];
    char *text;                 /* the snippet */
    char *init, *chain, *expect, *copies;   /* the options' values, NULL when not given */
    unsigned modes;             /* SNIPPET_LATENCY | SNIPPET_THROUGHPUT */
    bool mode_given;            /* mode= was given (once only) */
};

/* text (NUL-terminated) of the file origin; -1 with why naming origin:line and the fix. */
int snippet_file_parse(const char *text, const char *origin, struct snippet_entry **out, int *n, char *why, size_t wn);
void snippet_entries_free(struct snippet_entry *e, int n);
/* The line (1-based) of the first NUL byte in text's len bytes, 0 when there is none: a file read
 * whole is refused there, not cut short at it. */
int snippet_text_nul_line(const char *text, size_t len);
#endif
