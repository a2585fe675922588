/* Where the user's code runs: a sandboxed worker process, or (under valgrind only) pmucal's own
 * process behind signal guards (generators/snippet_run.h).
 *
 * The worker is forked once a case, after the code is generated. It installs a filter that
 * admits exit, exit_group and kill(itself, SIGSTOP), nothing else, and then loops:
 *
 *     stop itself; run the loop its command names, read its own clock around it; note it done
 *
 * The parent writes the command into a page they share, enables the counters (on the worker's
 * task), sends SIGCONT, waits for the stop, disables them. Between SIGCONT and its next stop the
 * worker runs the same user-level instructions every loop whatever the timing, so a loop of 0
 * iterations cancels them exactly; a pipe or a spin would not (what the worker does after a
 * write and before its next wait races with the parent's disable). What the code does to memory,
 * the direction flag, MXCSR, its stack stays in the worker; a fault or the watchdog's signal is
 * named with its instruction and ends the worker, and with it the case, never pmucal. Whatever
 * the worker writes into the shared page is read as untrusted: the snippet may have written it. */
#include "generators/snippet_run.h"
#include "base/stop.h"
#include "base/util.h"
#include "core/team.h"
#include "host/clock.h"
#include "sources/sim.h"
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#define WORKER_FAULTED 3     /* its exit status after a fault or the watchdog's signal */
#define WORKER_NO_FILTER 4   /* the kernel refused the filter */
#define HANG_SIGNAL SIGUSR1  /* the watchdog's: the worker names where it was, then exits */
#define HANG_GRACE 0.5       /* seconds the worker has to answer it before SIGKILL */

/* Where pc is, in the snippet's words: "at 'insn' (offset N of copy C)". */
static void where_pc(const struct code_kernel *k, uintptr_t pc, char *out, size_t n)
{
    uintptr_t base = (uintptr_t)k->g.code.base + k->body_off;
    size_t body = k->units * k->unit.len;
    if (pc >= base && pc < base + body) {
        size_t at = (size_t)(pc - base) % k->unit.len, copy = (size_t)(pc - base) / k->unit.len;
        const char *text = "?";
        for (size_t i = 0; i < k->unit.n; i++)
            if (k->unit.insn[i].off == at)
                text = k->unit.insn[i].text;
        snprintf(out, n, "at '%s' (offset %zu of copy %zu)", text, at, copy + 1);
    } else {
        snprintf(out, n, "outside its instructions (pc 0x%llx, the loop or the prologue: look at the registers the "
                 "snippet leaves)", (unsigned long long)pc);
    }
}

static const char *signal_meaning(int sig)
{
    return sig == SIGILL ? "SIGILL (an instruction this CPU or this privilege level cannot run)"
         : sig == SIGSEGV ? "SIGSEGV (a memory access outside the scratch buffer, or a privileged instruction)"
         : sig == SIGFPE ? "SIGFPE (a divide error: by zero, or a quotient too large)"
         : sig == SIGBUS ? "SIGBUS (a misaligned or unbacked access)" : "SIGTRAP (a breakpoint)";
}

static const char gone_on[] = "the case is left out, the run goes on";

/* ---- the sandboxed worker ---- */

struct worker_page {
    volatile uint64_t iters, command;   /* the parent's: the loop to run, its sequence number */
    volatile uint64_t done, ticks;      /* the worker's: the last command it finished, its ticks */
    volatile int sig;                   /* what ended it: a fault, SIGSYS, HANG_SIGNAL */
    volatile uintptr_t pc;
    volatile long syscall_nr;
};

struct snippet_worker {
    pid_t pid;
    struct worker_page *page;
    uint64_t command;
    bool batched;   /* the parent's thread made SCHED_BATCH for the case (worker_start) */
};

static struct worker_page *worker_page;   /* the worker's own view, for its signal handler */

static void on_worker_signal(int sig, siginfo_t *si, void *uc)
{
    worker_page->sig = sig;
    worker_page->pc = sig == SIGSYS ? (uintptr_t)si->si_call_addr : isa_snippet_fault_pc(uc);
    worker_page->syscall_nr = sig == SIGSYS ? si->si_syscall : -1;
    syscall(SYS_exit_group, WORKER_FAULTED);
}

