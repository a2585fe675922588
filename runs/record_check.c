#include "runs/record_check.h"
#include "base/util.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void record_check_init(struct record_check *k, const struct jvalue *manifest)
{
    memset(k, 0, sizeof(*k));
    k->manifest = manifest;
    const struct jvalue *labels = jget(manifest, "case_labels");
    k->labels = labels && labels->type == J_ARRAY ? labels : NULL;
    const char *cmd = manifest ? runfile_command(manifest) : NULL;
    k->once = cmd && !strcmp(cmd, "validate");
}

/* How often the manifest lists the case labelled label (a --case given twice lists it twice). */
static int listed(const struct jvalue *labels, const char *label)
{
    int times = 0;
    for (int i = 0; labels && i < labels->n; i++)
        times += jstr(&labels->items[i]) && !strcmp(jstr(&labels->items[i]), label);
    return times;
}

/* A member as text for the identity: a string's own, a number's digits, "-" for none. */
static const char *part_text(const struct jvalue *v, char *buf, size_t n)
{
    if (v && v->type == J_STRING)
        return v->str;
    if (v && v->type == J_NUMBER)
        snprintf(buf, n, "%.17g", v->num);
    else
        snprintf(buf, n, "-");
    return buf;
}

int record_check_line(struct record_check *k, const struct jvalue *rec, int lineno, char *why, size_t n)
{
    const char *label = jget_str(rec, "case", "");
    k->records++;
    int times = listed(k->labels, label);
    if (k->labels && !times) {
        snprintf(why, n, "a record of case '%.200s', which the run's manifest does not list among its cases "
                 "(case_labels): the folder is damaged, or records of another run were added to it", label);
        return -1;
    }
    const struct jvalue *group = jget(rec, "group");
    if (group && group->type != J_NUMBER) {   /* pmucal writes a group number only */
        snprintf(why, n, "a record of case '%.200s' whose group is not a number: the folder is damaged "
                 "(an edited record)", label);
        return -1;
    }
    if (!k->once || times > 1)   /* the same case measured twice: its records repeat by right */
        return 0;
    char g[40], p[40];
    const char *gtext = part_text(group, g, sizeof(g));
    char *id = xasprintf("%s\x1f%s\x1f%s", label, gtext, part_text(jget(rec, "part"), p, sizeof(p)));
    for (int i = 0; i < k->n; i++)
        if (!strcmp(k->key[i], id)) {
            snprintf(why, n, "a second record of case '%.200s' group %s (the first is line %d): the folder is damaged "
                     "(a record written twice, or copied in)", label, gtext, k->line[i]);
            free(id);
            return -1;
        }
    k->key = xrealloc(k->key, sizeof(*k->key) * (size_t)(k->n + 1));
    k->line = xrealloc(k->line, sizeof(*k->line) * (size_t)(k->n + 1));
    k->key[k->n] = id;
    k->line[k->n++] = lineno;
    return 0;
}

/* The manifest's count key, when it has one: -1 with why when it is not a count, or not have (the
 * count the folder holds, said by what). */
static int count_is(const struct jvalue *m, const char *key, int have, const char *what, char *why, size_t n)
{
    double want;
    char err[256];
    if (!jget(m, key))
        return 0;
    if (!jget_in(m, key, 0, INT32_MAX, false, 0, &want, err, sizeof(err))) {
        snprintf(why, n, "manifest.json: %s: the folder is damaged", err);
        return -1;
    }
    if ((int)want == have)
        return 0;
    snprintf(why, n, "the manifest says complete with %s %.0f where %s %d: the folder is damaged (lost or added "
             "records, or an edited manifest)", key, want, what, have);
    return -1;
}

int record_check_end(const struct record_check *k, char *why, size_t n)
{
    if (!k->manifest || strcmp(jget_str(k->manifest, "status", ""), RUN_COMPLETE))
        return 0;   /* a run that did not finish holds what it got to */
    double cases;
    char err[256];
    if (count_is(k->manifest, "measurements", k->records, "measurements.ndjson holds", why, n))
        return -1;
    if (!jget(k->manifest, "cases"))
        return 0;
    if (!jget_in(k->manifest, "cases", 0, INT32_MAX, false, 0, &cases, err, sizeof(err))) {
        snprintf(why, n, "manifest.json: %s: the folder is damaged", err);
        return -1;
    }
    return count_is(k->manifest, "cases_done", (int)cases, "its cases are", why, n);
}

void record_check_free(struct record_check *k)
{
    for (int i = 0; i < k->n; i++)
        free(k->key[i]);
    free(k->key);
    free(k->line);
    memset(k, 0, sizeof(*k));
}
