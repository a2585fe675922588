#include "arch/snippet_objdump.h"
#include "base/subprocess.h"
#include "base/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One listing line, "   4:\t48 0f af c0 \timul   %rax,%rax", into in; false for other lines. */
static bool listing_line(char *line, struct snippet_insn *in)
{
    char *colon = strchr(line, ':'), *t1 = strchr(line, '\t');
    if (!colon || !t1 || t1 != colon + 1)
        return false;
    char *end;
    unsigned long long off = strtoull(line, &end, 16);
    char *t2 = strchr(t1 + 1, '\t');
    if (end != colon || !t2)
        return false;
    unsigned nbytes = 0;
    for (char *b = t1 + 1; b + 1 < t2; b++)
        if (isxdigit((unsigned char)b[0]) && isxdigit((unsigned char)b[1]))
            nbytes++, b++;
    if (!nbytes)
        return false;
    memset(in, 0, sizeof(*in));
    in->off = off;
    in->len = nbytes;
    /* objdump's column padding squeezed ("imul   %rax,%rax" -> "imul %rax,%rax"), its comments cut */
    char *text = t2 + 1;
    text[strcspn(text, "\n")] = 0;
    char *cmt = strstr(text, " //");
    if (cmt)
        *cmt = 0;
    size_t k = 0;
    for (char *c = text; *c && k + 1 < sizeof(in->text); c++)
        if (!(isspace((unsigned char)*c) && (k == 0 || in->text[k - 1] == ' ')))
            in->text[k++] = isspace((unsigned char)*c) ? ' ' : *c;
    while (k && in->text[k - 1] == ' ')
        k--;
    in->text[k] = 0;
    return true;
}

int snippet_objdump(const char *const *tools, const char *obj, size_t len, struct snippet_insn **out, size_t *n,
                    char *why, size_t wn)
{
    *out = NULL;
    *n = 0;
    char tmp[] = "/tmp/pmucal-objdump-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, wn, "cannot make a temporary file for objdump's listing");
        return -1;
    }
    close(fd);
    int rc = SPAWN_NOT_STARTED;
    for (size_t i = 0; tools[i] && rc == SPAWN_NOT_STARTED; i++) {
        char *argv[] = {(char *)tools[i], "-d", "-w", "--insn-width=15", (char *)obj, NULL};
        rc = spawn_run(argv, &(struct spawn_opts){.out_path = tmp, .timeout_ms = 20000});
    }
    FILE *f = rc == 0 ? fopen(tmp, "r") : NULL;
    unlink(tmp);
    if (!f) {
        snprintf(why, wn, rc == SPAWN_NOT_STARTED ? "objdump is not installed (Debian package binutils)"
                                                  : "objdump could not list the assembled snippet (exit %d)", rc);
        return -1;
    }
    size_t cap = 16, covered = 0;
    *out = xcalloc(cap, sizeof(**out));
    char line[1024];
    while (fgets(line, sizeof(line), f)) {
        if (*n == cap)
            *out = xrealloc(*out, (cap *= 2) * sizeof(**out));
        if (listing_line(line, &(*out)[*n]))
            covered += (*out)[(*n)++].len;
    }
    fclose(f);
    if (covered != len) {
        snprintf(why, wn, "objdump's listing covers %zu of the snippet's %zu bytes", covered, len);
        free(*out);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

void snippet_words(const char *const *tools, const char *obj, const uint8_t *bytes, size_t len, const char *spell,
                   void (*classify)(struct snippet_insn *in, uint32_t w), struct snippet_insn **out, size_t *n)
{
    char err[200];
    if (!obj || snippet_objdump(tools, obj, len, out, n, err, sizeof(err)) || *n != len / 4) {
        free(*out);   /* no disassembler here: the words spelled by spell */
        *n = len / 4;
        *out = xcalloc(*n ? *n : 1, sizeof(**out));
        for (size_t i = 0; i < *n; i++) {
            (*out)[i].off = 4 * i;
            (*out)[i].len = 4;
        }
    }
    for (size_t i = 0; i < *n; i++) {
        uint32_t w;
        memcpy(&w, bytes + 4 * i, 4);
        if (!(*out)[i].text[0])
            snprintf((*out)[i].text, sizeof((*out)[i].text), "%s 0x%08x", spell, w);
        classify(&(*out)[i], w);
    }
}
