/* Microarchitecture files: uarch NAME, isa, cycles, cpu, event, source and reference lines
 * (host/uarch.c, docs/grammar.md). Oracles beyond no crash: an accepted file printed back
 * (uarch_text) parses to the same uarch; a refusal names a line of the input. Recipe names are
 * checked against the recipes table as pmucal does. Dictionary: fuzz/uarch.dict. */
#include "fuzz.h"
#include "host/uarch.h"
#include "penalties/recipes.h"

static bool same_str(const char *a, const char *b)
{
    return !a == !b && (!a || !strcmp(a, b));
}

static bool same_cpu(const struct uarch_cpu *a, const struct uarch_cpu *b)
{
    bool same = same_str(a->name, b->name) && same_str(a->vendor, b->vendor) && a->family == b->family &&
                a->nmodels == b->nmodels && a->implementer == b->implementer && a->mvendorid == b->mvendorid &&
                a->marchid == b->marchid && a->mimpid == b->mimpid && a->has_mimpid == b->has_mimpid &&
                same_str(a->table, b->table) && same_str(a->pfm, b->pfm);
    for (int i = 0; same && i < a->nmodels; i++)
        same = a->models[i].lo == b->models[i].lo && a->models[i].hi == b->models[i].hi;
    return same;
}

static bool same_uarch(const struct uarch *a, const struct uarch *b)
{
    bool same = same_str(a->name, b->name) && a->isa == b->isa && same_str(a->cycles_perf, b->cycles_perf) &&
                same_str(a->cycles_pfm, b->cycles_pfm) && a->ncpus == b->ncpus && a->nevents == b->nevents &&
                a->nsources == b->nsources && a->nrefs == b->nrefs;
    for (int i = 0; same && i < a->ncpus; i++)
        same = same_cpu(&a->cpus[i], &b->cpus[i]);
    for (int i = 0; same && i < a->nevents; i++)
        same = same_str(a->events[i].recipe, b->events[i].recipe) && same_str(a->events[i].perf, b->events[i].perf) &&
               same_str(a->events[i].pfm, b->events[i].pfm);
    for (int i = 0; same && i < a->nsources; i++)
        same = same_str(a->sources[i].id, b->sources[i].id) && same_str(a->sources[i].text, b->sources[i].text);
    for (int i = 0; same && i < a->nrefs; i++) {
        const struct uarch_reference *x = &a->refs[i], *y = &b->refs[i];
        same = same_str(x->recipe, y->recipe) && x->lo == y->lo && x->hi == y->hi && x->indicative == y->indicative &&
               x->whole == y->whole && same_str(x->source->id, y->source->id) && same_str(x->note, y->note);
    }
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct uarch u, again;
    fuzz_capture();
    int rc = uarch_parse(&u, text, "fuzz", NULL, recipe_known);
    char *said = fuzz_captured();
    if (rc) {
        static const char *const whole[] = {"no uarch line in fuzz;", NULL};
        fuzz_check_refusal(said, "fuzz", text, whole);
    } else {
        char *printed = uarch_text(&u);
        fuzz_capture();
        int rc2 = uarch_parse(&again, printed, "printed", NULL, recipe_known);
        char *said2 = fuzz_captured();
        if (rc2 || !same_uarch(&u, &again))
            fuzz_oracle_failed(rc2 ? "an accepted file printed back is refused" : "an accepted file printed back "
                               "parses to another uarch", said2 ? said2 : printed);
        if (!rc2)
            uarch_free(&again);
        free(said2);
        free(printed);
        uarch_free(&u);
    }
    free(said);
    free(text);
    return 0;
}
