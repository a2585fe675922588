#include "events/catalog.h"
#include "arch/isa.h"
#include "base/gzfile.h"
#include "base/util.h"
#include "events/perfsyntax.h"
#include "host/uarch.h"
#include "events/pfm.h"
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* libpfm4 PMU names beside the tables' folder names (eventdata/README.md). */
static const struct {
    const char *pfm, *table;
} model_names[] = {
    {"skl", "SKL"}, {"skx", "SKX"}, {"icl", "ICL"}, {"icx", "ICX"}, {"spr", "SPR"}, {"hsw", "HSW"},
    {"bdw", "BDW"}, {"snb", "SNB"}, {"ivb", "IVB"}, {"wsm_dp", "WSM-EP-DP"},
    {"amd64_fam17h_zen2", "amdzen2"}, {"amd64_fam19h_zen3", "amdzen3"}, {"amd64_fam19h_zen4", "amdzen4"},
};

/* Models this libpfm4 (Debian's 4.13) has no core PMU for, which its later releases cover: encoded
 * here through the vendor table, and said so. */
static const struct {
    const char *table, *note;
} libpfm4_successors[] = {
    {"EMR", "libpfm4 4.13's spr PMU matches Sapphire Rapids (model 0x8F) only; later libpfm4 maps Emerald Rapids "
            "(0xCF) onto that spr table. Until then its events are encoded through the vendor table EMR"},
    {"GNR", "libpfm4 4.13 has no Granite Rapids PMU; later libpfm4 adds one (gnr) for models 0xAD and 0xAE. Until "
            "then its events are encoded through the vendor table GNR"},
};

const char *catalog_libpfm4_note(const char *table)
{
    for (size_t i = 0; table && i < ARRAY_SIZE(libpfm4_successors); i++)
        if (!strcmp(libpfm4_successors[i].table, table))
            return libpfm4_successors[i].note;
    /* libpfm4 knows the model, and LIBPFM_DISABLED_PMUS hides it: said, so "libpfm4 knows no
     * core PMU" is not taken for libpfm4's own word. */
    static char hidden[1700];
    const char *pfm = catalog_pfm_of_table(table), *why = pfm ? pfm_no_pmu_why(pfm) : "";
    if (pfm && !strncmp(why, "LIBPFM_DISABLED_PMUS", 20)) {
        snprintf(hidden, sizeof(hidden), "libpfm4's PMU for it, %s, is hidden: %s", pfm, why);
        return hidden;
    }
    return NULL;
}

const char *catalog_table_of_pfm(const char *pfm)
{
    for (size_t i = 0; pfm && i < ARRAY_SIZE(model_names); i++)
        if (!strcmp(model_names[i].pfm, pfm))
            return model_names[i].table;
    return NULL;
}

const char *catalog_pfm_of_table(const char *table)
{
    for (size_t i = 0; table && i < ARRAY_SIZE(model_names); i++)
        if (!strcasecmp(model_names[i].table, table))
            return model_names[i].pfm;
    return NULL;
}

/* A RISC-V signature (two '-' between 0x numbers) against an Arm MIDR (one 0x number). */
static bool is_riscv_signature(const char *sig)
{
    return !strncmp(sig, "0x", 2) && strchr(sig, '-');
}

