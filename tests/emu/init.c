/* /init of the emulated Arm host's initramfs (tests/72-arch-emu-n1.t, scripts/emu-run.sh): a static
 * aarch64 program, since the initramfs has no shell. It mounts what pmucal reads (/proc, /sys,
 * /dev), runs each line of /etc/emu-commands between markers the host reads back from the serial
 * console, and powers the machine off (QEMU then exits, whatever ran).
 *
 * A line is "[VAR=VALUE...] NAME ARG..." (words split at spaces, a word in single quotes kept
 * whole; the assignments hold for that line only): "pmucal ARG..." runs /bin/pmucal, "cat PATTERN" prints the files a glob(3) pattern
 * names (a run folder's name holds the date), "hog N LINE" runs LINE while N counting events
 * of its own (INST_RETIRED on CPU 0, for the whole CPU) hold N of the PMU's counters, so the
 * kernel must share them (multiplexing); "pin N LINE" the same with pinned events, which keep
 * their counters, so a group that needs one is never scheduled; "share N LINE" runs LINE with N
 * such events on its own task (inherited by its threads), so they and its groups are flexible
 * groups of one task, which the kernel rotates through the counters while the code runs; "save DEV DIR"
 * writes DIR's files as one ustar archive onto the raw block device DEV (a virtio disk the host reads
 * back with tar: scripts/kernel-check.sh), so a whole run folder leaves the machine without a
 * filesystem driver. A pmucal argument holding '*' that one path matches is that path. Each prints
 * "### emu begin N: LINE" and "### emu end N rc=RC" around its output.
 *
 * Before the commands it prints "### emu init" (the kernel reached /init) and loads the modules
 * /etc/emu-modules lists, one path a line in dependency order (Debian builds virtio-mmio and
 * virtio-blk as modules; the host puts them in the initramfs). */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdbool.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void mount_or_say(const char *src, const char *dir, const char *type)
{
    mkdir(dir, 0755);
    if (mount(src, dir, type, 0, NULL))
        printf("### emu: mount %s on %s: %s\n", type, dir, strerror(errno));
}

static int count_events(int n, pid_t pid, bool pinned, int *fd);

/* share > 0: that many counting events on the child's task, opened while it waits on a pipe. */
static int run(char **assign, int nassign, char **argv, int share, int *fd)
{
    fflush(stdout);
    int go[2] = {-1, -1};
    if (share && pipe(go))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        char c;
        if (share && (close(go[1]), read(go[0], &c, 1) != 1))
            _exit(126);
        for (int i = 0; i < nassign; i++)
            putenv(assign[i]);
        execv(argv[0], argv);
        printf("### emu: exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    if (share) {
        close(go[0]);
        if (pid > 0)
            printf("### emu: %d of %d shared events count on the command's task\n", count_events(share, pid, false, fd), share);
        fflush(stdout);
        if (write(go[1], "g", 1) != 1)
            printf("### emu: cannot start the command: %s\n", strerror(errno));
        close(go[1]);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* n counting events of raw 0x08 (INST_RETIRED: a programmable counter each, never the cycle
 * counter), each its own group: fds into fd; how many opened. pid -1: on CPU 0 for every task,
 * enabled (pinned or flexible); else on that task and the threads it creates, from its exec. */
static int count_events(int n, pid_t pid, bool pinned, int *fd)
{
    int got = 0;
    for (int i = 0; i < n; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof(a));
        a.size = sizeof(a);
        a.type = PERF_TYPE_RAW;
        a.config = 0x08;
        a.pinned = pinned;
        if (pid >= 0)
            a.inherit = a.disabled = a.enable_on_exec = 1;
        fd[i] = (int)syscall(SYS_perf_event_open, &a, pid, pid >= 0 ? -1 : 0, -1, 0);
        if (fd[i] < 0)
            printf("### emu: %s event %d: %s\n", pid >= 0 ? "shared" : "hog", i + 1, strerror(errno));
        else
            got++;
    }
    return got;
}

static int cat(const char *pattern)
{
    glob_t g;
    if (glob(pattern, 0, NULL, &g)) {
        printf("### emu: no file matches %s\n", pattern);
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        FILE *f = fopen(g.gl_pathv[i], "r");
        if (!f) {
            printf("### emu: %s: %s\n", g.gl_pathv[i], strerror(errno));
            rc = 1;
            continue;
        }
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
            fwrite(buf, 1, n, stdout);
        fclose(f);
    }
    globfree(&g);
    return rc;
}

/* The modules /etc/emu-modules names, loaded in its order; one line of output per failure. */
static void load_modules(void)
{
    FILE *list = fopen("/etc/emu-modules", "r");
    char path[512];
    while (list && fgets(path, sizeof(path), list)) {
        path[strcspn(path, "\n")] = '\0';
        if (!*path)
            continue;
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || (syscall(SYS_finit_module, fd, "", 0) && errno != EEXIST))
            printf("### emu: module %s: %s\n", path, strerror(errno));
        else
            printf("### emu: module %s loaded\n", path);
        if (fd >= 0)
            close(fd);
    }
    if (list)
        fclose(list);
}

