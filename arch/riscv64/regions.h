/* The inline-asm regions of the hand-written kernels (microkernels/), RV64GC's text. Each macro
 * is one asm statement, expanded in the kernel's loop function, so the measured code is the
 * kernel's own (no call) and the compiler allocates its registers there. Beside each region,
 * the instructions it retires, for the kernels' models (every RISC-V instruction retires as one).
 * The regions are assembled without the C extension (.option norvc): every instruction 4 bytes,
 * so the sampling map's addresses step evenly whatever registers the compiler gives.
 *
 * The exact loop, ISA_EXACT_LOOP, runs "j test; body; test: addi n,n,-1; bgez n,body", so
 * loop(n) - loop(0) is n bodies and n taken branches exactly (n is below 2^63: the sign is the
 * borrow). Its bodies are a few dozen instructions, well inside bgez's 4 KiB reach. */
#ifndef PMUCAL_RV_REGIONS_H
#define PMUCAL_RV_REGIONS_H

/* Instructions the exact loop's test adds to every iteration: addi and bgez. */
#define ISA_LOOP_TEST_INST 2

/* The exact loop's text (arch/isa.h's ISA_EXACT_LOOP): the jump to its test at label 2, the
 * test that counts n down and returns to label 1 (label 663 between its two instructions, for
 * the sampling map), and what the bodies clobber (t6 is their scratch). */
#define ISA_LOOP_ENTER ".option push\n\t.option norvc\n\tj 2f"
#define ISA_LOOP_TEST "addi %[n], %[n], -1\n663:\n\tbgez %[n], 1b\n\t.option pop"
#define ISA_LOOP_CLOBBERS "memory", "t6"

/* The pointer chase of every latency kernel: one dependent load, p = *p. */
#define ISA_CHASE_STEP "ld %[p], 0(%[p])\n\t"
#define ISA_CHASE_STEP_INST 1
#define ISA_CHASE_LOOP(REPS) ISA_EXACT_LOOP(REPS, ISA_CHASE_STEP)

/* A store of %[v] DISP bytes from p (DISP -4096..-1: alias4k's), then the chase step. A store's
 * offset reaches -2048 at most, so t6 = p - 2048 and the store takes the rest: one instruction
 * whatever DISP is (li of -3840 would take two). */
#define ISA_STORE_THEN_CHASE(DISP) "addi t6, %[p], -2048\n\tsd %[v], 2048" DISP "(t6)\n\t" ISA_CHASE_STEP
#define ISA_STORE_THEN_CHASE_INST 3

/* Store-to-load forwarding through the word p points to (see arch/x86_64/regions.h): BLOCKED
 * stores p's low 4 bytes (sw) and loads 8; FORWARD stores 8 and loads them; PARTIAL stores 8 to
 * %[w] and loads its bytes 4-7 into p (lwu, zero-extended, as x86's and A64's 32-bit loads). */
#define ISA_STLF_BLOCKED "sw %[p], 0(%[p])\n\t" ISA_CHASE_STEP
#define ISA_STLF_FORWARD "sd %[p], 0(%[p])\n\t" ISA_CHASE_STEP
#define ISA_STLF_PARTIAL "sd %[p], 0(%[w])\n\tlwu %[p], 4(%[w])\n\t"
#define ISA_STLF_INST 2

/* First touch of fresh pages: n iterations of an 8-byte store at Q, Q advancing 4096 bytes (a
 * register holds 4096: addi's immediate stops at 2047). */
#define ISA_TOUCH_LOOP(Q, N)                                         \
    __asm__ __volatile__(".option push\n\t.option norvc\n\t"         \
                         "j 2f\n\t"                                  \
                         "1:\n661:\n\t"                              \
                         "sd %[n], 0(%[q])\n"                        \
                         "662:\n\t"                                  \
                         "add %[q], %[q], %[page]\n"                 \
                         "2:\n663:\n\t"                              \
                         "addi %[n], %[n], -1\n"                     \
                         "664:\n\t"                                  \
                         "bgez %[n], 1b\n665:\n\t"                   \
                         ".option pop\n\t"                           \
                         ISA_SITES("touch:" __FILE__, "661b, 662b, 663b, 664b, 665b") \
                         : [q] "+r"(Q), [n] "+r"(N)                 \
                         : [page] "r"((uint64_t)4096)               \
                         : "memory")
