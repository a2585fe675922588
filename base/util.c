#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void vsay(const char *tag, const char *fmt, va_list ap)
{
    fprintf(stderr, "pmucal: %s", tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

static char last_error[512];

void pm_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    va_list copy;
    va_copy(copy, ap);
    vsnprintf(last_error, sizeof(last_error), fmt, copy);
    va_end(copy);
    vsay("error: ", fmt, ap);
    va_end(ap);
}

const char *pm_last_error(void)
{
    return last_error;
}

void pm_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("warning: ", fmt, ap);
    va_end(ap);
}

void pm_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
}

bool pm_progress_shown(void)
{
    const char *e = getenv("PMUCAL_PROGRESS");
    if (e && !strcmp(e, "1"))
        return true;
    if (e && !strcmp(e, "0"))
        return false;
    return isatty(STDERR_FILENO);
}

void pm_progress(const char *fmt, ...)
{
    if (!pm_progress_shown())
        return;
    va_list ap;
    va_start(ap, fmt);
    vsay("", fmt, ap);
    va_end(ap);
}

int progress_env_check(void)
{
    const char *e = getenv("PMUCAL_PROGRESS");
    if (!e || !*e || !strcmp(e, "0") || !strcmp(e, "1"))
        return 0;
    pm_error("PMUCAL_PROGRESS=%.32s%s: give 1 (progress lines on stderr wherever it goes) or 0 (none); unset, "
             "they are written when stderr is a terminal", e, strlen(e) > 32 ? "..." : "");
    return -1;
}

void pm_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("internal error: ", fmt, ap);
    va_end(ap);
    abort();
}

void pm_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsay("error: ", fmt, ap);
    va_end(ap);
    fflush(NULL);
    exit(1);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        pm_die("out of memory allocating %zu bytes", n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        pm_die("out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        pm_die("out of memory reallocating %zu bytes", n);
    return p;
}

char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        pm_die("out of memory");
    return d;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        pm_die("out of memory");
    va_end(ap);
    return s;
}

unsigned log2_ceil(uint64_t x)
{
    unsigned l = 0;
    while (l < 64 && (1ull << l) < x)
        l++;
    return l;
}

bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: return false;
    }
    if (*end == 'i' || *end == 'b' || *end == 'B')
        end += (*end == 'i' && (end[1] == 'B' || end[1] == 'b')) ? 2 : 1;
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return false;
    *out = (uint64_t)v << shift;
    return true;
}

const char *fmt_size(uint64_t b)
{
    static char buf[8][32];
    static int slot;
    char *s = buf[slot++ % 8];
    if (b && b % (1ull << 30) == 0)
        snprintf(s, 32, "%lluG", (unsigned long long)(b >> 30));
    else if (b && b % (1ull << 20) == 0)
        snprintf(s, 32, "%lluM", (unsigned long long)(b >> 20));
    else if (b && b % 1024 == 0)
        snprintf(s, 32, "%lluK", (unsigned long long)(b >> 10));
    else if (b >= (1ull << 30))
        snprintf(s, 32, "%.1fG", (double)b / (1ull << 30));
    else if (b >= (1ull << 20))
        snprintf(s, 32, "%.1fM", (double)b / (1ull << 20));
    else
        snprintf(s, 32, "%llu", (unsigned long long)b);
    return s;
}

int name_table_index(const char *const *names, int n, const char *s)
{
    for (int i = 0; s && i < n; i++)
        if (names[i] && !strcmp(s, names[i]))
            return i;
    return -1;
}

const char *name_table_name(const char *const *names, int n, int i)
{
    return i >= 0 && i < n && names[i] ? names[i] : "?";
}

char **split_list(const char *s, char sep, int *count)
{
    int n = 0, cap = 8;
    char **list = xmalloc(sizeof(char *) * cap);
    const char *p = s;
    while (p && *p) {
        const char *e = strchr(p, sep);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len) {
            if (n + 2 > cap)
                list = xrealloc(list, sizeof(char *) * (cap *= 2));
            list[n] = xmalloc(len + 1);
            memcpy(list[n], p, len);
            list[n++][len] = '\0';
        }
        p = e ? e + 1 : NULL;
    }
    list[n] = NULL;
    if (count)
        *count = n;
    return list;
}

void free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

bool number_in(double x, double lo, double hi, const char *field, char *err, size_t errlen)
{
    if (isfinite(x) && x >= lo && x <= hi)
        return true;
    snprintf(err, errlen, "%s is %g; give a number from %.15g to %.15g", field, x, lo, hi);
    return false;
}

/* Every regular file the readers opened, by device and inode (file_was_read). */
static struct file_id {
    uint64_t dev, ino;
} *files_read;
static int nfiles_read;

bool file_was_read(uint64_t dev, uint64_t ino)
{
    for (int i = 0; i < nfiles_read; i++)
        if (files_read[i].dev == dev && files_read[i].ino == ino)
            return true;
    return false;
}

static void note_read(const struct stat *st)
{
    if (file_was_read(st->st_dev, st->st_ino))
        return;
    files_read = xgrow(files_read, sizeof(*files_read), nfiles_read);
    files_read[nfiles_read++] = (struct file_id){st->st_dev, st->st_ino};
}

