/* Programs started without a shell (base/subprocess.c) and strings quoted for gnuplot: a quote,
 * $(...), backquotes or a newline in a path stay characters; nothing they spell runs. */
#include "base/subprocess.h"
#include "penalties/curve.h"
#include "tap.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Files whose name starts with "PWNED" in dir: what an injected 'touch' would leave. */
static int pwned_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += !strncmp(e->d_name, "PWNED", 5);
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    static const struct {
        int line;
        const char *in, *want;
    } quote[] = {
        {__LINE__, "plain", "'plain'"},
        {__LINE__, "it's", "'it''s'"},
        {__LINE__, "a\nsystem \"touch PWNED\"", "'a system \"touch PWNED\"'"},
        {__LINE__, "`touch PWNED` $(x) \\n", "'`touch PWNED` $(x) \\n'"},
        {__LINE__, "", "''"},
    };
    for (size_t i = 0; i < sizeof(quote) / sizeof(quote[0]); i++) {
        char *q = gnuplot_quote(quote[i].in);
        CHECK(!strcmp(q, quote[i].want), quote[i].line, "gnuplot_quote: got %s want %s", q, quote[i].want);
        free(q);
    }

    char tmpl[] = "/tmp/pmucal-subprocess.XXXXXX";
    const char *tmp = mkdtemp(tmpl);
    CHECK(tmp != NULL, __LINE__, "a scratch folder");
    if (!tmp)
        return done_testing();
    /* A folder whose name is everything a shell would act on. */
    char *weird = NULL;
    if (asprintf(&weird, "%s/q'x $(touch PWNED1) `touch PWNED2` ;touch PWNED3;\nsystem \"touch PWNED4\"", tmp) < 0)
        return 1;
    CHECK(mkdir(weird, 0755) == 0, __LINE__, "a folder with quotes, $(), backquotes and a newline in its name");

    char out[256];
    char *echo[] = {"printf", "%s", "a'b $(touch PWNED5) `touch PWNED6`", NULL};
    struct spawn_opts so = {.cwd = weird, .capture = out, .capture_size = sizeof(out), .timeout_ms = 10000};
    int rc = spawn_run(echo, &so);
    CHECK(rc == 0 && !strcmp(out, "a'b $(touch PWNED5) `touch PWNED6`"), __LINE__,
          "an argument reaches the program as it is (rc %d, got '%s')", rc, out);
    char *fail[] = {"false", NULL};
    CHECK(spawn_run(fail, NULL) == 1, __LINE__, "the exit status comes back (false: 1)");
    char *missing[] = {"pmucal-no-such-program", NULL};
    CHECK(spawn_run(missing, NULL) == SPAWN_NOT_STARTED, __LINE__, "a program not in PATH is SPAWN_NOT_STARTED");
    char *slow[] = {"sleep", "10", NULL};
    struct spawn_opts quick = {.timeout_ms = 100};
    CHECK(spawn_run(slow, &quick) == SPAWN_TIMED_OUT, __LINE__, "a time limit kills a program that overruns it");
    char *pwd[] = {"pwd", NULL};
    struct spawn_opts in_tmp = {.cwd = tmp, .capture = out, .capture_size = sizeof(out)};
    rc = spawn_run(pwd, &in_tmp);
    out[strcspn(out, "\n")] = '\0';
    CHECK(rc == 0 && !strcmp(out, tmp), __LINE__, "the program runs in the folder asked for (got '%s')", out);

    /* The latency curve's plot, drawn by gnuplot in that folder. */
    struct curve cv = {.n = 4};
    for (int i = 0; i < cv.n; i++) {
        cv.bytes[i] = 4096u << i;
        cv.cyc[i] = cv.lo[i] = cv.hi[i] = 4 + i;
        cv.ns[i] = 1 + i;
    }
    struct json doc;
    json_init(&doc);
    json_object_begin(&doc, NULL);
    curve_write(&cv, 1, weird, &doc);
    json_object_end(&doc);
    json_free(&doc);
    char *csv = NULL, *svg = NULL;
    if (asprintf(&csv, "%s/curve.csv", weird) < 0 || asprintf(&svg, "%s/curve.svg", weird) < 0)
        return 1;
    struct stat st;
    CHECK(stat(csv, &st) == 0 && st.st_size > 0, __LINE__, "curve.csv written into the folder");
    char *gp[] = {"gnuplot", "--version", NULL};
    if (spawn_run(gp, NULL) == 0)
        CHECK(stat(svg, &st) == 0 && st.st_size > 0, __LINE__, "gnuplot drew curve.svg in that folder");
    else
        printf("# gnuplot is not installed: curve.svg not checked\n");
    int pwned = pwned_in(weird) + pwned_in(tmp) + pwned_in(".");
    CHECK(pwned == 0, __LINE__, "nothing the folder's name spells ran (%d PWNED files)", pwned);

    char *rm[] = {"rm", "-rf", (char *)tmp, NULL};
    spawn_run(rm, NULL);
    free(weird);
    free(csv);
    free(svg);
    return done_testing();
}