/* BPF_JUMP offsets below count the instructions skipped: keep the layout when editing. */
static int worker_filter(pid_t self)
{
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, isa_snippet_audit_arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 7, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_kill, 0, 4),
        /* kill: only itself (the kernel reads the pid and the signal as ints), only SIGSTOP */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)self, 0, 2),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIGSTOP, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = (unsigned short)ARRAY_SIZE(filter), .filter = filter};
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -1 : 0;
}

static void __attribute__((noreturn)) worker_main(struct code_kernel *k, struct worker_page *p, pid_t parent)
{
    worker_page = p;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_worker_signal;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask);
    static const int ends[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGSYS, HANG_SIGNAL};
    for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
        sigaction(ends[i], &sa, NULL);
    signal(SIGINT, SIG_IGN);   /* the parent stops the worker; a stop handler here would exit it */
    signal(SIGTERM, SIG_IGN);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)   /* the parent ended before the line above */
        _exit(1);
    pid_t self = getpid();
    if (worker_filter(self))
        _exit(WORKER_NO_FILTER);
    for (;;) {
        syscall(SYS_kill, self, SIGSTOP);   /* the last instruction a loop counts */
        uint64_t command = p->command, iters = p->iters;
        uint64_t t0 = isa_ticks_start();
        k->g.entry(iters, k->regs);
        uint64_t t1 = isa_ticks_stop();
        p->ticks = t1 - t0;
        p->done = command;
    }
}

/* What ended the worker, in why; the worker reaped. */
static void worker_ended(struct code_kernel *k, int st, char *why, size_t wn)
{
    struct worker_page *p = k->worker->page;
    char at[300];
    if (WIFEXITED(st) && WEXITSTATUS(st) == WORKER_FAULTED) {
        where_pc(k, p->pc, at, sizeof(at));
        if (p->sig == SIGSYS)
            snprintf(why, wn, "the snippet made a system call (number %ld) %s, which its sandbox refuses: its bytes "
                    "hide an instruction the decoder did not see; %s", p->syscall_nr, at, gone_on);
        else if (p->sig == HANG_SIGNAL)
            snprintf(why, wn, "the watchdog's signal found it %s", at);
        else
            snprintf(why, wn, "the snippet faulted: %s %s; %s", signal_meaning(p->sig), at, gone_on);
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == WORKER_NO_FILTER) {
        snprintf(why, wn, "no sandbox for the snippet: the kernel refused its system-call filter (seccomp; a kernel "
                "built without it, or a container that forbids it); the snippet is not run unsandboxed; %s", gone_on);
    } else if (WIFEXITED(st)) {
        snprintf(why, wn, "the snippet ended its sandbox's process (exit status %d): its bytes hide an exit the "
                "decoder did not see; %s", WEXITSTATUS(st), gone_on);
    } else if (WIFSIGNALED(st)) {
        snprintf(why, wn, "the snippet's sandbox ended by signal %d (%s); %s", WTERMSIG(st), strsignal(WTERMSIG(st)),
                gone_on);
    } else {
        snprintf(why, wn, "the snippet's sandbox ended with wait status 0x%x; %s", (unsigned)st, gone_on);
    }
}

static void worker_reap(struct snippet_worker *w)
{
    if (w->pid > 0) {
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    w->pid = 0;
}

/* Waits up to seconds for the worker to stop or end: its pid when it did (status in *st), 0 when
 * not yet, -1 when a stop was asked for or waiting failed. SIGCHLD is blocked by the caller, so
 * the child's stop wakes sigtimedwait at once; a slice bounds each wait all the same (a SIGCHLD
 * that another thread took). */
static int worker_wait(struct snippet_worker *w, double seconds, const sigset_t *chld, int *st)
{
    double t0 = clock_now_seconds();
    for (;;) {
        pid_t r = waitpid(w->pid, st, WNOHANG | WUNTRACED);
        if (r == w->pid)
            return r;
        if (r < 0 && errno != EINTR)
            return -1;
        if (stop_requested())
            return -1;
        double left = seconds - (clock_now_seconds() - t0);
        if (left <= 0)
            return 0;
        double slice = left < 0.05 ? left : 0.05;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)(slice * 1e9) + 1};
        sigtimedwait(chld, NULL, &ts);
    }
}

