#include "base/jread.h"
#include "base/gzfile.h"
#include "base/json.h"
#include "base/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const char *s, *p, *end;
    char *err;
    size_t errlen;
    bool failed;
    const char *key;   /* the member being read, for a message about its value; NULL outside an object */
};

static void fail(struct reader *r, const char *what)
{
    if (r->failed)
        return;
    r->failed = true;
    int line = 1, col = 1;
    for (const char *q = r->s; q < r->p && q < r->end; q++) {
        if (*q == '\n')
            line++, col = 1;
        else
            col++;
    }
    snprintf(r->err, r->errlen, "line %d column %d: %s", line, col, what);
}

static void ws(struct reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
        r->p++;
}

static bool literal(struct reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) >= n && !memcmp(r->p, word, n)) {
        r->p += n;
        return true;
    }
    return false;
}

static int hex4(struct reader *r)
{
    if (r->end - r->p < 4) {
        fail(r, "\\u needs four hex digits");
        return -1;
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = r->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else {
            fail(r, "\\u needs four hex digits");
            return -1;
        }
    }
    r->p += 4;
    return v;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* r->p is at the opening quote. The decoded string is never longer than the source text. */
static char *string(struct reader *r)
{
    const char *start = ++r->p;
    const char *q = start;
    while (q < r->end && *q != '"') {
        if (*q == '\\')
            q++;
        q++;
    }
    char *out = xmalloc((size_t)(q - start) + 1);
    size_t n = 0;
    for (;;) {
        if (r->p >= r->end) {
            fail(r, "string is not closed");
            break;
        }
        unsigned char c = (unsigned char)*r->p;
        if (c == '"') {
            r->p++;
            break;
        }
        if (c < 0x20) {
            fail(r, "control character inside a string");
            break;
        }
        if (c != '\\') {
            out[n++] = (char)c;
            r->p++;
            continue;
        }
        r->p++;
        if (r->p >= r->end) {
            fail(r, "string is not closed");
            break;
        }
        char e = *r->p++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            int cp = hex4(r);
            if (cp < 0)
                break;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                int lo = -1;
                if (r->end - r->p >= 2 && r->p[0] == '\\' && r->p[1] == 'u') {
                    r->p += 2;
                    lo = hex4(r);
                }
                if (lo < 0xDC00 || lo > 0xDFFF) {
                    fail(r, "a high surrogate \\u escape must be followed by a low one");
                    break;
                }
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                fail(r, "lone low surrogate \\u escape");
                break;
            }
            if (cp == 0) {   /* pmucal's strings are C strings: "a\u0000b" would be read as "a" */
                fail(r, "\\u0000 (a NUL character) inside a string; remove it");
                break;
            }
            put_utf8(out, &n, (unsigned)cp);
            break;
        }
        default:
            r->p--;
            fail(r, "unknown escape in a string");
        }
        if (r->failed)
            break;
    }
    out[n] = '\0';
    return out;
}

static void number(struct reader *r, struct jvalue *v)
{
    const char *q = r->p;
    if (q < r->end && *q == '-')
        q++;
    if (q >= r->end || *q < '0' || *q > '9') {
        fail(r, "expected a value");
        return;
    }
    if (*q == '0' && q + 1 < r->end && q[1] >= '0' && q[1] <= '9') {
        fail(r, "a number may not start with 0");
        return;
    }
    while (q < r->end && *q >= '0' && *q <= '9')
        q++;
    if (q < r->end && *q == '.') {
        q++;
        if (q >= r->end || *q < '0' || *q > '9') {
            r->p = q;
            fail(r, "digits must follow '.'");
            return;
        }
        while (q < r->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < r->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < r->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= r->end || *q < '0' || *q > '9') {
            r->p = q;
            fail(r, "digits must follow the exponent");
            return;
        }
        while (q < r->end && *q >= '0' && *q <= '9')
            q++;
    }
    char buf[64];
    size_t len = (size_t)(q - r->p);
    if (len >= sizeof(buf)) {
        fail(r, "number too long");
        return;
    }
    memcpy(buf, r->p, len);
    buf[len] = '\0';
    v->type = J_NUMBER;
    v->num = strtod(buf, NULL);
    if (isinf(v->num)) {
        /* JSON has no infinity: a number beyond a double's range is damage, never a value to
         * carry on with (it would print as inf, and every sum or ratio with it is one too). */
        char what[160];
        snprintf(what, sizeof(what), "%s%.60s%s%.40s is beyond the range of a number (not finite)", r->key ? "\"" : "",
                 r->key ? r->key : "", r->key ? "\": " : "", buf);
        fail(r, what);
        return;
    }
    r->p = q;
}

static void value(struct reader *r, struct jvalue *v, int depth);

