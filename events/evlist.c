#include "events/evlist.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

void evlist_add_grouped(struct evlist *l, const char *name, const char *where, int group)
{
    l->name = xgrow(l->name, sizeof(*l->name), l->n);
    l->where = xgrow(l->where, sizeof(*l->where), l->n);
    l->group = xgrow(l->group, sizeof(*l->group), l->n);
    l->name[l->n] = xstrdup(name);
    l->group[l->n] = group;
    l->where[l->n++] = xstrdup(where);
}

void evlist_add(struct evlist *l, const char *name, const char *where)
{
    evlist_add_grouped(l, name, where, 0);
}

char *evlist_text(const struct evlist *l)
{
    size_t cap = 64, len = 0;
    char *out = xmalloc(cap);
    out[0] = '\0';
    for (int i = 0; i < l->n; i++) {
        bool opens = l->group[i] && (i == 0 || l->group[i - 1] != l->group[i]);
        bool closes = l->group[i] && (i == l->n - 1 || l->group[i + 1] != l->group[i]);
        size_t need = len + strlen(l->name[i]) + 4;
        if (need > cap)
            out = xrealloc(out, cap = 2 * need);
        len += (size_t)snprintf(out + len, cap - len, "%s%s%s", opens ? "{" : "", l->name[i],
                                closes || !l->group[i] ? (l->group[i] ? "}\n" : "\n") : ",");
    }
    return out;
}

void evlist_free(struct evlist *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->name[i]);
        free(l->where[i]);
    }
    free(l->name);
    free(l->where);
    free(l->group);
    memset(l, 0, sizeof(*l));
}

static bool whole(const char *s, unsigned long long *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+')
        return false;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return !*end && !errno;
}

/* The unit masks and modifiers after an event's name: at most this many (libpfm4's own limit is
 * lower), each 63 characters at most. */
#define EVLIST_MAX_FIELDS 32

/* Is field tok (a unit mask, a modifier "u", "k", "uk", "c=1") one of seen[0..n-1] again, by its
 * name (before '=') in any case, perf's "uk" counting as u and k? Records it; a message in why. */
static bool field_repeated(const char *tok, char (*seen)[64], int n, char *why, size_t wn, const char *ev)
{
    if (n >= EVLIST_MAX_FIELDS || strlen(tok) >= 64) {
        snprintf(why, wn, "'%.80s...': more than %d unit masks and modifiers, or one longer than 63 characters",
                 ev, EVLIST_MAX_FIELDS);
        return true;
    }
    char key[64];
    snprintf(key, sizeof(key), "%.*s", (int)strcspn(tok, "="), tok);
    bool uk = !strcasecmp(key, "uk") || !strcasecmp(key, "ku");
    for (int i = 0; i < n; i++) {
        bool seen_uk = !strcasecmp(seen[i], "uk") || !strcasecmp(seen[i], "ku");
        bool same = !strcasecmp(seen[i], key) || (uk && (!strcasecmp(seen[i], "u") || !strcasecmp(seen[i], "k"))) ||
                    (seen_uk && (!strcasecmp(key, "u") || !strcasecmp(key, "k"))) || (uk && seen_uk);
        if (same) {
            snprintf(why, wn, "'%.200s': %s '%.63s' is given twice (after '%.63s'); give each unit mask and modifier once", ev,
                     strchr(tok, '=') || strlen(key) <= 2 ? "modifier" : "unit mask", key, seen[i]);
            return true;
        }
    }
    snprintf(seen[n], 64, "%s", key);
    return false;
}

/* perf's PMU/TERM,TERM/MODS (docs/grammar.md): PMU a name, each TERM NAME or NAME=VALUE (letters,
 * digits, '_'), MODS none or perf's u and k. The terms' meaning is perfsyntax.c's to judge. */
static const char *check_pmu_terms(const char *ev, char *why, size_t n)
{
    const char *alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    size_t pmu = strspn(ev, alnum);
    const char *p = ev + pmu, *close = pmu && *p == '/' ? strchr(p + 1, '/') : NULL;
    if (!close) {
        snprintf(why, n, "'%.200s': perf's form is PMU/TERM,TERM/ (cpu/event=0x3c,umask=0x0/), a PMU name first", ev);
        return why;
    }
    int term = 1;
    for (const char *t = p + 1; t < close; t++, term++) {
        size_t name = strspn(t, alnum), value = t[name] == '=' ? strspn(t + name + 1, alnum) : 0;
        const char *end = t + name + (t[name] == '=' ? 1 + value : 0);
        if (!name || (t[name] == '=' && !value) || (end != close && *end != ',')) {
            snprintf(why, n, "'%.200s': term %d is not NAME or NAME=VALUE (e.g. event=0x3c); terms are separated by ','",
                     ev, term);
            return why;
        }
        t = end;
    }
    if (close[1 + strspn(close + 1, "uk")]) {
        snprintf(why, n, "'%.200s': after the closing '/' come only perf's modifiers u and k (cpu/event=0x3c/uk)", ev);
        return why;
    }
    return NULL;
}

