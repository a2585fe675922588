/* The inline-asm regions of the hand-written kernels (microkernels/), x86-64's text. Each macro
 * is one asm statement, expanded in the kernel's loop function, so the measured code is the
 * kernel's own (no call) and the compiler allocates its registers there. Beside each region,
 * the instructions it retires, for the kernels' models.
 *
 * The exact loop, ISA_EXACT_LOOP, runs "jmp test; body; test: sub $1,n; jnc body", so
 * loop(n) - loop(0) is n bodies and n taken branches exactly. */
#ifndef PMUCAL_X86_REGIONS_H
#define PMUCAL_X86_REGIONS_H

/* Instructions the exact loop's test adds to every iteration: sub and jnc. */
#define ISA_LOOP_TEST_INST 2

/* The exact loop's text (arch/isa.h's ISA_EXACT_LOOP): the jump to its test at label 2, the
 * test that counts n down and returns to label 1 (label 663 between its two instructions, for
 * the sampling map), and what the bodies clobber. */
#define ISA_LOOP_ENTER "jmp 2f"
#define ISA_LOOP_TEST "sub $1, %[n]\n663:\n\tjnc 1b"
#define ISA_LOOP_CLOBBERS "cc", "memory"

/* Exact-loop bodies. The pointer chase of every latency kernel: one dependent load, p = *p. */
#define ISA_CHASE_STEP "mov (%[p]), %[p]\n\t"
#define ISA_CHASE_STEP_INST 1
#define ISA_CHASE_LOOP(REPS) ISA_EXACT_LOOP(REPS, ISA_CHASE_STEP)

/* A store of %[v] DISP bytes from p (DISP a string literal, e.g. "-4096"), then the chase step. */
#define ISA_STORE_THEN_CHASE(DISP) "mov %[v], " DISP "(%[p])\n\t" ISA_CHASE_STEP
#define ISA_STORE_THEN_CHASE_INST 2

/* Store-to-load forwarding through the word p points to, which holds its own address:
 * BLOCKED stores p's low 4 bytes and loads 8 (wider than the store: not forwarded); FORWARD
 * stores 8 and loads the same 8; PARTIAL stores p's 8 bytes to the word %[w] and loads its
 * bytes 4-7 into p (forwarded from inside the store; the chain is the data alone). */
#define ISA_STLF_BLOCKED "movl %k[p], (%[p])\n\t" ISA_CHASE_STEP
#define ISA_STLF_FORWARD "mov %[p], (%[p])\n\t" ISA_CHASE_STEP
#define ISA_STLF_PARTIAL "mov %[p], (%[w])\n\tmovl 4(%[w]), %k[p]\n\t"
#define ISA_STLF_INST 2

/* First touch of fresh pages: n iterations of an 8-byte store at Q, Q advancing 4096 bytes, in
 * a loop of its own (not aligned like the exact loop): "jmp test; store; add; test: sub; jnc". */
#define ISA_TOUCH_LOOP(Q, N)                                         \
    __asm__ __volatile__("jmp 2f\n\t"                                 \
                         "1:\n661:\n\t"                              \
                         "movq $1, (%[q])\n"                         \
                         "662:\n\t"                                  \
                         "add $4096, %[q]\n"                         \
                         "2:\n663:\n\t"                              \
                         "sub $1, %[n]\n"                            \
                         "664:\n\t"                                  \
                         "jnc 1b\n665:\n\t"                          \
                         ISA_SITES("touch:" __FILE__, "661b, 662b, 663b, 664b, 665b") \
                         : [q] "+r"(Q), [n] "+r"(N)                 \
                         :                                          \
                         : "cc", "memory")
#define ISA_TOUCH_STEP_INST 2

/* triad: N laps of a[i] = b[i] + s*c[i] over END bytes of each array (a whole number of 64-byte
 * lines), s a double in memory, I a scratch index. A lap is "xor i; inner; [sfence]; test: sub
 * $1,n; jnc lap". A trip of the inner loop does one line of each array: 8 / WIDTH vectors of
 * "load c, multiply by s, add b from memory, store a", then add $64, cmp, jb. One line a trip, not
 * one vector: with a vector a trip, the index's add and the taken branch each vector held AVX2 at
 * L1 to 0.88x likwid-bench's stream_avx on a Zen 5 (issue 47). */
#define ISA_TRIAD_LAP_INST 3      /* xor, and the lap's sub and jnc */
#define ISA_TRIAD_STEP_VECTORS(WIDTH) (8 / (WIDTH))
#define ISA_TRIAD_STEP_INST(WIDTH) (4 * ISA_TRIAD_STEP_VECTORS(WIDTH) + 3)
#define ISA_TRIAD_NT_INST 1       /* the sfence after a lap of non-temporal stores */

/* One vector at byte OFF (a string) of the line, in register R: the SSE forms (two operands,
 * s in xmm15) and the VEX/EVEX forms (three, s in S). */
#define ISA_TRIAD_VEC2(MOV, MUL, ADD, ST, R, OFF)                                                       \
    MOV " " OFF "(%[c],%[i]), %%" R "\n\t" MUL " %%xmm15, %%" R "\n\t" ADD " " OFF "(%[b],%[i]), %%" R \
    "\n\t" ST " %%" R ", " OFF "(%[a],%[i])\n\t"
#define ISA_TRIAD_VEC3(ST, S, R, OFF)                                                                   \
    "vmovupd " OFF "(%[c],%[i]), %%" R "\n\t"                                                          \
    "vmulpd %%" S ", %%" R ", %%" R "\n\t"                                                             \
    "vaddpd " OFF "(%[b],%[i]), %%" R ", %%" R "\n\t" ST " %%" R ", " OFF "(%[a],%[i])\n\t"