static void members_of(struct reader *r, struct jvalue *v, int depth, bool object)
{
    char close = object ? '}' : ']';
    int cap = 0;
    r->p++;
    ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return;
    }
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 8;
            v->items = xrealloc(v->items, sizeof(*v->items) * (size_t)cap);
            if (object)
                v->keys = xrealloc(v->keys, sizeof(*v->keys) * (size_t)cap);
        }
        struct jvalue *item = &v->items[v->n];
        memset(item, 0, sizeof(*item));
        ws(r);
        if (object) {
            v->keys[v->n] = NULL;
            if (r->p >= r->end || *r->p != '"') {
                v->n++;
                fail(r, "expected a quoted key");
                return;
            }
            v->keys[v->n] = string(r);
            v->n++;
            if (r->failed)
                return;
            ws(r);
            if (r->p >= r->end || *r->p != ':') {
                fail(r, "expected ':' after the key");
                return;
            }
            r->p++;
            r->key = v->keys[v->n - 1];
        } else {
            v->n++;
        }
        value(r, item, depth + 1);
        if (r->failed)
            return;
        ws(r);
        if (r->p < r->end && *r->p == ',') {
            r->p++;
            continue;
        }
        if (r->p < r->end && *r->p == close) {
            r->p++;
            return;
        }
        fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
        return;
    }
}

/* An array's items are named by its own member's key; an object's by theirs, until it closes. */
static void members(struct reader *r, struct jvalue *v, int depth, bool object)
{
    const char *outer = r->key;
    members_of(r, v, depth, object);
    r->key = outer;
}

static void value(struct reader *r, struct jvalue *v, int depth)
{
    memset(v, 0, sizeof(*v));
    if (depth > JSON_MAX_DEPTH) {
        fail(r, "nested too deep");
        return;
    }
    ws(r);
    if (r->p >= r->end) {
        fail(r, "the text ends where a value should be");
        return;
    }
    switch (*r->p) {
    case '{': v->type = J_OBJECT; members(r, v, depth, true); return;
    case '[': v->type = J_ARRAY; members(r, v, depth, false); return;
    case '"': v->type = J_STRING; v->str = string(r); return;
    case 't': if (literal(r, "true")) { v->type = J_BOOL; v->b = true; return; } break;
    case 'f': if (literal(r, "false")) { v->type = J_BOOL; return; } break;
    case 'n': if (literal(r, "null")) return; break;
    default: number(r, v); return;
    }
    fail(r, "expected a value");
}

static void release(struct jvalue *v)
{
    free(v->str);
    for (int i = 0; i < v->n; i++) {
        release(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void jread_free(struct jvalue *v)
{
    if (!v)
        return;
    release(v);
    free(v);
}

struct jvalue *jread_parse(const char *text, size_t len, char *err, size_t errlen)
{
    struct reader r = {.s = text, .p = text, .end = text + len, .err = err, .errlen = errlen};
    struct jvalue *v = xcalloc(1, sizeof(*v));
    value(&r, v, 0);
    if (!r.failed) {
        ws(&r);
        if (r.p < r.end)
            fail(&r, "unexpected text after the value");
    }
    if (r.failed) {
        jread_free(v);
        return NULL;
    }
    return v;
}

struct jvalue *jread_file(const char *path, char *err, size_t errlen)
{
    size_t len;
    char reason[512];
    char *text = read_file_maybe_gz(path, INPUT_FILE_MAX, &len, reason, sizeof(reason));
    if (!text) {
        snprintf(err, errlen, "cannot read %s", reason);
        return NULL;
    }
    char why[256];
    struct jvalue *v = jread_parse(text, len, why, sizeof(why));
    if (!v)
        snprintf(err, errlen, "%s: %s", path, why);
    free(text);
    return v;
}

const struct jvalue *jget(const struct jvalue *v, const char *key)
{
    if (!v || v->type != J_OBJECT)
        return NULL;
    for (int i = 0; i < v->n; i++)
        if (!strcmp(v->keys[i], key))
            return &v->items[i];
    return NULL;
}

const char *jstr(const struct jvalue *v)
{
    return v && v->type == J_STRING ? v->str : NULL;
}

double jnum(const struct jvalue *v, double dflt)
{
    return v && v->type == J_NUMBER ? v->num : dflt;
}

struct jvalue *jread_load(const char *path)
{
    char err[512];
    struct jvalue *v = jread_file(path, err, sizeof(err));
    if (!v)
        pm_error("%s", err);
    return v;
}

bool jget_in(const struct jvalue *obj, const char *key, double lo, double hi, bool optional, double dflt, double *out,
             char *err, size_t errlen)
{
    const struct jvalue *v = jget(obj, key);
    if (!v && optional) {
        *out = dflt;
        return true;
    }
    if (!v || v->type != J_NUMBER) {
        snprintf(err, errlen, "\"%s\" is %s; give a number from %.15g to %.15g", key, v ? "not a number" : "missing",
                 lo, hi);
        return false;
    }
    char field[96];
    snprintf(field, sizeof(field), "\"%s\"", key);
    *out = v->num;
    return number_in(v->num, lo, hi, field, err, errlen);
}
