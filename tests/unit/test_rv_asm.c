/* The RISC-V assembler's golden rows: each instruction form arch/riscv64/rv_asm.h offers, with the
 * 32-bit words the ISA manual's encodings give (each checked once, when written, against
 * riscv64-linux-gnu-as -march=rv64gc and objdump of the same instruction: the test needs neither)
 * and the listing the assembler writes. Built for riscv64 only (rv_asm.c and x86_asm.c define the
 * same asm_* symbols): make emu-riscv64 builds it, tests/78-arch-riscv64-encoder.t runs it under
 * qemu-riscv64. Also: the refusals (an immediate or a branch out of reach stops the generator),
 * mapped code that runs, and the snippet decoder's reading of words. */
#include "arch/isa.h"
#include "arch/snippet.h"
#include "tap.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum op { NOP, RET, JR, JALR, ADDI, ANDI, SLLI, SRLI, ADD, LD, SD, FLD, FSD, FCVT, FSQRT, FRCSR, FSCSR, PUSH, POP,
          J, JAL, BR, JFAR, LOOP };

/* Branches and jumps: imm is the target's distance from the instruction (the loop test: from the
 * body to its addi), made of nops. The listing's branch targets are offsets in the row's own code. */
static const struct row {
    int line;
    enum op op;
    int a, b, c;
    long imm;
    int nwords;
    uint32_t words[3];
    const char *want;
} rows[] = {
    {__LINE__, NOP, 0, 0, 0, 0, 1, {0x00000013}, "nop"},
    {__LINE__, RET, 0, 0, 0, 0, 1, {0x00008067}, "ret"},
    {__LINE__, JR, T0, 0, 0, 0, 1, {0x00028067}, "jr t0"},
    {__LINE__, JR, A5, 0, 0, 0, 1, {0x00078067}, "jr a5"},
    {__LINE__, JALR, T1, 0, 0, 0, 1, {0x000300e7}, "jalr t1"},
    {__LINE__, JALR, T6, 0, 0, 0, 1, {0x000f80e7}, "jalr t6"},
    {__LINE__, ADDI, A0, A0, 0, -1, 1, {0xfff50513}, "addi a0, a0, -1"},
    {__LINE__, ADDI, SP, SP, 0, -16, 1, {0xff010113}, "addi sp, sp, -16"},
    {__LINE__, ADDI, T6, A1, 0, -2048, 1, {0x80058f93}, "addi t6, a1, -2048"},
    {__LINE__, ADDI, T3, T4, 0, 2047, 1, {0x7ffe8e13}, "addi t3, t4, 2047"},
    {__LINE__, ADDI, A2, ZERO, 0, 5, 1, {0x00500613}, "li a2, 5"},
    {__LINE__, ADDI, T0, ZERO, 0, -2048, 1, {0x80000293}, "li t0, -2048"},
    {__LINE__, ANDI, T0, A0, 0, 1, 1, {0x00157293}, "andi t0, a0, 1"},
    {__LINE__, ANDI, A3, A4, 0, -1, 1, {0xfff77693}, "andi a3, a4, -1"},
    {__LINE__, ANDI, A3, A4, 0, 2047, 1, {0x7ff77693}, "andi a3, a4, 2047"},
    {__LINE__, ANDI, S2, T5, 0, -2048, 1, {0x800f7913}, "andi s2, t5, -2048"},
    {__LINE__, SLLI, T0, T2, 0, 63, 1, {0x03f39293}, "slli t0, t2, 0x3f"},
    {__LINE__, SLLI, A1, A1, 0, 0, 1, {0x00059593}, "slli a1, a1, 0x0"},
    {__LINE__, SLLI, T1, A6, 0, 32, 1, {0x02081313}, "slli t1, a6, 0x20"},
    {__LINE__, SRLI, T2, T2, 0, 1, 1, {0x0013d393}, "srli t2, t2, 0x1"},
    {__LINE__, SRLI, A7, S0, 0, 63, 1, {0x03f45893}, "srli a7, s0, 0x3f"},
    {__LINE__, ADD, A1, A1, T0, 0, 1, {0x005585b3}, "add a1, a1, t0"},
    {__LINE__, ADD, T6, ZERO, T5, 0, 1, {0x01e00fb3}, "add t6, zero, t5"},
    {__LINE__, ADD, S2, A7, S0, 0, 1, {0x00888933}, "add s2, a7, s0"},
    {__LINE__, LD, A1, A1, 0, 0, 1, {0x0005b583}, "ld a1, 0(a1)"},
    {__LINE__, LD, RA, SP, 0, 8, 1, {0x00813083}, "ld ra, 8(sp)"},
    {__LINE__, LD, T0, A1, 0, -8, 1, {0xff85b283}, "ld t0, -8(a1)"},
    {__LINE__, LD, T6, T6, 0, 2047, 1, {0x7fffbf83}, "ld t6, 2047(t6)"},
    {__LINE__, LD, A0, S2, 0, -2048, 1, {0x80093503}, "ld a0, -2048(s2)"},
    {__LINE__, SD, RA, SP, 0, 8, 1, {0x00113423}, "sd ra, 8(sp)"},
    {__LINE__, SD, A2, T6, 0, 2047, 1, {0x7ecfbfa3}, "sd a2, 2047(t6)"},
    {__LINE__, SD, T0, A1, 0, -2048, 1, {0x8055b023}, "sd t0, -2048(a1)"},
    {__LINE__, SD, ZERO, A3, 0, -1, 1, {0xfe06bfa3}, "sd zero, -1(a3)"},
    {__LINE__, SD, S2, T3, 0, 32, 1, {0x032e3023}, "sd s2, 32(t3)"},
    {__LINE__, FLD, 0, A1, 0, 0, 1, {0x0005b007}, "fld ft0, 0(a1)"},
    {__LINE__, FLD, 31, A2, 0, -2048, 1, {0x80063f87}, "fld ft11, -2048(a2)"},
    {__LINE__, FLD, 10, T6, 0, 2047, 1, {0x7fffb507}, "fld fa0, 2047(t6)"},
    {__LINE__, FSD, 8, SP, 0, 96, 1, {0x06813027}, "fsd fs0, 96(sp)"},
    {__LINE__, FSD, 27, A1, 0, -8, 1, {0xffb5bc27}, "fsd fs11, -8(a1)"},
    {__LINE__, FSD, 31, T0, 0, 2047, 1, {0x7ff2bfa7}, "fsd ft11, 2047(t0)"},
    {__LINE__, FCVT, 0, A0, 0, 0, 1, {0xd2257053}, "fcvt.d.l ft0, a0"},
    {__LINE__, FCVT, 31, T6, 0, 0, 1, {0xd22fffd3}, "fcvt.d.l ft11, t6"},
    {__LINE__, FSQRT, 1, 2, 0, 0, 1, {0x5a0170d3}, "fsqrt.d ft1, ft2"},
    {__LINE__, FSQRT, 31, 0, 0, 0, 1, {0x5a007fd3}, "fsqrt.d ft11, ft0"},
    {__LINE__, FRCSR, T0, 0, 0, 0, 1, {0x003022f3}, "frcsr t0"},
    {__LINE__, FRCSR, A5, 0, 0, 0, 1, {0x003027f3}, "frcsr a5"},
    {__LINE__, FSCSR, T0, 0, 0, 0, 1, {0x00329073}, "fscsr t0"},
    {__LINE__, FSCSR, S2, 0, 0, 0, 1, {0x00391073}, "fscsr s2"},
    {__LINE__, PUSH, 0, 0, 0, 0, 2, {0xff010113, 0x00113423}, "addi sp, sp, -16; sd ra, 8(sp)"},
    {__LINE__, POP, 0, 0, 0, 0, 2, {0x00813083, 0x01010113}, "ld ra, 8(sp); addi sp, sp, 16"},
    {__LINE__, J, 0, 0, 0, 0, 1, {0x0000006f}, "j 0x0"},
    {__LINE__, J, 0, 0, 0, 4, 1, {0x0040006f}, "j 0x4"},
    {__LINE__, J, 0, 0, 0, -4, 1, {0xffdff06f}, "j 0x0"},
    {__LINE__, J, 0, 0, 0, 2048, 1, {0x0010006f}, "j 0x800"},
    {__LINE__, J, 0, 0, 0, -2048, 1, {0x801ff06f}, "j 0x0"},
    {__LINE__, J, 0, 0, 0, 1048572, 1, {0x7fdff06f}, "j 0xffffc"},
    {__LINE__, J, 0, 0, 0, -1048576, 1, {0x8000006f}, "j 0x0"},
    {__LINE__, JAL, 0, 0, 0, 0, 1, {0x000000ef}, "jal 0x0"},
    {__LINE__, JAL, 0, 0, 0, 8, 1, {0x008000ef}, "jal 0x8"},
    {__LINE__, JAL, 0, 0, 0, -1048576, 1, {0x800000ef}, "jal 0x0"},
    {__LINE__, JAL, 0, 0, 0, 1048572, 1, {0x7fdff0ef}, "jal 0xffffc"},
    {__LINE__, BR, RV_EQ, A0, ZERO, 0, 1, {0x00050063}, "beq a0, zero, 0x0"},
    {__LINE__, BR, RV_NE, T0, T1, 8, 1, {0x00629463}, "bne t0, t1, 0x8"},
    {__LINE__, BR, RV_LT, A0, ZERO, -4, 1, {0xfe054ee3}, "blt a0, zero, 0x0"},
    {__LINE__, BR, RV_GE, A0, ZERO, -4096, 1, {0x80055063}, "bge a0, zero, 0x0"},
    {__LINE__, BR, RV_GEU, T6, S2, 2048, 1, {0x012ff0e3}, "bgeu t6, s2, 0x800"},
    {__LINE__, BR, RV_LT, T0, ZERO, 4092, 1, {0x7e02cee3}, "blt t0, zero, 0xffc"},
    {__LINE__, BR, RV_NE, A0, A1, -2048, 1, {0x80b510e3}, "bne a0, a1, 0x0"},
    {__LINE__, BR, RV_LTU, A1, A2, -8, 1, {0xfec5ece3}, "bltu a1, a2, 0x0"},
    {__LINE__, JFAR, 0, 0, 0, 8, 2, {0x00000297, 0x00828067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x8"},
    {__LINE__, JFAR, 0, 0, 0, 2044, 2, {0x00000297, 0x7fc28067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x7fc"},
    {__LINE__, JFAR, 0, 0, 0, 2048, 2, {0x00001297, 0x80028067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x800"},
    {__LINE__, JFAR, 0, 0, 0, 74564, 2, {0x00012297, 0x34428067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x12344"},
    {__LINE__, JFAR, 0, 0, 0, 1048576, 2, {0x00100297, 0x00028067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x100000"},
    {__LINE__, JFAR, 0, 0, 0, 0, 2, {0x00000297, 0x00028067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x0"},
    {__LINE__, JFAR, 0, 0, 0, -4, 2, {0x00000297, 0xffc28067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x0"},
    {__LINE__, JFAR, 0, 0, 0, -2048, 2, {0x00000297, 0x80028067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x0"},
    {__LINE__, JFAR, 0, 0, 0, -2052, 2, {0xfffff297, 0x7fc28067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x0"},
    {__LINE__, JFAR, 0, 0, 0, -1048576, 2, {0xfff00297, 0x00028067}, "auipc t0, (the target's upper bits); jr (the target's lower bits)(t0) 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 0, 2, {0xfff50513, 0xfe055ee3}, "addi a0, a0, -1; bge a0, zero, 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 4, 2, {0xfff50513, 0xfe055ce3}, "addi a0, a0, -1; bge a0, zero, 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 4084, 2, {0xfff50513, 0x80055463}, "addi a0, a0, -1; bge a0, zero, 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 4088, 2, {0xfff50513, 0x80055263}, "addi a0, a0, -1; bge a0, zero, 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 4092, 3, {0xfff50513, 0x00054463, 0xffdfe06f}, "addi a0, a0, -1; blt a0, zero, 0x1008; j 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 4096, 3, {0xfff50513, 0x00054463, 0xff9fe06f}, "addi a0, a0, -1; blt a0, zero, 0x100c; j 0x0"},
    {__LINE__, LOOP, 0, 0, 0, 65536, 3, {0xfff50513, 0x00054463, 0xff9ef06f}, "addi a0, a0, -1; blt a0, zero, 0x1000c; j 0x0"},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static bool labelled(enum op op) { return op >= J; }

/* Where the row's first instruction starts. */
static size_t row_start(const struct row *r)
{
    if (r->op == LOOP)
        return (size_t)r->imm;
    return labelled(r->op) && r->imm <= 0 ? (size_t)-r->imm : 0;
}

static void emit(struct assembler *as, const struct row *r, int label)
{
    switch (r->op) {
    case NOP: rv_asm_nop(as); break;
    case RET: asm_ret(as); break;
    case JR: rv_asm_jr(as, r->a); break;
    case JALR: rv_asm_jalr(as, r->a); break;
    case ADDI: rv_asm_addi(as, r->a, r->b, (int)r->imm); break;
    case ANDI: rv_asm_andi(as, r->a, r->b, (int)r->imm); break;
    case SLLI: rv_asm_slli(as, r->a, r->b, (unsigned)r->imm); break;
    case SRLI: rv_asm_srli(as, r->a, r->b, (unsigned)r->imm); break;
    case ADD: rv_asm_add(as, r->a, r->b, r->c); break;
    case LD: rv_asm_ld(as, r->a, r->b, (int)r->imm); break;
    case SD: rv_asm_sd(as, r->a, r->b, (int)r->imm); break;
    case FLD: rv_asm_fld(as, (unsigned)r->a, r->b, (int)r->imm); break;
    case FSD: rv_asm_fsd(as, (unsigned)r->a, r->b, (int)r->imm); break;
    case FCVT: rv_asm_fcvt_d_l(as, (unsigned)r->a, r->b); break;
    case FSQRT: rv_asm_fsqrt_d(as, (unsigned)r->a, (unsigned)r->b); break;
    case FRCSR: rv_asm_frcsr(as, r->a); break;
    case FSCSR: rv_asm_fscsr(as, r->a); break;
    case PUSH: rv_asm_push_ra(as); break;
    case POP: rv_asm_pop_ra(as); break;
    case J: rv_asm_j(as, label); break;
    case JAL: rv_asm_jal(as, label); break;
    case BR: rv_asm_branch(as, r->a, r->b, r->c, label); break;
    case JFAR: rv_asm_jump_far(as, label); break;
    case LOOP: asm_loop_test(as, label); break;
    }
}

/* One row in its own code: the target first and nops up to the instruction, or the instruction
 * and nops up to the target. */
static void assemble_row(struct assembler *as, const struct row *r)
{
    int label = labelled(r->op) ? asm_label(as) : -1;
    if (label >= 0 && (r->imm <= 0 || r->op == LOOP)) {
        asm_bind(as, label);
        asm_fill(as, (size_t)(r->op == LOOP ? r->imm : -r->imm));
    }
    emit(as, r, label);
    if (label >= 0 && r->imm > 0 && r->op != LOOP) {
        asm_fill(as, (size_t)r->imm - (size_t)r->nwords * 4);
        asm_bind(as, label);
    }
    asm_finish(as);
}

static void check_row(const struct row *r)
{
    struct assembler as;
    asm_init(&as, 0, true);
    assemble_row(&as, r);
    size_t at = row_start(r);
    char got[64] = "", want[64] = "", listed[512] = "";
    for (int i = 0; i < r->nwords; i++) {
        uint32_t w = 0;
        if (at + 4 * (size_t)i + 4 <= as.len)
            memcpy(&w, as.buf + at + 4 * (size_t)i, 4);
        snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%08x", i ? " " : "", w);
        snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%08x", i ? " " : "", r->words[i]);
    }
    CHECK(!strcmp(got, want), r->line, "%s: the words are %s, want %s", r->want, got, want);
    size_t i = 0;
    while (i < as.nlines && (as.lines[i].len == 0 || as.lines[i].off < at))
        i++;
    for (int k = 0; k < r->nwords && i < as.nlines; k++, i++) {
        const struct asm_line *l = &as.lines[i];
        size_t n = strlen(listed);
        snprintf(listed + n, sizeof(listed) - n, "%s%s", k ? "; " : "", l->text);
        n = strlen(listed);
        if (l->label >= 0)
            snprintf(listed + n, sizeof(listed) - n, " 0x%zx", asm_label_offset(&as, l->label));
    }
    CHECK(!strcmp(listed, r->want), r->line, "the listing says '%s', want '%s'", listed, r->want);
    if (r->op == LOOP)
        CHECK(rv_loop_test_was_far() == (r->nwords == 3), r->line, "rv_loop_test_was_far() says %s",
              rv_loop_test_was_far() ? "far" : "near");
    asm_free(&as);
}

/* What the assembler must refuse: the generator's bug stops it (pm_fatal: abort) with a message
 * naming the instruction, never a word that means something else. */
static const struct refusal {
    int line;
    enum op op;
    int a, b, c;
    long imm;
    const char *says;
} refusals[] = {
    {__LINE__, ADDI, A0, A0, 0, 2048, "addi immediate 2048 is not -2048..2047"},
    {__LINE__, ADDI, A0, A0, 0, -2049, "addi immediate -2049 is not -2048..2047"},
    {__LINE__, ANDI, A0, A0, 0, 4095, "andi immediate 4095 is not -2048..2047"},
    {__LINE__, LD, A0, A1, 0, 2048, "ld immediate 2048 is not -2048..2047"},
    {__LINE__, SD, A0, A1, 0, -2049, "sd immediate -2049 is not -2048..2047"},
    {__LINE__, FLD, 0, A1, 0, 4096, "fld immediate 4096 is not -2048..2047"},
    {__LINE__, FSD, 0, A1, 0, -4096, "fsd immediate -4096 is not -2048..2047"},
    {__LINE__, SLLI, A0, A0, 0, 64, "slli shift 64 is not 0..63"},
    {__LINE__, SRLI, A0, A0, 0, 64, "srli shift 64 is not 0..63"},
    {__LINE__, BR, RV_EQ, A0, ZERO, 4096, "branch at offset 0 cannot reach 4096 bytes"},
    {__LINE__, BR, RV_NE, A0, ZERO, -4100, "branch at offset 4100 cannot reach -4100 bytes"},
    {__LINE__, J, 0, 0, 0, 1048576, "jal at offset 0 cannot reach 1048576 bytes"},
    {__LINE__, JAL, 0, 0, 0, -1048580, "jal at offset 1048580 cannot reach -1048580 bytes"},
};

static void check_refusal(const struct refusal *f)
{
    int p[2];
    if (pipe(p)) {
        CHECK(0, f->line, "pipe");
        return;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        dup2(p[1], 2);
        struct row r = {f->line, f->op, f->a, f->b, f->c, f->imm, 1, {0}, ""};
        struct assembler as;
        asm_init(&as, 0, false);
        assemble_row(&as, &r);
        _exit(0);
    }
    close(p[1]);
    char msg[512] = "";
    size_t n = 0;
    ssize_t k;
    while (n + 1 < sizeof(msg) && (k = read(p[0], msg + n, sizeof(msg) - 1 - n)) > 0)
        n += (size_t)k;
    msg[n] = 0;
    close(p[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    char *nl = strchr(msg, '\n');
    if (nl)
        *nl = 0;
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(msg, f->says), f->line, "refused (status 0x%x) saying '%s', want '%s'", st, msg,
          f->says);
}

/* Mapped code runs: li a0, 42; ret; a loop of n bodies with its test near and past a branch's
 * reach; a far jump over 4 KiB of illegal words. */
static uint64_t run(struct assembler *as, uint64_t arg, const char *what)
{
    asm_finish(as);
    struct code c;
    if (asm_map(as, false, &c, what))
        return ~0ull;
    uint64_t (*fn)(uint64_t) = (uint64_t(*)(uint64_t))(uintptr_t)c.base;
    uint64_t got = fn(arg);
    code_unmap(&c);
    return got;
}

static void check_runs(void)
{
    struct assembler as;
    asm_init(&as, 0, false);
    rv_asm_addi(&as, A0, ZERO, 42);
    asm_ret(&as);
    uint64_t got = run(&as, 0, "li");
    CHECK(got == 42, __LINE__, "li a0, 42; ret returns %llu", (unsigned long long)got);
    asm_free(&as);
    static const size_t pads[] = {0, 4080, 4092, 8192};
    for (size_t i = 0; i < sizeof(pads) / sizeof(pads[0]); i++) {
        asm_init(&as, 0, false);
        int body = asm_label(&as), test = asm_label(&as);
        rv_asm_addi(&as, T1, ZERO, 0);
        rv_asm_j(&as, test);
        asm_bind(&as, body);
        rv_asm_addi(&as, T1, T1, 1);
        asm_fill(&as, pads[i]);
        asm_bind(&as, test);
        size_t n0 = as.ninsn;
        struct loop_test lt = asm_loop_test(&as, body);
        bool far = rv_loop_test_was_far();
        /* what the branch and code models add per iteration: the form written, not the near one */
        CHECK(lt.inst == as.ninsn - n0 && lt.cond_taken == (far ? 0u : 1u) && lt.cond_ntaken == (far ? 1u : 0u) &&
                  lt.uncond == (far ? 1u : 0u),
              __LINE__, "the %s loop test (%zu bytes of nops) returns inst %u of %zu written, cond taken %u, not taken %u, "
              "uncond %u", far ? "far" : "near", pads[i], lt.inst, as.ninsn - n0, lt.cond_taken, lt.cond_ntaken, lt.uncond);
        rv_asm_addi(&as, A0, T1, 0);
        asm_ret(&as);
        got = run(&as, 5, "loop");
        CHECK(got == 5, __LINE__, "a loop of 5 (%s test, %zu bytes of nops) runs %llu bodies", far ? "far" : "near",
              pads[i], (unsigned long long)got);
        asm_free(&as);
    }
    asm_init(&as, 0, false);
    int to = asm_label(&as);
    rv_asm_jump_far(&as, to);
    static const uint8_t illegal[4096];
    asm_put(&as, illegal, sizeof(illegal));
    asm_bind(&as, to);
    rv_asm_addi(&as, A0, ZERO, 7);
    asm_ret(&as);
    got = run(&as, 0, "far");
    CHECK(got == 7, __LINE__, "auipc; jr over 4 KiB of illegal words lands: returns %llu", (unsigned long long)got);
    asm_free(&as);
}

/* The snippet decoder reads each word alone (no disassembler: the words spelled as .insn). */
static const struct drow {
    int line;
    uint32_t word;
    const char *gas;
    enum snippet_kind kind;
    int64_t target;
    int loads, stores;
    bool rmw, refused;
} drows[] = {
    {__LINE__, 0x0080006f, "j .+8", SN_BR_UNCOND, 8, 0, 0, false, false},
    {__LINE__, 0xff1ff0ef, "jal .-16", SN_BR_AWAY, -16, 0, 0, false, false},
    {__LINE__, 0xfeb50ee3, "beq a0,a1,.-4", SN_BR_COND, -4, 0, 0, false, false},
    {__LINE__, 0x7e62fee3, "bgeu t0,t1,.+4092", SN_BR_COND, 4092, 0, 0, false, false},
    {__LINE__, 0x000300e7, "jalr t1", SN_BR_AWAY, -1, 0, 0, false, false},
    {__LINE__, 0x00008067, "ret", SN_BR_AWAY, -1, 0, 0, false, false},
    {__LINE__, 0x00000073, "ecall", SN_BR_AWAY, -1, 0, 0, false, false},
    {__LINE__, 0x0085b503, "ld a0,8(a1)", SN_OTHER, -1, 1, 0, false, false},
    {__LINE__, 0xfec5bc23, "sd a2,-8(a1)", SN_OTHER, -1, 0, 1, false, false},
    {__LINE__, 0x0005b507, "fld fa0,0(a1)", SN_OTHER, -1, 1, 0, false, false},
    {__LINE__, 0x00b5b827, "fsd fa1,16(a1)", SN_OTHER, -1, 0, 1, false, false},
    {__LINE__, 0x00c5b52f, "amoadd.d a0,a2,(a1)", SN_OTHER, -1, 1, 1, true, false},
    {__LINE__, 0x1005b52f, "lr.d a0,(a1)", SN_OTHER, -1, 1, 0, false, false},
    {__LINE__, 0x18c5b52f, "sc.d a0,a2,(a1)", SN_OTHER, -1, 0, 1, false, false},
    {__LINE__, 0x00000297, "auipc t0,0", SN_OTHER, -1, 0, 0, false, true},
    {__LINE__, 0x00b50533, "add a0,a0,a1", SN_OTHER, -1, 0, 0, false, false},
    {__LINE__, 0x0330000f, "fence rw,rw", SN_OTHER, -1, 0, 0, false, false},
    {__LINE__, 0xc0102573, "rdtime a0", SN_OTHER, -1, 0, 0, false, false},
};

static void check_decode(void)
{
    for (size_t i = 0; i < sizeof(drows) / sizeof(drows[0]); i++) {
        const struct drow *d = &drows[i];
        uint8_t b[4] = {(uint8_t)d->word, (uint8_t)(d->word >> 8), (uint8_t)(d->word >> 16), (uint8_t)(d->word >> 24)};
        struct snippet_insn *in = NULL;
        size_t n = 0;
        char why[200] = "", text[32];
        int rc = isa_snippet_decode(NULL, b, 4, &in, &n, why, sizeof(why));
        snprintf(text, sizeof(text), ".insn 0x%08x", d->word);
        CHECK(rc == 0 && n == 1 && in[0].len == 4 && !strcmp(in[0].text, text), d->line, "%s decodes as one word, '%s' (%s)",
              d->gas, rc == 0 && n ? in[0].text : "", why);
        if (rc == 0 && n == 1)
            CHECK(in[0].kind == d->kind && in[0].target == d->target && in[0].loads == d->loads &&
                      in[0].stores == d->stores && in[0].rmw == d->rmw && !!in[0].why_not == d->refused,
                  d->line, "%s: kind %d target %lld loads %d stores %d rmw %d refused %d, want %d %lld %d %d %d %d", d->gas,
                  in[0].kind, (long long)in[0].target, in[0].loads, in[0].stores, in[0].rmw, !!in[0].why_not, d->kind,
                  (long long)d->target, d->loads, d->stores, d->rmw, d->refused);
        free(in);
    }
    /* A 16-bit instruction (c.nop, 0x0001) and a ragged length are refused, naming the byte. */
    static const uint8_t cnop[] = {0x13, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00};
    struct snippet_insn *in = NULL;
    size_t n = 0;
    char why[200] = "";
    int rc = isa_snippet_decode(NULL, cnop, sizeof(cnop), &in, &n, why, sizeof(why));
    CHECK(rc == -1 && strstr(why, "at byte 4 is a 16-bit one"), __LINE__, "nop; c.nop; c.nop is refused: '%s'", why);
    rc = isa_snippet_decode(NULL, cnop, 6, &in, &n, why, sizeof(why));
    CHECK(rc == -1 && strstr(why, "6 bytes of code is not whole 32-bit instructions"), __LINE__,
          "6 bytes are refused: '%s'", why);
}

int main(void)
{
    for (size_t i = 0; i < NROWS; i++)
        check_row(&rows[i]);
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
        check_refusal(&refusals[i]);
    check_runs();
    check_decode();
    return done_testing();
}