#define ISA_TRIAD_LOOP(N, I, A, B, C, END, S, SETUP, LINE, FENCE, DONE)                    \
    __asm__ __volatile__(SETUP                                                             \
                         "jmp 3f\n\t"                                                      \
                         ".p2align 5\n"                                                    \
                         "2:\n\t"                                                          \
                         "xor %[i], %[i]\n"                                                \
                         "1:\n\t"                                                          \
                         LINE                                                              \
                         "add $64, %[i]\n\t"                                               \
                         "cmp %[end], %[i]\n\t"                                            \
                         "jb 1b\n\t"                                                       \
                         FENCE                                                             \
                         "3:\n\t"                                                          \
                         "sub $1, %[n]\n\t"                                                \
                         "jnc 2b\n\t"                                                      \
                         DONE                                                              \
                         : [n] "+r"(N), [i] "=&r"(I)                                       \
                         : [a] "r"(A), [b] "r"(B), [c] "r"(C), [end] "r"(END), [s] "m"(S)  \
                         : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", \
                           "xmm6", "xmm7", "xmm15")

#define ISA_TRIAD_SCALAR_LINE                                                                    \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm0", "0")                              \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm1", "8")                              \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm2", "16")                             \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm3", "24")                             \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm4", "32")                             \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm5", "40")                             \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm6", "48")                             \
    ISA_TRIAD_VEC2("movsd", "mulsd", "addsd", "movsd", "xmm7", "56")
#define ISA_TRIAD_SSE_LINE(ST)                                                                   \
    ISA_TRIAD_VEC2("movupd", "mulpd", "addpd", ST, "xmm0", "0")                                  \
    ISA_TRIAD_VEC2("movupd", "mulpd", "addpd", ST, "xmm1", "16")                                 \
    ISA_TRIAD_VEC2("movupd", "mulpd", "addpd", ST, "xmm2", "32")                                 \
    ISA_TRIAD_VEC2("movupd", "mulpd", "addpd", ST, "xmm3", "48")
#define ISA_TRIAD_AVX2_LINE(ST) ISA_TRIAD_VEC3(ST, "ymm15", "ymm0", "0") ISA_TRIAD_VEC3(ST, "ymm15", "ymm1", "32")
#define ISA_TRIAD_AVX512_LINE(ST) ISA_TRIAD_VEC3(ST, "zmm15", "zmm0", "0")

/* The laps of one packed width, LINE with the non-temporal store NT_ST (then an sfence a lap) or
 * the ordinary store ST. */
#define ISA_TRIAD_PACKED(NT, N, I, A, B, C, END, S, SETUP, LINE, NT_ST, ST, DONE)                      \
    do {                                                                                               \
        if (NT)                                                                                        \
            ISA_TRIAD_LOOP(N, I, A, B, C, END, S, SETUP, LINE(NT_ST), "sfence\n\t", DONE);             \
        else                                                                                           \
            ISA_TRIAD_LOOP(N, I, A, B, C, END, S, SETUP, LINE(ST), "", DONE);                          \
    } while (0)

/* The laps for WIDTH doubles an instruction (1 scalar, 2 SSE, 4 AVX2, 8 AVX-512), NT: with
 * non-temporal stores (packed widths only). */
#define ISA_TRIAD_LAPS(WIDTH, NT, N, I, A, B, C, END, S)                                                 \
    switch (WIDTH) {                                                                                   \
    case 1:                                                                                            \
        ISA_TRIAD_LOOP(N, I, A, B, C, END, S, "movsd %[s], %%xmm15\n\t", ISA_TRIAD_SCALAR_LINE, "", ""); \
        break;                                                                                         \
    case 2:                                                                                            \
        ISA_TRIAD_PACKED(NT, N, I, A, B, C, END, S, "movddup %[s], %%xmm15\n\t", ISA_TRIAD_SSE_LINE, "movntpd", \
                         "movupd", ""); \
        break;                                                                                         \
    case 4:                                                                                            \
        ISA_TRIAD_PACKED(NT, N, I, A, B, C, END, S, "vbroadcastsd %[s], %%ymm15\n\t", ISA_TRIAD_AVX2_LINE, \
                         "vmovntpd", "vmovupd", "vzeroupper\n\t");                                                            \
        break;                                                                                         \
    case 8:                                                                                            \
        ISA_TRIAD_PACKED(NT, N, I, A, B, C, END, S, "vbroadcastsd %[s], %%zmm15\n\t", ISA_TRIAD_AVX512_LINE, \
                         "vmovntpd", "vmovupd", "vzeroupper\n\t");                                                            \
        break;                                                                                         \
    }

/* triad's variants on this ISA (their widths and needs in regions.c), and its default cases. */
#define ISA_TRIAD_CHOICES "scalar|sse|avx2|avx512"
#define ISA_TRIAD_DEFAULT "avx2"
#define ISA_TRIAD_HELP "instruction set: scalar (one double an instruction), sse (128-bit), avx2 (256-bit), avx512 (512-bit)"
#define ISA_TRIAD_MATRIX "variant=scalar", "variant=sse", "variant=avx2", "variant=avx512", "variant=avx2 size=L2", \
        "variant=avx2 size=L3", "variant=avx2 size=DRAM", "variant=avx2 size=DRAM store=nt", "variant=sse size=L3 store=nt"

/* snoop's writer: a spin-wait hint, and the lines it hands over flushed from every cache (the
 * line's address is %0), then a fence that waits for the flushes. */
#define ISA_RELAX_TEXT "pause"
#define ISA_FLUSH_LINE_TEXT "clflush (%0)"
#define ISA_FLUSH_DONE_TEXT "mfence"

#endif
