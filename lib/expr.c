#include "expr.h"
#include "util.h"
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

struct parser {
    const char *s, *p;
    char *err;
    int n;
    bool failed;
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

static struct expr *node(char op, struct expr *l, struct expr *r)
{
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
    if (*ps->p == '(') {
        ps->p++;
        struct expr *e = parse_sum(ps);
        skip_ws(ps);
        if (*ps->p != ')')
            fail(ps, "missing ')'");
        else
            ps->p++;
        return e;
    }
    if (*ps->p == '-') {
        ps->p++;
        struct expr *zero = node('n', NULL, NULL);
        return node('-', zero, parse_atom(ps));
    }
    if (isdigit((unsigned char)*ps->p) || *ps->p == '.') {
        char *end;
        struct expr *e = node('n', NULL, NULL);
        e->num = strtod(ps->p, &end);
        ps->p = end;
        return e;
    }
    if (isalpha((unsigned char)*ps->p)) {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '.' || *ps->p == '_')
            ps->p++;
        char name[64];
        int len = (int)(ps->p - start);
        snprintf(name, sizeof(name), "%.*s", len, start);
        struct expr *e = node('q', NULL, NULL);
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
    return node('n', NULL, NULL);
}

static struct expr *parse_product(struct parser *ps)
{
    struct expr *e = parse_atom(ps);
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if (c != '*' && c != '/')
            return e;
        ps->p++;
        e = node(c, e, parse_atom(ps));
    }
}

static struct expr *parse_sum(struct parser *ps)
{
    struct expr *e = parse_product(ps);
    for (;;) {
        skip_ws(ps);
        char c = *ps->p;
        if (c != '+' && c != '-')
            return e;
        ps->p++;
        e = node(c, e, parse_product(ps));
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
