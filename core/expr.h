/* Quantity expressions: "ld.l2 + ld.l3", "2*inst", "br.cond - br.cond.taken", "0".
 * Parsed once into a small tree, evaluated per case against its model. */
#ifndef PMUCAL_EXPR_H
#define PMUCAL_EXPR_H
#include "core/quantity.h"

struct expr;

/* NULL on a syntax error or unknown quantity; err (size n) says which and where. */
struct expr *expr_parse(const char *text, char *err, int n);
/* NaN when any quantity it names is not stated by the model. */
double expr_eval(const struct expr *e, const struct quantities *q);
void expr_free(struct expr *e);

#endif
