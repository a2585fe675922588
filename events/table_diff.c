#include "events/table_diff.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/vendor.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What an encoding means: x86's PERFEVTSEL fields, or an Arm or RISC-V event's number (whole:
 * the raw config, 0x4004 is CNT_CYCLES, not event 0x04 with unit mask 0x40; a RISC-V firmware
 * event's is 64 bits, kept as its low half in event and its high half in umask). */
static struct x86_enc decode(const struct event_spec *spec, bool whole)
{
    struct x86_enc x = {0};
    if (whole) {
        x.event = (unsigned)(spec->config & 0xffffffffu);
        x.umask = (unsigned)(spec->config >> 32);
    } else
        x86_decode(spec, &x);
    return x;
}

static void add_event(struct model_side *s, const char *name, const char *desc, const struct x86_enc *x, bool offcore,
                      bool whole)
{
    s->ev = xgrow(s->ev, sizeof(*s->ev), s->n);
    struct model_event *e = &s->ev[s->n++];
    memset(e, 0, sizeof(*e));
    const char *colons = strstr(name, "::");
    e->name = xstrdup(colons ? colons + 2 : name);
    e->key = xstrdup(e->name);
    for (char *p = e->key; *p; p++)
        *p = *p == ':' ? '.' : (char)tolower((unsigned char)*p);
    e->desc = xstrdup(desc ? desc : "");
    e->x = *x;
    e->offcore = offcore;
    e->whole = whole;
}

static int add_pfm(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    (void)event, (void)umask;
    struct event_spec spec = {0};
    char err[512];
    if (pfm_encode(fq, &spec, err, sizeof(err)))
        return 0;   /* needs a modifier or another unit mask to encode */
    bool arm = !strncmp(fq, "arm_", 4);   /* libpfm4's Arm core PMUs: arm_n1::INST_RETIRED */
    struct x86_enc x = decode(&spec, arm);
    add_event(arg, fq, desc, &x, !arm && spec.config1 != 0, arm);
    event_spec_clear(&spec);
    return 0;
}

int model_side_load(struct model_side *s, const char *what)
{
    memset(s, 0, sizeof(*s));
    struct pfm_core core;
    if (pfm_pmu_by_name(what, &core)) {
        if (!pfm_force(what))
            return -1;
        pfm_core_pmu(&core);
        pfm_each_event(&core, add_pfm, s);
        s->label = xasprintf("%s (libpfm4)", what);
        const char *t = catalog_table_of_pfm(what);
        s->table = t ? xstrdup(t) : NULL;
        return 0;
    }
    struct catalog c;
    if (catalog_load(&c, what))
        return -1;
    for (int i = 0; i < c.vt.n; i++) {
        const struct vendor_event *v = &c.vt.ev[i];
        if (v->deprecated)
            continue;
        struct event_spec spec = {0};
        vendor_event_spec(v, &spec);
        bool whole = v->format == VENDOR_ARM_PMU_EVENTS || v->format == VENDOR_RISCV_PMU_EVENTS;
        struct x86_enc x = decode(&spec, whole);
        add_event(s, v->name, v->desc, &x, v->offcore, whole);
    }
    s->label = xasprintf("%s (%s)", c.name, c.path);
    s->table = xstrdup(c.name);
    catalog_free(&c);
    return 0;
}

void model_side_free(struct model_side *s)
{
    for (int i = 0; i < s->n; i++) {
        free(s->ev[i].name);
        free(s->ev[i].key);
        free(s->ev[i].desc);
    }
    free(s->ev);
    free(s->label);
    free(s->table);
    memset(s, 0, sizeof(*s));
}

static bool same_enc(const struct model_event *a, const struct model_event *b)
{
    return a->x.event == b->x.event && a->x.umask == b->x.umask && a->x.cmask == b->x.cmask && a->x.inv == b->x.inv &&
           a->x.edge == b->x.edge && (!(a->offcore || b->offcore) || a->x.msr == b->x.msr);
}

/* The events of a side sorted by key, or by encoding, each kind's ties in the side's order: a
 * lookup is a binary search, not a scan of every event (200,000 of each took minutes). */
static const struct model_event *sort_base;

static int by_key(const void *x, const void *y)
{
    int i = *(const int *)x, j = *(const int *)y, c = strcmp(sort_base[i].key, sort_base[j].key);
    return c ? c : (i > j) - (i < j);
}

/* The encoding fields same_enc always compares (the MSR only for offcore events: left to it). */
static int enc_cmp(const struct x86_enc *a, const struct x86_enc *b)
{
    if (a->event != b->event)
        return a->event < b->event ? -1 : 1;
    if (a->umask != b->umask)
        return a->umask < b->umask ? -1 : 1;
    if (a->cmask != b->cmask)
        return a->cmask < b->cmask ? -1 : 1;
    if (a->inv != b->inv)
        return a->inv < b->inv ? -1 : 1;
    return (a->edge > b->edge) - (a->edge < b->edge);
}

static int by_enc(const void *x, const void *y)
{
    int i = *(const int *)x, j = *(const int *)y, c = enc_cmp(&sort_base[i].x, &sort_base[j].x);
    return c ? c : (i > j) - (i < j);
}

static int *sorted(const struct model_side *s, int (*cmp)(const void *, const void *))
{
    int *idx = xmalloc(sizeof(*idx) * (size_t)(s->n ? s->n : 1));
    for (int i = 0; i < s->n; i++)
        idx[i] = i;
    sort_base = s->ev;
    if (s->n)
        qsort(idx, (size_t)s->n, sizeof(*idx), cmp);
    return idx;
}