/* One command to the worker: 0, -1 with why, 1 for a stop. */
static int worker_run(struct code_kernel *k, uint64_t iters, double limit, char *why, size_t wn)
{
    struct snippet_worker *w = k->worker;
    if (!w->pid) {
        snprintf(why, wn, "the snippet's sandbox is gone (an earlier run ended it); %s", gone_on);
        return -1;
    }
    w->page->iters = iters;
    w->page->command = ++w->command;
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &chld, &old);
    int st = 0, rc = -1;
    struct rusage u0, u1;
    getrusage(RUSAGE_THREAD, &u0);
    kill(w->pid, SIGCONT);
    int r = worker_wait(w, limit, &chld, &st);
    getrusage(RUSAGE_THREAD, &u1);
    long slept = u1.ru_nvcsw - u0.ru_nvcsw, preempted = u1.ru_nivcsw - u0.ru_nivcsw;
    k->switches = 1 + (unsigned)((slept > 1 ? slept - 1 : 0) + preempted);
    if (r > 0 && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && w->page->done == w->command) {
        k->ticks = w->page->ticks;
        rc = 0;
    } else if (r > 0 && WIFSTOPPED(st)) {
        snprintf(why, wn, "the snippet stopped its sandbox's process before its loop was done (signal %d): its bytes "
                "hide a system call the decoder did not see; %s", WSTOPSIG(st), gone_on);
        worker_reap(w);
    } else if (r > 0) {
        w->pid = 0;   /* reaped by the wait */
        worker_ended(k, st, why, wn);
    } else if (r == 0) {
        /* The watchdog: the worker names where it was, else it is killed. */
        kill(w->pid, HANG_SIGNAL);
        char at[400] = "";
        if (worker_wait(w, HANG_GRACE, &chld, &st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == WORKER_FAULTED &&
            w->page->sig == HANG_SIGNAL) {
            w->pid = 0;
            where_pc(k, w->page->pc, at, sizeof(at));
        }
        if (w->command == 1)
            snprintf(why, wn, "the snippet does not end: its trial loop (2 iterations, in its sandbox) ran over %.0f s "
                    "(a loop whose exit is never taken?); the watchdog ended it%s%s; %s", limit, at[0] ? " " : "", at,
                    gone_on);
        else
            snprintf(why, wn, "the snippet does not end: %llu iteration%s ran over the %.1f s its pace allows (a loop "
                    "whose exit is never taken?); the watchdog ended it%s%s; %s", (unsigned long long)iters,
                    iters == 1 ? "" : "s", limit, at[0] ? " " : "", at, gone_on);
        worker_reap(w);
    } else if (stop_requested()) {
        worker_reap(w);
        rc = 1;
    } else {
        snprintf(why, wn, "cannot wait for the snippet's sandbox: %s; %s", strerror(errno), gone_on);
        worker_reap(w);
    }
    /* A SIGCHLD left pending by this worker is consumed here, not by whoever unblocks it next. */
    struct timespec none = {0, 0};
    while (sigtimedwait(&chld, NULL, &none) > 0)
        ;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

static int worker_start(struct code_kernel *k, double trial_seconds, char *why, size_t wn)
{
    static const char refused[] = "the snippet is not run unsandboxed";
    struct snippet_worker *w = xcalloc(1, sizeof(*w));
    k->worker = w;
    w->page = mmap(NULL, sizeof(*w->page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (w->page == MAP_FAILED) {
        w->page = NULL;
        snprintf(why, wn, "no sandbox for the snippet: cannot map the memory it shares: %s; %s; %s", strerror(errno),
                refused, gone_on);
        return -1;
    }
    memset((void *)w->page, 0, sizeof(*w->page));
    fflush(NULL);   /* nothing buffered is written twice */
    pid_t parent = getpid();
    w->pid = fork();
    if (w->pid == 0)
        worker_main(k, w->page, parent);
    if (w->pid < 0) {
        w->pid = 0;
        snprintf(why, wn, "no sandbox for the snippet: cannot start its process: %s; %s; %s", strerror(errno), refused,
                gone_on);
        return -1;
    }
    /* Its first stop says the filter is in place. */
    sigset_t chld, old;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    pthread_sigmask(SIG_BLOCK, &chld, &old);
    int st = 0, r = worker_wait(w, 10, &chld, &st);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r <= 0 || !WIFSTOPPED(st)) {
        bool stop = r < 0 && stop_requested();
        if (r > 0) {
            w->pid = 0;
            worker_ended(k, st, why, wn);
        } else {
            snprintf(why, wn, "no sandbox for the snippet: its process did not start in 10 s; %s; %s", refused,
                     gone_on);
            worker_reap(w);
        }
        return stop ? 1 : -1;
    }
    /* The parent waits on the worker's CPU (the measured one). Woken by the worker's stop, a
     * normal thread preempts it before it has switched out, and the worker then switches out twice
     * for one stop, at random (1252 loops of 2000 once, 748 twice); a SCHED_BATCH thread never
     * preempts on waking (1999 and 1). Its switches are then its own stop and real disturbances. */
    struct sched_param none = {0};
    w->batched = sched_getscheduler(0) == SCHED_OTHER && !sched_setscheduler(0, SCHED_BATCH, &none);
    int rc = worker_run(k, 2, trial_seconds, why, wn);
    if (!rc)
        team_delegate(w->pid);
    return rc;
}

/* ---- in-process, under valgrind ----
 *
 * Its faults (SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP), the watchdog's timer (SIGALRM, armed for
 * each measured loop: a snippet that never ends) and a stop (SIGINT, SIGTERM, passed on to the handler
 * installed before: the stop flag) leave it by siglongjmp. The handlers stay installed from
 * start to end; a fault outside a guarded loop goes to the action installed before. */
enum { GUARD_HANG = -1, GUARD_STOP = -2 };
static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_on;
static volatile int guard_sig;
static volatile uintptr_t guard_pc;
static const int guarded[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGALRM, SIGINT, SIGTERM};
static struct sigaction old_actions[ARRAY_SIZE(guarded)];
static int guard_users;
static timer_t watchdog;
static bool watchdog_made;

static void on_guarded_signal(int sig, siginfo_t *si, void *uc)
{
    size_t i = 0;
    while (i < ARRAY_SIZE(guarded) && guarded[i] != sig)
        i++;
    if (sig == SIGINT || sig == SIGTERM) {   /* the stop flag first, as if no guard were there */
        const struct sigaction *o = &old_actions[i];
        if (o->sa_flags & SA_SIGINFO)
            o->sa_sigaction(sig, si, uc);
        else if (o->sa_handler != SIG_IGN && o->sa_handler != SIG_DFL)
            o->sa_handler(sig);
        else if (o->sa_handler == SIG_DFL) {
            sigaction(sig, o, NULL);
            raise(sig);
            return;
        } else
            return;
        if (!guard_on)
            return;
        sig = GUARD_STOP;
    } else if (sig == SIGALRM) {
        if (!guard_on)
            return;   /* a watchdog that fired as the run ended */
        sig = GUARD_HANG;
    } else if (!guard_on) {
        sigaction(sig, &old_actions[i], NULL);
        raise(sig);
        return;
    }
    guard_on = 0;
    guard_sig = sig;
    guard_pc = isa_snippet_fault_pc(uc);
    siglongjmp(guard_env, 1);
}

static void guard_install(void)
{
    if (guard_users++)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_guarded_signal;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(guarded); i++)
        sigaction(guarded[i], &sa, &old_actions[i]);
    if (!watchdog_made) {   /* to this thread, the one that runs the code */
        struct sigevent ev;
        memset(&ev, 0, sizeof(ev));
        ev.sigev_notify = SIGEV_THREAD_ID;
        ev.sigev_signo = SIGALRM;
        ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
        watchdog_made = !timer_create(CLOCK_MONOTONIC, &ev, &watchdog);
    }
}

static void guard_remove(void)
{
    if (--guard_users)
        return;
    for (size_t i = 0; i < ARRAY_SIZE(guarded); i++)
        sigaction(guarded[i], &old_actions[i], NULL);
    if (watchdog_made)
        timer_delete(watchdog);
    watchdog_made = false;
}

static void watchdog_arm(double seconds)
{
    struct itimerspec t;
    memset(&t, 0, sizeof(t));
    t.it_value.tv_sec = (time_t)seconds;
    t.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (!seconds)
        t.it_value.tv_nsec = 0;
    else if (!t.it_value.tv_sec && !t.it_value.tv_nsec)
        t.it_value.tv_nsec = 1;
    if (watchdog_made)
        timer_settime(watchdog, 0, &t, NULL);
}

/* Under the simulator a SIGILL is valgrind's: for an instruction no CPU runs (ud2), or for one its
 * translator cannot decode, which the CPU may well run. The second is named in valgrind's log
 * ("vex amd64->IR: unhandled instruction bytes: 0xD7 0x48 ..."): true, with that line in line,
 * when its last such line gives the bytes at pc. */
static bool simulator_cannot_decode(const struct code_kernel *k, uintptr_t pc, char *line, size_t n)
{
    static const char mark[] = "unhandled instruction bytes:";
    const char *dir = getenv(SIM_ENV_DIR);
    uintptr_t base = (uintptr_t)k->g.code.base + k->body_off, end = base + k->units * k->unit.len;
    if (!dir || pc < base || pc >= end)
        return false;
    char *path = xasprintf("%s/" SIM_LOG_NAME, dir), err[200];
    size_t len;
    char *log = read_file_bounded(path, 1 << 20, &len, err, sizeof(err));
    free(path);
    const char *last = NULL;
    for (const char *p = log; p && (p = strstr(p, mark)); p += sizeof(mark) - 1)
        last = p;
    bool same = false;
    if (last) {
        const char *p = last + sizeof(mark) - 1;
        size_t i = 0;
        same = true;
        for (char *e; same && pc + i < end && i < 8; i++, p = e) {
            unsigned long b = strtoul(p, &e, 16);
            if (e == p || b > 0xff)
                break;
            same = ((const uint8_t *)pc)[i] == b;
        }
        same &= i > 0;
        const char *bol = last;
        while (bol > log && bol[-1] != '\n')
            bol--;
        snprintf(line, n, "%.*s", (int)strcspn(bol, "\n"), bol);
    }
    free(log);
    return same;
}

static int guarded_run(struct code_kernel *k, uint64_t iters, double limit, char *why, size_t wn)
{
    uint64_t fp = isa_snippet_state_save();
    double t0 = clock_now_seconds();
    watchdog_arm(limit);
    if (sigsetjmp(guard_env, 0) == 0) {
        guard_on = 1;
        uint64_t c0 = isa_ticks_start();
        k->g.entry(iters, k->regs);
        uint64_t c1 = isa_ticks_stop();
        guard_on = 0;
        watchdog_arm(0);
        k->ticks = c1 - c0;
        return 0;
    }
    watchdog_arm(0);
    isa_snippet_state_restore(fp);   /* the snippet's, not pmucal's: the epilogue did not run */
    if (guard_sig == GUARD_STOP)
        return 1;
    char at[300];
    where_pc(k, guard_pc, at, sizeof(at));
    if (guard_sig == GUARD_HANG) {
        snprintf(why, wn, "the snippet does not end: %llu iteration%s ran %.1f s, over the %.1f s its pace allows "
                "(a loop whose exit is never taken?); the watchdog ended it %s; %s",
                (unsigned long long)iters, iters == 1 ? "" : "s", clock_now_seconds() - t0, limit, at, gone_on);
        return -1;
    }
    char line[200];
    if (guard_sig == SIGILL && simulator_cannot_decode(k, guard_pc, line, sizeof(line))) {
        snprintf(why, wn, "the simulator cannot run the snippet: valgrind's translator does not decode the "
                 "instruction %s (its log: '%s'), which the CPU may run: measure it with --source perf; %s", at, line,
                 gone_on);
        return -1;
    }
    snprintf(why, wn, "the snippet faulted: %s %s; %s", signal_meaning(guard_sig), at, gone_on);
    return -1;
}

/* ---- either ---- */

int snippet_run_start(struct code_kernel *k, double trial_seconds, char *why, size_t wn)
{
    if (!RUNNING_ON_VALGRIND)
        return worker_start(k, trial_seconds, why, wn);
    guard_install();
    k->guarded = true;
    return guarded_run(k, 2, trial_seconds, why, wn);
}

int snippet_run(struct code_kernel *k, uint64_t iters, double limit, char *why, size_t wn)
{
    return k->worker ? worker_run(k, iters, limit, why, wn) : guarded_run(k, iters, limit, why, wn);
}

pid_t snippet_run_worker(const struct code_kernel *k)
{
    return k->worker ? k->worker->pid : 0;
}

void snippet_run_end(struct code_kernel *k)
{
    if (k->worker) {
        worker_reap(k->worker);
        if (k->worker->page)
            munmap((void *)k->worker->page, sizeof(*k->worker->page));
        struct sched_param none = {0};
        if (k->worker->batched)
            sched_setscheduler(0, SCHED_OTHER, &none);
        free(k->worker);
        k->worker = NULL;
        team_delegate(0);
    }
    if (k->guarded)
        guard_remove();
    k->guarded = false;
}
