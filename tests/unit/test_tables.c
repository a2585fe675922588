/* The facts the penalty tables are made of (uarch/NAME.txt): every perf event name a uarch file gives
 * a recipe is an EventName of each of its CPUs' own table in eventdata/ (the tables pmucal ships) (so
 * the perf metric JSON loads in perf as it is), and where libpfm4 knows the CPU its event encodes to
 * that very entry; the reference figures name known recipes and uarchs, and their deviation is plain
 * arithmetic. */
#include "events/pfm.h"
#include "events/vendor.h"
#include "host/uarch.h"
#include "penalties/recipes.h"
#include "penalties/reference.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct vendor_event *by_name(const struct vendor_table *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->ev[i].name, name))
            return &t->ev[i];
    return NULL;
}

int main(void)
{
    const char *root = "eventdata";   /* the unit tests run from the tree's root (tests/00-unit.t) */
    uarch_recipes_known(recipe_known);
    int nu;
    const struct uarch *us = uarch_all(&nu);
    CHECK(nu >= 4, __LINE__, "%d uarch files read from %s", nu, uarch_dir());
    for (int m = 0; m < nu; m++)
        for (int k = 0; k < us[m].ncpus; k++) {
            const struct uarch *u = &us[m];
            const struct uarch_cpu *cm = &u->cpus[k];
            char path[512];
            snprintf(path, sizeof(path), "%s/%s", root, cm->table);
            struct stat st;
            if (stat(path, &st)) {   /* pmucal ships every CPU's table: a missing one is a defect */
                CHECK(0, __LINE__, "%s: its event table %s is in the tree", cm->name, path);
                continue;
            }
            struct vendor_table t = {0};
            if (vendor_load(&t, path)) {
                CHECK(0, __LINE__, "%s: %s loads", cm->name, path);
                continue;
            }
            CHECK(by_name(&t, u->cycles_perf), __LINE__, "%s: cycles event %s is in %s", cm->name, u->cycles_perf,
                  path);
            bool forced = cm->pfm && pfm_force(cm->pfm);
            int named = 0;
            for (int r = 0; r < nrecipes; r++) {
                const struct uarch_event *e = recipe_uarch_event(&recipes[r], cm->name);
                if (!e)
                    continue;
                named++;
                const struct vendor_event *v = by_name(&t, e->perf);
                CHECK(v, __LINE__, "%s %s: perf name %s is an EventName of %s", cm->name, recipes[r].name, e->perf,
                      path);
                if (!e->pfm || !forced)
                    continue;
                /* The libpfm4 name counts the same thing: its encoding is that table entry's. */
                struct event_spec s = {0};
                char err[256];
                int rc = pfm_encode(e->pfm, &s, err, sizeof(err));
                const struct vendor_event *match = rc ? NULL : vendor_match(&t, &s);
                CHECK(match && v && !strcmp(match->name, v->name), __LINE__, "%s %s: libpfm4 %s encodes as %s (%s)",
                      cm->name, recipes[r].name, e->pfm, match ? match->name : "no entry", rc ? err : "encoded");
                event_spec_clear(&s);
            }
            CHECK(named > 0, __LINE__, "%s: %d recipes name an event", cm->name, named);
            vendor_free(&t);
        }

    /* Every reference names a known uarch and recipe, with lo <= hi, and says where it is from. */
    int nrefs;
    const struct reference *refs = references_all(&nrefs);
    for (int i = 0; i < nrefs; i++) {
        const struct reference *r = &refs[i];
        CHECK(uarch_named(r->uarch, NULL) && recipe_named(r->penalty) && r->lo > 0 && r->lo <= r->hi && r->source &&
                  strlen(r->source) > 10,
              __LINE__, "reference %s %s [%g, %g]: known uarch and recipe, a range, a source", r->uarch, r->penalty,
              r->lo, r->hi);
    }
    /* A CPU's references are its uarch's: Emerald Rapids takes Golden Cove's. */
    const struct reference *glc = reference_find("emeraldrapids", "div64_latency");
    CHECK(glc && !strcmp(glc->uarch, "goldencove") && glc->lo == 18 && !reference_find("skylake", "div64_latency"),
          __LINE__, "emeraldrapids div64_latency: %s's %g", glc ? glc->uarch : "none", glc ? glc->lo : NAN);
    static const struct {
        int line;
        double lo, hi, value, want;
        bool large;
    } dev[] = {
        {__LINE__, 14, 14, 14, 0, false},
        {__LINE__, 17.9, 18.9, 18.0, 0, false},
        {__LINE__, 12, 18, 24, 24.0 / 18 - 1, true},
        {__LINE__, 12, 18, 9, 9.0 / 12 - 1, false},
        {__LINE__, 20.2, 20.2, 17.2, 17.2 / 20.2 - 1, false},
        {__LINE__, 50, 54, 462.7, 462.7 / 54 - 1, true},
        {__LINE__, 4, 4, 2.9, 2.9 / 4 - 1, true},
    };
    for (size_t i = 0; i < sizeof(dev) / sizeof(dev[0]); i++) {
        struct reference r = {.lo = dev[i].lo, .hi = dev[i].hi};
        double d = reference_deviation(&r, dev[i].value);
        CHECK(fabs(d - dev[i].want) < 1e-12 && reference_deviation_large(d) == dev[i].large, dev[i].line,
              "%g against [%g, %g]: deviation %+.4f, %s", dev[i].value, dev[i].lo, dev[i].hi, d,
              dev[i].large ? "large" : "not large");
    }
    /* CPUID identities: this project's hosts and the ranges around them. */
    static const struct {
        int line;
        const char *vendor;
        int family, model;
        const char *want;
    } ids[] = {
        {__LINE__, "AuthenticAMD", 26, 2, "zen5"},        /* the Zen 5 VM of issue 14 */
        {__LINE__, "AuthenticAMD", 25, 0x61, "zen4"},
        {__LINE__, "AuthenticAMD", 25, 0x21, "zen3"},     /* Zen 3 (uarch/zen3.txt) */
        {__LINE__, "AuthenticAMD", 25, 0x31, NULL},       /* between perf's Zen 3 ranges */
        {__LINE__, "AuthenticAMD", 23, 0x31, NULL},       /* Zen 2: no uarch file */
        {__LINE__, "GenuineIntel", 6, 0x5e, "skylake"},
        {__LINE__, "GenuineIntel", 6, 0x55, NULL},        /* Skylake-SP: another cache hierarchy */
        {__LINE__, "GenuineIntel", 6, 0x8f, "sapphirerapids"},
        {__LINE__, "GenuineIntel", 6, 0xcf, "emeraldrapids"},   /* the Emerald Rapids VM of issue 36 */
        {__LINE__, "GenuineIntel", 6, 0xb7, "alderlake"},       /* Raptor Lake: Alder Lake's tables */
        {__LINE__, "GenuineIntel", 6, 0xa7, NULL},              /* Rocket Lake by its number (issue 36's VM) */
    };
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        struct cpu_ident id = {.isa = CPU_X86_64, .family = (unsigned)ids[i].family, .model = (unsigned)ids[i].model};
        snprintf(id.vendor, sizeof(id.vendor), "%s", ids[i].vendor);
        const struct uarch_cpu *m = uarch_cpu_of(&id);
        CHECK(ids[i].want ? m && !strcmp(m->name, ids[i].want) : !m, ids[i].line, "%s family %d model 0x%x: %s",
              ids[i].vendor, ids[i].family, ids[i].model, m ? m->name : "no model");
    }
    return done_testing();
}
