#include "penalties/cycle_stack.h"
#include "base/json.h"
#include "base/stats.h"
#include "base/util.h"
#include "host/uarch.h"
#include "penalties/reference.h"
#include "penalties/status.h"
#include "runs/runfile.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void counts_add(struct counts *c, const char *name, double v, const char *why, int line)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], name))
            return;   /* the first value of a name is kept (a run repeats its noise events per group) */
    c->name = xrealloc(c->name, sizeof(char *) * (size_t)(c->n + 1));
    c->value = xrealloc(c->value, sizeof(double) * (size_t)(c->n + 1));
    c->why = xrealloc(c->why, sizeof(char *) * (size_t)(c->n + 1));
    c->line = xrealloc(c->line, sizeof(int) * (size_t)(c->n + 1));
    c->line[c->n] = line;
    c->name[c->n] = xstrdup(name);
    c->value[c->n] = v;
    c->why[c->n] = why ? xstrdup(why) : NULL;
    c->n++;
}

void counts_free(struct counts *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->name[i]);
        free(c->why[i]);
    }
    free(c->name);
    free(c->value);
    free(c->why);
    free(c->line);
    free(c->origin);
    memset(c, 0, sizeof(*c));
}

double counts_get(const struct counts *c, const char *const *names, const char **used)
{
    for (int k = 0; names[k]; k++)
        for (int i = 0; i < c->n; i++)
            if (!strcasecmp(c->name[i], names[k]) && !isnan(c->value[i])) {
                if (used)
                    *used = c->name[i];
                return c->value[i];
            }
    return NAN;
}

/* "cycles:u" -> "cycles"; perf's own modifiers only (u, k, h, p, G, H, P, S, D, I, W, e). */
static void drop_modifiers(char *name)
{
    char *colon = strrchr(name, ':');
    if (colon && colon[1] && strspn(colon + 1, "ukhpGHPSDIWe") == strlen(colon + 1))
        *colon = '\0';
}

int counts_from_perf_csv(struct counts *c, const char *path)
{
    memset(c, 0, sizeof(*c));
    c->origin = xstrdup(path);
    char *text = read_text_file(path, "perf stat CSV (the output of 'perf stat -x, -o FILE ...')");
    if (!text)
        return -1;
    int lineno = 0, rows = 0, rc = 0;
    for (char *line = text, *next; !rc && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "\r")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        /* value,unit,event,run-time,percentage[,metric value,metric unit] */
        char *field[5] = {0}, *p = line;
        int nf = 0;
        for (char *tok; nf < 5 && (tok = strsep(&p, ","));)
            field[nf++] = tok;
        if (nf < 3 || !field[2][0]) {
            pm_error("%s:%d: not a 'perf stat -x,' line (value,unit,event,...): %.80s", path, lineno, line);
            rc = -1;
            break;
        }
        char *end;
        double v = strtod(field[0], &end);
        char name[256];
        snprintf(name, sizeof(name), "%s", field[2]);
        drop_modifiers(name);
        char *pend;
        double running = nf == 5 ? strtod(field[4], &pend) : 100;
        if (field[0][0] == '<') {
            counts_add(c, name, NAN, field[0], lineno);   /* <not counted>, <not supported> */
        } else if (end == field[0] || *end) {
            pm_error("%s:%d: the count '%s' of %s is not a number; per-CPU or per-core output (-A, --per-core) "
                     "is not read: aggregate it", path, lineno, field[0], name);
            rc = -1;
            break;
        } else if (!isfinite(v) || v < 0) {
            pm_error("%s:%d: the count '%s' of %s is not a finite number >= 0; give the counts perf stat printed",
                     path, lineno, field[0], name);
            rc = -1;
            break;
        } else {
            /* perf scales a multiplexed count up from the share of time it ran: an estimate. */
            if (nf == 5 && pend != field[4] && !*pend && running < 100)
                pm_note("%s:%d: %s counted %.2f%% of the time (multiplexed): its count is perf's scaled estimate; "
                        "count fewer events at once for an exact one", path, lineno, name, running);
            counts_add(c, name, v, NULL, lineno);
        }
        rows++;
    }
    free(text);
    if (rc)
        return -1;
    if (!rows) {
        pm_error("%s: no counts in it; give the output of 'perf stat -x, -o FILE -e EVENTS -- COMMAND'", path);
        return -1;
    }
    return 0;
}

