#include "base/json.h"
#include "base/util.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json *j)
{
    memset(j, 0, sizeof(*j));
    j->cap = 256;
    j->buf = xmalloc(j->cap);
    j->buf[0] = '\0';
    j->first[0] = true;
}

void json_free(struct json *j)
{
    free(j->buf);
    j->buf = NULL;
}

static void put(struct json *j, const char *s, size_t n)
{
    if (j->len + n + 1 > j->cap) {
        while (j->len + n + 1 > j->cap)
            j->cap *= 2;
        j->buf = xrealloc(j->buf, j->cap);
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

static void puts_(struct json *j, const char *s)
{
    put(j, s, strlen(s));
}

static void quoted(struct json *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        switch (*p) {
        case '"': puts_(j, "\\\""); break;
        case '\\': puts_(j, "\\\\"); break;
        case '\n': puts_(j, "\\n"); break;
        case '\t': puts_(j, "\\t"); break;
        case '\r': puts_(j, "\\r"); break;
        default:
            if (*p < 0x20) {
                snprintf(esc, sizeof(esc), "\\u%04x", *p);
                puts_(j, esc);
            } else {
                put(j, (const char *)p, 1);
            }
        }
    }
    put(j, "\"", 1);
}

static void member(struct json *j, const char *key)
{
    if (!j->first[j->depth])
        put(j, ",", 1);
    j->first[j->depth] = false;
    if (key) {
        quoted(j, key);
        put(j, ":", 1);
    }
}

static void open_(struct json *j, const char *key, const char *bracket)
{
    member(j, key);
    puts_(j, bracket);
    if (++j->depth >= (int)ARRAY_SIZE(j->first))
        pm_fatal("JSON nested too deep");
    j->first[j->depth] = true;
}

void json_object_begin(struct json *j, const char *key) { open_(j, key, "{"); }
void json_array_begin(struct json *j, const char *key) { open_(j, key, "["); }

void json_object_end(struct json *j)
{
    j->depth--;
    put(j, "}", 1);
}

void json_array_end(struct json *j)
{
    j->depth--;
    put(j, "]", 1);
}

void json_string(struct json *j, const char *key, const char *value)
{
    member(j, key);
    if (value)
        quoted(j, value);
    else
        puts_(j, "null");
}

void json_number(struct json *j, const char *key, double value)
{
    char num[40];
    member(j, key);
    if (!isfinite(value)) {
        puts_(j, "null");
        return;
    }
    /* %.17g round-trips; trim to something a person can read when it is exact. */
    snprintf(num, sizeof(num), "%.10g", value);
    if (strtod(num, NULL) != value)
        snprintf(num, sizeof(num), "%.17g", value);
    puts_(j, num);
}

void json_int(struct json *j, const char *key, int64_t value)
{
    char num[32];
    member(j, key);
    snprintf(num, sizeof(num), "%lld", (long long)value);
    puts_(j, num);
}

void json_uint(struct json *j, const char *key, uint64_t value)
{
    char num[32];
    member(j, key);
    snprintf(num, sizeof(num), "%llu", (unsigned long long)value);
    puts_(j, num);
}

void json_bool(struct json *j, const char *key, bool value)
{
    member(j, key);
    puts_(j, value ? "true" : "false");
}

int json_write_line(const struct json *j, FILE *f)
{
    if (fwrite(j->buf, 1, j->len, f) != j->len || fputc('\n', f) == EOF || fflush(f))
        return -1;
    return 0;
}
