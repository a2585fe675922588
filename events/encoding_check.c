/* libpfm4's encodings of a PMU against a vendor table (events/encoding_check.h). */
#include "events/encoding_check.h"
#include "base/util.h"
#include "events/catalog.h"
#include "events/pfm.h"
#include "events/table_diff.h"
#include "events/vendor.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct pitem {
    char *fq, *key, *event;
    struct event_spec spec;
    struct x86_enc x;
    bool used;
};

struct plist {
    struct pitem *it;
    int n;
    int failed;   /* libpfm4 strings that would not encode alone (need a modifier or another umask) */
};

/* "MEM_LOAD_RETIRED.L2_HIT" and "skl::MEM_LOAD_RETIRED:L2_HIT" to one key. */
static char *name_key(const char *s)
{
    const char *colons = strstr(s, "::");
    if (colons)
        s = colons + 2;
    char *k = xstrdup(s);
    for (char *p = k; *p; p++)
        *p = *p == ':' ? '.' : (char)toupper((unsigned char)*p);
    return k;
}

static int collect(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    (void)umask, (void)desc;
    struct plist *l = arg;
    struct event_spec spec = {0};
    char err[512];
    if (pfm_encode(fq, &spec, err, sizeof(err))) {
        l->failed++;
        return 0;
    }
    l->it = xrealloc(l->it, sizeof(*l->it) * (size_t)(l->n + 1));
    struct pitem *p = &l->it[l->n++];
    memset(p, 0, sizeof(*p));
    p->fq = xstrdup(fq);
    p->key = name_key(fq);
    p->event = xstrdup(event);
    p->spec = spec;
    x86_decode(&spec, &p->x);
    return 0;
}

static void vendor_enc(const struct vendor_event *v, unsigned code, struct x86_enc *x)
{
    memset(x, 0, sizeof(*x));
    x->event = code;
    x->umask = v->umask;
    x->cmask = v->cmask;
    x->inv = v->inv;
    x->edge = v->edge;
    x->any = v->any;
    x->msr = v->msr_value;
}

static bool same(const struct x86_enc *a, const struct x86_enc *b, bool offcore)
{
    return a->event == b->event && a->umask == b->umask && a->cmask == b->cmask && a->inv == b->inv &&
           a->edge == b->edge && a->any == b->any && (!offcore || a->msr == b->msr);
}

static bool same_vendor(const struct vendor_event *v, const struct x86_enc *x)
{
    struct x86_enc a, b;
    vendor_enc(v, v->event, &a);
    vendor_enc(v, v->event2, &b);
    return same(&a, x, v->offcore) || same(&b, x, v->offcore);
}

/* A vendor unit mask that is the union of several libpfm4 unit masks of one event (AMD tables name
 * combinations such as "all"): encode EVENT:U1:U2... and compare that. */
static bool umask_union(struct plist *l, const char *pmu, const struct vendor_event *v, char **fq_out)
{
    for (int i = 0; i < l->n; i++) {
        if (l->it[i].x.event != v->event)
            continue;
        const char *event = l->it[i].event;
        char *s = xasprintf("%s::%s", pmu, event);
        unsigned got = 0;
        for (int j = 0; j < l->n; j++) {
            const struct pitem *p = &l->it[j];
            if (strcmp(p->event, event) || !p->x.umask || (p->x.umask & ~v->umask) || (got & p->x.umask) == p->x.umask ||
                p->x.cmask != v->cmask || p->x.inv != v->inv || p->x.edge != v->edge)
                continue;
            const char *um = strrchr(p->fq, ':');
            char *t = xasprintf("%s%s", s, um);
            free(s);
            s = t;
            got |= p->x.umask;
        }
        if (got == v->umask && got) {
            struct event_spec spec = {0};
            char err[512];
            struct x86_enc x;
            bool ok = false;
            if (!pfm_encode(s, &spec, err, sizeof(err))) {
                x86_decode(&spec, &x);
                ok = same_vendor(v, &x);
                event_spec_clear(&spec);
            }
            if (ok) {
                *fq_out = s;
                return true;
            }
        }
        free(s);
        return false;
    }
    return false;
}