static double median_of(const struct jvalue *arr)
{
    if (!arr || arr->type != J_ARRAY || !arr->n)
        return NAN;
    double *v = xmalloc(sizeof(double) * (size_t)arr->n);
    for (int i = 0; i < arr->n; i++)
        v[i] = jnum(&arr->items[i], NAN);
    double m = stats_median(v, (size_t)arr->n);
    free(v);
    return m;
}

/* One measurements.ndjson record of the case: validate's engine records (events with stats,
 * cycles.stats) and calibrate's case records (cycles_per_iter) alike. */
static void counts_from_record(struct counts *c, const struct jvalue *r)
{
    const struct jvalue *ev = jget(r, "events");
    for (int i = 0; ev && ev->type == J_ARRAY && i < ev->n; i++) {
        const struct jvalue *e = &ev->items[i];
        const char *name = jget_str(e, "name", NULL), *unsup = jget_str(e, "unsupported", NULL);
        if (name)
            counts_add(c, name, unsup ? NAN : jget_num(jget(e, "stats"), "median", NAN), unsup, 0);
    }
    double cyc = jget_num(jget(jget(r, "cycles"), "stats"), "median", NAN);
    if (isnan(cyc))
        cyc = median_of(jget(r, "cycles_per_iter"));
    if (!isnan(cyc))
        counts_add(c, "cycles", cyc, NULL, 0);
    const struct jvalue *model = jget(r, "model");
    for (int i = 0; model && model->type == J_OBJECT && i < model->n; i++)
        counts_add(c, model->keys[i], jnum(&model->items[i], NAN), NULL, 0);
}

int counts_from_run(struct counts *c, const char *run, const char *case_label)
{
    memset(c, 0, sizeof(*c));
    c->origin = xasprintf("%s case '%s'", run, case_label);
    struct jvalue **recs = NULL;
    struct jvalue *m = manifest_load(run);
    int nrec = 0, records = 0, rc = m && runfile_has_measurements(m, run) ? measurements_read(run, &recs, &nrec) : -1;
    jread_free(m);
    for (int i = 0; !rc && i < nrec; i++) {
        const char *label = jget_str(recs[i], "case", ""), *alt = jget_str(recs[i], "label", "");
        if (!strcmp(label, case_label) || !strcmp(alt, case_label)) {
            counts_from_record(c, recs[i]);
            records++;
        }
    }
    measurements_free(recs, nrec);
    if (!rc && !records) {
        pm_error("%s/measurements.ndjson: no measurement of case '%s'; the 'case' fields of its lines name the cases",
                 run, case_label);
        rc = -1;
    }
    return rc;
}

/* The count a penalty is multiplied by: its event in perf's spelling for the model, its libpfm4
 * event (with '.' or ':'), or its occurrence quantity as the models state it. */
static double occurrences_of(const struct counts *c, const struct jvalue *p, const char *uarch, const char **used)
{
    const char *names[8] = {0};
    int n = 0;
    char colon[256];
    const struct uarch_cpu *cpu = NULL;
    const struct uarch *u = uarch_named(uarch, &cpu);
    if (uarch)
        names[n++] = jget_str(jget(p, "perf_events"), u ? u->name : uarch, NULL);
    /* libpfm4's name: the named CPU's PMU, else the first of its uarch's CPUs that has one. */
    for (int i = 0; u && !cpu && i < u->ncpus; i++)
        if (u->cpus[i].pfm)
            cpu = &u->cpus[i];
    if (cpu && cpu->pfm && (names[n] = jget_str(jget(p, "events"), cpu->pfm, NULL))) {
        snprintf(colon, sizeof(colon), "%s", names[n++]);
        for (char *q = colon; *q; q++)
            *q = *q == '.' ? ':' : *q;
        names[n++] = colon;
    }
    names[n++] = jget_str(jget(p, "occurrence"), "quantity", NULL);
    /* Drop the holes left by names that were not there. */
    const char *list[8] = {0};
    int k = 0;
    for (int i = 0; i < n; i++)
        if (names[i])
            list[k++] = names[i];
    return counts_get(c, list, used);
}