bool cpu_signature(char *sig, size_t n, char *how, size_t hn)
{
    const char *env = getenv("PMUCAL_CPUID");
    uint64_t rv[3];
    if (env && is_riscv_signature(env)) {   /* mvendorid-marchid-mimpid, as perf's riscv mapfile keys it */
        if (!riscv_signature_parse(env, rv, sig, n)) {
            if (how)
                snprintf(how, hn, "PMUCAL_CPUID=%s is not a RISC-V mvendorid-marchid-mimpid (three 0x hex numbers "
                         "of at most 64 bits joined by '-', e.g. 0x489-0x8000000000000007-0x0)", env);
            return false;
        }
        if (how)
            snprintf(how, hn, "PMUCAL_CPUID");
        return true;
    }
    if (env && !strncmp(env, "0x", 2)) {   /* an Arm MIDR, as perf's arm64 mapfile spells it */
        char *end;
        unsigned long long midr = strtoull(env, &end, 16);
        if (*end || end == env + 2 || midr > 0xffffffffull) {
            if (how)
                snprintf(how, hn, "PMUCAL_CPUID=%s is not an Arm MIDR (0x414fd0c1), a RISC-V mvendorid-marchid-mimpid "
                         "(0x489-0x8000000000000007-0x0) nor VENDOR-FAMILY-MODEL", env);
            return false;
        }
        snprintf(sig, n, "0x%016llx", midr);
        if (how)
            snprintf(how, hn, "PMUCAL_CPUID");
        return true;
    }
    if (env && *env) {
        char vendor[16];
        unsigned family, model, step;
        int end = 0;
        int k = sscanf(env, "%15[A-Za-z]-%u-%x%n-%x%n", vendor, &family, &model, &end, &step, &end);
        if (k < 3 || env[end]) {
            if (how)
                snprintf(how, hn, "PMUCAL_CPUID=%s is not VENDOR-FAMILY-MODEL[-STEPPING] (family decimal, model "
                         "and stepping hex), e.g. AuthenticAMD-26-2 or GenuineIntel-6-55-4", env);
            return false;
        }
        snprintf(sig, n, "%s", env);
        if (how)
            snprintf(how, hn, "PMUCAL_CPUID");
        return true;
    }
    return isa_cpu_signature(sig, n, how, hn);
}

int cpu_signature_env_check(void)
{
    const char *env = getenv("PMUCAL_CPUID");
    char sig[64], how[300];
    if (!env || cpu_signature(sig, sizeof(sig), how, sizeof(how)))
        return 0;
    pm_error("%s; fix it or unset PMUCAL_CPUID", how);
    return -1;
}

const char *catalog_root(void)
{
    static char root[4096];
    const char *env = getenv("PMUCAL_EVENTDATA");
    if (env && *env)
        return env;
    /* The tables ship with pmucal: eventdata/ of the source tree the binary runs from (bin/pmucal
     * or build/<kind>/pmucal: the tree has validate/expect), else PREFIX/share/pmucal/eventdata
     * beside an installed PREFIX/bin/pmucal. */
    static const struct {
        const char *tree, *data;
    } places[] = {{"../validate/expect", "../eventdata"},
                  {"../../validate/expect", "../../eventdata"},
                  {NULL, "../share/pmucal/eventdata"}};
    for (size_t i = 0; i < ARRAY_SIZE(places); i++) {
        char *tree = places[i].tree ? exe_relative(places[i].tree) : NULL, *real = NULL;
        struct stat st;
        if ((tree || !places[i].tree) && (real = exe_relative(places[i].data)) && !stat(real, &st) &&
            S_ISDIR(st.st_mode) && strlen(real) < sizeof(root)) {
            snprintf(root, sizeof(root), "%s", real);
            free(real);
            free(tree);
            return root;
        }
        free(real);
        free(tree);
    }
    return "PREFIX/share/pmucal/eventdata";
}

/* Where each vendor's mapfile.csv sits under a root, in the layouts the tables come in: pmucal's
 * own (eventdata/amd, /intel, /arm), a Linux checkout's tools/perf/pmu-events/arch (x86/, arm64/;
 * perf's x86 mapfile names AMD's and Intel's folders alike), and a root that is itself one such
 * folder: Linux's arch/x86 or arch/arm64, or an Intel perfmon checkout. */
static const struct {
    const char *vendor, *subs[3];
} layouts[] = {
    {"amd", {"amd", "x86", ""}},
    {"intel", {"intel", "", "x86"}},
    {"arm", {"arm", "arm64", ""}},
    {"riscv", {"riscv"}},   /* pmucal's layout and a Linux tree's arch alike */
};

