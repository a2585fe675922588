#include "jsonread.h"
#include "util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const char *s, *p;
    char *err;
    size_t errlen;
    int depth;
};

static int line_of(const struct reader *r)
{
    int line = 1;
    for (const char *q = r->s; q < r->p; q++)
        line += *q == '\n';
    return line;
}

static struct jv *fail(struct reader *r, const char *what)
{
    if (!r->err[0])
        snprintf(r->err, r->errlen, "line %d: %s", line_of(r), what);
    return NULL;
}

static void skip_ws(struct reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static struct jv *value(struct reader *r);

static char *string(struct reader *r)
{
    if (*r->p != '"')
        return fail(r, "expected a string"), NULL;
    r->p++;
    size_t cap = 32, len = 0;
    char *out = xmalloc(cap);
    for (;;) {
        char ch = *r->p++;
        if (!ch) {
            free(out);
            return fail(r, "unterminated string"), NULL;
        }
        if (ch == '"')
            break;
        if (ch == '\\') {
            char e = *r->p++;
            switch (e) {
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'r': ch = '\r'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'u': {
                unsigned cp = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *r->p++;
                    cp = cp * 16 + (unsigned)(h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
                                              : h >= 'A' && h <= 'F' ? h - 'A' + 10 : 0);
                }
                ch = cp < 128 ? (char)cp : '?';   /* penalties.json writes ASCII only */
                break;
            }
            case '"': case '\\': case '/': ch = e; break;
            default:
                free(out);
                return fail(r, "bad escape in a string"), NULL;
            }
        }
        if (len + 2 > cap)
            out = xrealloc(out, cap *= 2);
        out[len++] = ch;
    }
    out[len] = '\0';
    return out;
}

static struct jv *container(struct reader *r, bool object)
{
    struct jv *v = xcalloc(1, sizeof(*v));
    v->type = object ? JV_OBJECT : JV_ARRAY;
    r->p++;
    skip_ws(r);
    char close = object ? '}' : ']';
    if (*r->p == close) {
        r->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(r);
        if (object) {
            if (!(key = string(r)))
                goto bad;
            skip_ws(r);
            if (*r->p++ != ':') {
                free(key);
                fail(r, "expected ':' after an object key");
                goto bad;
            }
        }
        struct jv *item = value(r);
        if (!item) {
            free(key);
            goto bad;
        }
        v->items = xrealloc(v->items, (v->n + 1) * sizeof(*v->items));
        v->keys = xrealloc(v->keys, (v->n + 1) * sizeof(*v->keys));
        v->items[v->n] = item;
        v->keys[v->n++] = key;
        skip_ws(r);
        if (*r->p == ',') {
            r->p++;
            continue;
        }
        if (*r->p == close) {
            r->p++;
            return v;
        }
        fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
        goto bad;
    }
bad:
    jv_free(v);
    return NULL;
}

static struct jv *value(struct reader *r)
{
    skip_ws(r);
    if (++r->depth > 64)
        return fail(r, "nested too deeply");
    struct jv *v = NULL;
    if (*r->p == '{' || *r->p == '[') {
        v = container(r, *r->p == '{');
    } else if (*r->p == '"') {
        char *s = string(r);
        if (s) {
            v = xcalloc(1, sizeof(*v));
            v->type = JV_STRING;
            v->str = s;
        }
    } else if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "false", 5) || !strncmp(r->p, "null", 4)) {
        v = xcalloc(1, sizeof(*v));
        v->type = r->p[0] == 'n' ? JV_NULL : JV_BOOL;
        v->b = r->p[0] == 't';
        r->p += r->p[0] == 'f' ? 5 : 4;
    } else {
        char *end;
        errno = 0;
        double d = strtod(r->p, &end);
        if (end == r->p || (*r->p != '-' && (*r->p < '0' || *r->p > '9')))
            return fail(r, "expected a value");
        v = xcalloc(1, sizeof(*v));
        v->type = JV_NUMBER;
        v->num = d;
        r->p = end;
    }
    r->depth--;
    return v;
}

struct jv *jv_parse(const char *text, char *err, size_t errlen)
{
    struct reader r = {.s = text, .p = text, .err = err, .errlen = errlen};
    err[0] = '\0';
    struct jv *v = value(&r);
    if (!v)
        return NULL;
    skip_ws(&r);
    if (*r.p) {
        jv_free(v);
        return fail(&r, "text after the value");
    }
    return v;
}

struct jv *jv_load(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        pm_error("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, len = 0, got;
    char *buf = xmalloc(cap);
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0)
        if ((len += got) + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
    fclose(f);
    buf[len] = '\0';
    char err[256];
    struct jv *v = jv_parse(buf, err, sizeof(err));
    free(buf);
    if (!v)
        pm_error("%s is not valid JSON (%s)", path, err);
    return v;
}

void jv_free(struct jv *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        jv_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    free(v);
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
    if (!v || v->type != JV_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key))
            return v->items[i];
    return NULL;
}

const char *jv_str(const struct jv *v, const char *key, const char *fallback)
{
    const struct jv *m = jv_get(v, key);
    return m && m->type == JV_STRING ? m->str : fallback;
}

double jv_num(const struct jv *v, const char *key, double fallback)
{
    const struct jv *m = jv_get(v, key);
    return m && m->type == JV_NUMBER ? m->num : fallback;
}