/* ---- save: a folder as a ustar archive on a raw device ---- */

static int tar_header(int out, const char *name, const struct stat *st, char type)
{
    char h[512];
    memset(h, 0, sizeof(h));
    if (strlen(name) >= 100) {
        printf("### emu: save: %s: name longer than 99 bytes\n", name);
        return -1;
    }
    memcpy(h, name, strlen(name));
    snprintf(h + 100, 8, "%07o", (unsigned)(st->st_mode & 07777));
    snprintf(h + 108, 8, "%07o", 0u);
    snprintf(h + 116, 8, "%07o", 0u);
    snprintf(h + 124, 12, "%011llo", type == '0' ? (unsigned long long)st->st_size : 0ull);
    snprintf(h + 136, 12, "%011llo", (unsigned long long)st->st_mtime);
    h[156] = type;
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (int i = 0; i < 512; i++)
        sum += (unsigned char)h[i];
    snprintf(h + 148, 8, "%06o", sum);
    return write(out, h, 512) == 512 ? 0 : -1;
}

static int tar_tree(int out, const char *path)
{
    struct stat st;
    if (lstat(path, &st))
        return printf("### emu: save: %s: %s\n", path, strerror(errno)), -1;
    const char *name = path + (path[0] == '/');
    if (S_ISDIR(st.st_mode)) {
        char dname[512];
        snprintf(dname, sizeof(dname), "%s/", name);
        if (tar_header(out, dname, &st, '5'))
            return -1;
        glob_t g;
        char pattern[512];
        snprintf(pattern, sizeof(pattern), "%s/*", path);
        int rc = 0;
        if (!glob(pattern, 0, NULL, &g)) {
            for (size_t i = 0; i < g.gl_pathc && !rc; i++)
                rc = tar_tree(out, g.gl_pathv[i]);
            globfree(&g);
        }
        return rc;
    }
    if (!S_ISREG(st.st_mode))
        return 0;
    int in = open(path, O_RDONLY);
    if (in < 0 || tar_header(out, name, &st, '0'))
        return printf("### emu: save: %s: %s\n", path, strerror(errno)), in >= 0 ? close(in) : 0, -1;
    char buf[65536];
    long long left = st.st_size;
    while (left > 0) {
        ssize_t n = read(in, buf, sizeof(buf));
        if (n <= 0)
            break;
        size_t padded = ((size_t)n + 511) / 512 * 512;
        if ((size_t)n < padded)
            memset(buf + n, 0, padded - (size_t)n);
        if (write(out, buf, padded) != (ssize_t)padded) {
            close(in);
            return printf("### emu: save: writing %s: %s\n", path, strerror(errno)), -1;
        }
        left -= n;
    }
    close(in);
    return left > 0 ? -1 : 0;
}

/* DIR onto DEV, waiting up to 10 s for the device (a module's probe may still run). */
static int save(const char *dev, const char *dir)
{
    int out = -1;
    for (int i = 0; i < 100 && out < 0; i++)
        if ((out = open(dev, O_WRONLY | O_CLOEXEC)) < 0)
            usleep(100000);
    if (out < 0)
        return printf("### emu: save: %s: %s (no virtio disk: the kernel has no virtio-mmio/virtio-blk driver)\n",
                      dev, strerror(errno)), 1;
    char zero[1024];
    memset(zero, 0, sizeof(zero));
    int rc = tar_tree(out, dir) || write(out, zero, sizeof(zero)) != (ssize_t)sizeof(zero) || fsync(out);
    close(out);
    printf("### emu: save %s onto %s: %s\n", dir, dev, rc ? "FAILED" : "done");
    return rc;
}

