/* HTML output: escaping (a run folder is untrusted), numbers, the page frame and sections. */
#include "report/report.h"
#include <math.h>
#include <stdarg.h>
#include <string.h>

extern const char report_css[], report_js[];

void html_text(FILE *f, const char *s)
{
    if (!s)
        return;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            /* Control characters are not allowed in HTML text; tab and newline are. */
            if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
                fputs("&#xFFFD;", f);
            else
                fputc(*p, f);
        }
    }
}

void html_printf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

void html_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("&mdash;", f);
    else if (v != 0 && fabs(v) < 0.01)
        fprintf(f, "%.3g", v);
    else if (fabs(v) >= 1e6)
        fprintf(f, "%.4g", v);
    else
        fprintf(f, "%.4f", v);
}

const char *verdict_class(enum verdict v)
{
    static const char *const n[VERDICTS] = {[VERDICT_OK] = "ok", [VERDICT_NOT_OK] = "nok", [VERDICT_SKIP] = "skip",
                                            [VERDICT_TODO] = "todo", [VERDICT_INFO] = "info"};
    return (unsigned)v < VERDICTS ? n[v] : "info";
}

void page_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          /* Nothing on this page may load from elsewhere: the policy says so to the browser too. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n<title>", f);
    html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_css);
}

void page_end(FILE *f)
{
    fprintf(f, "<footer>Written by pmucal report. One file, no network: inline CSS, JS and SVG.</footer>\n"
               "<script>\n%s</script>\n</body>\n</html>\n", report_js);
}

void section_begin(FILE *f, const char *id, int run_index, const char *title)
{
    fprintf(f, "<section class=\"sec\" id=\"%s-%d\" data-section=\"%s\">\n<h2>%s</h2>\n", id, run_index, id, title);
}

void section_end(FILE *f)
{
    fputs("</section>\n", f);
}

void section_absent(FILE *f, const char *what)
{
    fprintf(f, "<p class=\"absent\">%s</p>\n", what);
}
