/* Host and versions: what the run was made on, the cache geometry hwloc gave beside the one the
 * latency curve measured, and the whole manifest for anything else. */
#include "report/report.h"
#include <math.h>
#include <string.h>

static void kv_begin(FILE *f)
{
    fputs("<table class=\"kv\"><tbody>\n", f);
}

static void kv_row(FILE *f, const char *key, const char *value)
{
    if (!value)
        return;
    fputs("<tr><td>", f);
    html_text(f, key);
    fputs("</td><td>", f);
    html_text(f, value);
    fputs("</td></tr>\n", f);
}

/* Any JSON value, for the manifest's full listing: objects as nested key/value tables. */
static void json_html(FILE *f, const struct jvalue *v, int depth)
{
    if (!v)
        return;
    switch (v->type) {
    case J_NULL: fputs("<span class=\"count\">null</span>", f); break;
    case J_BOOL: fputs(v->b ? "true" : "false", f); break;
    case J_NUMBER: fprintf(f, "%.10g", v->num); break;
    case J_STRING: html_text(f, v->str); break;
    case J_ARRAY:
        for (int i = 0; i < v->n; i++) {
            if (i)
                fputs(v->items[i].type == J_OBJECT ? "" : ", ", f);
            json_html(f, &v->items[i], depth + 1);
        }
        break;
    case J_OBJECT:
        if (depth > 8) {
            fputs("&hellip;", f);
            break;
        }
        kv_begin(f);
        for (int i = 0; i < v->n; i++) {
            fputs("<tr><td>", f);
            html_text(f, v->keys[i]);
            fputs("</td><td>", f);
            json_html(f, &v->items[i], depth + 1);
            fputs("</td></tr>\n", f);
        }
        fputs("</tbody></table>", f);
        break;
    }
}

static void command_line(FILE *f, const struct jvalue *cmd)
{
    if (!cmd || cmd->type != J_ARRAY)
        return;
    fputs("<tr><td>command</td><td><code>", f);
    for (int i = 0; i < cmd->n; i++) {
        if (i)
            fputc(' ', f);
        html_text(f, jstr(&cmd->items[i]));
    }
    fputs("</code></td></tr>\n", f);
}