int encodings_compare(const char *pmu, const char *vpath, bool quiet)
{
    if (!pfm_force(pmu))
        return 2;
    struct vendor_table vt = {0};
    char *vpath_read = catalog_path_of(vpath);   /* a path, or a table name as tablediff takes */
    if (!vpath_read || vendor_load(&vt, vpath_read)) {
        free(vpath_read);
        vendor_free(&vt);
        return 2;
    }
    vpath = vpath_read;
    struct pfm_core core;
    pfm_core_pmu(&core);
    struct plist l = {0};
    pfm_each_event(&core, collect, &l);

    struct tap tap = {.out = stdout};
    int identical = 0, renamed = 0, combined = 0, different = 0, vendor_only = 0, deprecated = 0;
    tap_comment(&tap, "pmucal encodings: libpfm4 %s (%d encodable strings, %d need more than one unit mask or a "
                "modifier) vs %s (%d events in %d files)", pmu, l.n, l.failed, vpath, vt.n, vt.files);
    /* libpfm4's model and the table's: an identical encoding of another model proves nothing. */
    const char *own = catalog_table_of_pfm(pmu);
    char *given = catalog_table_name(vpath);
    bool cross = own && strcasecmp(own, given);
    if (cross)
        tap_comment(&tap, "cross-model comparison: libpfm4 %s is %s, the table is %s; an identical encoding may count "
                    "something else on %s: the model diff %s -> %s follows the comparison", pmu, own, given, given,
                    own, given);
    char a[160], b[160], desc[1024];
    for (int i = 0; i < vt.n; i++) {
        const struct vendor_event *v = &vt.ev[i];
        if (v->deprecated) {
            deprecated++;
            continue;
        }
        struct x86_enc vx;
        vendor_enc(v, v->event, &vx);
        char *key = name_key(v->name);
        struct pitem *byname = NULL, *byenc = NULL;
        for (int k = 0; k < l.n && !byname; k++)
            if (!strcmp(l.it[k].key, key))
                byname = &l.it[k];
        free(key);
        if (byname) {
            byname->used = true;
            if (same_vendor(v, &byname->x)) {
                identical++;
                if (!quiet) {
                    snprintf(desc, sizeof(desc), "%s = %s: %s", v->name, byname->fq,
                             vendor_enc_text(&byname->x, v->offcore, a, sizeof(a)));
                    tap_point(&tap, VERDICT_OK, desc, NULL);
                }
            } else {
                different++;
                char extra[64] = "";
                if (v->fixed >= 0)
                    snprintf(extra, sizeof(extra), " (vendor: fixed counter %d only)", v->fixed);
                snprintf(desc, sizeof(desc), "%s != %s: vendor %s; libpfm4 %s%s", v->name, byname->fq,
                         vendor_enc_text(&vx, v->offcore, a, sizeof(a)),
                         vendor_enc_text(&byname->x, v->offcore, b, sizeof(b)), extra);
                tap_point(&tap, VERDICT_NOT_OK, desc, NULL);
            }
            continue;
        }
        for (int k = 0; k < l.n && !byenc; k++)
            if (same_vendor(v, &l.it[k].x))
                byenc = &l.it[k];
        if (byenc) {
            byenc->used = true;
            identical++, renamed++;
            if (!quiet) {
                snprintf(desc, sizeof(desc), "%s = %s (names differ, encodings identical): %s", v->name, byenc->fq,
                         vendor_enc_text(&byenc->x, v->offcore, a, sizeof(a)));
                tap_point(&tap, VERDICT_OK, desc, NULL);
            }
            continue;
        }
        char *fq = NULL;
        if (umask_union(&l, pmu, v, &fq)) {
            identical++, combined++;
            if (!quiet) {
                snprintf(desc, sizeof(desc), "%s = %s (a combination of unit masks): %s", v->name, fq,
                         vendor_enc_text(&vx, v->offcore, a, sizeof(a)));
                tap_point(&tap, VERDICT_OK, desc, NULL);
            }
            free(fq);
            continue;
        }
        vendor_only++;
        if (!quiet)
            tap_comment(&tap, "vendor only: %s (%s)", v->name, vendor_enc_text(&vx, v->offcore, a, sizeof(a)));
    }
    int pfm_only = 0;
    for (int k = 0; k < l.n; k++)
        if (!l.it[k].used) {
            pfm_only++;
            if (!quiet)
                tap_comment(&tap, "libpfm4 only: %s (%s)", l.it[k].fq, vendor_enc_text(&l.it[k].x, false, a, sizeof(a)));
        }
    struct model_diff_counts mc = {0};
    if (cross) {
        struct model_side a, b;
        if (!model_side_load(&a, own)) {
            if (!model_side_load(&b, vpath)) {
                model_diff(&a, &b, &tap, quiet, NULL, &mc);
                model_side_free(&b);
            }
            model_side_free(&a);
        } else {
            tap_comment(&tap, "no %s table to diff against (%s): pmucal tablediff %s %s lists what changed", own,
                        CATALOG_WHERE, own, vpath);
        }
        tap_comment(&tap, "cross-model %s -> %s: %d same-name events re-encoded, %d encodings re-meant under a new "
                    "name; libpfm4 %s's verdicts do not carry over", own, given, mc.changed, mc.remeant, pmu);
    }
    tap_plan(&tap);
    tap_comment(&tap, "totals %s: identical %d (%d by name, %d by encoding under another name, %d as a unit-mask "
                "combination), different %d, vendor only %d, libpfm4 only %d, vendor deprecated (not compared) %d",
                pmu, identical, identical - renamed - combined, renamed, combined, different, vendor_only, pfm_only,
                deprecated);
    for (int k = 0; k < l.n; k++) {
        free(l.it[k].fq);
        free(l.it[k].key);
        free(l.it[k].event);
        event_spec_clear(&l.it[k].spec);
    }
    free(l.it);
    vendor_free(&vt);
    free(given);
    free(vpath_read);
    return different || cross ? 1 : 0;
}