char *catalog_vendor_dir(const char *vendor, int k)
{
    const char *roots = catalog_root();
    for (size_t v = 0; v < ARRAY_SIZE(layouts); v++) {
        if (strcmp(layouts[v].vendor, vendor))
            continue;
        int seen = 0;
        for (const char *r = roots; *r;) {
            size_t rlen = strcspn(r, ":");
            for (size_t s = 0; rlen && s < ARRAY_SIZE(layouts[v].subs) && layouts[v].subs[s]; s++) {
                const char *sub = layouts[v].subs[s];
                char *dir = xasprintf("%.*s%s%s", (int)rlen, r, *sub ? "/" : "", sub);
                char *map = xasprintf("%s/mapfile.csv", dir);
                struct stat st;
                bool have = !stat(map, &st) && S_ISREG(st.st_mode);
                free(map);
                if (have && seen++ == k)
                    return dir;
                free(dir);
            }
            r += rlen + (r[rlen] == ':');
        }
    }
    return NULL;
}

/* perf's x86 rule for a mapfile row: a regular expression matching the whole signature; a row
 * without a stepping is matched against the signature without its stepping. */
static bool row_matches(const char *re_text, const char *sig)
{
    int row_dashes = 0, sig_dashes = 0;
    for (const char *p = re_text; *p; p++)
        row_dashes += *p == '-';
    /* perf counts the row's dashes as they stand: exactly 3 is a row with a stepping; a range's
     * dash inside brackets ("[0-9A-F]") makes more, and such a row has none (amdzen1's). */
    bool row_stepping = row_dashes == 3;
    char id[128];
    snprintf(id, sizeof(id), "%s", sig);
    for (char *p = id; *p; p++)
        if (*p == '-' && ++sig_dashes == 3 && !row_stepping)
            *p = '\0';
    if (row_stepping && sig_dashes < 3)
        return false;
    regex_t re;
    if (regcomp(&re, re_text, REG_EXTENDED))
        return false;
    regmatch_t m;
    bool ok = !regexec(&re, id, 1, &m, 0) && m.rm_so == 0 && (size_t)m.rm_eo == strlen(id);
    regfree(&re);
    return ok;
}

/* perf's riscv rule (its strcmp_cpuid_str): the row, a regular expression, matches the whole
 * signature. A row must begin with its literal mvendorid (every upstream row does, "0x489-"): a
 * pattern there would claim other vendors' CPUs. 1 matches, 0 not, -1 a malformed row (why). */
static int riscv_row_matches(const char *row, const char *sig, char *why, size_t n)
{
    size_t lit = strncmp(row, "0x", 2) ? 0 : strspn(row + 2, "0123456789abcdefABCDEF");
    if (!lit || row[2 + lit] != '-') {
        snprintf(why, n, "does not begin with a literal mvendorid (0x489-...): a pattern there matches other vendors' "
                 "CPUs; write the JEDEC vendor id as a hex number");
        return -1;
    }
    regex_t re;
    int e = regcomp(&re, row, REG_EXTENDED);
    if (e) {
        char msg[128];
        regerror(e, &re, msg, sizeof(msg));
        snprintf(why, n, "is not a regular expression (%s)", msg);
        return -1;
    }
    regmatch_t m;
    bool ok = !regexec(&re, sig, 1, &m, 0) && m.rm_so == 0 && (size_t)m.rm_eo == strlen(sig);
    regfree(&re);
    return ok;
}

/* perf's arm64 rule: a row's MIDR equals the signature's, where the row's variant (23:20) and
 * revision (3:0) are zero ignoring the signature's. */
static bool midr_row_matches(const char *row, const char *sig)
{
    char *end;
    unsigned long long r = strtoull(row, &end, 16), s = strtoull(sig, NULL, 16);
    if (*end || strncmp(row, "0x", 2))
        return false;
    unsigned long long ignore = (r & 0xf0000full) ? 0 : 0xf0000full;
    return (r & ~ignore) == (s & ~ignore);
}