static void caches(FILE *f, const struct jvalue *topo, const struct jvalue *levels)
{
    const struct jvalue *cs = jget(topo, "caches");
    if (!cs || cs->type != J_ARRAY || !cs->n) {
        section_absent(f, "No cache geometry in the manifest.");
        return;
    }
    fputs("<h3>Cache geometry: hwloc and the latency curve</h3>\n<table><thead><tr><th>level</th><th>hwloc size</th>"
          "<th>line</th><th>ways</th><th>shared by PUs</th><th>measured boundary</th><th>measured / hwloc</th>"
          "</tr></thead><tbody>\n", f);
    for (int i = 0; i < cs->n; i++) {
        const struct jvalue *c = &cs->items[i];
        const char *name = jget_str(c, "name", "?");
        double size = jget_num(c, "size", NAN), detected = NAN;
        /* penalties.json's curve levels are named L1, L2, L3; hwloc's L1 data cache is "L1d". */
        for (int k = 0; levels && levels->type == J_ARRAY && k < levels->n; k++) {
            const char *lv = jget_str(&levels->items[k], "level", "");
            if (*lv && !strncmp(name, lv, strlen(lv)) && jget_num(&levels->items[k], "detected_bytes", 0) > 0)
                detected = jget_num(&levels->items[k], "detected_bytes", NAN);
        }
        double ratio = detected / size;
        bool differs = !isnan(ratio) && (ratio < 0.5 || ratio > 2);
        fprintf(f, "<tr%s><td>", differs ? " class=\"regress\"" : "");
        html_text(f, name);
        fprintf(f, "</td><td class=\"num\" data-v=\"%.0f\">%.0f KiB</td><td class=\"num\">%.0f</td>"
                   "<td class=\"num\">%.0f</td><td class=\"num\">%.0f</td>", size, size / 1024,
                jget_num(c, "linesize", NAN), jget_num(c, "ways", NAN), jget_num(c, "shared_by_pus", NAN));
        if (isnan(detected))
            fputs("<td class=\"count\">not measured</td><td></td>", f);
        else
            fprintf(f, "<td class=\"num\">%.0f KiB</td><td class=\"num\">%.2f%s</td>", detected / 1024, ratio,
                    differs ? " (differs by more than 2&times;)" : "");
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

static void size_cell(FILE *f, double bytes)
{
    if (isnan(bytes) || bytes <= 0)
        fputs("<td class=\"count\">&mdash;</td>", f);
    else
        html_printf(f, "<td class=\"num\" data-v=\"%.0f\">%.0f KiB</td>", bytes, bytes / 1024);
}

/* The manifest's geometry record (hwloc, CPUID and the measured curve, per level, with the size
 * used and where it came from): the levels where they disagree are marked. */
static void geometry(FILE *f, const struct jvalue *g)
{
    const struct jvalue *lv = jget(g, "levels");
    fputs("<h3>Cache geometry: hwloc, CPUID and the measured curve (manifest)</h3>\n<table><thead><tr><th>level</th>"
          "<th>used</th><th>from</th><th>hwloc</th><th>ways</th><th>CPUID</th><th>measured boundary</th>"
          "<th>measured cycles</th><th>findings</th></tr></thead><tbody>\n", f);
    for (int i = 0; lv && lv->type == J_ARRAY && i < lv->n; i++) {
        const struct jvalue *l = &lv->items[i], *fi = jget(l, "findings");
        double hw = jget_num(l, "hwloc_bytes", NAN), me = jget_num(l, "measured_bytes", NAN), ratio = me / hw;
        const struct jvalue *plausible = jget(l, "hwloc_plausible");
        bool differs = (plausible && plausible->type == J_BOOL && !plausible->b) || (me > 0 && hw > 0 && (ratio < 0.5 || ratio > 2))
                       || (fi && fi->type == J_ARRAY && fi->n);
        fprintf(f, "<tr%s><td>", differs ? " class=\"regress\"" : "");
        html_text(f, jget_str(l, "level", "?"));
        fputs("</td>", f);
        size_cell(f, jget_num(l, "bytes", NAN));
        fputs("<td>", f);
        html_text(f, jget_str(l, "source", ""));
        fputs("</td>", f);
        size_cell(f, hw);
        html_printf(f, "<td class=\"num\">%.0f%s</td>", jget_num(l, "hwloc_ways", NAN),
                    plausible && plausible->type == J_BOOL && !plausible->b ? " (implausible)" : "");
        size_cell(f, jget_num(l, "cpuid_bytes", NAN));
        size_cell(f, me);
        fputs("<td class=\"num\">", f);
        html_num(f, jget_num(l, "measured_cycles", NAN));
        fputs("</td><td>", f);
        for (int k = 0; fi && fi->type == J_ARRAY && k < fi->n; k++) {
            fputs(k ? "<br>" : "", f);
            html_text(f, jget_str(&fi->items[k], "reason", ""));
            fputs(": ", f);
            html_text(f, jget_str(&fi->items[k], "detail", ""));
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    const char *note = jget_str(g, "curve", NULL);
    if (note) {
        fputs("<p class=\"count\">", f);
        html_text(f, note);
        fputs("</p>\n", f);
    }
}

/* A member that is an object: manifests of validate before "pmu_option" held "pmu" twice (the --pmu
 * option, then the host's PMU facts), and the facts are the object. */
static const struct jvalue *object_member(const struct jvalue *m, const char *key)
{
    for (int i = 0; m && m->type == J_OBJECT && i < m->n; i++)
        if (!strcmp(m->keys[i], key) && m->items[i].type == J_OBJECT)
            return &m->items[i];
    return NULL;
}

void sec_host(FILE *f, const struct runfile *r, int idx)
{
    const struct jvalue *m = r->manifest, *cpu = object_member(m, "cpu"), *pmu = object_member(m, "pmu");
    const struct jvalue *sw = object_member(m, "software");
    section_begin(f, "host", idx, "Host and versions");
    fputs("<div class=\"grid\"><div>", f);
    kv_begin(f);
    kv_row(f, "run folder", r->path);
    command_line(f, jget(m, "command"));
    kv_row(f, "date", jget_str(m, "date", NULL));
    kv_row(f, "host", jget_str(m, "host", jget_str(m, "hostname", NULL)));
    kv_row(f, "status", jget_str(m, "status", NULL));
    kv_row(f, "counter source", jget_str(m, "source", NULL));
    kv_row(f, "CPU", jget_str(cpu, "brand", NULL));
    if (cpu) {
        char fms[96];
        snprintf(fms, sizeof(fms), "%.0f / %.0f / %.0f", jget_num(cpu, "family", NAN), jget_num(cpu, "model", NAN),
                 jget_num(cpu, "stepping", NAN));
        kv_row(f, "vendor", jget_str(cpu, "vendor", NULL));
        kv_row(f, "family / model / stepping", fms);
    }
    kv_row(f, "libpfm4 PMU", jget_str(pmu, "libpfm4_pmu", pmu ? "(none: libpfm4 does not know this CPU)" : NULL));
    const struct jvalue *hw = jget(pmu, "hardware_usable");
    if (hw && hw->type == J_BOOL)
        kv_row(f, "hardware counting", hw->b ? "works" : jget_str(pmu, "hardware_reason", "does not work"));
    fputs("</tbody></table></div><div>", f);
    kv_begin(f);
    for (int i = 0; sw && sw->type == J_OBJECT && i < sw->n; i++)
        if (sw->items[i].type == J_STRING)
            kv_row(f, sw->keys[i], sw->items[i].str);
    if (!jget(sw, "pmucal"))
        kv_row(f, "pmucal", jget_str(m, "pmucal", NULL));
    const struct jvalue *clk = jget(m, "clocks");
    if (clk) {
        char s[64];
        snprintf(s, sizeof(s), "%.3f GHz (TSC %.3f GHz)", jget_num(clk, "core_hz", NAN) / 1e9,
                 jget_num(clk, "tsc_hz", NAN) / 1e9);
        kv_row(f, "core clock", s);
        kv_row(f, "cycles from", jget_str(clk, "cycles_source", NULL));
    }
    const struct jvalue *topo = jget(m, "topology");
    if (topo) {
        char s[96];
        snprintf(s, sizeof(s), "%.0f package(s), %.0f NUMA node(s), %.0f cores, %.0f PUs", jget_num(topo, "packages", NAN),
                 jget_num(topo, "numa_nodes", NAN), jget_num(topo, "cores", NAN), jget_num(topo, "pus", NAN));
        kv_row(f, "topology", s);
    }
    fputs("</tbody></table></div></div>\n", f);
    const struct jvalue *curve = jget(r->penalties, "curve"), *geo = object_member(topo, "geometry");
    if (geo && jget(geo, "levels"))
        geometry(f, geo);
    else
        caches(f, topo, jget(curve, "levels"));
    if (!curve && !(geo && jget(geo, "levels")))
        fputs("<p class=\"count\">Measured boundaries come from a calibrate run's latency curve; this run has none.</p>\n",
              f);
    fputs("<details><summary>The whole manifest</summary>\n", f);
    json_html(f, m, 0);
    fputs("</details>\n", f);
    section_end(f);
}
