/* A small JSON reader: the whole text into a tree, for reading back penalties.json. */
#ifndef PMUCAL_JSONREAD_H
#define PMUCAL_JSONREAD_H
#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

struct jv {
    enum jv_type type;
    bool b;
    double num;
    char *str;               /* JV_STRING */
    struct jv **items;       /* JV_ARRAY values, JV_OBJECT values */
    char **keys;             /* JV_OBJECT keys */
    size_t n;
};

/* NULL with err filled ("line 3: expected ':'") on malformed text. */
struct jv *jv_parse(const char *text, char *err, size_t errlen);
/* Reads and parses a file; NULL with a message naming the file. */
struct jv *jv_load(const char *path);
void jv_free(struct jv *v);
/* Member of an object, or NULL (also when v is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* Member's string / number, or the fallback when absent or of another type. */
const char *jv_str(const struct jv *v, const char *key, const char *fallback);
double jv_num(const struct jv *v, const char *key, double fallback);

#endif