char *catalog_table_name(const char *path)
{
    char *copy = xstrdup(path);
    size_t len = strlen(copy);
    while (len > 1 && copy[len - 1] == '/')
        copy[--len] = '\0';
    struct stat st;
    if (!stat(copy, &st) && !S_ISDIR(st.st_mode) && strrchr(copy, '/'))
        *strrchr(copy, '/') = '\0';   /* a file: its folder names the table */
    char *base = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
    if (!strcmp(base, "events") && base > copy + 1) {   /* Intel: SKL/events */
        base[-1] = '\0';
        base = strrchr(copy, '/') ? strrchr(copy, '/') + 1 : copy;
    }
    char *name = xstrdup(base);
    free(copy);
    return name;
}

/* The model's programmable core counters: what CPUID states (AMD's PerfMonV2 or PerfCtrExtCore,
 * Intel's architectural PMU leaf: arch/isa.h), else on AMD the table's model (every Zen core has
 * six), else the tables' Counter lists. */
static void count_counters(struct catalog *c, bool cpuid_is_this_cpu)
{
    bool amd = !strncmp(c->name, "amd", 3);
    const char *how;
    int n = cpuid_is_this_cpu ? isa_pmu_counters(amd, &how) : 0;
    if (n) {
        c->counters = n;
        c->counters_how = xstrdup(how);
        return;
    }
    if (c->vt.riscv) {   /* RISC-V tables list no counters; the SBI PMU says how many at boot */
        c->counters = 4;
        c->counters_how = xasprintf("%s: RISC-V tables name no counters; 4 assumed (the kernel's riscv-pmu-sbi "
                                    "states the hardware counters at boot)", c->name);
        return;
    }
    if (amd) {
        c->counters = 6;
        c->counters_how = xasprintf("%s: six core counters on every Zen core (CPUID gives no count here)", c->name);
        return;
    }
    int top = 0;
    for (int k = 0; k < c->vt.n; k++)
        for (int b = 31; b >= top; b--)
            if (c->vt.ev[k].counters & (1u << b)) {
                top = b + 1;
                break;
            }
    c->counters = top ? top : 4;
    c->counters_how = top ? xasprintf("%s: the events' Counter lists", c->name)
                          : xasprintf("%s: no Counter lists; 4, the architectural minimum", c->name);
}

/* A RISC-V CPU no mapfile row names (QEMU's virt machine: mvendorid 0) still has the SBI PMU's
 * firmware events, as every riscv-pmu-sbi host does: its catalog is that table. 1 loaded, -1 not. */
static int load_riscv_firmware(struct catalog *c, const char *dir, const char *sig, const char *map)
{
    char *named = xasprintf("%s/%s", dir, VENDOR_RISCV_FIRMWARE_FILE), *path = path_or_gz(named);
    int rc = -1;
    if (!path)
        pm_error("%s: no %s beside %s; refresh the RISC-V tables (%s)", dir, VENDOR_RISCV_FIRMWARE_FILE, map,
                 CATALOG_WHERE);
    else if (!vendor_load(&c->vt, path)) {
        c->path = xstrdup(path);
        c->name = xstrdup("riscv");   /* the architecture's table: riscv/riscv-sbi-firmware.json */
        c->how = xasprintf("no row of %s matches %s: the SBI PMU's firmware events, which every RISC-V CPU "
                           "with an SBI PMU has", map, sig);
        rc = 1;
    }
    free(path);
    free(named);
    return rc;
}

/* Rows of DIR/mapfile.csv matching sig: perf's format names a folder, Intel's a file. 1 loaded,
 * 0 no row matches or what it names is not there (why), -1 a malformed table. */
