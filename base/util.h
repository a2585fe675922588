/* Small helpers every subsystem uses: error messages, checked allocation, string parsing. */
#ifndef PMUCAL_UTIL_H
#define PMUCAL_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal, for messages that state a limit. */
#define STR_(x) #x
#define STR(x) STR_(x)

/* One line "pmucal: <message>" on stderr. Errors name the input and the fix. */
void pm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The text of the last pm_error ("" before any): a caller that turns a failure into a verdict
 * gives its reason. */
const char *pm_last_error(void);
void pm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Notes go to stderr too, so stdout stays TAP or a table. */
void pm_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress (a line per case, recipe or point) is for a person watching: it is written where stderr
 * is a terminal, so that a log of a command's output and messages together holds its TAP and its
 * messages, not a line per step between them. PMUCAL_PROGRESS=1 writes it anywhere, 0 nowhere.
 * Errors, warnings and notes are written everywhere. */
bool pm_progress_shown(void);
void pm_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* PMUCAL_PROGRESS other than unset, empty, 0 or 1: one error naming it, -1. */
int progress_env_check(void);
/* For states that are bugs, not bad input. */
_Noreturn void pm_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A host fact the process cannot go on with (memory exhausted, a CPU that never answers): one
 * error line and exit 1, no core dump. pm_fatal is for pmucal's own bugs. */
_Noreturn void pm_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "64", "4k", "2M", "1G" (powers of 1024). false on anything else. */
bool parse_size(const char *s, uint64_t *out);
/* Whole decimal number, no sign, no trailing junk. */
bool parse_u64(const char *s, uint64_t *out);
/* The smallest l with 2^l >= x (0 for x <= 1): the shift of a power-of-two size. */
unsigned log2_ceil(uint64_t x);
/* "32K", "1.5M": bytes for humans. Static buffer rotation: valid for a few calls. */
const char *fmt_size(uint64_t bytes);

/* A number read from a file, checked before it is used or converted to an integer: finite and
 * within [lo, hi]. false with err "FIELD is X; give a number from LO to HI"; the caller puts the
 * file and line before it. Every reader of numbers from files checks them with this (JSON members
 * through base/jread.h's jget_in). */
bool number_in(double x, double lo, double hi, const char *field, char *err, size_t errlen);
/* The largest double below 2^64 and 2^63: the bounds for numbers converted to uint64_t, int64_t. */
#define NUM_U64_MAX 18446744073709549568.0
#define NUM_I64_MAX 9223372036854774784.0

/* The largest input file pmucal reads whole: vendor tables are a few MB, run folders' JSON less;
 * a bigger one (or /dev/zero) is refused instead of read until memory runs out. */
#define INPUT_FILE_MAX (256u << 20)
/* A whole regular file (not a folder, FIFO or device: those are refused at once, never waited
 * on) of at most max bytes, NUL-terminated, its length in *len. NULL with err saying why,
 * starting with the path (callers put "cannot read <what>" before it). */
char *read_file_bounded(const char *path, size_t max, size_t *len, char *err, size_t errlen);
/* The same, refusing a symbolic link at path's last component (a run folder's files, which whoever
 * made the folder controls); errno is ENOENT when there is no such file. */
char *read_file_nofollow(const char *path, size_t max, size_t *len, char *err, size_t errlen);
/* The same for name in the folder open at dirfd; path is the name messages show. */
char *read_file_at_nofollow(int dirfd, const char *name, const char *path, size_t max, size_t *len, char *err,
                            size_t errlen);
/* Was the file (device dev, inode ino) read by one of the readers above in this process? An
 * output a user names is never written over one (runs/runfs.c's run_out_user). */
bool file_was_read(uint64_t dev, uint64_t ino);
/* A whole text file, NUL-terminated; NULL with one message naming the file and what it is
 * ("event list", "rule file") when it cannot be read, is not a regular file, is larger
 * than INPUT_FILE_MAX or holds a NUL byte. */
/* p (an array of n elements of elem bytes, grown only by this) with room for element n: doubled
 * when n reaches a power of two, so appending N elements copies O(N) bytes, never O(N^2) (an
 * allocator that moves every realloc, as ASan's does, made +1 growth quadratic). */
void *xgrow(void *p, size_t elem, int n);
char *read_text_file(const char *path, const char *what);
/* Calls fn for every line of text that has content once '#' comments and surrounding white
 * space are removed, with where = "ORIGIN:LINE". Stops at the first non-zero return of fn and
 * returns it; 0 when every line was taken. */
int for_each_content_line(const char *text, const char *origin,
                          int (*fn)(char *line, const char *where, void *ctx), void *ctx);

/* Split "a,b,c" into a NULL-terminated array of copies; empty items are dropped. */
char **split_list(const char *s, char sep, int *count);
void free_list(char **list);

/* The index of s in a table of n names (a name table indexed by an enum), -1 when s is NULL or none
 * of them: the parser behind each such table. */
int name_table_index(const char *const *names, int n, const char *s);
/* names[i] of a table of n names; "?" when i is outside it or names nothing. */
const char *name_table_name(const char *const *names, int n, int i);
/* The name function and the parser of a name table indexed by an enum, which the module owning the
 * table defines with this one line (its header declares and explains both): name_fn(v) is v's name,
 * "?" out of range; parse_fn(s, &v) sets v to the value called s exactly and is true, or is false
 * with v untouched when s is NULL or calls none (so that the reader can name the bad input). */
#define NAME_TABLE_FUNCTIONS(type, name_fn, parse_fn, names, n)                                          \
    const char *name_fn(type v)                                                                          \
    {                                                                                                    \
        return name_table_name(names, n, (int)v);                                                        \
    }                                                                                                    \
    bool parse_fn(const char *s, type *v)                                                                \
    {                                                                                                    \
        int i = name_table_index(names, n, s);                                                           \
        if (i >= 0)                                                                                      \
            *v = (type)i;                                                                                \
        return i >= 0;                                                                                   \
    }

/* rel (a path relative to the folder of this program's binary) resolved, when it exists: a
 * malloc'd absolute path, else NULL. How pmucal finds its data in the tree or after install. */
char *exe_relative(const char *rel);
/* A folder of the data pmucal ships (rule files, uarch files): $env_name when set, refused with
 * exit 2 unless it is a folder (what names its files and where the tree keeps them, for the
 * message); else the first of the n folders beside[] (relative to the binary) that exists; else
 * where beside[0] would be, for messages to name. Never the working folder: its files were not
 * handed to pmucal. The result lives in buf (or the environment). */
const char *data_dir(const char *env_name, const char *what, const char *const *beside, size_t n, char *buf,
                     size_t bn);

/* Local date and time in ISO 8601 ("2026-11-21T10:34:16+0000") into buf; returns buf. */
char *iso_now(char buf[32]);

#endif
