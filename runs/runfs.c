/* The run folder's files, as untrusted ground (runs/rundir.h): writes by new temporary file and
 * rename, streams that refuse links and hard links, reads that refuse links, and the lock. */
#include "base/util.h"
#include "runs/rundir.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

bool run_file_sync = true;

FILE *run_out_begin(struct run_out *o, const char *dir, const char *name)
{
    /* mkstemp: O_CREAT|O_EXCL on a random name, so never an existing file or a planted link. */
    o->path = xasprintf("%s/%s", dir, name);
    o->tmp = xasprintf("%s/.%s.XXXXXX", dir, name);
    int fd = mkstemp(o->tmp);
    o->f = fd < 0 ? NULL : fdopen(fd, "w");
    if (o->f && !fchmod(fd, 0644))
        return o->f;
    pm_error("cannot write %s: %s", o->path, strerror(errno));
    if (fd >= 0) {
        o->f ? fclose(o->f) : close(fd);
        unlink(o->tmp);
    }
    o->f = NULL;
    free(o->path);
    free(o->tmp);
    return NULL;
}

FILE *run_out_path(struct run_out *o, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? xasprintf("%.*s", (int)(slash - path), path) : xstrdup(".");
    FILE *f = run_out_begin(o, *dir ? dir : "/", slash ? slash + 1 : path);
    free(dir);
    return f;
}

void run_out_abort(struct run_out *o)
{
    if (o->f)
        fclose(o->f);
    unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
}

int run_out_commit(struct run_out *o)
{
    int rc = ferror(o->f) || fflush(o->f) || (run_file_sync && fsync(fileno(o->f))) ? -1 : 0;
    int e = errno;
    if (fclose(o->f) && !rc)
        rc = -1, e = errno;
    o->f = NULL;
    if (!rc && rename(o->tmp, o->path))
        rc = -1, e = errno;
    if (rc) {
        pm_error("cannot write %s: %s (disk full?)", o->path, strerror(e ? e : EIO));
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
    return rc;
}

/* A regular file with one name, or why not (NULL). */
static const char *not_own_file(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a folder";
    if (!S_ISREG(st->st_mode))
        return "not a regular file";
    if (st->st_nlink != 1)
        return "a file with another name (a hard link)";
    return NULL;
}

FILE *run_file_open(const char *dir, const char *name, const char *mode)
{
    if (!strcmp(mode, "w")) {
        /* A new file renamed into place now: whatever was at the name is replaced, not followed. */
        struct run_out o;
        if (!run_out_begin(&o, dir, name))
            return NULL;
        FILE *f = o.f;
        if (rename(o.tmp, o.path)) {
            pm_error("cannot write %s: %s", o.path, strerror(errno));
            o.f = NULL;
            fclose(f);
            run_out_abort(&o);
            return NULL;
        }
        free(o.path);
        free(o.tmp);
        return f;
    }
    char *p = xasprintf("%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat st;
    const char *bad = NULL;
    if (fd < 0 && errno == ELOOP)
        bad = "a symbolic link";
    else if (fd >= 0 && !fstat(fd, &st))
        bad = not_own_file(&st);
    FILE *f = fd >= 0 && !bad ? fdopen(fd, "a") : NULL;
    if (!f) {
        if (bad)
            pm_error("%s is %s, where pmucal keeps a file of its own; the run folder was tampered with: remove "
                     "it, or start a new run", p, bad);
        else
            pm_error("cannot write %s: %s", p, strerror(errno));
        if (fd >= 0)
            close(fd);
    } else {
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
    free(p);
    return f;
}

int run_subdir(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    struct stat st;
    int rc = 0;
    if (mkdir(p, 0755) && errno != EEXIST) {
        pm_error("cannot make the folder %s: %s", p, strerror(errno));
        rc = -1;
    } else if (lstat(p, &st) || !S_ISDIR(st.st_mode)) {
        pm_error("%s is %s, where pmucal keeps a folder of its own; the run folder was tampered with: remove it",
                 p, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder");
        rc = -1;
    }
    free(p);
    return rc;
}

int run_file_clear(const char *dir, const char *name)
{
    char *p = xasprintf("%s/%s", dir, name);
    int rc = unlink(p) && errno != ENOENT ? -1 : 0;
    if (rc)
        pm_error("cannot replace %s: %s; the run folder was tampered with: remove it", p, strerror(errno));
    free(p);
    return rc;
}

char *run_file_read(const char *dir, const char *name, size_t *len, char *err, size_t errlen)
{
    return run_file_read_max(dir, name, INPUT_FILE_MAX, len, err, errlen);
}

char *run_file_read_max(const char *dir, const char *name, size_t max, size_t *len, char *err, size_t errlen)
{
    char *p = xasprintf("%s/%s", dir, name);
    char *text = read_file_nofollow(p, max, len, err, errlen);
    int e = errno;
    free(p);
    errno = e;
    return text;
}

/* The process holding a flock on the inode of st, from /proc/locks ("1: FLOCK ADVISORY WRITE
 * PID MAJ:MIN:INODE 0 EOF"); 0 when it cannot be told. */
static int lock_holder(const struct stat *st)
{
    FILE *f = fopen("/proc/locks", "r");
    char line[256];
    int pid = 0;
    while (f && !pid && fgets(line, sizeof(line), f)) {
        char kind[16];
        int p;
        unsigned maj, min;
        unsigned long long ino;
        if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%llu", kind, &p, &maj, &min, &ino) == 5 &&
            !strcmp(kind, "FLOCK") && ino == (unsigned long long)st->st_ino && maj == major(st->st_dev) &&
            min == minor(st->st_dev))
            pid = p;
    }
    if (f)
        fclose(f);
    return pid;
}

int run_dir_lock(const char *dir, int *fd)
{
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0) {
        pm_error("%s: %s; name a run folder", dir, errno == ENOTDIR ? "not a folder" : strerror(errno));
        return -1;
    }
    if (!flock(*fd, LOCK_EX | LOCK_NB))
        return 0;
    int e = errno;
    struct stat st;
    int pid = e == EWOULDBLOCK && !fstat(*fd, &st) ? lock_holder(&st) : 0;
    close(*fd);
    *fd = -1;
    if (e != EWOULDBLOCK) {
        pm_error("%s: cannot lock the run folder: %s", dir, strerror(e));
        return -1;
    }
    char cmd[256] = "", *p = xasprintf("/proc/%d/cmdline", pid);
    FILE *f = pid ? fopen(p, "r") : NULL;
    size_t n = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (!cmd[i])
            cmd[i] = ' ';
    cmd[n] = '\0';
    if (f)
        fclose(f);
    free(p);
    if (pid)
        pm_error("%s is in use by process %d (%s), which measures into it; wait for it to end, or stop it "
                 "(kill -INT %d keeps what finished)", dir, pid, cmd[0] ? cmd : "?", pid);
    else
        pm_error("%s is in use by another process, which measures into it; wait for it to end", dir);
    return -1;
}