static int load_by_mapfile(struct catalog *c, const char *vendor, const char *dir, const char *sig, char *why,
                           size_t n)
{
    char *map = xasprintf("%s/mapfile.csv", dir);
    char err[512];
    size_t len;
    char *text = read_file_bounded(map, INPUT_FILE_MAX, &len, err, sizeof(err));
    int rc = 0;
    if (!text) {
        snprintf(why, n, "%s", err);
        free(map);
        return 0;
    }
    char *first_row = NULL, *next = NULL, *other_types = NULL;
    int line_no = 0;
    for (char *line = text; rc >= 0 && line && *line; line = next) {
        line_no++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line[strcspn(line, "\r")] = '\0';
        /* Family-model, Version, Filename, EventType, and on Intel's: Core Type, Native Model ID, Core
         * Role Name (empty fields kept in place). */
        char *cols[7] = {0}, *rest = line;
        int k = 0;
        while (rest && k < 7)
            cols[k++] = strsep(&rest, ",");
        bool arm = !strcmp(vendor, "arm"), riscv = !strcmp(vendor, "riscv");
        if (k < 4 || !strcmp(cols[0], "Family-model") || cols[0][0] == '#')
            continue;
        char bad[256];
        int m = riscv ? riscv_row_matches(cols[0], sig, bad, sizeof(bad))
                      : arm ? midr_row_matches(cols[0], sig) : row_matches(cols[0], sig);
        if (m < 0) {
            pm_error("%s line %d: row '%s' %s", map, line_no, cols[0], bad);
            rc = -1;
            break;
        }
        if (!m)
            continue;
        bool hybrid = !strcmp(cols[3], "hybridcore");
        if (strcmp(cols[3], "core") && strcmp(cols[3], "offcore") && strcmp(cols[3], "fp_arith_inst") && !hybrid)
            continue;   /* uncore, metrics: not core events */
        if (first_row && strcmp(first_row, cols[0]))
            break;      /* perf takes the first row that matches */
        /* A hybrid part's rows name one table per core type; the performance cores' (perf's
         * cpu_core) is the catalog, the others' (cpu_atom) are named in how. */
        if (hybrid && (k < 7 || strcmp(cols[6], "Core"))) {
            char *named = xasprintf("%s/%s", dir, cols[2][0] == '/' ? cols[2] + 1 : cols[2]), *have = path_or_gz(named);
            char *more = xasprintf("%s; its %s cores (perf's cpu_atom) have %s", other_types ? other_types : "",
                                   k < 7 ? "other" : cols[6], have ? have : named);
            free(named);
            free(have);
            free(other_types);
            other_types = more;
            continue;
        }
        char *named = xasprintf("%s/%s", dir, cols[2][0] == '/' ? cols[2] + 1 : cols[2]);
        char *path = path_or_gz(named);   /* perfmon names NAME.json; pmucal ships NAME.json.gz */
        if (!path) {
            snprintf(why, n, "%s row '%s' names %s, which is not there (nor %s.gz) (%s)", map, cols[0], named, named,
                     CATALOG_WHERE);
            free(named);
            break;
        }
        free(named);
        if (!first_row) {
            first_row = xstrdup(cols[0]);
            c->path = xstrdup(path);
            c->name = catalog_table_name(path);
            c->how = xasprintf("CPUID %s matches row '%s' of %s%s", sig, cols[0], map,
                               hybrid ? " (a hybrid part: the table of its Core cores, perf's cpu_core)" : "");
        }
        rc = vendor_load(&c->vt, path) ? -1 : 1;
        free(path);
    }
    if (rc == 0 && !first_row && !strcmp(vendor, "riscv"))
        rc = load_riscv_firmware(c, dir, sig, map);
    else if (!first_row && !why[0] && rc == 0)
        snprintf(why, n, "no row of %s matches CPUID %s (%s)", map, sig, CATALOG_WHERE);
    if (rc > 0 && other_types) {
        char *how = xasprintf("%s%s", c->how, other_types);
        free(c->how);
        c->how = how;
    }
    free(first_row);
    free(other_types);
    free(text);
    free(map);
    return rc;
}

