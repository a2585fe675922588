/* Microarchitectures (uarch): one file each under uarch/ (docs/grammar.md, "Microarchitecture
 * files"), read at run time. A uarch is a core design: the CPUs built on it and how each is
 * recognised (x86 CPUID, Arm MIDR, RISC-V mvendorid/marchid/mimpid), each CPU's vendor event table
 * and libpfm4 PMU, its cycles event, the event counting each penalty recipe's occurrences and the
 * published figures its penalties are checked against. Recipes are penalties/'s: here their names
 * are plain strings, checked by the function uarch_recipes_known() was given. */
#ifndef PMUCAL_UARCH_H
#define PMUCAL_UARCH_H
#include "arch/isa.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct uarch_range {
    unsigned lo, hi;   /* inclusive */
};

/* A CPU a uarch file recognises ("cpu" line). */
struct uarch_cpu {
    char *name;                   /* "sapphirerapids" */
    const struct uarch *uarch;    /* the file it is in */
    int line;
    char *vendor;                 /* x86: CPUID vendor string */
    unsigned family;              /* x86: display family */
    struct uarch_range *models;   /* x86: model ranges; aarch64: MIDR part numbers (lo == hi) */
    unsigned core_type;           /* x86 hybrid: core=atom (0x20) or core=core (0x40); 0 any core */
    int nmodels;
    unsigned implementer;         /* aarch64 */
    uint64_t mvendorid, marchid, mimpid;   /* riscv64 */
    bool has_mimpid;
    char *table;                  /* vendor event table under eventdata/ */
    char *pfm;                    /* libpfm4 PMU, NULL when libpfm4 does not know it */
};

/* The event counting one recipe's occurrences ("event" line). */
struct uarch_event {
    char *recipe;
    char *perf;   /* EventName in the vendor table */
    char *pfm;    /* libpfm4 name, NULL when not given */
    int line;
};

/* A publication ("source" line). */
struct uarch_source {
    char *id, *text;
    int line;
};

/* A published figure for a recipe's penalty ("reference" line), in core cycles. */
struct uarch_reference {
    char *recipe;
    double lo, hi;
    bool indicative;   /* shown beside the figure, never fails anything (else: check) */
    bool whole;        /* against the issue case's whole cost per occurrence (else: penalty) */
    const struct uarch_source *source;
    char *note;        /* NULL when none */
    int line;
};

struct uarch {
    char *name;
    char *file;        /* the path it was read from */
    enum cpu_isa isa;
    char *cycles_perf, *cycles_pfm;   /* cycles_pfm NULL when not given */
    struct uarch_cpu *cpus;
    int ncpus;
    struct uarch_event *events;
    int nevents;
    struct uarch_source *sources;
    int nsources;
    struct uarch_reference *refs;
    int nrefs;
};


/* Parses one file's text (origin names it in messages, name is what its uarch line must say, NULL:
 * anything). 0, or -1 after one "ORIGIN:LINE: ..." message. recipe_known may be NULL (names not
 * checked). */
int uarch_parse(struct uarch *u, const char *text, const char *origin, const char *name,
                bool (*recipe_known)(const char *));
void uarch_free(struct uarch *u);
/* The file's text again, in the grammar: parses to the same uarch. The caller frees it. */
char *uarch_text(const struct uarch *u);
/* Two CPU lines that recognise the same identity: the message, or false. */
bool uarch_cpus_overlap(const struct uarch_cpu *a, const struct uarch_cpu *b, char *why, size_t n);

/* The function telling recipe names from others, for the files read from now on. */
void uarch_recipes_known(bool (*known)(const char *));
/* The folder read: $PMUCAL_UARCH_DIR (exit 2 when it is not a folder), else uarch/ beside the
 * binary (its tree or PREFIX/share/pmucal/uarch). */
const char *uarch_dir(void);
/* Every uarch, sorted by name, read once; a file that does not parse ends the process (exit 2). */
const struct uarch *uarch_all(int *n);
/* By the name of a uarch or of a CPU it recognises ("goldencove", "emeraldrapids"); *cpu is the
 * CPU named (NULL for a uarch's own name; cpu may be NULL). NULL when no file has it. */
const struct uarch *uarch_named(const char *name, const struct uarch_cpu **cpu);
/* The CPU line recognising an identity, NULL when none. */
const struct uarch_cpu *uarch_cpu_of(const struct cpu_ident *id);
/* The CPU line whose libpfm4 PMU is pfm, NULL when none. */
const struct uarch_cpu *uarch_cpu_of_pfm(const char *pfm);
/* The CPU line of logical CPU cpu (its own identity; PMUCAL_CPUID's for every CPU when set, as for
 * the vendor tables), NULL when it cannot be read or no file recognises it; why says which, when
 * given. */
const struct uarch_cpu *uarch_cpu_of_logical(int cpu, char *why, size_t n);
/* The CPUs this process may run on, grouped by what they are: CPUs of one uarch CPU line, or of one
 * identity no file recognises, or whose identity cannot be read (why). A host of two core kinds has
 * two groups or more. */
struct uarch_group {
    const struct uarch_cpu *cpu;   /* NULL: not recognised */
    char ident[160];               /* cpu_ident_text, "" when it could not be read */
    char why[400];                 /* when cpu is NULL */
    char cpus[256];                /* "0-3,8" */
};
/* The groups in *out (the caller frees it), their count returned. */
int uarch_groups(struct uarch_group **out);
/* "goldencove, skylake, zen4, zen5" for messages. */
const char *uarch_names(void);
/* A RISC-V CPU's signature as perf's riscv mapfile keys it: mvendorid-marchid-mimpid, each as
 * the kernel's /proc/cpuinfo prints it (0x%lx: "0x489-0x8000000000000007-0x0"); PMUCAL_CPUID takes
 * it in that form. s into id[] and, normalized to that spelling, into sig (may be NULL); false
 * when s is not three 0x hex numbers of at most 64 bits joined by '-'. */
bool riscv_signature_parse(const char *s, uint64_t id[3], char *sig, size_t n);
/* "x86_64", "aarch64", "riscv64". */
const char *uarch_isa_name(enum cpu_isa isa);
/* The recipe's event on a uarch, its reference; NULL when it has none. */
const struct uarch_event *uarch_event(const struct uarch *u, const char *recipe);
const struct uarch_reference *uarch_reference(const struct uarch *u, const char *recipe);
/* "AuthenticAMD family 25 model 0x01", "implementer 0x41 part 0xd0c", ... */
void cpu_ident_text(const struct cpu_ident *id, char *out, size_t n);

#endif
