/* /init of the emulated Arm host's initramfs (tests/72-emu-n1.t, scripts/emu-run.sh): a static
 * aarch64 program, since the initramfs has no shell. It mounts what pmucal reads (/proc, /sys,
 * /dev), runs each line of /etc/emu-commands between markers the host reads back from the serial
 * console, and powers the machine off (QEMU then exits, whatever ran).
 *
 * A line is "[VAR=VALUE...] NAME ARG..." (words split at spaces; the assignments hold for that
 * line only): "pmucal ARG..." runs /bin/pmucal, "cat PATTERN" prints the files a glob(3) pattern
 * names (a results folder's name holds the date), "hog N LINE" runs LINE while N counting events
 * of its own (INST_RETIRED on CPU 0, for the whole CPU) hold N of the PMU's counters, so the
 * kernel must share them (multiplexing); "pin N LINE" the same with pinned events, which keep
 * their counters, so a group that needs one is never scheduled; "share N LINE" runs LINE with N
 * such events on its own task (inherited by its threads), so they and its groups are flexible
 * groups of one task, which the kernel rotates through the counters while the code runs. Each prints
 * "### emu begin N: LINE" and "### emu end N rc=RC" around its output. */
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
    mount_or_say("proc", "/proc", "proc");
    mount_or_say("sysfs", "/sys", "sysfs");
    mount_or_say("tmpfs", "/tmp", "tmpfs");
    setenv("PATH", "/bin", 1);
    setenv("HOME", "/tmp", 1);
    setenv("CI", "true", 1);
    setenv("PMUCAL_EXPECT_DIR", "/share/pmucal/expect", 1);
    setenv("PMUCAL_CACHE_DIR", "/tmp/cache", 1);
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
        for (char *w = strtok(copy, " "); w && argc < 127; w = strtok(NULL, " "))
            words[argc++] = w;
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
        if (!strcmp(argv[0], "cat") && argc == 2)
            rc = cat(argv[1]);
        else if (!strcmp(argv[0], "pmucal")) {
            argv[0] = "/bin/pmucal";
            rc = run(words, nassign, argv, share, hog);
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