int cpi_build(struct cpi_stack *s, const struct counts *c, const struct jvalue *pj, const char *model, double base_cpi,
              double core_ghz, double tolerance)
{
    memset(s, 0, sizeof(*s));
    if (!model)
        model = penalties_uarch(pj);
    const struct uarch *m = uarch_named(model, NULL);
    const char *cyc_names[] = {"cycles", "cpu-cycles", m ? m->cycles_perf : "cycles", m && m->cycles_pfm ? m->cycles_pfm : "cycles", NULL};
    const char *used = NULL;
    s->cycles = counts_get(c, cyc_names, &used);
    if (isnan(s->cycles)) {
        pm_error("%s: no cycles count (cycles, cpu-cycles%s%s): the stack needs the cycles it explains", c->origin,
                 m ? " or " : "", m ? m->cycles_perf : "");
        return -1;
    }
    if (!(s->cycles > 0) || !isfinite(s->cycles)) {
        /* used names the count; its line says where, for a perf stat file. */
        int line = 0;
        for (int i = 0; i < c->n; i++)
            if (c->name[i] == used)
                line = c->line[i];
        if (line)
            pm_error("%s:%d: %s is %g: a stack needs a positive cycles count", c->origin, line, used, s->cycles);
        else
            pm_error("%s: %s is %g: a stack needs a positive cycles count", c->origin, used, s->cycles);
        return -1;
    }
    snprintf(s->cycles_counter, sizeof(s->cycles_counter), "%s", used);
    s->base_cpi = base_cpi;
    if (base_cpi > 0) {
        const char *inst_names[] = {"instructions", "inst", "ex_ret_instr", "INST_RETIRED.ANY", "RETIRED_INSTRUCTIONS", NULL};
        s->instructions = counts_get(c, inst_names, &used);
        if (isnan(s->instructions)) {
            pm_error("%s: no instructions count, which --base-cpi %g multiplies; count instructions or give "
                     "--base-cpi 0", c->origin, base_cpi);
            return -1;
        }
        snprintf(s->instructions_counter, sizeof(s->instructions_counter), "%s", used);
    }
    s->tolerance = tolerance;
    const struct jvalue *ps = jget(pj, "penalties");
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        const char *name = jget_str(p, "name", "?"), *status = jget_str(p, "status", "?");
        char *why = s->skipped < CPI_MAX_COMPONENTS ? s->skipped_why[s->skipped] : NULL;
        size_t wn = sizeof(s->skipped_why[0]);
        enum penalty_status st;
        if (!penalty_status_of(p, &st) || st != PENALTY_OK) {
            if (why)
                snprintf(why, wn, "%s: %s, not a constant", name, status);
            s->skipped++;
            continue;
        }
        double count = occurrences_of(c, p, model, &used);
        if (isnan(count)) {
            if (why)
                snprintf(why, wn, "%s: no count of its event or of %s", name,
                         jget_str(jget(p, "occurrence"), "quantity", "its occurrences"));
            s->skipped++;
            continue;
        }
        if (s->n == CPI_MAX_COMPONENTS)
            break;
        struct cpi_component *k = &s->c[s->n++];
        snprintf(k->name, sizeof(k->name), "%s", name);
        snprintf(k->counter, sizeof(k->counter), "%s", used);
        k->count = count;
        bool mem = !strcmp(jget_str(p, "domain", "core"), "memory");
        k->penalty = mem && core_ghz > 0 ? jget_num(p, "ns", NAN) * core_ghz : jget_num(p, "cycles", NAN);
    }
    cpi_close(s);
    return 0;
}

