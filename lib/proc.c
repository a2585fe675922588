#include "proc.h"
#include "util.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int proc_capture(char *const argv[], int timeout_ms, char *out, size_t n)
{
    if (n)
        out[0] = '\0';
    int p[2];
    if (pipe2(p, O_CLOEXEC))
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        dup2(p[1], 1);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t len = 0;
    long long deadline = now_ms() + timeout_ms;
    bool timed_out = false;
    for (;;) {
        long long left = deadline - now_ms();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int r = poll(&pf, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            timed_out = r == 0;
            break;
        }
        char buf[512];
        ssize_t got = read(p[0], buf, sizeof(buf));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        size_t take = len + 1 < n ? n - 1 - len : 0;
        if ((size_t)got < take)
            take = (size_t)got;
        memcpy(out + len, buf, take);
        len += take;
        if (n)
            out[len] = '\0';
    }
    close(p[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (timed_out || !WIFEXITED(ws))
        return -1;
    return WEXITSTATUS(ws) == 127 ? -1 : WEXITSTATUS(ws);
}

const char *proc_version_line(const char *prog, char *buf, size_t n)
{
    char *argv[] = {(char *)prog, "--version", NULL};
    if (proc_capture(argv, 2000, buf, n) != 0)
        return NULL;
    buf[strcspn(buf, "\n")] = '\0';
    return buf[0] ? buf : NULL;
}