int catalog_for_signature(struct catalog *c, const char *sig, char *why, size_t n)
{
    memset(c, 0, sizeof(*c));
    why[0] = '\0';
    const char *vendor = !strncmp(sig, "AuthenticAMD", 12) || !strncmp(sig, "HygonGenuine", 12) ? "amd"
                         : !strncmp(sig, "GenuineIntel", 12) ? "intel"
                         : is_riscv_signature(sig)            ? "riscv"
                         : !strncmp(sig, "0x", 2)             ? "arm"
                                                              : NULL;
    if (!vendor) {
        snprintf(why, n, "no vendor tables for CPUID %s (AMD, Intel, Arm MIDRs and RISC-V mvendorid-marchid-mimpid "
                 "only)", sig);
        return 0;
    }
    int rc = 0;
    char *dir;
    for (int k = 0; rc == 0 && (dir = catalog_vendor_dir(vendor, k)); k++) {
        char miss[1024] = "";
        rc = load_by_mapfile(c, vendor, dir, sig, miss, sizeof(miss));
        if (rc == 0) {
            catalog_free(c);   /* a later folder may hold the table: keep the first folder's reason */
            if (!why[0])
                snprintf(why, n, "%s", miss);
        }
        free(dir);
    }
    if (rc == 0 && !why[0])
        snprintf(why, n, "no %s event tables (no mapfile.csv in any layout) under %s: %s", vendor, catalog_root(),
                 CATALOG_WHERE);
    if (rc > 0) {
        why[0] = '\0';
        count_counters(c, !getenv("PMUCAL_CPUID"));
    } else
        catalog_free(c);
    return rc;
}

char *catalog_table_path(const char *name)
{
    if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return NULL;
    for (size_t v = 0; v < ARRAY_SIZE(layouts); v++) {
        char *dir;
        for (int k = 0; (dir = catalog_vendor_dir(layouts[v].vendor, k)); k++) {
            /* Arm's tables sit one folder down, by core vendor (perf's arch/arm64/arm/neoverse-n1). */
            char *p = xasprintf("%s%s/%s", dir, strcmp(layouts[v].vendor, "arm") ? "" : "/arm", name);
            struct stat st;
            free(dir);
            if (!stat(p, &st) && S_ISDIR(st.st_mode))
                return p;
            free(p);
        }
    }
    return NULL;
}

char *catalog_path_of(const char *arg)
{
    struct stat st;
    if (!stat(arg, &st) || strchr(arg, '/'))
        return xstrdup(arg);   /* a path: vendor_load says what is wrong with it */
    char *path = catalog_table_path(arg);
    if (!path)
        pm_error("'%s' is neither a path nor a table under %s (amdzen4, amdzen5, SKL, ...); give a JSON file or "
                 "folder: %s", arg, catalog_root(), CATALOG_WHERE);
    return path;
}

int catalog_load(struct catalog *c, const char *arg)
{
    memset(c, 0, sizeof(*c));
    c->path = catalog_path_of(arg);
    if (!c->path || vendor_load(&c->vt, c->path)) {
        catalog_free(c);
        return -1;
    }
    c->name = catalog_table_name(c->path);
    c->how = xasprintf("named: %s", c->path);
    count_counters(c, false);
    return 0;
}

void catalog_adopt(struct catalog *c, struct vendor_table *vt, const char *path)
{
    memset(c, 0, sizeof(*c));
    c->vt = *vt;
    c->borrowed = true;
    c->path = xstrdup(path);
    c->name = catalog_table_name(path);
    c->how = xasprintf("--vendor-json %s", path);
    count_counters(c, false);
}

void catalog_free(struct catalog *c)
{
    if (!c->borrowed)
        vendor_free(&c->vt);
    free(c->name);
    free(c->path);
    free(c->how);
    free(c->counters_how);
    memset(c, 0, sizeof(*c));
}

static const struct catalog *active;
static struct catalog host;
static int host_state;   /* 0 untried, 1 loaded, -1 none */
static char host_why[512];

static void free_host(void)
{
    catalog_free(&host);
}

void catalog_set_active(const struct catalog *c)
{
    active = c;
}

/* Why the host table's events are never counted here: PMUCAL_CPUID named a CPU of another ISA
 * than this build's (an Arm MIDR on x86-64, an x86 signature on AArch64), whose event numbers
 * would be programmed as this CPU's own ("" when it is this ISA's). */
static char foreign_why[400];

