/* The user's code runs in a sandboxed process of its own (generators/snippet_run.c): its loops'
 * counters follow that process, its ticks are its own, a fault ends it and names the instruction,
 * and where no sandbox can be made the case is refused, never run unsandboxed. */
#include "core/kernel.h"
#include "core/team.h"
#include "generators/snippet.h"
#include "tap.h"
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

/* The Seccomp: line of /proc/PID/status, -1 when unread. */
static int seccomp_mode(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    int mode = -1;
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "Seccomp: %d", &mode) == 1)
            break;
    if (f)
        fclose(f);
    return mode;
}

/* A kernel (or container) that refuses seccomp filters, as far as this process can tell: a filter
 * of its own makes every later prctl(PR_SET_SECCOMP) and seccomp() fail with EPERM. */
static int refuse_seccomp(void)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_SECCOMP, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = (unsigned short)(sizeof(filter) / sizeof(filter[0])), .filter = filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(void)
{
    const struct kernel *k = kernel_find("code");
    CHECK(k != NULL, __LINE__, "the code kernel is registered");
    if (!k || RUNNING_ON_VALGRIND || system("command -v as > /dev/null 2>&1")) {
        printf("# SKIP the sandbox: %s\n", !k ? "no code kernel" : RUNNING_ON_VALGRIND ? "under valgrind the code runs "
               "in-process" : "binutils' as is not installed");
        return done_testing();
    }
    pid_t me = (pid_t)syscall(SYS_gettid), counted;

    /* A snippet that behaves: its loops run in a filtered child, which the counters follow. */
    char *plain[] = {"asm=add %rax,%rax"};
    struct case_ *c = case_new(k, 1, plain);
    CHECK(c && case_setup(c) == CASE_OK, __LINE__, "a plain snippet is set up: '%s'", snippet_last_problem());
    team_led_tids(&counted, 1);
    CHECK(counted != me && counted > 0, __LINE__, "the counters count another task (%ld), not this thread (%ld)",
          (long)counted, (long)me);
    CHECK(seccomp_mode(counted) == 2, __LINE__, "that task is filtered: Seccomp %d (want 2)", seccomp_mode(counted));
    CHECK(c && c->times_itself, __LINE__, "it times itself");
    if (c) {
        k->loop(c, 1000);
        CHECK(c->loop_switches >= 1, __LINE__, "a loop's own switches are counted: %u (its stop at least)",
              c->loop_switches);
        uint64_t t1000 = c->loop_ticks;
        k->loop(c, 0);
        CHECK(!c->failed[0] && t1000 > c->loop_ticks && c->loop_ticks > 0, __LINE__,
              "its own ticks: %llu for 1000 iterations, %llu for none", (unsigned long long)t1000,
              (unsigned long long)c->loop_ticks);
        k->teardown(c);
        case_free(c);
    }
    team_led_tids(&counted, 1);
    CHECK(counted == me, __LINE__, "after teardown the counters count this thread again");
    CHECK(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD, __LINE__, "no child is left behind");

    /* One that faults only after its trial and pace: the loop names it, the worker is gone. */
    char *late[] = {"asm=sub $1,%rcx; jnz 2f; ud2; 2: add %rax,%rax", "chain=rax", "init=rcx=5000000", "copies=1"};
    c = case_new(k, 4, late);
    CHECK(c && case_setup(c) == CASE_OK, __LINE__, "a late fault is set up: '%s'", snippet_last_problem());
    if (c) {
        k->loop(c, 10000000);
        CHECK(strstr(c->failed, "SIGILL") && strstr(c->failed, "'ud2'"), __LINE__, "the fault is named: '%s'", c->failed);
        char first[sizeof(c->failed)];
        snprintf(first, sizeof(first), "%s", c->failed);
        c->failed[0] = 0;
        k->loop(c, 1);
        CHECK(strstr(c->failed, "sandbox is gone"), __LINE__, "a run after it fails too: '%s'", c->failed);
        k->teardown(c);
        case_free(c);
    }

    /* No sandbox to be had: refused with the reason, the code never run. */
    int fds[2];
    if (pipe(fds))
        return done_testing();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        char msg[700] = "the test could not install its own filter";
        int rc = 2;
        if (!refuse_seccomp()) {
            struct case_ *r = case_new(k, 1, plain);
            rc = r && case_setup(r) == CASE_ERROR ? 0 : 1;
            snprintf(msg, sizeof(msg), "%s", snippet_last_problem());
        }
        ssize_t w = write(fds[1], msg, strlen(msg));
        (void)w;
        _exit(rc);
    }
    close(fds[1]);
    char msg[700] = "";
    ssize_t got = read(fds[0], msg, sizeof(msg) - 1);
    msg[got > 0 ? got : 0] = 0;
    close(fds[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(msg, "no sandbox for the snippet") &&
              strstr(msg, "not run unsandboxed"), __LINE__, "a kernel that refuses the filter: the case is refused: '%s'",
          msg);
    return done_testing();
}