/* The first (in idx order) position whose event's key is not below key, or whose encoding is not
 * below x: idx[lo] for lo in 0..n. */
static int lower_bound(const struct model_side *s, const int *idx, const char *key, const struct x86_enc *x)
{
    int lo = 0, hi = s->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        const struct model_event *e = &s->ev[idx[mid]];
        if ((key ? strcmp(e->key, key) : enc_cmp(&e->x, x)) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* An older name that the newer side still has is matched by name, never taken as renamed. */
static bool side_has_key(const struct model_side *s, const int *idx, const char *key)
{
    int k = lower_bound(s, idx, key, NULL);
    return k < s->n && !strcmp(s->ev[idx[k]].key, key);
}

static const char *suffix(const char *key)
{
    const char *dot = strrchr(key, '.');
    return dot ? dot + 1 : key;
}

/* The same encoding under another name means the same thing when only the event's prefix was
 * renamed (the unit mask's name stayed) or the description is word for word the same; otherwise
 * the code was given to something else (Zen 5's 0xaf unit masks 1/2/4, packed-int 'pack' -> 'vnni'). */
static bool same_meaning(const struct model_event *a, const struct model_event *b)
{
    return !strcmp(suffix(a->key), suffix(b->key)) || (a->desc[0] && !strcasecmp(a->desc, b->desc));
}

static const char *enc_text(const struct model_event *e, char *buf, size_t n)
{
    if (e->whole) {
        snprintf(buf, n, "event 0x%04llx", (unsigned long long)e->x.event | (unsigned long long)e->x.umask << 32);
        return buf;
    }
    return vendor_enc_text(&e->x, e->offcore, buf, n);
}

static void finding(struct tap *t, FILE *table, bool quiet, enum verdict kind, const char *what,
                    const struct model_event *a, const struct model_event *b)
{
    char ea[160] = "", eb[160] = "", desc[2048];
    if (a)
        enc_text(a, ea, sizeof(ea));
    if (b)
        enc_text(b, eb, sizeof(eb));
    if (table) {
        if (strcmp(what, "same"))   /* the table lists what differs */
            fprintf(table, "%-10s %-55s %-44s %-55s %-44s %s\n", what, a ? a->name : "-", a ? ea : "-", b ? b->name : "-",
                b ? eb : "-", b ? b->desc : a->desc);
        return;
    }
    if (!a || !b) {
        if (!quiet)
            tap_comment(t, "%s: %s (%s): %s", what, a ? a->name : b->name, a ? ea : eb, a ? a->desc : b->desc);
        return;
    }
    if (kind == VERDICT_OK && quiet)
        return;
    if (!strcmp(what, "same"))
        snprintf(desc, sizeof(desc), "same: %s: %s", b->name, eb);
    else if (!strcmp(what, "changed"))
        snprintf(desc, sizeof(desc), "changed: %s: %s -> %s", b->name, ea, eb);
    else
        snprintf(desc, sizeof(desc), "%s: %s -> %s (%s): was \"%s\", now \"%s\"", what, a->name, b->name, eb, a->desc,
                 b->desc);
    tap_point(t, kind, desc, NULL);
}

void model_diff(struct model_side *a, struct model_side *b, struct tap *t, bool quiet, FILE *table,
                struct model_diff_counts *c)
{
    memset(c, 0, sizeof(*c));
    for (int i = 0; i < a->n; i++)
        a->ev[i].used = false;
    if (table)
        fprintf(table, "%-10s %-55s %-44s %-55s %-44s %s\n", "kind", a->label, "encoding", b->label, "encoding",
                "description (newer)");
    int *a_key = sorted(a, by_key), *a_enc = sorted(a, by_enc), *b_key = sorted(b, by_key);
    for (int j = 0; j < b->n; j++) {
        struct model_event *nb = &b->ev[j], *byname = NULL, *byenc = NULL;
        int k = lower_bound(a, a_key, nb->key, NULL);
        if (k < a->n && !strcmp(a->ev[a_key[k]].key, nb->key))
            byname = &a->ev[a_key[k]];
        if (byname) {
            byname->used = true;
            bool same = same_enc(byname, nb);
            same ? c->same++ : c->changed++;
            finding(t, table, quiet, same ? VERDICT_OK : VERDICT_NOT_OK, same ? "same" : "changed", byname, nb);
            continue;
        }
        /* The first older event (in its side's order) of this encoding whose name is gone. */
        for (k = lower_bound(a, a_enc, NULL, &nb->x); k < a->n && !byenc && !enc_cmp(&a->ev[a_enc[k]].x, &nb->x); k++)
            if (same_enc(&a->ev[a_enc[k]], nb) && !side_has_key(b, b_key, a->ev[a_enc[k]].key))
                byenc = &a->ev[a_enc[k]];
        if (byenc) {
            byenc->used = true;
            bool meaning = same_meaning(byenc, nb);
            meaning ? c->renamed++ : c->remeant++;
            finding(t, table, quiet, meaning ? VERDICT_OK : VERDICT_NOT_OK, meaning ? "renamed" : "re-meant", byenc, nb);
            continue;
        }
        c->added++;
        finding(t, table, quiet, VERDICT_OK, "new", NULL, nb);
    }
    free(a_key);
    free(a_enc);
    free(b_key);
    for (int i = 0; i < a->n; i++)
        if (!a->ev[i].used) {
            c->removed++;
            finding(t, table, quiet, VERDICT_OK, "removed", &a->ev[i], NULL);
        }
}
