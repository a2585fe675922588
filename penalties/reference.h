/* Published figures for the penalties, per uarch (read from uarch/NAME.txt), each with where it comes from. calibrate
 * prints every penalty beside its reference and the deviation; a large one is a visible note. */
#ifndef PMUCAL_REFERENCE_H
#define PMUCAL_REFERENCE_H
#include <stdbool.h>

struct reference {
    const char *uarch;         /* uarch name (host/uarch.h) */
    const char *penalty;       /* recipe name */
    double lo, hi;             /* core cycles: the published figure, or its published range */
    const char *note;          /* operands or a derivation, NULL when the figure is direct */
    const char *source;        /* publication (title, number, table) */
    /* The published figure is the issue case's whole latency per occurrence (a failed store
     * forward, whole), not its delta over the control: it is set against the issue case alone, so
     * the control's own distance from its published figure does not land on this one. */
    bool whole;
    /* Its publication was not recorded: shown beside the figure with its deviation, never a
     * check that fails a constant (a figure nobody can look up decides nothing). */
    bool indicative;
};

struct penalty;
/* What the reference is set against: the penalty's cycles with their interval, or, for a whole
 * reference, the issue case's cycles per occurrence with the range of its repetitions. false
 * when there is none (not measured). */
/* A whole reference beside a run whose issue case is not the recipe's today (made before the
 * recipe changed): no figure to set against it. */
bool reference_case_differs(const struct reference *r, const struct penalty *p);
bool reference_value(const struct reference *r, const struct penalty *p, double *v, double *lo, double *hi);

/* The reference for a penalty on a uarch (its name, or the name of a CPU built on it), NULL when
 * none is published in its file. */
const struct reference *reference_find(const char *uarch, const char *penalty);
/* Relative distance of a value from the reference range: 0 inside it, (v - hi) / hi above,
 * (v - lo) / lo below. */
double reference_deviation(const struct reference *r, double value);
/* A deviation that deserves a note beside the figure (more than 25% outside the range). */
bool reference_deviation_large(double deviation);

struct jvalue;
/* The uarch a penalties.json names ("uarch", or "cpu_model" as runs before it wrote), as its uarch
 * file names it ("goldencove" for an old "sapphirerapids"); NULL when it names none. */
const char *penalties_uarch(const struct jvalue *pen);
/* Every uarch file's references, in the files' order. */
const struct reference *references_all(int *n);

#endif
