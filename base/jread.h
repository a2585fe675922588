/* A small JSON reader (RFC 8259) into a tree: vendor event tables, measurements.ndjson lines.
 * Written here rather than taken from a library because pmucal reads only trusted-shape data of
 * modest size, needs exact line:column errors naming the input, and one file is less to install
 * and audit than a dependency (json-c/jansson would add a -dev package to every build machine). */
#ifndef PMUCAL_JREAD_H
#define PMUCAL_JREAD_H
#include <stdbool.h>
#include <stddef.h>

enum jtype { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT };

struct jvalue {
    enum jtype type;
    bool b;
    double num;
    char *str;               /* J_STRING, UTF-8, NUL-terminated (an embedded \u0000 ends it) */
    int n;                   /* J_ARRAY / J_OBJECT: number of members */
    struct jvalue *items;    /* members in document order */
    char **keys;             /* J_OBJECT: the key of each member */
};

/* Parse exactly one value (surrounding white space allowed). NULL on error, with err holding
 * "line L column C: what". */
struct jvalue *jread_parse(const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a whole file (a PATH ending in .gz inflated: base/gzfile.h); err names the path. */
struct jvalue *jread_file(const char *path, char *err, size_t errlen);
/* jread_file, printing its error (one message naming the file) when it fails. */
struct jvalue *jread_load(const char *path);
void jread_free(struct jvalue *v);

/* Member of an object by key (the first one), NULL when absent or v is not an object. */
const struct jvalue *jget(const struct jvalue *v, const char *key);
/* The string, or NULL when v is NULL or not a string. */
const char *jstr(const struct jvalue *v);
/* The number, or dflt when v is NULL or not a number. */
double jnum(const struct jvalue *v, double dflt);
/* A member's string or number, or the fallback when absent or of another type. */
static inline const char *jget_str(const struct jvalue *v, const char *key, const char *fallback)
{
    const char *s = jstr(jget(v, key));
    return s ? s : fallback;
}
static inline double jget_num(const struct jvalue *v, const char *key, double fallback)
{
    return jnum(jget(v, key), fallback);
}

/* obj's member key as a number checked by number_in (finite, within [lo, hi]) into *out; an
 * absent member is dflt when optional, an error when not. false with err naming the member. */
bool jget_in(const struct jvalue *obj, const char *key, double lo, double hi, bool optional, double dflt, double *out,
             char *err, size_t errlen);

#endif
