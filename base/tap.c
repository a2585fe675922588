#include "base/tap.h"
#include "base/util.h"
#include <stdarg.h>
#include <string.h>

static void tap_vprint(struct tap *t, const char *fmt, va_list ap)
{
    FILE *f[2] = {t->out, t->copy};
    for (int i = 0; i < 2; i++) {
        if (!f[i])
            continue;
        va_list aq;
        va_copy(aq, ap);
        if (vfprintf(f[i], fmt, aq) < 0 || fflush(f[i]))
            t->write_failed = true;
        va_end(aq);
    }
}

static void say(struct tap *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vprint(t, fmt, ap);
    va_end(ap);
}

/* A description may not hold '#' (it would start a directive) nor a newline. */
static void clean(char *d)
{
    for (; *d; d++)
        if (*d == '#' || *d == '\n' || *d == '\r')
            *d = *d == '#' ? '%' : ' ';
}

/* Text on one TAP line: a newline in it (from a path, say) would start a line of its own. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
}

void tap_point(struct tap *t, enum verdict v, const char *desc, const char *reason)
{
    if (v == VERDICT_INFO) {   /* a comment: a '#' in it starts no directive */
        t->info++;
        if (reason)
            tap_comment(t, "info %s (%s)", desc, reason);
        else
            tap_comment(t, "info %s", desc);
        return;
    }
    char d[1024], why[1024];
    snprintf(d, sizeof(d), "%s", desc);
    clean(d);
    snprintf(why, sizeof(why), "%s", reason ? reason : "");
    one_line(why);
    reason = why;
    t->n++;
    switch (v) {
    case VERDICT_OK:
        t->ok++;
        say(t, "ok %d - %s\n", t->n, d);
        break;
    case VERDICT_NOT_OK:
        t->not_ok++;
        say(t, "not ok %d - %s\n", t->n, d);
        break;
    case VERDICT_SKIP:
        t->skip++;
        say(t, "ok %d - %s # SKIP %s\n", t->n, d, reason);
        break;
    case VERDICT_TODO:
        t->todo++;
        say(t, "not ok %d - %s # TODO %s\n", t->n, d, reason);
        break;
    default:   /* INFO returned above; anything else is a value no verdict has: a build bug */
        pm_fatal("tap: verdict %d is none of ok, not ok, skip, todo, info ('%s')", (int)v, d);
    }
}

/* A comment or bail reason formatted onto one TAP line, whatever paths or messages it holds. */
static void say_line(struct tap *t, const char *prefix, const char *fmt, va_list ap)
{
    char line[2048];
    vsnprintf(line, sizeof(line), fmt, ap);
    one_line(line);
    say(t, "%s%s\n", prefix, line);
}

void tap_comment(struct tap *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line(t, "# ", fmt, ap);
    va_end(ap);
}

void tap_plan(struct tap *t)
{
    say(t, "1..%d\n", t->n);
}

void tap_bail(struct tap *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_line(t, "Bail out! ", fmt, ap);
    va_end(ap);
}