/* name opened in the folder dirfd (AT_FDCWD: path is name); path is what messages show. */
static char *read_bounded(int dirfd, const char *name, const char *path, int oflags, size_t max, size_t *len,
                          char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO with no writer must not wait; the type is checked next. */
    int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | oflags);
    struct stat st;
    if (fd < 0 || fstat(fd, &st)) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, e == ELOOP && (oflags & O_NOFOLLOW) ?
                 "a symbolic link, where a regular file must be" : strerror(e));
        if (fd >= 0)
            close(fd);
        errno = e;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: %s, not a regular file", path,
                 S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a device"
                                                                               : "a special file");
        close(fd);
        errno = EINVAL;   /* there is a file, not one to read: never ENOENT */
        return NULL;
    }
    note_read(&st);
    if ((uint64_t)st.st_size > max) {
        snprintf(err, errlen, "%s: %llu bytes, more than the %zu MiB pmucal reads from one file", path,
                 (unsigned long long)st.st_size, max >> 20);
        close(fd);
        errno = EINVAL;   /* there is a file, not one to read: never ENOENT */
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *text = xmalloc(cap + 1);
    for (;;) {
        ssize_t got = read(fd, text + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            free(text);
            close(fd);
            return NULL;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n == cap) {   /* it grew while being read */
            if (cap > max) {
                snprintf(err, errlen, "%s: grew past the %zu MiB pmucal reads from one file", path, max >> 20);
                free(text);
                close(fd);
                errno = EINVAL;
                return NULL;
            }
            cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            text = xrealloc(text, cap + 1);
        }
    }
    close(fd);
    text[n] = '\0';
    *len = n;
    return text;
}

char *read_file_bounded(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    return read_bounded(AT_FDCWD, path, path, 0, max, len, err, errlen);
}

char *read_file_nofollow(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    return read_bounded(AT_FDCWD, path, path, O_NOFOLLOW, max, len, err, errlen);
}

char *read_file_at_nofollow(int dirfd, const char *name, const char *path, size_t max, size_t *len, char *err,
                            size_t errlen)
{
    return read_bounded(dirfd, name, path, O_NOFOLLOW, max, len, err, errlen);
}

char *read_text_file(const char *path, const char *what)
{
    char err[512];
    size_t len;
    char *text = read_file_bounded(path, INPUT_FILE_MAX, &len, err, sizeof(err));
    if (!text) {
        pm_error("cannot read %s %s", what, err);
        return NULL;
    }
    if (strlen(text) != len) {
        pm_error("%s %s is not text (it holds a NUL byte)", what, path);
        free(text);
        return NULL;
    }
    return text;
}

int for_each_content_line(const char *text, const char *origin,
                          int (*fn)(char *line, const char *where, void *ctx), void *ctx)
{
    int lineno = 0, rc = 0;
    for (const char *p = text; *p && !rc;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char *line = xmalloc(len + 1);
        memcpy(line, p, len);
        line[len] = '\0';
        lineno++;
        line[strcspn(line, "#")] = '\0';
        char *s = line, *end;
        while (isspace((unsigned char)*s))
            s++;
        end = s + strlen(s);
        while (end > s && isspace((unsigned char)end[-1]))
            *--end = '\0';
        if (*s) {
            char where[1024];
            snprintf(where, sizeof(where), "%s:%d", origin, lineno);
            rc = fn(s, where, ctx);
        }
        free(line);
        p = e ? e + 1 : p + len;
    }
    return rc;
}

char *exe_relative(const char *rel)
{
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;
    if (!slash)
        return NULL;
    *slash = '\0';
    char *joined = xasprintf("%s/%s", exe, rel), *real = realpath(joined, NULL);
    free(joined);
    return real;
}

const char *data_dir(const char *env_name, const char *what, const char *const *beside, size_t n, char *buf,
                     size_t bn)
{
    const char *env = getenv(env_name);
    struct stat st;
    if (env) {
        int got = *env ? stat(env, &st) : -1, e = *env ? errno : 0;
        if (got || !S_ISDIR(st.st_mode)) {
            pm_error("%s=%.200s: %s; name the folder of %s, or unset %s", env_name, env, !*env ? "set but empty" :
                     got ? strerror(e) : "not a folder", what, env_name);
            exit(2);
        }
        return env;
    }
    for (size_t i = 0; i < n; i++) {
        char *real = exe_relative(beside[i]);
        bool found = real && strlen(real) < bn && !stat(real, &st) && S_ISDIR(st.st_mode);
        if (found)
            snprintf(buf, bn, "%s", real);
        free(real);
        if (found)
            return buf;
    }
    snprintf(buf, bn, "%s beside the binary (not there)", n ? beside[0] : "?");
    return buf;
}

char *iso_now(char buf[32])
{
    time_t now = time(NULL);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    return buf;
}

void *xgrow(void *p, size_t elem, int n)
{
    if (n & (n - 1))
        return p;
    return xrealloc(p, elem * (size_t)(n ? 2 * n : 1));
}
