#include "runs/run_cases.h"
#include "base/util.h"
#include "generators/snippet_digest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_cases_manifest(struct json *j, struct case_ *const *cases, int n)
{
    json_array_begin(j, "case_labels");
    for (int i = 0; i < n; i++)
        json_string(j, NULL, cases[i]->label);
    json_array_end(j);
    json_array_begin(j, "snippets");
    for (int i = 0; i < n; i++) {
        char hex[SHA256_HEX_LEN + 1], why[600];
        if (!snippet_case_runs_code(cases[i]))
            continue;
        bool read = !snippet_case_digest(cases[i], hex, why, sizeof(why));
        json_object_begin(j, NULL);
        json_string(j, "case", cases[i]->label);
        json_string(j, "sha256", read ? hex : NULL);
        if (!read)
            json_string(j, "why", why);
        json_object_end(j);
    }
    json_array_end(j);
}

/* The digest the run recorded for the case labelled label: NULL with why when there is none. */
static const char *recorded_digest(const struct jvalue *manifest, const char *label, char *why, size_t n)
{
    const struct jvalue *all = jget(manifest, "snippets");
    for (int i = 0; all && all->type == J_ARRAY && i < all->n; i++) {
        const struct jvalue *s = &all->items[i];
        const char *c = jget_str(s, "case", NULL), *hex = jget_str(s, "sha256", NULL);
        if (!c || strcmp(c, label))
            continue;
        if (hex && strlen(hex) == SHA256_HEX_LEN && strspn(hex, "0123456789abcdef") == SHA256_HEX_LEN)
            return hex;
        snprintf(why, n, "the run recorded no SHA-256 of its snippet when it started (%s)",
                 jget_str(s, "why", "its manifest's entry under \"snippets\" holds no digest of 64 hex digits"));
        return NULL;
    }
    snprintf(why, n, "the run recorded no SHA-256 of its snippet (its manifest has no entry for it under "
             "\"snippets\")");
    return NULL;
}

void run_cases_code_refused(const char *run, const char *label, const char *fix)
{
    pm_error("--resume %s: its case '%s' runs code, and a resume runs no code nor file a run folder names; %s", run,
             label, fix);
}

static const struct case_ *handed_again(struct case_ *const *handed, int nh, const char *label)
{
    for (int i = 0; i < nh; i++)
        if (!strcmp(handed[i]->label, label))
            return handed[i];
    return NULL;
}

int run_cases_resume(const struct resume *r, const char *command, struct case_ *const *cases, int n,
                     struct case_ *const *handed, int nh)
{
    for (int i = 0; i < nh; i++) {
        bool of_run = false;
        for (int k = 0; k < n && !of_run; k++)
            of_run = snippet_case_runs_code(cases[k]) && !strcmp(cases[k]->label, handed[i]->label);
        if (!of_run) {
            pm_error("--resume %s: --case '%s' is not a code case of the run: with --resume, --case hands a "
                     "snippet of the run again (its other cases come from its manifest); give only its code cases",
                     r->run, handed[i]->label);
            return -1;
        }
    }
    for (int i = 0; i < n; i++) {
        const struct case_ *c = cases[i];
        if (!snippet_case_runs_code(c))
            continue;
        char why[800], hex[SHA256_HEX_LEN + 1];
        const struct case_ *h = handed_again(handed, nh, c->label);
        if (!h) {
            char *fix = xasprintf("hand the same snippet again (pmucal %s --resume %s --case '%s': its SHA-256 "
                                  "must be the one the run recorded when it started), or start a new run", command,
                                  r->run, c->label);
            run_cases_code_refused(r->run, c->label, fix);
            free(fix);
            return -1;
        }
        const char *then = recorded_digest(r->manifest, c->label, why, sizeof(why));
        if (!then) {
            pm_error("--resume %s: --case '%s': %s, so the snippet handed cannot be told to be the one it "
                     "measured; start a new run", r->run, c->label, why);
            return -1;
        }
        if (snippet_case_digest(h, hex, why, sizeof(why))) {
            pm_error("--resume %s: --case '%s': %s", r->run, c->label, why);
            return -1;
        }
        if (strcmp(hex, then)) {
            pm_error("--resume %s: --case '%s': its snippet's SHA-256 is %s, the run recorded %s when it started: "
                     "it is not the snippet the run measured; hand that one, or start a new run", r->run, c->label,
                     hex, then);
            return -1;
        }
    }
    return 0;
}