/* The shape of one event string; libpfm4 (or the source) judges names later. NULL when fine. */
static const char *check_syntax(const char *ev, char *why, size_t n)
{
    for (const char *c = ev; *c; c++)
        if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f) {   /* docs/grammar.md: printable ASCII, no space */
            snprintf(why, n, "'%.200s': byte %d is 0x%02x, outside an event's characters (printable ASCII, no space "
                     "or tab)", ev, (int)(c - ev) + 1, (unsigned char)*c);
            return why;
        }
    if (strchr(ev, '/'))
        return check_pmu_terms(ev, why, n);
    const char *p = ev, *colons = strstr(ev, "::");
    if (colons && memchr(ev, ':', (size_t)(colons - ev)))
        colons = NULL;   /* "EVENT:u::k": an empty field, not a PMU prefix */
    if (colons) {
        if (colons == ev) {
            snprintf(why, n, "'%s': the PMU name before '::' is empty", ev);
            return why;
        }
        p = colons + 2;
    }
    if (!*p || *p == ':') {
        snprintf(why, n, "'%s': the event name is empty", ev);
        return why;
    }
    char *copy = xstrdup(p);
    const char *bad = NULL;
    int field = 0;
    char seen[EVLIST_MAX_FIELDS][64];
    for (char *save, *tok = strtok_r(copy, ":", &save); tok && !bad; tok = strtok_r(NULL, ":", &save), field++) {
        char *eq = strchr(tok, '=');
        if (field && field_repeated(tok, seen, field - 1, why, n, ev))
            bad = why;
        if (!eq || !field || bad)
            continue;
        unsigned long long v;
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        if (!*key)
            snprintf(why, n, "'%s': a modifier '=%s' has no name (e.g. :c=1)", ev, val), bad = why;
        else if (!whole(val, &v))
            snprintf(why, n, "'%s': modifier %s needs a whole number, e.g. :%s=1", ev, key, key), bad = why;
        else if (!strcmp(key, "c") && v > 255)
            snprintf(why, n, "'%s': counter mask c=%llu is out of range 0..255", ev, v), bad = why;
        else if ((!strcmp(key, "i") || !strcmp(key, "e") || !strcmp(key, "u") || !strcmp(key, "k")) && v > 1)
            snprintf(why, n, "'%s': modifier %s is a flag: 0 or 1", ev, key), bad = why;
    }
    free(copy);
    if (!bad && (strstr(p, "::") || p[strlen(p) - 1] == ':'))
        snprintf(why, n, "'%s': an empty unit mask or modifier between ':'", ev), bad = why;
    return bad;
}

/* perf's syntax: a list with {a,b,c} groups and cpu/.../ events, its commas not separating lines. */
/* One event once in a list (docs/grammar.md): the same name (any case) twice outside perf's
 * {...} groups is an error naming both places. Inside a group a repeat is deliberate (a group of
 * one event seven times fills a PMU's counters) and in two groups it is two measurements, as perf
 * takes both. */
static bool listed_already(const struct evlist *l, const char *name, int group, const char *where)
{
    for (int i = 0; group == 0 && i < l->n; i++)
        if (l->group[i] == group && !strcasecmp(l->name[i], name)) {
            pm_error("%s: %s is listed already (%s); list each event once", where, name, l->where[i]);
            return true;
        }
    return false;
}

static int add_perf_list(struct evlist *l, const char *s, const char *where)
{
    char why[512], **items;
    int *group, count;
    if (perf_split_list(s, &items, &group, &count, why, sizeof(why))) {
        pm_error("%s: %s", where, why);
        return -1;
    }
    int rc = 0, base = l->groups;
    for (int i = 0; i < count; i++) {
        if (!rc && check_syntax(items[i], why, sizeof(why))) {
            pm_error("%s: %s", where, why);
            rc = -1;
        }
        if (!rc && listed_already(l, items[i], group[i] ? base + group[i] : 0, where))
            rc = -1;
        if (!rc)
            evlist_add_grouped(l, items[i], where, group[i] ? base + group[i] : 0);
        if (group[i] && base + group[i] > l->groups)
            l->groups = base + group[i];
    }
    free_list(items);
    free(group);
    return rc;
}

