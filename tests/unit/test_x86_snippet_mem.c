/* The snippet decoder's memory accesses (arch/x86_64/snippet.c's table): for each form, the loads,
 * stores and read-modify-write the decoder gives its objdump spelling, whether the simulator is
 * said not to run it as the CPU does, and, where the CPU can tell, what the CPU does: its bytes
 * run once against a page it may not touch (a fault iff it accesses memory) and against a page
 * it may only read (a write fault iff it stores). A read-modify-write and a store look alike to
 * the CPU's faults; the sim rows of tests/65-generators-snippet.t count them apart. */
#include "arch/isa.h"
#include "arch/snippet.h"
#include "tap.h"
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static const struct row {
    int line;
    const char *text;       /* as objdump spells it */
    uint8_t bytes[8];       /* its encoding (zeros after it) */
    int loads, stores, rmw;
    bool sim_refused;       /* valgrind 3.19 does not run it as the CPU does */
    bool on_cpu;            /* run it: its accesses are fixed, unprivileged, and name only %rsi, %rbx */
} rows[] = {
    {__LINE__, "faddl (%rsi)", {0xdc, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fadds (%rsi)", {0xd8, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fiaddl (%rsi)", {0xda, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fiadds (%rsi)", {0xde, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fsubl (%rsi)", {0xdc, 0x26}, 1, 0, 0, false, true},
    {__LINE__, "fsubrl (%rsi)", {0xdc, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "fisubl (%rsi)", {0xda, 0x26}, 1, 0, 0, false, true},
    {__LINE__, "fisubrs (%rsi)", {0xde, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "fmull (%rsi)", {0xdc, 0x0e}, 1, 0, 0, false, true},
    {__LINE__, "fimull (%rsi)", {0xda, 0x0e}, 1, 0, 0, false, true},
    {__LINE__, "fdivl (%rsi)", {0xdc, 0x36}, 1, 0, 0, false, true},
    {__LINE__, "fdivrs (%rsi)", {0xd8, 0x3e}, 1, 0, 0, false, true},
    {__LINE__, "fidivl (%rsi)", {0xda, 0x36}, 1, 0, 0, false, true},
    {__LINE__, "fidivrl (%rsi)", {0xda, 0x3e}, 1, 0, 0, false, true},
    {__LINE__, "fcoml 0x8(%rsi)", {0xdc, 0x56, 0x08}, 1, 0, 0, false, true},
    {__LINE__, "fcomps (%rsi)", {0xd8, 0x1e}, 1, 0, 0, false, true},
    {__LINE__, "ficoml (%rsi)", {0xda, 0x16}, 1, 0, 0, true, true},
    {__LINE__, "ficomps (%rsi)", {0xde, 0x1e}, 1, 0, 0, true, true},
    {__LINE__, "fldl (%rsi)", {0xdd, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "flds (%rsi)", {0xd9, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fldt (%rsi)", {0xdb, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "fildl (%rsi)", {0xdb, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fildll (%rsi)", {0xdf, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "filds (%rsi)", {0xdf, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fbld (%rsi)", {0xdf, 0x26}, 1, 0, 0, true, true},
    {__LINE__, "fldcw (%rsi)", {0xd9, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "fldenv (%rsi)", {0xd9, 0x26}, -1, -1, 0, false, false},
    {__LINE__, "frstor (%rsi)", {0xdd, 0x26}, -1, -1, 0, false, false},
    {__LINE__, "fstl (%rsi)", {0xdd, 0x16}, 0, 1, 0, false, true},
    {__LINE__, "fstps (%rsi)", {0xd9, 0x1e}, 0, 1, 0, false, true},
    {__LINE__, "fstpt (%rsi)", {0xdb, 0x3e}, 0, 1, 0, false, true},
    {__LINE__, "fistl (%rsi)", {0xdb, 0x16}, 0, 1, 0, false, true},
    {__LINE__, "fistpll (%rsi)", {0xdf, 0x3e}, 0, 1, 0, false, true},
    {__LINE__, "fisttpl (%rsi)", {0xdb, 0x0e}, 0, 1, 0, false, true},
    {__LINE__, "fisttpll (%rsi)", {0xdd, 0x0e}, 0, 1, 0, false, true},
    {__LINE__, "fbstp (%rsi)", {0xdf, 0x36}, 0, 1, 0, true, true},
    {__LINE__, "fnstcw (%rsi)", {0xd9, 0x3e}, 0, 1, 0, false, true},
    {__LINE__, "fstcw (%rsi)", {0x9b, 0xd9, 0x3e}, 0, 1, 0, false, true},
    {__LINE__, "fnstsw (%rsi)", {0xdd, 0x3e}, 0, 1, 0, false, true},
    {__LINE__, "fnstsw %ax", {0xdf, 0xe0}, 0, 0, 0, false, true},
    {__LINE__, "fnstenv (%rsi)", {0xd9, 0x36}, -1, -1, 0, false, false},
    {__LINE__, "fnsave (%rsi)", {0xdd, 0x36}, -1, -1, 0, false, false},
    {__LINE__, "lods %ds:(%rsi),%rax", {0x48, 0xad}, 1, 0, 0, false, true},
    {__LINE__, "lods %ds:(%rsi),%al", {0xac}, 1, 0, 0, false, true},
    {__LINE__, "rep lods %ds:(%rsi),%al", {0xf3, 0xac}, -1, -1, 0, true, false},
    {__LINE__, "xlat %ds:(%rbx)", {0xd7}, 1, 0, 0, true, true},
    {__LINE__, "xchg %rax,(%rsi)", {0x48, 0x87, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "xchg %rax,(%rsi)", {0x48, 0x87, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "cmpxchg %rcx,(%rsi)", {0x48, 0x0f, 0xb1, 0x0e}, 1, 1, 1, false, true},
    {__LINE__, "lock cmpxchg %rcx,(%rsi)", {0xf0, 0x48, 0x0f, 0xb1, 0x0e}, 1, 1, 1, false, true},
    {__LINE__, "xadd %rcx,(%rsi)", {0x48, 0x0f, 0xc1, 0x0e}, 1, 1, 1, false, true},
    {__LINE__, "cmpxchg16b (%rsi)", {0x48, 0x0f, 0xc7, 0x0e}, 1, 1, 1, false, true},
    {__LINE__, "add %rax,(%rsi)", {0x48, 0x01, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "add (%rsi),%rax", {0x48, 0x03, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "mov (%rsi),%rax", {0x48, 0x8b, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "mov %rax,(%rsi)", {0x48, 0x89, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "cmp (%rsi),%rax", {0x48, 0x3b, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "cmp %rax,(%rsi)", {0x48, 0x39, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "test %rax,(%rsi)", {0x48, 0x85, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "bt %rax,(%rsi)", {0x48, 0x0f, 0xa3, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "bts %rax,(%rsi)", {0x48, 0x0f, 0xab, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "incq (%rsi)", {0x48, 0xff, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "negl (%rsi)", {0xf7, 0x1e}, 1, 1, 1, false, true},
    {__LINE__, "mulq (%rsi)", {0x48, 0xf7, 0x26}, 1, 0, 0, false, true},
    {__LINE__, "divq (%rsi)", {0x48, 0xf7, 0x36}, 1, 0, 0, false, true},
    {__LINE__, "imulq (%rsi)", {0x48, 0xf7, 0x2e}, 1, 0, 0, false, true},
    {__LINE__, "imul (%rsi),%rax", {0x48, 0x0f, 0xaf, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "sete (%rsi)", {0x0f, 0x94, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "movbe %rax,(%rsi)", {0x48, 0x0f, 0x38, 0xf1, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "movbe (%rsi),%rax", {0x48, 0x0f, 0x38, 0xf0, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "movsd (%rsi),%xmm0", {0xf2, 0x0f, 0x10, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "movsd %xmm0,(%rsi)", {0xf2, 0x0f, 0x11, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "movhps (%rsi),%xmm0", {0x0f, 0x16, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "movhps %xmm0,(%rsi)", {0x0f, 0x17, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "ucomisd (%rsi),%xmm0", {0x66, 0x0f, 0x2e, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "ldmxcsr (%rsi)", {0x0f, 0xae, 0x16}, 1, 0, 0, false, true},
    {__LINE__, "stmxcsr (%rsi)", {0x0f, 0xae, 0x1e}, 0, 1, 0, false, true},
    {__LINE__, "cmovne (%rsi),%rax", {0x48, 0x0f, 0x45, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "lea 0x8(%rsi),%rax", {0x48, 0x8d, 0x46, 0x08}, 0, 0, 0, false, true},
    {__LINE__, "nopl (%rsi)", {0x0f, 0x1f, 0x06}, 0, 0, 0, false, true},
    {__LINE__, "prefetcht0 (%rsi)", {0x0f, 0x18, 0x0e}, -1, -1, 0, false, false},
    {__LINE__, "shlq %cl,(%rsi)", {0x48, 0xd3, 0x26}, 1, 1, 1, false, true},
    {__LINE__, "shld %cl,%rax,(%rsi)", {0x48, 0x0f, 0xa5, 0x06}, 1, 1, 1, false, true},
    {__LINE__, "popcnt (%rsi),%rax", {0xf3, 0x48, 0x0f, 0xb8, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "crc32q (%rsi),%rax", {0xf2, 0x48, 0x0f, 0x38, 0xf1, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "outsb %ds:(%rsi),(%dx)", {0x6e}, 1, 0, 0, false, false},
    {__LINE__, "vmovdqu (%rsi),%ymm0", {0xc5, 0xfe, 0x6f, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "vmovdqu %ymm0,(%rsi)", {0xc5, 0xfe, 0x7f, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "vaddpd (%rsi),%ymm1,%ymm0", {0xc5, 0xf5, 0x58, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "vfmadd231pd (%rsi),%ymm1,%ymm0", {0xc4, 0xe2, 0xf5, 0xb8, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "pextrd $0x1,%xmm0,(%rsi)", {0x66, 0x0f, 0x3a, 0x16, 0x06, 0x01}, 0, 1, 0, false, true},
    {__LINE__, "pinsrd $0x1,(%rsi),%xmm0", {0x66, 0x0f, 0x3a, 0x22, 0x06, 0x01}, 1, 0, 0, false, true},
    {__LINE__, "vbroadcastsd (%rsi),%ymm0", {0xc4, 0xe2, 0x7d, 0x19, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "movnti %rax,(%rsi)", {0x48, 0x0f, 0xc3, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "notq (%rsi)", {0x48, 0xf7, 0x16}, 1, 1, 1, false, true},
    {__LINE__, "adcx (%rsi),%rax", {0x66, 0x48, 0x0f, 0x38, 0xf6, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "fadd %st(1),%st", {0xd8, 0xc1}, 0, 0, 0, false, true},
    {__LINE__, "movsb %ds:(%rsi),%es:(%rdi)", {0xa4}, 1, 1, 0, false, false},
    {__LINE__, "cmpsb %es:(%rdi),%ds:(%rsi)", {0xa6}, 2, 0, 0, false, false},
    {__LINE__, "stos %rax,%es:(%rdi)", {0x48, 0xab}, 0, 1, 0, false, false},
    {__LINE__, "scas %es:(%rdi),%al", {0xae}, 1, 0, 0, false, false},
    {__LINE__, "insb (%dx),%es:(%rdi)", {0x6c}, 0, 1, 0, false, false},
    {__LINE__, "movss (%rsi),%xmm0", {0xf3, 0x0f, 0x10, 0x06}, 1, 0, 0, false, true},
    {__LINE__, "movss %xmm0,(%rsi)", {0xf3, 0x0f, 0x11, 0x06}, 0, 1, 0, false, true},
    {__LINE__, "push (%rsi)", {0xff, 0x36}, 1, 0, 0, false, false},
};

/* The child's fault: 1 for a read, 2 for a write (the page-fault error code's W bit). */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    if (sig != SIGSEGV)
        _exit(sig == SIGILL ? 9 : 8);
    _exit(((const ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2 ? 2 : 1);
}

/* Runs bytes once in a child with %rsi and %rbx at a page of prot (every 8-byte word 0x1f80: a
 * valid MXCSR, a nonzero divisor): 0 when nothing faulted, 1 a read fault, 2 a write fault, 9
 * SIGILL (this CPU lacks it), 8 another signal, -1 when the child could not be made. */
static int run_once(const uint8_t *bytes, int prot)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGILL, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
        sigaction(SIGFPE, &sa, NULL);
        long page = sysconf(_SC_PAGESIZE);
        uint8_t *code = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        uint64_t *data = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (code == MAP_FAILED || data == MAP_FAILED)
            _exit(7);
        memcpy(code, bytes, 8);
        size_t n = 8;
        while (n && !bytes[n - 1])
            n--;
        code[n] = 0xc3;   /* ret */
        for (size_t i = 0; i < (size_t)page / 8; i++)
            data[i] = 0x1f80;
        if (mprotect(code, (size_t)page, PROT_READ | PROT_EXEC) || mprotect(data, (size_t)page, prot))
            _exit(7);
        /* Below the red zone, every register the forms may write declared clobbered. */
        __asm__ volatile("mov %0, %%rsi\n\tmov %0, %%rbx\n\txor %%eax, %%eax\n\txor %%edx, %%edx\n\tmov $1, %%ecx\n\t"
                         "fninit\n\tsub $256, %%rsp\n\tcall *%1\n\tadd $256, %%rsp\n\tfninit"
                         :
                         : "r"(data), "r"(code)
                         : "rax", "rbx", "rcx", "rdx", "rsi", "xmm0", "xmm1", "memory", "cc");
        _exit(0);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        struct snippet_insn in;
        memset(&in, 0, sizeof(in));
        snprintf(in.text, sizeof(in.text), "%s", r->text);
        isa_snippet_classify(&in);
        CHECK(in.loads == r->loads && in.stores == r->stores && in.rmw == (r->rmw != 0), r->line,
              "'%s': loads %d stores %d rmw %d (want %d %d %d)", r->text, in.loads, in.stores, in.rmw, r->loads,
              r->stores, r->rmw);
        CHECK(!!in.sim_why_not == r->sim_refused, r->line, "'%s': %s under sim%s%s", r->text,
              in.sim_why_not ? "refused" : "run", in.sim_why_not ? ": " : "", in.sim_why_not ? in.sim_why_not : "");
        if (!r->on_cpu)
            continue;
        int none = run_once(r->bytes, PROT_NONE), ro = run_once(r->bytes, PROT_READ);
        if (none == 9 || ro == 9) {
            printf("ok %d - line %d: '%s' on the CPU # SKIP this CPU does not run it (SIGILL)\n", ++t_n, r->line,
                   r->text);
            continue;
        }
        bool accesses = r->loads || r->stores, writes = r->stores > 0;
        /* A read-modify-write may fault as either on the first access. */
        bool none_ok = !accesses ? none == 0 : r->rmw ? none == 1 || none == 2 : writes ? none == 2 : none == 1;
        CHECK(none_ok && ro == (writes ? 2 : 0), r->line,
              "'%s' on the CPU: %s on a page it may not touch, %s on one it may read (want %s, %s)", r->text,
              none == 0 ? "no fault" : none == 1 ? "a read fault" : none == 2 ? "a write fault" : "another end",
              ro == 0 ? "no fault" : ro == 1 ? "a read fault" : ro == 2 ? "a write fault" : "another end",
              accesses ? "a fault" : "no fault", writes ? "a write fault" : "no fault");
    }
    return done_testing();
}
