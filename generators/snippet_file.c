#include "generators/snippet_file.h"
#include "base/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096
#define ENTRIES_MAX 1000

static char *trimmed(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    char *r = xmalloc(len + 1);
    memcpy(r, s, len);
    r[len] = 0;
    return r;
}

static bool name_ok(const char *s)
{
    if (!*s || strlen(s) > SNIPPET_NAME_MAX || !(islower((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

static int option(struct snippet_entry *e, const char *word, const char *origin, char *why, size_t wn)
{
    const char *eq = strchr(word, '=');
    static const char *const keys[] = {"init", "chain", "expect", "copies", "mode"};
    size_t k = 0, klen = eq ? (size_t)(eq - word) : 0;
    while (k < ARRAY_SIZE(keys) && !(strlen(keys[k]) == klen && !strncmp(word, keys[k], klen)))
        k++;
    if (!eq || k == ARRAY_SIZE(keys) || !eq[1]) {
        snprintf(why, wn, "%s:%d: '%.60s' is not an option; give init=, chain=, expect=, copies= or mode= with a "
                 "value (no blanks inside)", origin, e->line, word);
        return -1;
    }
    char **slot[] = {&e->init, &e->chain, &e->expect, &e->copies, NULL};
    if (k == 4) {
        if (e->mode_given) {
            snprintf(why, wn, "%s:%d: mode= is given twice", origin, e->line);
            return -1;
        }
        e->mode_given = true;
        if (strcmp(eq + 1, "latency") && strcmp(eq + 1, "throughput")) {
            snprintf(why, wn, "%s:%d: mode=%.40s: give latency or throughput (both are measured without mode=)",
                     origin, e->line, eq + 1);
            return -1;
        }
        e->modes = !strcmp(eq + 1, "latency") ? SNIPPET_LATENCY : SNIPPET_THROUGHPUT;
        return 0;
    }
    if (*slot[k]) {
        snprintf(why, wn, "%s:%d: %s= is given twice", origin, e->line, keys[k]);
        return -1;
    }
    *slot[k] = xstrdup(eq + 1);
    return 0;
}

static int entry(struct snippet_entry *e, const char *line, const char *origin, char *why, size_t wn)
{
    const char *bar1 = strchr(line, '|'), *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
    if (bar2 && strchr(bar2 + 1, '|')) {
        snprintf(why, wn, "%s:%d: more than three fields; a line is [NAME |] SNIPPET [| OPTIONS], with no '|' inside "
                 "the snippet", origin, e->line);
        return -1;
    }
    const char *snip = line, *snip_end = line + strlen(line), *opts = NULL;
    if (bar2) {   /* name | snippet | options */
        char *name = trimmed(line, (size_t)(bar1 - line));
        snprintf(e->name, sizeof(e->name), "%s", name);
        bool ok = name_ok(name);
        if (!ok)
            snprintf(why, wn, "%s:%d: the name '%.60s' is not [a-z_][a-z0-9_]* of at most %d characters", origin,
                     e->line, name, SNIPPET_NAME_MAX);
        free(name);
        if (!ok)
            return -1;
        snip = bar1 + 1, snip_end = bar2, opts = bar2 + 1;
    } else if (bar1) {   /* name | snippet */
        char *name = trimmed(line, (size_t)(bar1 - line));
        bool ok = name_ok(name);
        snprintf(e->name, sizeof(e->name), "%s", ok ? name : "");
        free(name);
        if (!ok) {
            snprintf(why, wn, "%s:%d: '%.*s' before '|' is not a name ([a-z_][a-z0-9_]*, at most %d characters); a "
                     "line is [NAME |] SNIPPET [| OPTIONS]", origin, e->line, (int)(bar1 - line > 60 ? 60 : bar1 - line),
                     line, SNIPPET_NAME_MAX);
            return -1;
        }
        snip = bar1 + 1;
    }
    if (!e->name[0])
        snprintf(e->name, sizeof(e->name), "line%d", e->line);
    e->text = trimmed(snip, (size_t)(snip_end - snip));
    if (!e->text[0]) {
        snprintf(why, wn, "%s:%d: no instructions", origin, e->line);
        return -1;
    }
    e->modes = SNIPPET_LATENCY | SNIPPET_THROUGHPUT;
    int nw = 0;
    char **words = opts ? split_list(opts, ' ', &nw) : NULL;
    int rc = 0;
    for (int i = 0; i < nw && !rc; i++)
        if (words[i][0])
            rc = option(e, words[i], origin, why, wn);
    if (words)
        free_list(words);
    return rc;
}

int snippet_file_parse(const char *text, const char *origin, struct snippet_entry **out, int *n, char *why, size_t wn)
{
    *out = NULL;
    *n = 0;
    int cap = 0, lineno = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lineno++;
        if (len > LINE_MAX_BYTES) {
            snprintf(why, wn, "%s:%d: the line is longer than %d bytes", origin, lineno, LINE_MAX_BYTES);
            goto fail;
        }
        char *line = trimmed(p, len);
        p += len + (nl ? 1 : 0);
        if (strchr(line, '\r')) {
            free(line);
            snprintf(why, wn, "%s:%d: a carriage return inside the line; save the file with Unix line ends", origin, lineno);
            goto fail;
        }
        for (const char *c = line; *c; c++)
            if ((unsigned char)*c < 0x20 && *c != '\t') {
                unsigned bad = (unsigned char)*c;
                free(line);
                snprintf(why, wn, "%s:%d: a control character (0x%02x); the file is text", origin, lineno, bad);
                goto fail;
            }
        if (!line[0] || line[0] == '#') {
            free(line);
            continue;
        }
        if (*n == ENTRIES_MAX) {
            free(line);
            snprintf(why, wn, "%s:%d: more than %d snippets; split the file", origin, lineno, ENTRIES_MAX);
            goto fail;
        }
        if (*n == cap)
            *out = xrealloc(*out, (size_t)(cap = cap ? 2 * cap : 16) * sizeof(**out));
        struct snippet_entry *e = &(*out)[(*n)++];
        memset(e, 0, sizeof(*e));
        e->line = lineno;
        int rc = entry(e, line, origin, why, wn);
        free(line);
        if (rc)
            goto fail;
        for (int i = 0; i + 1 < *n; i++)
            if (!strcmp((*out)[i].name, e->name)) {
                snprintf(why, wn, "%s:%d: the name %s is taken by line %d; names are unique", origin, lineno, e->name,
                         (*out)[i].line);
                goto fail;
            }
    }
    if (!*n) {
        snprintf(why, wn, "%s: no snippets (one a line: [NAME |] SNIPPET [| OPTIONS]; '#' starts a comment line)", origin);
        goto fail;
    }
    return 0;
fail:
    snippet_entries_free(*out, *n);
    *out = NULL;
    *n = 0;
    return -1;
}

void snippet_entries_free(struct snippet_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].text);
        free(e[i].init);
        free(e[i].chain);
        free(e[i].expect);
        free(e[i].copies);
    }
    free(e);
}

int snippet_text_nul_line(const char *text, size_t len)
{
    const char *nul = memchr(text, 0, len);
    if (!nul)
        return 0;
    int line = 1;
    for (const char *p = text; p < nul; p++)
        line += *p == '\n';
    return line;
}
