/* The cases of a validate run (validate/case_list.h). */
#include "validate/case_list.h"
#include "base/util.h"
#include "validate/sweep.h"
#include <stdlib.h>
#include <string.h>

static void add_case(struct case_list *l, struct case_ *c)
{
    l->c = xrealloc(l->c, sizeof(*l->c) * (size_t)(l->n + 1));
    l->c[l->n++] = c;
}

/* Every case is built before anything is measured, so a bad --case fails at once. */
static int case_of_text(struct case_list *l, const char *text, const char *option)
{
    const char *space = strchr(text, ' ');
    char *name = space ? xasprintf("%.*s", (int)(space - text), text) : xstrdup(text);
    const struct kernel *k = kernel_find(name);
    if (!k) {
        pm_error("%s '%s': unknown kernel '%s'; 'pmucal kernels' lists them", option, text, name);
        free(name);
        return -1;
    }
    free(name);
    struct case_ *c = case_from_text(k, space ? space + 1 : "");
    if (!c)
        return -1;
    add_case(l, c);
    return 0;
}

int case_list_collect(struct case_list *l, char **kernels, int nk, char **cases, int nc, uint64_t sweep,
                      uint64_t seed)
{
    for (uint64_t i = 0; i < sweep; i++) {
        char *text = sweep_case(seed, i, kernels, nk);
        int rc = text ? case_of_text(l, text, "--sweep") : -1;
        free(text);
        if (rc)
            return -1;
    }
    if (sweep)
        return 0;
    for (int i = 0; i < nc; i++)
        if (case_of_text(l, cases[i], "--case"))
            return -1;
    if (nc)
        return 0;
    for (const struct kernel **k = kernel_list(); *k; k++) {
        bool wanted = !nk;
        for (int i = 0; i < nk; i++)
            wanted |= !strcmp(kernels[i], (*k)->name);
        for (int r = 0; wanted && (*k)->matrix && (*k)->matrix[r]; r++) {
            struct case_ *c = case_from_text(*k, (*k)->matrix[r]);
            if (!c) {
                pm_error("the default case '%s %s' cannot be built on this machine (the message above says why)",
                         (*k)->name, (*k)->matrix[r]);
                return -1;
            }
            add_case(l, c);
        }
    }
    for (int i = 0; i < nk; i++)
        if (!kernel_find(kernels[i])) {
            pm_error("--kernel %s: unknown kernel; 'pmucal kernels' lists them", kernels[i]);
            return -1;
        }
    return 0;
}

void case_list_free(struct case_list *l)
{
    for (int i = 0; i < l->n; i++)
        case_free(l->c[i]);
    free(l->c);
}
