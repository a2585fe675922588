/* The run folder's files, as untrusted ground (runs/rundir.h): writes by new temporary file and
 * rename, streams that refuse links and hard links, reads that refuse links, and the lock. A
 * folder a writer holds (run_folder_hold) is opened once: every later name is looked up in that
 * folder's descriptor, so a folder renamed or replaced by a link while it is written keeps
 * receiving the files (the one opened), never the link's target. */
#include "base/util.h"
#include "runs/outputs.h"
#include "runs/rundir.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

bool run_file_sync = true;

/* The folders held, by the path their holder names them with. */
#define HELD_MAX 8
static struct held {
    char *path;
    int fd, refs;
} held[HELD_MAX];

int run_folder_hold(const char *dir)
{
    for (int i = 0; i < HELD_MAX; i++)
        if (held[i].path && !strcmp(held[i].path, dir)) {
            held[i].refs++;
            return 0;
        }
    for (int i = 0; i < HELD_MAX; i++)
        if (!held[i].path) {
            int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0) {
                pm_error("cannot open the run folder %s: %s", dir, strerror(errno));
                return -1;
            }
            held[i] = (struct held){.path = xstrdup(dir), .fd = fd, .refs = 1};
            return 0;
        }
    pm_error("cannot hold the run folder %s: %d are held already", dir, HELD_MAX);
    return -1;
}

void run_folder_release(const char *dir)
{
    for (int i = 0; dir && i < HELD_MAX; i++)
        if (held[i].path && !strcmp(held[i].path, dir) && !--held[i].refs) {
            close(held[i].fd);
            free(held[i].path);
            memset(&held[i], 0, sizeof(held[i]));
        }
}

/* The folder dir as a descriptor: the held one; a subfolder of a held one (tables/) opened
 * through it, never through a link; else dir opened now, as its user named it. *own: the caller
 * closes it. -1 with errno. */
