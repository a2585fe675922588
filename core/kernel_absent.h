/* A kernel another ISA has and this one has not: registered under its name, so 'pmucal validate'
 * and 'pmucal run NAME' say why it is absent (its one default case is a SKIP) instead of failing
 * on an unknown kernel. Each ISA's arch/<isa>/kernels/not_ported.c lists its own. */
#ifndef PMUCAL_KERNEL_ABSENT_H
#define PMUCAL_KERNEL_ABSENT_H

/* name: the kernel's; summary: 'pmucal kernels' line ("not on RISC-V (...)"); why: the SKIP's
 * reason after "NAME: ". The strings are kept, not copied: give literals. */
void kernel_register_absent(const char *name, const char *summary, const char *why, const char *file);

#endif