int main(void)
{
    mount_or_say("devtmpfs", "/dev", "devtmpfs");
    int fd = open("/dev/console", O_RDWR);
    if (fd >= 0) {
        dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
        if (fd > 2)
            close(fd);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("### emu init\n");
    mount_or_say("proc", "/proc", "proc");
    mount_or_say("sysfs", "/sys", "sysfs");
    mount_or_say("tmpfs", "/tmp", "tmpfs");
    setenv("PATH", "/bin", 1);
    setenv("HOME", "/tmp", 1);
    setenv("CI", "true", 1);
    setenv("PMUCAL_EXPECT_DIR", "/share/pmucal/expect", 1);
    setenv("PMUCAL_CACHE_DIR", "/cache", 1);   /* emu-run.sh's recorded walks, if any (rootfs is writable) */
    load_modules();
    FILE *cmds = fopen("/etc/emu-commands", "r");
    if (!cmds)
        printf("### emu: /etc/emu-commands: %s\n", strerror(errno));
    char line[4096];
    for (int n = 1; cmds && fgets(line, sizeof(line), cmds); n++) {
        line[strcspn(line, "\n")] = '\0';
        if (!*line || *line == '#') {
            n--;
            continue;
        }
        printf("### emu begin %d: %s\n", n, line);
        char copy[sizeof(line)], *words[128], **argv = words;
        int argc = 0, nassign = 0;
        snprintf(copy, sizeof(copy), "%s", line);
        /* A word in single quotes keeps its spaces (--case 'walker size=16k'); no other quoting. */
        for (char *p = copy; *p && argc < 127;) {
            while (*p == ' ')
                p++;
            if (!*p)
                break;
            char *end;
            if (*p == '\'' && (end = strchr(p + 1, '\''))) {
                words[argc++] = p + 1;
                *end = '\0';
                p = end + 1;
                continue;
            }
            words[argc++] = p;
            p += strcspn(p, " ");
            if (*p)
                *p++ = '\0';
        }
        words[argc] = NULL;
        while (nassign < argc - 1 && strchr(words[nassign], '='))
            nassign++;
        argv += nassign;
        argc -= nassign;
        int rc, hog[8], nhog = 0, share = 0;
        if (!strcmp(argv[0], "share") && argc > 2 && atoi(argv[1]) > 0 && atoi(argv[1]) <= 8) {
            share = nhog = atoi(argv[1]);
            for (int i = 0; i < nhog; i++)
                hog[i] = -1;
            argv += 2;
            argc -= 2;
        } else if ((!strcmp(argv[0], "hog") || !strcmp(argv[0], "pin")) && argc > 2 && atoi(argv[1]) > 0 &&
                   atoi(argv[1]) <= 8) {
            nhog = atoi(argv[1]);
            printf("### emu: %d of %d %s events hold counters\n", count_events(nhog, -1, argv[0][0] == 'p', hog), nhog,
                   argv[0][0] == 'p' ? "pinned" : "hog");
            argv += 2;
            argc -= 2;
        }
        glob_t g[8];
        int ng = 0;
        if (!strcmp(argv[0], "cat") && argc == 2)
            rc = cat(argv[1]);
        else if (!strcmp(argv[0], "save") && argc == 3)
            rc = save(argv[1], argv[2]);
        else if (!strcmp(argv[0], "pmucal")) {
            argv[0] = "/bin/pmucal";
            for (int i = 1; i < argc && ng < 8; i++)
                if (strchr(argv[i], '*') && !glob(argv[i], 0, NULL, &g[ng])) {
                    if (g[ng].gl_pathc == 1)
                        argv[i] = g[ng].gl_pathv[0];
                    ng++;
                }
            rc = run(words, nassign, argv, share, hog);
            while (ng > 0)
                globfree(&g[--ng]);
        } else {
            printf("### emu: unknown command %s\n", argv[0]);
            rc = 127;
        }
        for (int i = 0; i < nhog; i++)
            if (hog[i] >= 0)
                close(hog[i]);
        fflush(stdout);
        printf("\n### emu end %d rc=%d\n", n, rc);
    }
    printf("### emu done\n");
    fflush(stdout);
    sync();
    reboot(RB_POWER_OFF);
    return 0;
}
