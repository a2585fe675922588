/* Published figures for the penalties, per CPU model, each with where it comes from. calibrate
 * prints every penalty beside its reference and the deviation; a large one is a visible note. */
#ifndef PMUCAL_REFERENCE_H
#define PMUCAL_REFERENCE_H
#include <stdbool.h>

struct reference {
    const char *model;         /* cpu_model name (models.h) */
    const char *penalty;       /* recipe name */
    double lo, hi;             /* core cycles: the published figure, or its published range */
    const char *note;          /* operands or a derivation, NULL when the figure is direct */
    const char *source;        /* publication (title, number, table) */
};

/* The reference for a penalty on a model, NULL when none is published here. */
const struct reference *reference_find(const char *model, const char *penalty);
/* Relative distance of a value from the reference range: 0 inside it, (v - hi) / hi above,
 * (v - lo) / lo below. */
double reference_deviation(const struct reference *r, double value);
/* A deviation that deserves a note beside the figure (more than 25% outside the range). */
bool reference_deviation_large(double deviation);

extern const struct reference references[];
extern const int nreferences;

#endif