void cpi_close(struct cpi_stack *s)
{
    s->base = s->base_cpi * s->instructions;
    s->explained = s->base;
    for (int i = 0; i < s->n; i++) {
        s->c[i].cycles = s->c[i].count * s->c[i].penalty;
        s->c[i].share = s->c[i].cycles / s->cycles;
        s->explained += s->c[i].cycles;
    }
    s->remainder = s->cycles - s->explained;
    s->remainder_share = s->cycles > 0 ? s->remainder / s->cycles : NAN;
    s->closed = fabs(s->remainder_share) <= s->tolerance;
    if (s->closed)
        snprintf(s->verdict, sizeof(s->verdict), "closed: %.1f%% of the cycles unexplained, within %.1f%%",
                 100 * s->remainder_share, 100 * s->tolerance);
    else if (s->remainder < 0)
        snprintf(s->verdict, sizeof(s->verdict), "not closed: the components explain %.1f%% more cycles than were "
                 "measured (overlapping costs, or penalties too large for this code)", -100 * s->remainder_share);
    else
        snprintf(s->verdict, sizeof(s->verdict), "not closed: %.1f%% of the cycles unexplained (beyond %.1f%%): a "
                 "cost no penalty here covers", 100 * s->remainder_share, 100 * s->tolerance);
}

void cpi_stack_print(const struct cpi_stack *s, const struct counts *c, const char *pj)
{
    printf("cycle stack of %s, penalties from %s\n", c->origin, pj);
    printf("  %-22s %-40s %14s %10s %14s %7s\n", "component", "count", "occurrences", "penalty", "cycles", "share");
    if (s->base_cpi > 0)
        printf("  %-22s %-40s %14.6g %10.3f %14.1f %6.1f%%\n", "base", s->instructions_counter, s->instructions,
               s->base_cpi, s->base, 100 * s->base / s->cycles);
    for (int i = 0; i < s->n; i++)
        printf("  %-22s %-40s %14.6g %10.2f %14.1f %6.1f%%\n", s->c[i].name, s->c[i].counter, s->c[i].count,
               s->c[i].penalty, s->c[i].cycles, 100 * s->c[i].share);
    printf("  %-22s %-40s %14s %10s %14.1f %6.1f%%\n", "unexplained", "", "", "", s->remainder,
           100 * s->remainder_share);
    printf("  %-22s %-40s %14s %10s %14.1f\n", "measured", s->cycles_counter, "", "", s->cycles);
    for (int i = 0; i < s->skipped && i < CPI_MAX_COMPONENTS; i++)
        printf("  left out: %s\n", s->skipped_why[i]);
    printf("closure: %s\n", s->verdict);
}

void cpi_stack_print_json(const struct cpi_stack *s, const struct counts *c, const char *pj)
{
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_string(&j, "counts", c->origin);
    json_string(&j, "penalties", pj);
    json_number(&j, "cycles", s->cycles);
    json_string(&j, "cycles_counter", s->cycles_counter);
    json_number(&j, "instructions", s->base_cpi > 0 ? s->instructions : NAN);
    json_number(&j, "base_cpi", s->base_cpi);
    json_number(&j, "base", s->base);
    json_array_begin(&j, "components");
    for (int i = 0; i < s->n; i++) {
        json_object_begin(&j, NULL);
        json_string(&j, "name", s->c[i].name);
        json_string(&j, "counter", s->c[i].counter);
        json_number(&j, "occurrences", s->c[i].count);
        json_number(&j, "penalty", s->c[i].penalty);
        json_number(&j, "cycles", s->c[i].cycles);
        json_number(&j, "share", s->c[i].share);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_array_begin(&j, "left_out");
    for (int i = 0; i < s->skipped && i < CPI_MAX_COMPONENTS; i++)
        json_string(&j, NULL, s->skipped_why[i]);
    json_array_end(&j);
    json_number(&j, "explained", s->explained);
    json_number(&j, "remainder", s->remainder);
    json_number(&j, "remainder_share", s->remainder_share);
    json_number(&j, "tolerance", s->tolerance);
    json_bool(&j, "closed", s->closed);
    json_string(&j, "verdict", s->verdict);
    json_object_end(&j);
    json_write_line(&j, stdout);
    json_free(&j);
}
