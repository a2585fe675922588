#include "core/expr.h"
#include "base/util.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expr {
    char op;              /* 'n' number, 'q' quantity, or + - * / */
    double num;
    int qid;
    struct expr *l, *r;
};

/* Bounds: a rule's expression is a few terms; these keep a hostile one from exhausting the stack
 * (nesting) or making evaluation recurse without end (a long left-deep chain of terms). */
#define EXPR_MAX_NESTING 32
#define EXPR_MAX_NODES 512

struct parser {
    const char *s, *p;
    char *err;
    int n;
    bool failed;
    int nesting, nodes;
};

static void fail(struct parser *ps, const char *what)
{
    if (!ps->failed)
        snprintf(ps->err, ps->n, "%s at column %d of '%s'", what, (int)(ps->p - ps->s) + 1, ps->s);
    ps->failed = true;
}

static void skip_ws(struct parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static struct expr *node(struct parser *ps, char op, struct expr *l, struct expr *r)
{
    if (++ps->nodes == EXPR_MAX_NODES)
        fail(ps, "expression has too many terms (at most " STR(EXPR_MAX_NODES) " numbers, names and operators)");
    struct expr *e = xcalloc(1, sizeof(*e));
    e->op = op;
    e->l = l;
    e->r = r;
    return e;
}

static struct expr *parse_sum(struct parser *ps);

static struct expr *parse_atom(struct parser *ps)
{
    skip_ws(ps);
    if ((*ps->p == '(' || *ps->p == '-') && (ps->failed || ps->nesting >= EXPR_MAX_NESTING)) {
        fail(ps, "expression nested too deep (at most " STR(EXPR_MAX_NESTING) " parentheses or signs)");
        return node(ps, 'n', NULL, NULL);
    }
    if (*ps->p == '(') {
        ps->p++;
        ps->nesting++;
        struct expr *e = parse_sum(ps);
        ps->nesting--;
        skip_ws(ps);
        if (*ps->p != ')')
            fail(ps, "missing ')'");
        else
            ps->p++;
        return e;
    }
    if (*ps->p == '-') {
        ps->p++;
        struct expr *zero = node(ps, 'n', NULL, NULL);
        ps->nesting++;
        struct expr *e = node(ps, '-', zero, parse_atom(ps));
        ps->nesting--;
        return e;
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        /* A plain decimal (docs/grammar.md): DIGITS [. DIGITS] [e [+-] DIGITS]; no hex, no size suffix. */
        const char *start = ps->p, *q = ps->p;
        q += strspn(q, "0123456789");
        if (*q == '.')
            q += 1 + strspn(q + 1, "0123456789");
        if ((*q == 'e' || *q == 'E') && isdigit((unsigned char)q[1 + (q[1] == '+' || q[1] == '-')]))
            q += 1 + (q[1] == '+' || q[1] == '-'), q += strspn(q, "0123456789");
        struct expr *e = node(ps, 'n', NULL, NULL);
        char text[64];
        snprintf(text, sizeof(text), "%.*s", (int)(q - start < 63 ? q - start : 63), start);
        e->num = strtod(text, NULL);
        ps->p = q;
        if (isalnum((unsigned char)*q) || *q == '_' || *q == '.') {
            char msg[320];
            snprintf(msg, sizeof(msg), "number '%s' runs into '%.*s': a rule's numbers are plain decimals (no size "
                     "suffix such as Ki, M or KiB, no 0x); write the value, e.g. 4096",
                     text, (int)strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_."), q);
            fail(ps, msg);
        } else if (q == start + (*start == '.') || !isfinite(e->num)) {
            ps->p = start;
            fail(ps, !isfinite(e->num) ? "a number beyond the range of a double" : "a '.' with no digits");
        }
        return e;
    }
    if (isalpha((unsigned char)*ps->p)) {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '.' || *ps->p == '_')
            ps->p++;
        char name[64];
        int len = (int)(ps->p - start);
        snprintf(name, sizeof(name), "%.*s", len, start);
        struct expr *e = node(ps, 'q', NULL, NULL);
        e->qid = quantity_lookup(name);
        if (e->qid < 0) {
            ps->p = start;
            char msg[128];
            snprintf(msg, sizeof(msg), "unknown quantity '%s' ('pmucal quantities' lists them)", name);
            fail(ps, msg);
        }
        return e;
    }
    fail(ps, *ps->p ? "expected a number, quantity or '('" : "expression ends early");
    return node(ps, 'n', NULL, NULL);
}

/* Does e name no quantity? Then *v is its value. */
static bool constant(const struct expr *e, double *v)
{
    double l, r;
    switch (e->op) {
    case 'n': *v = e->num; return true;
    case 'q': return false;
    }
    if (!constant(e->l, &l) || !constant(e->r, &r))
        return false;
    *v = e->op == '+' ? l + r : e->op == '-' ? l - r : e->op == '*' ? l * r : l / r;
    return true;
}

static struct expr *parse_product(struct parser *ps)
{
    struct expr *e = parse_atom(ps);
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if ((c != '*' && c != '/') || ps->failed)
            return e;
        ps->p++;
        const char *at = ps->p;
        e = node(ps, c, e, parse_atom(ps));
        /* A divisor that is 0 whatever the case (a constant): every verdict would be a SKIP. */
        double d;
        if (c == '/' && !ps->failed && constant(e->r, &d) && d == 0) {
            ps->p = at;
            fail(ps, "division by a constant 0: every case would divide by zero (divide by a quantity or a number other than 0)");
        }
    }
}

static struct expr *parse_sum(struct parser *ps)
{
    struct expr *e = parse_product(ps);
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if ((c != '+' && c != '-') || ps->failed)
            return e;
        ps->p++;
        e = node(ps, c, e, parse_product(ps));
    }
}

struct expr *expr_parse(const char *text, char *err, int n)
{
    struct parser ps = {.s = text, .p = text, .err = err, .n = n};
    struct expr *e = parse_sum(&ps);
    skip_ws(&ps);
    if (*ps.p && !ps.failed)
        fail(&ps, "unexpected text");
    if (ps.failed) {
        expr_free(e);
        return NULL;
    }
    return e;
}

double expr_eval(const struct expr *e, const struct quantities *q)
{
    switch (e->op) {
    case 'n': return e->num;
    case 'q': return q->v[e->qid];
    case '+': return expr_eval(e->l, q) + expr_eval(e->r, q);
    case '-': return expr_eval(e->l, q) - expr_eval(e->r, q);
    case '*': return expr_eval(e->l, q) * expr_eval(e->r, q);
    case '/': return expr_eval(e->l, q) / expr_eval(e->r, q);
    }
    return NAN;
}

void expr_free(struct expr *e)
{
    if (!e)
        return;
    expr_free(e->l);
    expr_free(e->r);
    free(e);
}