static int add_event_line(char *s, const char *where, void *l)
{
    char why[512];
    if (strchr(s, '{') || strchr(s, '/'))   /* a list file's line is never a path: '/' is perf's PMU/TERMS/ */
        return add_perf_list(l, s, where);
    char *space = s + strcspn(s, " \t\r,");
    if (*space) {
        char *next = space + strspn(space, " \t\r,");
        pm_error("%s: one event a line, but '%s' has more ('%s'); put each event on its own line", where, s, next);
        return -1;
    }
    if (check_syntax(s, why, sizeof(why))) {
        pm_error("%s: %s", where, why);
        return -1;
    }
    if (listed_already(l, s, 0, where))
        return -1;
    evlist_add(l, s, where);
    return 0;
}

int evlist_parse(struct evlist *l, const char *text, const char *origin)
{
    if (for_each_content_line(text, origin, add_event_line, l))
        return -1;
    if (!l->n) {
        pm_error("%s names no event; write one event a line ('pmucal events' prints every one)", origin);
        return -1;
    }
    return 0;
}

int evlist_load(struct evlist *l, const char *path)
{
    char *text = read_text_file(path, "event list");
    if (!text)
        return -1;
    int rc = evlist_parse(l, text, path);
    free(text);
    return rc;
}

struct all_arg {
    struct evlist *l;
    char where[128];
};

static int add_all(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    (void)event, (void)umask, (void)desc;
    struct all_arg *a = arg;
    evlist_add(a->l, fq, a->where);
    return 0;
}

int evlist_all(struct evlist *l, const char *pmu)
{
    struct pfm_core core;
    char why[512] = "";
    const struct catalog *c;
    if (!pmu && !pfm_core_pmu(&core) && (c = catalog_active(why, sizeof(why)))) {
        char *where = xasprintf("all events of %s", c->name);
        for (int i = 0; i < c->vt.n; i++)
            if (!c->vt.ev[i].deprecated)
                evlist_add(l, c->vt.ev[i].name, where);
        free(where);
        return 0;
    }
    if (pmu ? !pfm_pmu_by_name(pmu, &core) : !pfm_core_pmu(&core)) {
        if (pmu)
            pm_error("--pmu %s: %s", pmu, pfm_no_pmu_why(pmu));
        else
            pm_error("--events all: libpfm4 detected no core PMU for this CPU and there is no vendor table (%s); "
                     "name one with --pmu NAME or --vendor-json PATH", why);
        return -1;
    }
    struct all_arg a = {.l = l};
    snprintf(a.where, sizeof(a.where), "all events of %s", core.name);
    pfm_each_event(&core, add_all, &a);
    return 0;
}

/* "cpu/event=0x29": a PMU name, '/', and a term with '=' but no closing '/': perf syntax left
 * unclosed, not a path (a path's first part seldom holds '='). */
static bool unclosed_perf_event(const char *arg)
{
    size_t pmu = strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    return pmu && arg[pmu] == '/' && !strchr(arg + pmu + 1, '/') && strchr(arg + pmu + 1, '=');
}

/* A '/' that is no perf syntax: a path. */
static bool path_like(const char *arg)
{
    return strchr(arg, '/') && !perf_syntax_like(arg) && !unclosed_perf_event(arg);
}

bool evlist_arg_is_file(const char *arg)
{
    struct stat st;
    return strcmp(arg, "all") && ((!stat(arg, &st) && S_ISREG(st.st_mode)) || path_like(arg));
}

int evlist_from_arg(struct evlist *l, const char *arg, const char *pmu)
{
    return evlist_arg_is_file(arg) ? evlist_load(l, arg) : evlist_from_list(l, arg, pmu);
}

int evlist_from_list(struct evlist *l, const char *arg, const char *pmu)
{
    if (!strcmp(arg, "all"))
        return evlist_all(l, pmu);
    if (path_like(arg)) {
        pm_error("-e '%s' names a file, which is not read here: a run's event list file is read from the copy its "
                 "folder keeps (events.list); give -e with the events, or the list file again", arg);
        return -1;
    }
    char **items = NULL;
    int *group = NULL, count = 0;
    char err[256];
    if (perf_split_list(arg, &items, &group, &count, err, sizeof(err)) == 0) {
        bool has_all = false;
        for (int i = 0; i < count; i++)
            has_all |= !strcmp(items[i], "all");
        for (int i = 0; i < count; i++)
            free(items[i]);
        free(items);
        free(group);
        if (has_all) {
            pm_error("-e '%s': 'all' stands alone (every event of the PMU); give -e all, or a list of events", arg);
            return -1;
        }
    }
    if (add_perf_list(l, arg, "-e"))
        return -1;
    if (!l->n) {
        pm_error("the event list '%s' names no event; give -e EVENT[,EVENT...], a file or 'all'", arg);
        return -1;
    }
    return 0;
}