#define ISA_TOUCH_STEP_INST 2

/* triad: N laps of a[i] = b[i] + s*c[i] over END bytes of each array, s a double, I a scratch
 * byte index. A lap is "li i,0; inner; test: addi n; bgez lap", the inner loop add, fld c,
 * fmul.d by s, add, fld b, fadd.d, add, fsd a, addi, bltu (RISC-V addresses are a register plus
 * an immediate only, so each array's address is an add). RV64GC has no vector unit (V is an
 * extension): one double an instruction. */
#define ISA_TRIAD_LAP_INST 3      /* li, and the lap's addi and bgez */
#define ISA_TRIAD_STEP_VECTORS(WIDTH) 1   /* a vector a trip of the inner loop */
#define ISA_TRIAD_STEP_INST(WIDTH) 10
#define ISA_TRIAD_NT_INST 0

#define ISA_TRIAD_LAPS(WIDTH, NT, N, I, A, B, C, END, S)                                  \
    do {                                                                                  \
        (void)(WIDTH), (void)(NT);                                                        \
        __asm__ __volatile__(".option push\n\t.option norvc\n\t"                          \
                             "fld f15, 0(%[s])\n\t"                                       \
                             "j 3f\n\t"                                                   \
                             ".p2align 5\n"                                               \
                             "2:\n\t"                                                     \
                             "li %[i], 0\n"                                               \
                             "1:\n\t"                                                     \
                             "add t3, %[c], %[i]\n\t"                                     \
                             "fld f0, 0(t3)\n\t"                                          \
                             "fmul.d f0, f0, f15\n\t"                                     \
                             "add t4, %[b], %[i]\n\t"                                     \
                             "fld f1, 0(t4)\n\t"                                          \
                             "fadd.d f0, f0, f1\n\t"                                      \
                             "add t5, %[a], %[i]\n\t"                                     \
                             "fsd f0, 0(t5)\n\t"                                          \
                             "addi %[i], %[i], 8\n\t"                                     \
                             "bltu %[i], %[end], 1b\n"                                    \
                             "3:\n\t"                                                     \
                             "addi %[n], %[n], -1\n\t"                                    \
                             "bgez %[n], 2b\n\t"                                          \
                             ".option pop"                                                \
                             : [n] "+r"(N), [i] "=&r"(I)                                  \
                             : [a] "r"(A), [b] "r"(B), [c] "r"(C), [end] "r"(END), [s] "r"(&(S)) \
                             : "memory", "t3", "t4", "t5", "f0", "f1", "f15");             \
    } while (0)

/* triad's variants on this ISA (their widths and needs in regions.c), and its default cases. */
#define ISA_TRIAD_CHOICES "scalar"
#define ISA_TRIAD_DEFAULT "scalar"
#define ISA_TRIAD_HELP "instruction set: scalar (one double an instruction; RV64GC has no vector unit)"
#define ISA_TRIAD_MATRIX "variant=scalar", "variant=scalar size=L2", "variant=scalar size=L3"

/* snoop's writer: a spin-wait hint (Zihintpause's pause is a hint encoded as a fence, a no-op
 * where the core lacks it), and no flush: RV64GC gives user space no cache-block operation
 * (Zicbom's cbo.flush is an extension, and Linux enables it per machine), so ISA_NO_FLUSH says
 * why the modes that need one cannot run here. */
#define ISA_RELAX_TEXT ".4byte 0x0100000f"
#define ISA_FLUSH_LINE_TEXT ""
#define ISA_FLUSH_DONE_TEXT "fence rw, rw"
#define ISA_NO_FLUSH "RV64GC gives user space no cache-block flush (Zicbom's cbo.flush is an extension)"

#endif
