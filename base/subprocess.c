#include "base/stop.h"
#include "base/subprocess.h"
#include "base/util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void sleep_ms(int ms)
{
    struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};
    nanosleep(&t, NULL);
}

/* Waits for pid, killing it after timeout_ms (> 0); reads the pipe fd (>= 0) meanwhile. */
static int wait_child(pid_t pid, int fd, const struct spawn_opts *o)
{
    size_t got = 0;
    int waited = 0, ws = 0;
    bool timed_out = false;
    for (;;) {
        if (fd >= 0) {
            char buf[4096];
            ssize_t n = read(fd, buf, sizeof(buf));   /* non-blocking: the wait below polls */
            if (n > 0) {
                size_t take = (size_t)n;
                if (got + take > o->capture_size - 1)
                    take = o->capture_size - 1 - got;
                memcpy(o->capture + got, buf, take);
                got += take;
                continue;
            }
            if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                close(fd);
                fd = -1;
            }
        }
        pid_t r = waitpid(pid, &ws, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return SPAWN_NOT_STARTED;
        /* Over time, or pmucal was asked to stop: the child's whole group goes (a wrapper script
         * and what it started), so nothing of ours outlives the stop. */
        if (((o->timeout_ms > 0 && waited >= o->timeout_ms) || stop_requested()) && !timed_out) {
            kill(-pid, SIGKILL);
            timed_out = true;
        }
        if (r == 0) {
            sleep_ms(5);
            waited += 5;
        }
    }
    if (fd >= 0)
        close(fd);
    if (o->capture)
        o->capture[got] = '\0';
    if (timed_out)
        return SPAWN_TIMED_OUT;
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + (WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
}

int spawn_run(char *const argv[], const struct spawn_opts *o)
{
    static const struct spawn_opts none = {0};
    if (!o)
        o = &none;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int pipefd[2] = {-1, -1};
    bool capture = o->capture && o->capture_size > 0;
    if (capture && pipe2(pipefd, O_CLOEXEC)) {
        posix_spawn_file_actions_destroy(&fa);
        return SPAWN_NOT_STARTED;
    }
    if (o->cwd)
        posix_spawn_file_actions_addchdir_np(&fa, o->cwd);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    if (capture)
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, o->out_path ? o->out_path : "/dev/null",
                                         o->out_path ? O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW : O_WRONLY, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, o->err_path ? o->err_path : "/dev/null",
                                     o->err_path ? O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW : O_WRONLY, 0644);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);   /* its own group: a time limit or a stop kills all of it */
    pid_t pid;
    int err = posix_spawnp(&pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (capture)
        close(pipefd[1]);
    if (err) {
        if (capture)
            close(pipefd[0]);
        errno = err;
        return SPAWN_NOT_STARTED;
    }
    if (capture)
        fcntl(pipefd[0], F_SETFL, O_NONBLOCK);
    return wait_child(pid, capture ? pipefd[0] : -1, o);   /* glibc reports a failed exec in err */
}

char *gnuplot_quote(const char *s)
{
    size_t n = 2;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 2 : 1;
    char *q = xmalloc(n + 1), *w = q;
    *w++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            *w++ = '\'';
        *w++ = (unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p;
    }
    *w++ = '\'';
    *w = '\0';
    return q;
}
