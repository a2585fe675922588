/* The inline-asm regions of the hand-written kernels (microkernels/), AArch64's text. Each macro
 * is one asm statement, expanded in the kernel's loop function, so the measured code is the
 * kernel's own (no call) and the compiler allocates its registers there. Beside each region,
 * the instructions it retires, for the kernels' models (every A64 instruction retires as one).
 *
 * The exact loop, ISA_EXACT_LOOP, runs "b test; body; test: subs n,n,#1; b.hs body", so
 * loop(n) - loop(0) is n bodies and n taken branches exactly (subs leaves C set while n did not
 * borrow, as x86's sub leaves carry clear). */
#ifndef PMUCAL_A64_REGIONS_H
#define PMUCAL_A64_REGIONS_H

/* Instructions the exact loop's test adds to every iteration: subs and b.hs. */
#define ISA_LOOP_TEST_INST 2

/* The exact loop's text (arch/isa.h's ISA_EXACT_LOOP): the jump to its test at label 2, the
 * test that counts n down and returns to label 1 (label 663 between its two instructions, for
 * the sampling map), and what the bodies clobber (x17 is their scratch). */
#define ISA_LOOP_ENTER "b 2f"
#define ISA_LOOP_TEST "subs %[n], %[n], #1\n663:\n\tb.hs 1b"
#define ISA_LOOP_CLOBBERS "cc", "memory", "x17"

/* The pointer chase of every latency kernel: one dependent load, p = *p. */
#define ISA_CHASE_STEP "ldr %[p], [%[p]]\n\t"
#define ISA_CHASE_STEP_INST 1
#define ISA_CHASE_LOOP(REPS) ISA_EXACT_LOOP(REPS, ISA_CHASE_STEP)

/* A store of %[v] DISP bytes from p, then the chase step. A64's store offsets reach -256 at
 * most, so the displacement goes through x17 (register-offset addressing). */
#define ISA_STORE_THEN_CHASE(DISP) "mov x17, #" DISP "\n\tstr %[v], [%[p], x17]\n\t" ISA_CHASE_STEP
#define ISA_STORE_THEN_CHASE_INST 3

/* Store-to-load forwarding through the word p points to (see arch/x86_64/regions.h): BLOCKED
 * stores p's low 4 bytes and loads 8; FORWARD stores 8 and loads them; PARTIAL stores 8 to %[w]
 * and loads its bytes 4-7 into p. */
#define ISA_STLF_BLOCKED "str %w[p], [%[p]]\n\t" ISA_CHASE_STEP
#define ISA_STLF_FORWARD "str %[p], [%[p]]\n\t" ISA_CHASE_STEP
#define ISA_STLF_PARTIAL "str %[p], [%[w]]\n\tldr %w[p], [%[w], #4]\n\t"
#define ISA_STLF_INST 2

/* First touch of fresh pages: n iterations of an 8-byte store at Q, Q advancing 4096 bytes. */
#define ISA_TOUCH_LOOP(Q, N)                                         \
    __asm__ __volatile__("b 2f\n\t"                                 \
                         "1:\n661:\n\t"                              \
                         "str %[n], [%[q]]\n"                        \
                         "662:\n\t"                                  \
                         "add %[q], %[q], #4096\n"                   \
                         "2:\n663:\n\t"                              \
                         "subs %[n], %[n], #1\n"                     \
                         "664:\n\t"                                  \
                         "b.hs 1b\n665:\n\t"                         \
                         ISA_SITES("touch:" __FILE__, "661b, 662b, 663b, 664b, 665b") \
                         : [q] "+r"(Q), [n] "+r"(N)                 \
                         :                                          \
                         : "cc", "memory")
#define ISA_TOUCH_STEP_INST 2

/* triad: N laps of a[i] = b[i] + s*c[i] over END bytes of each array, s a double, I a
 * scratch byte index. A lap is "mov i,#0; inner; test: subs n; b.hs lap", the inner loop
 * ldr c, fmul by s, ldr b, fadd, str a, add, cmp, b.lo (A64 has no memory operands). */
#define ISA_TRIAD_LAP_INST 3      /* mov, and the lap's subs and b.hs */
#define ISA_TRIAD_STEP_VECTORS(WIDTH) 1   /* a vector a trip of the inner loop */
#define ISA_TRIAD_STEP_INST(WIDTH) 8
#define ISA_TRIAD_NT_INST 0

#define ISA_TRIAD_LOOP(N, I, A, B, C, END, S, SETUP, Q0, Q1, V0, V1, V15, STEP)      \
    __asm__ __volatile__(SETUP                                                   \
                         "b 3f\n\t"                                              \
                         ".p2align 5\n"                                          \
                         "2:\n\t"                                                \
                         "mov %[i], #0\n"                                        \
                         "1:\n\t"                                                \
                         "ldr " Q0 ", [%[c], %[i]]\n\t"                          \
                         "fmul " V0 ", " V0 ", " V15 "\n\t"                      \
                         "ldr " Q1 ", [%[b], %[i]]\n\t"                          \
                         "fadd " V0 ", " V0 ", " V1 "\n\t"                       \
                         "str " Q0 ", [%[a], %[i]]\n\t"                          \
                         "add %[i], %[i], #" #STEP "\n\t"                        \
                         "cmp %[i], %[end]\n\t"                                  \
                         "b.lo 1b\n"                                             \
                         "3:\n\t"                                                \
                         "subs %[n], %[n], #1\n\t"                               \
                         "b.hs 2b"                                               \
                         : [n] "+r"(N), [i] "=&r"(I)                             \
                         : [a] "r"(A), [b] "r"(B), [c] "r"(C), [end] "r"(END), [s] "r"(&(S)) \
                         : "cc", "memory", "v0", "v1", "v15")

/* The laps for WIDTH doubles an instruction (1 scalar, 2 NEON); NT is refused by triad's
 * setup (isa_triad_variants says why). */
#define ISA_TRIAD_LAPS(WIDTH, NT, N, I, A, B, C, END, S)                                                    \
    do {                                                                                                  \
        (void)(NT);                                                                                       \
        if ((WIDTH) == 1)                                                                                 \
            ISA_TRIAD_LOOP(N, I, A, B, C, END, S, "ldr d15, [%[s]]\n\t", "d0", "d1", "d0", "d1", "d15", 8); \
        else                                                                                              \
            ISA_TRIAD_LOOP(N, I, A, B, C, END, S, "ld1r {v15.2d}, [%[s]]\n\t", "q0", "q1", "v0.2d", "v1.2d", \
                           "v15.2d", 16);                                                                 \
    } while (0)

/* triad's variants on this ISA (their widths and needs in regions.c), and its default cases. */
#define ISA_TRIAD_CHOICES "scalar|neon"
#define ISA_TRIAD_DEFAULT "neon"
#define ISA_TRIAD_HELP "instruction set: scalar (one double an instruction), neon (AdvSIMD, 128-bit)"
#define ISA_TRIAD_MATRIX "variant=scalar", "variant=neon", "variant=neon size=L2", "variant=neon size=L3"

/* snoop's writer: a spin-wait hint, and the lines it hands over cleaned and invalidated to the
 * point of coherency (Linux lets EL0 run dc civac; the line's address is %0), then a barrier
 * that waits for them. */
#define ISA_RELAX_TEXT "yield"
#define ISA_FLUSH_LINE_TEXT "dc civac, %0"
#define ISA_FLUSH_DONE_TEXT "dsb ish"

#endif