static void note_foreign(const char *sig, const char *how)
{
    const char *isa = is_riscv_signature(sig) ? "RISC-V" : !strncmp(sig, "0x", 2) ? "AArch64" : "x86-64";
#if defined(__riscv)
    const char *build = "RISC-V";
#elif defined(__aarch64__)
    const char *build = "AArch64";
#else
    const char *build = "x86-64";
#endif
    if (strcmp(how, "PMUCAL_CPUID") || !strcmp(isa, build))
        return;
    snprintf(foreign_why, sizeof(foreign_why), "PMUCAL_CPUID=%s is %s, and this pmucal is built for %s: the table %s "
             "speaks for that CPU's perf, its encodings are never counted here", getenv("PMUCAL_CPUID"),
             !strcmp(isa, "RISC-V") ? "a RISC-V CPU's mvendorid-marchid-mimpid"
             : !strcmp(isa, "AArch64") ? "an Arm CPU's MIDR" : "an x86 CPU's signature", ISA_NAME, host.name);
    pm_note("%s (they are listed and grouped for such a CPU; measured here each is unsupported, with this reason)",
            foreign_why);
}

static const struct catalog *host_catalog(void)
{
    if (!host_state) {
        char sig[128], how[512];
        host_state = -1;
        if (!cpu_signature(sig, sizeof(sig), how, sizeof(how)))
            snprintf(host_why, sizeof(host_why), "%s", how);
        else if (catalog_for_signature(&host, sig, host_why, sizeof(host_why)) > 0) {
            host_state = 1;
            atexit(free_host);
            note_foreign(sig, how);
        }
    }
    return host_state > 0 ? &host : NULL;
}

const struct catalog *catalog_active(char *why, size_t n)
{
    if (active)
        return active;
    const struct catalog *c = host_catalog();
    if (!c && why)
        snprintf(why, n, "%s", host_why);
    return c;
}

int catalog_resolve(const char *name, struct event_spec *spec, char *err, size_t n)
{
    const struct catalog *c = catalog_active(NULL, 0);
    if (!c)
        return 0;
    size_t base = strcspn(name, ":");
    char *bare = xasprintf("%.*s", (int)base, name);
    const struct vendor_event *v = vendor_find(&c->vt, bare);
    if (!v)
        v = vendor_find_uncore(&c->vt, bare);
    free(bare);
    if (!v)
        return 0;
    if (perf_modifiers(name + base, spec, err, n))
        return -1;
    vendor_event_spec(v, spec);
    if (v->unit) {   /* an uncore unit counts at every privilege level: :u/:k do not apply */
        spec->count_kernel = true;
        spec->exclude_user = false;
    }
    spec->canonical = xstrdup(v->name);
    if (c == &host && foreign_why[0] && !spec->unsupported)
        spec->unsupported = xstrdup(foreign_why);
    return 1;
}

const char *catalog_event_name(const struct event_spec *spec)
{
    if (spec->type != 4 /* PERF_TYPE_RAW */)
        return NULL;
    const struct catalog *c = catalog_active(NULL, 0);
    const struct vendor_event *v = c ? vendor_match(&c->vt, spec) : NULL;
    if (!v && c != host_catalog() && host_catalog())
        v = vendor_match(&host.vt, spec);
    return v ? v->name : NULL;
}

void catalog_note_other_model(const char *pmu)
{
    struct pfm_core host;
    char sig[128] = "?", why[512] = "";
    if (!pfm_pmu_by_name(pmu, &host))
        return;   /* no such PMU: pfm_force says so */
    if (pfm_core_pmu(&host)) {
        if (strcmp(host.name, pmu))
            pm_note("--pmu %s is another CPU's PMU, not this host's (libpfm4 detects %s); the verdicts speak for %s's "
                    "encodings", pmu, host.name, pmu);
        return;
    }
    cpu_signature(sig, sizeof(sig), NULL, 0);
    const struct catalog *c = catalog_active(why, sizeof(why));
    const char *same = c ? catalog_pfm_of_table(c->name) : NULL;
    if (!same || strcmp(same, pmu))
        pm_note("--pmu %s is another CPU's PMU, not this host's (CPUID %s%s%s, which libpfm4 does not know); the verdicts "
                "speak for %s's encodings", pmu, sig, c ? ": the vendor table " : "", c ? c->name : "", pmu);
}
