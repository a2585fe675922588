/* A JSON writer into a growing buffer: one NDJSON line, a manifest, a penalties file. */
#ifndef PMUCAL_JSON_H
#define PMUCAL_JSON_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Containers nest at most this deep in what base/jread.c accepts; the writer holds that and a
 * little more, so whatever was read can be written again (emit, classify). */
#define JSON_MAX_DEPTH 64

struct json {
    char *buf;
    size_t len, cap;
    int depth;
    bool first[JSON_MAX_DEPTH + 4];   /* nothing written yet at this depth */
};

void json_init(struct json *j);
void json_free(struct json *j);
/* key is NULL inside arrays and at the top. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *value);   /* NULL value → null */
void json_number(struct json *j, const char *key, double value);        /* NaN/inf → null */
void json_int(struct json *j, const char *key, int64_t value);
void json_uint(struct json *j, const char *key, uint64_t value);
void json_bool(struct json *j, const char *key, bool value);
/* Write the buffer plus a newline and flush: an interrupted run keeps every finished line. */
int json_write_line(const struct json *j, FILE *f);

#endif
