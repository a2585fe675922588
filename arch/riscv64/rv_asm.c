#include "arch/riscv64/rv_asm.h"
#include "base/util.h"
#include <string.h>

static const char *const xnames[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                       "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                       "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const fnames[32] = {"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
                                       "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
                                       "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

const char *rv_reg_name(unsigned r) { return xnames[r & 31]; }
const char *rv_freg_name(unsigned f) { return fnames[f & 31]; }

static void word(struct assembler *as, uint32_t w)
{
    uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    asm_put(as, b, 4);
}

/* The formats of the base ISA (the ISA manual's names). */
static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return (uint32_t)f7 << 25 | (rs2 & 31) << 20 | (rs1 & 31) << 15 | f3 << 12 | (rd & 31) << 7 | op;
}

static uint32_t i_type(int imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return ((uint32_t)imm & 0xfff) << 20 | (rs1 & 31) << 15 | f3 << 12 | (rd & 31) << 7 | op;
}

static uint32_t s_type(int imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned op)
{
    uint32_t u = (uint32_t)imm & 0xfff;
    return (u >> 5) << 25 | (rs2 & 31) << 20 | (rs1 & 31) << 15 | f3 << 12 | (u & 31) << 7 | op;
}

enum { OP_LOAD = 0x03, OP_LOAD_FP = 0x07, OP_IMM = 0x13, OP_AUIPC = 0x17, OP_STORE = 0x23, OP_STORE_FP = 0x27,
       OP_OP = 0x33, OP_FP = 0x53, OP_BRANCH = 0x63, OP_JALR = 0x67, OP_JAL = 0x6f, OP_SYSTEM = 0x73 };

static void imm12(const char *name, int imm)
{
    if (imm < -2048 || imm > 2047)
        pm_fatal("assembler: %s immediate %d is not -2048..2047", name, imm);
}

void rv_asm_nop(struct assembler *as)
{
    size_t s = as->len;
    word(as, i_type(0, 0, 0, 0, OP_IMM));
    asm_insn(as, s, -1, "nop");
}

static void label_insn(struct assembler *as, uint32_t w, int width, int label, const char *text)
{
    size_t s = as->len;
    asm_fixup_add(as, s, label, width);
    word(as, w);
    asm_insn(as, s, label, "%s", text);
}

void rv_asm_j(struct assembler *as, int label) { label_insn(as, OP_JAL, RV_FIX_J, label, "j"); }
void rv_asm_jal(struct assembler *as, int label) { label_insn(as, (uint32_t)RA << 7 | OP_JAL, RV_FIX_J, label, "jal"); }

void rv_asm_jump_far(struct assembler *as, int label)
{
    size_t s = as->len;
    asm_fixup_add(as, s, label, RV_FIX_PCREL);
    word(as, (uint32_t)T0 << 7 | OP_AUIPC);
    asm_insn(as, s, -1, "auipc t0, (the target's upper bits)");
    s = as->len;
    word(as, i_type(0, T0, 0, 0, OP_JALR));
    asm_insn(as, s, label, "jr (the target's lower bits)(t0)");
}

void rv_asm_branch(struct assembler *as, enum rv_cond c, enum reg a, enum reg b, int label)
{
    static const char *const names[8] = {"beq", "bne", "", "", "blt", "bge", "bltu", "bgeu"};
    char text[32];
    snprintf(text, sizeof(text), "%s %s, %s,", names[c], xnames[a], xnames[b]);
    label_insn(as, r_type(0, b, a, (unsigned)c, 0, OP_BRANCH), RV_FIX_B, label, text);
}

void asm_ret(struct assembler *as)
{
    size_t s = as->len;
    word(as, i_type(0, RA, 0, 0, OP_JALR));
    asm_insn(as, s, -1, "ret");
}

void rv_asm_jr(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    word(as, i_type(0, r, 0, 0, OP_JALR));
    asm_insn(as, s, -1, "jr %s", xnames[r]);
}

void rv_asm_jalr(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    word(as, i_type(0, r, 0, RA, OP_JALR));
    asm_insn(as, s, -1, "jalr %s", xnames[r]);
}

void rv_asm_addi(struct assembler *as, enum reg d, enum reg r, int imm)
{
    imm12("addi", imm);
    size_t s = as->len;
    word(as, i_type(imm, r, 0, d, OP_IMM));
    if (r == ZERO)
        asm_insn(as, s, -1, "li %s, %d", xnames[d], imm);
    else
        asm_insn(as, s, -1, "addi %s, %s, %d", xnames[d], xnames[r], imm);
}

void rv_asm_andi(struct assembler *as, enum reg d, enum reg r, int imm)
{
    imm12("andi", imm);
    size_t s = as->len;
    word(as, i_type(imm, r, 7, d, OP_IMM));
    asm_insn(as, s, -1, "andi %s, %s, %d", xnames[d], xnames[r], imm);
}

static void shift(struct assembler *as, unsigned f6, unsigned f3, const char *name, enum reg d, enum reg r, unsigned sh)
{
    if (sh > 63)
        pm_fatal("assembler: %s shift %u is not 0..63", name, sh);
    size_t s = as->len;
    word(as, i_type((int)(f6 << 6 | sh), r, f3, d, OP_IMM));
    asm_insn(as, s, -1, "%s %s, %s, 0x%x", name, xnames[d], xnames[r], sh);
}

void rv_asm_slli(struct assembler *as, enum reg d, enum reg r, unsigned sh) { shift(as, 0, 1, "slli", d, r, sh); }
void rv_asm_srli(struct assembler *as, enum reg d, enum reg r, unsigned sh) { shift(as, 0, 5, "srli", d, r, sh); }

void rv_asm_add(struct assembler *as, enum reg d, enum reg a, enum reg b)
{
    size_t s = as->len;
    word(as, r_type(0, b, a, 0, d, OP_OP));
    asm_insn(as, s, -1, "add %s, %s, %s", xnames[d], xnames[a], xnames[b]);
}

void rv_asm_ld(struct assembler *as, enum reg d, enum reg base, int disp)
{
    imm12("ld", disp);
    size_t s = as->len;
    word(as, i_type(disp, base, 3, d, OP_LOAD));
    asm_insn(as, s, -1, "ld %s, %d(%s)", xnames[d], disp, xnames[base]);
}

void rv_asm_sd(struct assembler *as, enum reg r, enum reg base, int disp)
{
    imm12("sd", disp);
    size_t s = as->len;
    word(as, s_type(disp, r, base, 3, OP_STORE));
    asm_insn(as, s, -1, "sd %s, %d(%s)", xnames[r], disp, xnames[base]);
}

void rv_asm_fld(struct assembler *as, unsigned fd, enum reg base, int disp)
{
    imm12("fld", disp);
    size_t s = as->len;
    word(as, i_type(disp, base, 3, fd, OP_LOAD_FP));
    asm_insn(as, s, -1, "fld %s, %d(%s)", fnames[fd & 31], disp, xnames[base]);
}

void rv_asm_fsd(struct assembler *as, unsigned fs, enum reg base, int disp)
{
    imm12("fsd", disp);
    size_t s = as->len;
    word(as, s_type(disp, fs, base, 3, OP_STORE_FP));
    asm_insn(as, s, -1, "fsd %s, %d(%s)", fnames[fs & 31], disp, xnames[base]);
}

/* rm 7: the dynamic rounding mode (fcsr's frm). */
void rv_asm_fcvt_d_l(struct assembler *as, unsigned fd, enum reg r)
{
    size_t s = as->len;
    word(as, r_type(0x69, 2, r, 7, fd, OP_FP));
    asm_insn(as, s, -1, "fcvt.d.l %s, %s", fnames[fd & 31], xnames[r]);
}

void rv_asm_fsqrt_d(struct assembler *as, unsigned fd, unsigned fs)
{
    size_t s = as->len;
    word(as, r_type(0x2d, 0, fs, 7, fd, OP_FP));
    asm_insn(as, s, -1, "fsqrt.d %s, %s", fnames[fd & 31], fnames[fs & 31]);
}

/* csrrs d, fcsr (0x003), x0 and csrrw x0, fcsr, s. */
void rv_asm_frcsr(struct assembler *as, enum reg d)
{
    size_t s = as->len;
    word(as, i_type(3, ZERO, 2, d, OP_SYSTEM));
    asm_insn(as, s, -1, "frcsr %s", xnames[d]);
}

void rv_asm_fscsr(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    word(as, i_type(3, r, 1, ZERO, OP_SYSTEM));
    asm_insn(as, s, -1, "fscsr %s", xnames[r]);
}

void rv_asm_push_ra(struct assembler *as)
{
    rv_asm_addi(as, SP, SP, -16);
    rv_asm_sd(as, RA, SP, 8);
}

void rv_asm_pop_ra(struct assembler *as)
{
    rv_asm_ld(as, RA, SP, 8);
    rv_asm_addi(as, SP, SP, 16);
}

int asm_fill(struct assembler *as, size_t bytes)
{
    if (bytes % 4)
        pm_fatal("assembler: %zu bytes cannot be filled with 4-byte nops", bytes);
    for (size_t i = 0; i < bytes / 4; i++)
        rv_asm_nop(as);
    return (int)(bytes / 4);
}

static bool last_far;

bool rv_loop_test_was_far(void)
{
    return last_far;
}

struct loop_test asm_loop_test(struct assembler *as, int body)
{
    rv_asm_addi(as, A0, A0, -1);
    int64_t at = as->labels[body];
    last_far = at < 0 || (int64_t)as->len - at >= RV_B_REACH;
    if (!last_far) {
        rv_asm_branch(as, RV_GE, A0, ZERO, body);
        return (struct loop_test){.inst = 2, .cond_taken = 1};
    }
    int out = asm_label(as);
    rv_asm_branch(as, RV_LT, A0, ZERO, out);
    rv_asm_j(as, body);
    asm_bind(as, out);
    /* bltz falls through until the last test; j runs every time the loop goes on */
    return (struct loop_test){.inst = 3, .cond_ntaken = 1, .uncond = 1};
}

/* Offsets count bytes from the instruction itself (auipc's for the pair). */
void isa_asm_resolve(struct assembler *as, const struct asm_fixup *f, int64_t target)
{
    int64_t rel = target - (int64_t)f->at;
    uint32_t w;
    memcpy(&w, as->buf + f->at, 4);
    if (f->width == RV_FIX_PCREL) {
        if (rel < -(INT64_C(1) << 31) || rel >= (INT64_C(1) << 31) - 2048)
            pm_fatal("assembler: auipc at offset %zu cannot reach %lld bytes", f->at, (long long)rel);
        int64_t lo = ((rel & 0xfff) ^ 0x800) - 0x800;   /* jalr's signed low 12 bits */
        uint32_t hi = (uint32_t)((rel - lo) >> 12) & 0xfffff;
        w |= hi << 12;
        memcpy(as->buf + f->at, &w, 4);
        memcpy(&w, as->buf + f->at + 4, 4);
        w |= ((uint32_t)lo & 0xfff) << 20;
        memcpy(as->buf + f->at + 4, &w, 4);
        return;
    }
    int64_t lim = INT64_C(1) << (f->width - 1);
    if (rel < -lim || rel >= lim || rel % 2)
        pm_fatal("assembler: %s at offset %zu cannot reach %lld bytes", f->width == RV_FIX_B ? "branch" : "jal", f->at,
                 (long long)rel);
    uint32_t u = (uint32_t)rel;
    if (f->width == RV_FIX_B)
        w |= (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7;
    else
        w |= (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 | (u >> 12 & 0xff) << 12;
    memcpy(as->buf + f->at, &w, 4);
}

const uint8_t isa_asm_trap_byte = 0x00;   /* words of zero: an illegal instruction */
const char isa_asm_syntax[] = "RV64GC as objdump prints it";