static int folder_fd(const char *dir, bool *own)
{
    *own = false;
    for (int i = 0; i < HELD_MAX; i++)
        if (held[i].path && !strcmp(held[i].path, dir))
            return held[i].fd;
    *own = true;
    const char *slash = strrchr(dir, '/');
    for (int i = 0; slash && i < HELD_MAX; i++)
        if (held[i].path && strlen(held[i].path) == (size_t)(slash - dir) && !strncmp(held[i].path, dir, slash - dir))
            return openat(held[i].fd, slash + 1, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    return open(*dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* dir/name as its user would write it: "/" and "tables/" take no second slash. */
static char *file_path(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return xasprintf("%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

static void folder_done(int fd, bool own)
{
    if (own && fd >= 0)
        close(fd);
}

FILE *run_out_begin(struct run_out *o, const char *dir, const char *name)
{
    o->path = file_path(dir, name);
    o->name = xstrdup(name);
    o->tmp = NULL;
    bool own;
    o->dirfd = folder_fd(dir, &o->own_dirfd);
    own = o->own_dirfd;
    int fd = -1;
    /* O_CREAT|O_EXCL on a random name: never an existing file or a planted link. */
    for (int tries = 0; o->dirfd >= 0 && fd < 0 && tries < 100; tries++) {
        unsigned char r[6];
        if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
            break;
        free(o->tmp);
        o->tmp = xasprintf(".%s.%02x%02x%02x%02x%02x%02x", name, r[0], r[1], r[2], r[3], r[4], r[5]);
        fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    o->f = fd < 0 ? NULL : fdopen(fd, "w");
    if (o->f)
        return o->f;
    pm_error("cannot write %s: %s", o->path, strerror(errno));
    if (fd >= 0) {
        close(fd);
        unlinkat(o->dirfd, o->tmp, 0);
    }
    folder_done(o->dirfd, own);
    free(o->path);
    free(o->name);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
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

static void run_out_free(struct run_out *o)
{
    folder_done(o->dirfd, o->own_dirfd);
    free(o->path);
    free(o->name);
    free(o->tmp);
    memset(o, 0, sizeof(*o));
}

void run_out_abort(struct run_out *o)
{
    if (o->f)
        fclose(o->f);
    unlinkat(o->dirfd, o->tmp, 0);
    run_out_free(o);
}

FILE *run_out_user(struct run_out *o, const char *path)
{
    memset(o, 0, sizeof(*o));
    o->dirfd = -1;
    if (!path || !strcmp(path, "-"))
        return stdout;
    /* A device or FIFO is written in place: a new file renamed over it replaced /dev/null itself
     * ('gen ifetch --bin /dev/null' as root). A link is still never followed. */
    struct stat st;
    if (!lstat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        int fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
        FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
        if (!f) {
            pm_error("cannot write %s: %s", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return NULL;
        }
        o->f = f;
        o->path = xstrdup(path);
        o->device = true;
        return f;
    }
    /* The check at the start (runs/outputs.h) knows the files the command line names; this one
     * also those read since without being named (validate/expect/<pmu>.txt, a case's file=), and,
     * for a path the user named, a run folder made around it, or a link there planted, since that
     * check (a command's own default, RUN/report.html, lies in a run folder by design). */
    char why[2 * PATH_MAX + 512];
    if (run_output_passed(path) && run_output_refused(path, 0, NULL, NULL, why, sizeof(why))) {
        pm_error("cannot write %s: %s", path, why);
        return NULL;
    }
    if (!stat(path, &st) && S_ISREG(st.st_mode) && file_was_read(st.st_dev, st.st_ino)) {
        pm_error("cannot write %s: this command read it as an input, and an output never replaces one; name "
                 "another file", path);
        return NULL;
    }
    return run_out_path(o, path);
}

int run_out_end(struct run_out *o, int rc)
{
    if (!o->path)   /* stdout: main's exit checks that it was written (cmd/main.c) */
        return rc ? -1 : 0;
    if (o->device) {
        int bad = ferror(o->f) || fflush(o->f);
        int e = errno;
        bad |= fclose(o->f) != 0;
        if (bad && !rc)
            pm_error("cannot write %s: %s", o->path, strerror(e ? e : EIO));
        free(o->path);
        memset(o, 0, sizeof(*o));
        return rc || bad ? -1 : 0;
    }
    if (rc) {
        run_out_abort(o);
        return -1;
    }
    return run_out_commit(o);
}

int run_out_commit(struct run_out *o)
{
    int rc = ferror(o->f) || fflush(o->f) || (run_file_sync && fsync(fileno(o->f))) ? -1 : 0;
    int e = errno;
    if (fclose(o->f) && !rc)
        rc = -1, e = errno;
    o->f = NULL;
    if (!rc && renameat(o->dirfd, o->tmp, o->dirfd, o->name))
        rc = -1, e = errno;
    if (rc) {
        pm_error("cannot write %s: %s (disk full?)", o->path, strerror(e ? e : EIO));
        unlinkat(o->dirfd, o->tmp, 0);
    }
    run_out_free(o);
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
        if (renameat(o.dirfd, o.tmp, o.dirfd, o.name)) {
            pm_error("cannot write %s: %s", o.path, strerror(errno));
            o.f = NULL;
            fclose(f);
            unlinkat(o.dirfd, o.tmp, 0);
            run_out_free(&o);
            return NULL;
        }
        run_out_free(&o);
        return f;
    }
    char *p = file_path(dir, name);
    bool own;
    int dfd = folder_fd(dir, &own);
    int fd = dfd < 0 ? -1 : openat(dfd, name, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    int e = errno;
    folder_done(dfd, own);
    struct stat st;
    const char *bad = NULL;
    if (fd < 0 && e == ELOOP)
        bad = "a symbolic link";
    else if (fd >= 0 && !fstat(fd, &st))
        bad = not_own_file(&st);
    FILE *f = fd >= 0 && !bad ? fdopen(fd, "a") : NULL;
    if (!f) {
        if (bad)
            pm_error("%s is %s, where pmucal keeps a file of its own; the run folder was tampered with: remove "
                     "it, or start a new run", p, bad);
        else
            pm_error("cannot write %s: %s", p, strerror(fd < 0 ? e : errno));
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
    char *p = file_path(dir, name);
    bool own;
    int dfd = folder_fd(dir, &own);
    struct stat st;
    int rc = 0;
    if (dfd < 0 || (mkdirat(dfd, name, 0755) && errno != EEXIST)) {
        pm_error("cannot make the folder %s: %s", p, strerror(errno));
        rc = -1;
    } else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode)) {
        pm_error("%s is %s, where pmucal keeps a folder of its own; the run folder was tampered with: remove it",
                 p, S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder");
        rc = -1;
    }
    folder_done(dfd, own);
    free(p);
    return rc;
}

int run_file_clear(const char *dir, const char *name)
{
    char *p = file_path(dir, name);
    bool own;
    int dfd = folder_fd(dir, &own);
    int rc = dfd < 0 || (unlinkat(dfd, name, 0) && errno != ENOENT) ? -1 : 0;
    if (rc)
        pm_error("cannot replace %s: %s; the run folder was tampered with: remove it", p, strerror(errno));
    folder_done(dfd, own);
    free(p);
    return rc;
}

char *run_file_read(const char *dir, const char *name, size_t *len, char *err, size_t errlen)
{
    return run_file_read_max(dir, name, INPUT_FILE_MAX, len, err, errlen);
}

char *run_file_read_max(const char *dir, const char *name, size_t max, size_t *len, char *err, size_t errlen)
{
    char *p = file_path(dir, name);
    bool own;
    int dfd = folder_fd(dir, &own);
    char *text = NULL;
    if (dfd < 0)
        snprintf(err, errlen, "%s: %s", p, strerror(errno));
    else
        text = read_file_at_nofollow(dfd, name, p, max, len, err, errlen);
    int e = errno;
    folder_done(dfd, own);
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
    bool own;
    int dfd = folder_fd(dir, &own);
    *fd = dfd < 0 ? -1 : openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || *fd < 0) {
        int e = errno;
        folder_done(dfd, own);
        errno = e;
    } else {
        folder_done(dfd, own);
    }
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
