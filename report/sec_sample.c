/* A sampling run (pmucal sample): per (event, precise level) the sample map over the loop's
 * instructions (each instruction's weight in the model beside the samples it got, as a bar) and
 * the skid histogram. Shown only for runs of pmucal sample. */
#include "base/util.h"
#include "report/report.h"
#include <math.h>
#include <string.h>

enum { BAR = 240 };

static void bar(FILE *f, double v, double most, const char *cls)
{
    int w = most > 0 && v > 0 ? (int)lround(BAR * v / most) : 0;
    html_printf(f, "<svg width=\"%d\" height=\"12\" role=\"img\" aria-label=\"%.0f\"><rect class=\"%s\" x=\"0\" y=\"1\" "
                   "width=\"%d\" height=\"10\" fill=\"%s\"/></svg>", BAR, v, cls, w,
                strcmp(cls, "due") ? "#3b6fb6" : "#b0b0b0");
}

/* The instructions with their weight and samples; a bar of each against the largest. */
static void sample_map(FILE *f, const struct jvalue *rec)
{
    const struct jvalue *h = jget(rec, "histogram");
    if (!h || h->type != J_ARRAY || !h->n) {
        section_absent(f, "No sample map: the kernel states no instruction map for this case.");
        return;
    }
    double most = 0, total_w = 0, in = 0;
    for (int i = 0; i < h->n; i++) {
        most = fmax(most, jget_num(&h->items[i], "samples", 0));
        double w = jget_num(&h->items[i], "weight", 0);
        total_w += w > 0 ? w : 0;
        in += jget_num(&h->items[i], "samples", 0);
    }
    fputs("<table><thead><tr><th>inst</th><th>offset</th><th>what</th><th>weight</th><th>samples</th>"
          "<th>samples (blue), due by the weights (grey)</th></tr></thead><tbody>\n", f);
    for (int i = 0; i < h->n; i++) {
        const struct jvalue *x = &h->items[i];
        double w = jget_num(x, "weight", NAN), s = jget_num(x, "samples", 0);
        double due = total_w > 0 && w > 0 ? in * w / total_w : 0;
        html_printf(f, "<tr><td class=\"num\">%d</td><td class=\"num\">+%.0f</td><td>", i, jget_num(x, "offset", 0));
        html_text(f, jget_str(x, "what", "?"));
        fputs("</td><td class=\"num\">", f);
        html_num(f, w);
        html_printf(f, "</td><td class=\"num\">%.0f</td><td>", s);
        bar(f, s, fmax(most, due), "got");
        fputs("<br>", f);
        bar(f, due, fmax(most, due), "due");
        fputs("</td></tr>\n", f);
    }
    html_printf(f, "<tr><td colspan=\"4\">outside the loop</td><td class=\"num\">%.0f</td><td></td></tr></tbody></table>\n",
                jget_num(rec, "outside", 0));
}

static void skid_histogram(FILE *f, const struct jvalue *rec)
{
    const struct jvalue *d = jget(rec, "skid");
    if (!d || d->type != J_ARRAY || !d->n)
        return;
    double most = 0;
    for (int i = 0; i < d->n; i++)
        most = fmax(most, jnum(&d->items[i], 0));
    fputs("<table><thead><tr><th>skid (instructions)</th><th>samples</th><th></th></tr></thead><tbody>\n", f);
    for (int i = 0; i < d->n; i++) {
        html_printf(f, "<tr><td class=\"num\">%d</td><td class=\"num\">%.0f</td><td>", i, jnum(&d->items[i], 0));
        bar(f, jnum(&d->items[i], 0), most, "got");
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

void sec_sample(FILE *f, const struct runfile *r, int idx)
{
    const char *cmd = runfile_command(r->manifest);
    if (!cmd || strcmp(cmd, "sample"))
        return;
    section_begin(f, "sample", idx, "Samples: where they land");
    struct jvalue **recs;
    int n;
    if (sample_records_read(r->path, &recs, &n)) {
        section_absent(f, "No samples shown: measurements.ndjson is not readable as sampling records (the message says why).");
        section_end(f);
        return;
    }
    for (int i = 0; i < n; i++) {
        const struct jvalue *rec = recs[i], *v = jget(rec, "verdicts");
        fputs("<h3>", f);
        html_text(f, jget_str(rec, "case", "?"));
        fputs(" :: ", f);
        html_text(f, jget_str(rec, "event", "?"));
        html_printf(f, " precise_ip %.0f: %.0f samples x %.0f for a count of %.0f", jget_num(rec, "precise_ip", -1),
                    jget_num(rec, "samples", 0), jget_num(rec, "period", 0), jget_num(rec, "count", 0));
        static const char *const kinds[] = {"rate", "skid", "shadow"};
        for (int k = 0; k < 3; k++)
            if (jget_str(v, kinds[k], NULL)) {
                html_printf(f, "; %s ", kinds[k]);
                html_text(f, jget_str(v, kinds[k], ""));
            }
        fputs("</h3>\n", f);
        sample_map(f, rec);
        skid_histogram(f, rec);
    }
    measurements_free(recs, n);
    section_end(f);
}
