#include "events/pfm.h"
#include "base/util.h"
#include "events/perfsyntax.h"
#include "events/uncore.h"
#include <errno.h>
#include <linux/perf_event.h>
#if PMUCAL_PFM
#include <link.h>
#include <perfmon/pfmlib_perf_event.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Everything that asks libpfm4, down to pfm_each_event; events/pfm_none.c answers for a build
 * without it (PFM=0). */
#if PMUCAL_PFM
static int state; /* 0 untried, 1 ok, -1 failed */
static const char *forced(void);

bool pfm_ready(void)
{
    if (!state) {
        /* A forced model's uncore units are not on this host: encoded all the same (encode_uncore) */
        if (forced())
            setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
        int rc = pfm_initialize();
        state = rc == PFM_SUCCESS ? 1 : -1;
        if (state < 0)
            pm_error("libpfm4 failed to initialize: %s", pfm_strerror(rc));
    }
    return state > 0;
}

static void fill_core(pfm_pmu_t p, const pfm_pmu_info_t *info, struct pfm_core *out)
{
    out->name = info->name;
    out->desc = info->desc;
    out->pmu = (int)p;
    out->counters = info->num_cntrs;
    out->fixed_counters = info->num_fixed_cntrs;
    out->events = info->nevents;
}

/* libpfm4 keeps a PMU it once activated marked present after pfm_terminate(), so when a PMU was
 * forced the forced one is the answer, not the first present one. */
static const char *forced(void)
{
    const char *f = getenv("LIBPFM_FORCE_PMU");
    return f && *f && !strchr(f, ',') ? f : NULL;
}

bool pfm_core_pmu(struct pfm_core *out)
{
    memset(out, 0, sizeof(*out));
    if (!pfm_ready())
        return false;
    if (forced() && pfm_pmu_by_name(forced(), out))
        return true;
    pfm_pmu_info_t info;
    pfm_pmu_t p;
    pfm_for_all_pmus(p) {
        memset(&info, 0, sizeof(info));
        info.size = sizeof(info);
        if (pfm_get_pmu_info(p, &info) == PFM_SUCCESS && info.is_present && info.type == PFM_PMU_TYPE_CORE) {
            fill_core(p, &info, out);
            return true;
        }
    }
    return false;
}

/* libpfm4's PMU of that name, present here or not, into *p and *info. */
static bool pmu_named(const char *name, pfm_pmu_t *p, pfm_pmu_info_t *info)
{
    pfm_for_all_pmus(*p) {
        memset(info, 0, sizeof(*info));
        info->size = sizeof(*info);
        if (pfm_get_pmu_info(*p, info) == PFM_SUCCESS && !strcmp(info->name, name))
            return true;
    }
    return false;
}

const char *pfm_no_pmu_why(const char *name)
{
    static char why[1600];
    const char *d = getenv("LIBPFM_DISABLED_PMUS");
    char **items = d ? split_list(d, ',', NULL) : NULL;
    snprintf(why, sizeof(why), "libpfm4 has no such PMU; examples: skl, icx, spr, amd64_fam19h_zen4");
    /* libpfm4 leaves out every PMU whose name holds one of the list's items. */
    for (int i = 0; items && items[i]; i++)
        if (strstr(name, items[i])) {
            snprintf(why, sizeof(why), "LIBPFM_DISABLED_PMUS=%.200s disables it (libpfm4 leaves out every PMU whose "
                     "name holds one of its items, here '%.64s'); take it out of LIBPFM_DISABLED_PMUS", d, items[i]);
            break;
        }
    free_list(items);
    return why;
}

/* LIBPFM_DISABLED_PMUS: items of a PMU name's letters, digits and '_' ("skl, icl" would hold
 * " icl", which libpfm4 matches against no name: the setting would be ignored in silence). */
static int disabled_check(void)
{
    const char *d = getenv("LIBPFM_DISABLED_PMUS");
    if (!d)
        return 0;
    size_t len = strlen(d), plain = strspn(d, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_,");
    if (len > 1024 || plain != len) {
        pm_error("LIBPFM_DISABLED_PMUS=%.64s%s: not a list of libpfm4 PMU names (names of letters, digits and '_' "
                 "separated by ',' without spaces, e.g. skl,amd64_fam19h_zen4)%s; fix it or unset LIBPFM_DISABLED_PMUS",
                 d, len > 64 ? "..." : "", len > 1024 ? ", at most 1024 characters" : "");
        return -1;
    }
    return 0;
}

int pfm_env_check(void)
{
    const char *f = getenv("LIBPFM_FORCE_PMU");
    if (disabled_check())
        return -1;
    if (!f || !*f)
        return 0;
    size_t len = strlen(f), plain = strspn(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
    pfm_pmu_t p;
    pfm_pmu_info_t info;
    if (len > PFM_ENV_MAX_NAME || plain != len) {
        pm_error("LIBPFM_FORCE_PMU=%.64s%s: not a libpfm4 PMU name (one name of letters, digits and '_', at most %d "
                 "characters, e.g. skl or amd64_fam19h_zen4); fix it or unset LIBPFM_FORCE_PMU", f,
                 len > 64 ? "..." : "", PFM_ENV_MAX_NAME);
        return -1;
    }
    if (pfm_ready() && !pmu_named(f, &p, &info)) {
        if (strncmp(pfm_no_pmu_why(f), "libpfm4 has no", 14))
            pm_error("LIBPFM_FORCE_PMU=%s: %s", f, pfm_no_pmu_why(f));
        else
            pm_error("LIBPFM_FORCE_PMU=%s: libpfm4 has no PMU by that name ('pmucal events --pmu NAME' takes the same "
                     "names: skl, icx, spr, amd64_fam19h_zen4 ...); fix it or unset LIBPFM_FORCE_PMU", f);
        return -1;
    }
    return 0;
}

bool pfm_pmu_by_name(const char *name, struct pfm_core *out)
{
    memset(out, 0, sizeof(*out));
    pfm_pmu_info_t info;
    pfm_pmu_t p;
    if (!pfm_ready() || !pmu_named(name, &p, &info))
        return false;
    fill_core(p, &info, out);
    return true;
}

/* The libpfm4 type (PFM_PMU_TYPE_*) of the PMU that name's "pmu::" prefix names, its name in pmu
 * and whether libpfm4 found it here in *present; -1 when there is no prefix or no such PMU. */
static int prefix_pmu_type(const char *name, char *pmu, size_t n, bool *present)
{
    *present = false;
    const char *colons = strstr(name, "::");
    if (!colons || (size_t)(colons - name) >= n)
        return -1;
    snprintf(pmu, n, "%.*s", (int)(colons - name), name);
    pfm_pmu_info_t info;
    pfm_pmu_t p;
    if (!pmu_named(pmu, &p, &info))
        return -1;
    *present = info.is_present;
    return (int)info.type;
}

/* A libpfm4 uncore event ("skx_unc_imc0::UNC_M_CAS_COUNT:RD"): the unit's raw code (event 7:0,
 * umask 15:8, as the kernel's uncore_imc takes it in config) and its sysfs stem; each instance's
 * type comes from sysfs when it opens (events/uncore.h). libpfm4 encodes an uncore PMU the OS
 * does not export only raw, and only with LIBPFM_ENCODE_INACTIVE (pfm_ready sets it for a forced
 * model, so the rules of any model encode offline); on the host itself such a unit is known but
 * not here, which spec->unsupported says. With a forced model, the unit must be that model's, and
 * a core PMU named must be the forced one. 1 resolved, 0 not an uncore event, -1 err filled. */
static int encode_uncore(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    char pmu[64], stem[24];
    bool present;
    int type = prefix_pmu_type(name, pmu, sizeof(pmu), &present);
    if (type == PFM_PMU_TYPE_CORE && forced() && strcmp(pmu, forced())) {
        /* LIBPFM_ENCODE_INACTIVE would encode it: the rules of one model never name another's */
        snprintf(err, errlen, "%s names the core PMU %s, not %s", name, pmu, forced());
        return -1;
    }
    /* A forced libpfm4 lists no other PMU (type -1): its uncore PMUs go by their names, MODEL_unc_UNIT */
    if ((type != PFM_PMU_TYPE_UNCORE && type != -1) || !uncore_stem_of_pfm(pmu, stem, sizeof(stem)))
        return 0;
    const char *model = forced();
    if (model && (strncmp(pmu, model, strlen(model)) || strncmp(pmu + strlen(model), "_unc_", 5))) {
        snprintf(err, errlen, "%s is an uncore unit of another model than %s (its units are %s_unc_*)", pmu, model,
                 model);
        return -1;
    }
    uint64_t codes[4] = {0};
    char *fstr = NULL;
    pfm_pmu_encode_arg_t arg;
    memset(&arg, 0, sizeof(arg));
    arg.size = sizeof(arg);
    arg.codes = codes;
    arg.count = 4;
    arg.fstr = &fstr;
    int rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
    if (rc != PFM_SUCCESS && type == PFM_PMU_TYPE_UNCORE && !present && !model) {
        spec->canonical = xstrdup(name);
        spec->unsupported = xasprintf("libpfm4 knows %s, but the Linux kernel exports no %s PMU here (sysfs): this "
                                      "host's uncore units cannot be counted (a VM, or the uncore driver not "
                                      "loaded)", pmu, stem);
    } else if (rc != PFM_SUCCESS) {
        snprintf(err, errlen, "unknown event '%s' for uncore PMU %s (libpfm4: %s); 'pmucal events --pmu %s' lists "
                 "its events", name, pmu, pfm_strerror(rc), pmu);
        free(fstr);
        return -1;
    }
    if (!spec->canonical)
        spec->canonical = xstrdup(fstr ? fstr : name);
    free(fstr);
    spec->type = 0;
    spec->config = codes[0] & 0xffff;   /* event and umask; the enable and threshold bits are the driver's */
    spec->config1 = spec->config2 = 0;
    spec->programmable = false;
    spec->count_kernel = true;   /* an uncore unit counts every privilege level */
    spec->exclude_user = false;
    snprintf(spec->uncore, sizeof(spec->uncore), "%s", stem);
    return 1;
}

int pfm_encode(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    if (!pfm_ready()) {
        snprintf(err, errlen, "libpfm4 is not available");
        return -1;
    }
    struct perf_event_attr attr;
    char *fstr = NULL;
    pfm_perf_encode_arg_t arg;
    memset(&attr, 0, sizeof(attr));
    memset(&arg, 0, sizeof(arg));
    arg.attr = &attr;
    arg.fstr = &fstr;
    arg.size = sizeof(arg);
    /* With a forced PMU, a bare name means an event of that PMU (see forced()). */
    char *qualified = forced() && !strstr(name, "::") ? xasprintf("%s::%s", forced(), name) : NULL;
    int unc = encode_uncore(name, spec, err, errlen);
    if (unc) {
        free(qualified);
        return unc > 0 ? 0 : -1;
    }
    int rc = pfm_get_os_event_encoding(qualified ? qualified : name, PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
    free(qualified);
    if (rc != PFM_SUCCESS) {
        struct pfm_core core;
        bool have = pfm_core_pmu(&core);
        snprintf(err, errlen, "unknown event '%s' for PMU %s (libpfm4: %s); 'pmucal events' lists the events",
                 name, have ? core.name : "(none detected)", pfm_strerror(rc));
        return -1;
    }
    spec->canonical = xstrdup(fstr ? fstr : name);
    free(fstr);
    spec->type = attr.type;
    spec->config = attr.config;
    spec->config1 = attr.config1;
    spec->config2 = attr.config2;
    spec->programmable = true;
    spec->count_kernel = !attr.exclude_kernel;
    spec->exclude_user = attr.exclude_user;
    return 0;
}

bool pfm_force(const char *pmu)
{
    struct pfm_core core;
    if (!pfm_pmu_by_name(pmu, &core)) {
        pm_error("--pmu %s: %s", pmu, pfm_no_pmu_why(pmu));
        return false;
    }
    const char *now = getenv("LIBPFM_FORCE_PMU");
    if (now && !strcmp(now, pmu) && state > 0)
        return true;
    setenv("LIBPFM_FORCE_PMU", pmu, 1);
    pfm_terminate();
    state = 0;
    if (!pfm_ready())
        return false;
    if (!pfm_core_pmu(&core) || strcmp(core.name, pmu)) {
        pm_error("LIBPFM_FORCE_PMU=%s did not make libpfm4 use that PMU", pmu);
        return false;
    }
    return true;
}

int pfm_each_event(const struct pfm_core *core, pfm_event_fn fn, void *arg)
{
    pfm_event_info_t ev;
    pfm_event_attr_info_t at;
    pfm_pmu_info_t pinfo;
    memset(&pinfo, 0, sizeof(pinfo));
    pinfo.size = sizeof(pinfo);
    if (pfm_get_pmu_info((pfm_pmu_t)core->pmu, &pinfo) != PFM_SUCCESS)
        return -1;
    int count = 0;
    for (int i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
        memset(&ev, 0, sizeof(ev));
        ev.size = sizeof(ev);
        if (pfm_get_event_info(i, PFM_OS_NONE, &ev) != PFM_SUCCESS)
            continue;
        int umasks = 0;
        for (int a = 0; a < ev.nattrs; a++) {
            memset(&at, 0, sizeof(at));
            at.size = sizeof(at);
            if (pfm_get_event_attr_info(i, a, PFM_OS_NONE, &at) != PFM_SUCCESS || at.type != PFM_ATTR_UMASK)
                continue;
            umasks++;
            char *fq = xasprintf("%s::%s:%s", core->name, ev.name, at.name);
            int rc = fn(fq, ev.name, at.name, at.desc ? at.desc : "", arg);
            free(fq);
            count++;
            if (rc)
                return rc;
        }
        if (!umasks) {
            char *fq = xasprintf("%s::%s", core->name, ev.name);
            int rc = fn(fq, ev.name, NULL, ev.desc ? ev.desc : "", arg);
            free(fq);
            count++;
            if (rc)
                return rc;
        }
    }
    return count;
}

/* "4.13.0" from the file name of the libpfm.so this process loaded: pfm_get_version() is only the
 * API level (4.0), while the release says which event tables it carries. */
static int loaded_libpfm(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *base = strrchr(info->dlpi_name, '/');
    base = base ? base + 1 : info->dlpi_name;
    if (strncmp(base, "libpfm.so", 9))
        return 0;
    char *real = realpath(info->dlpi_name, NULL);
    const char *file = real ? strrchr(real, '/') : NULL;
    file = file ? file + 1 : base;
    if (!strncmp(file, "libpfm.so.", 10))
        snprintf(data, 32, "%s", file + 10);
    free(real);
    return 1;
}

void pfm_version(char *release, char *api)
{
    snprintf(release, 32, "unknown");
    dl_iterate_phdr(loaded_libpfm, release);
    int v = pfm_get_version();
    snprintf(api, 16, "%d.%d", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
}
#endif

void x86_decode(const struct event_spec *spec, struct x86_enc *out)
{
    uint64_t c = spec->config;
    memset(out, 0, sizeof(*out));
    out->event = (unsigned)((c & 0xff) | ((c >> 32) & 0xf) << 8);
    out->umask = (unsigned)((c >> 8) & 0xff);
    out->edge = (c >> 18) & 1;
    out->any = (c >> 21) & 1;
    out->inv = (c >> 23) & 1;
    out->cmask = (unsigned)((c >> 24) & 0xff);
    out->msr = spec->config1;
}

int perf_paranoid_level(void)
{
    int level = -9;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &level) != 1)
            level = -9;
        fclose(f);
    }
    return level;
}

/* Does the kernel count the generic instructions event? 0, or the errno of its refusal. Asked
 * once: whether a refused hardware event means no PMU at all or one this PMU lacks. */
static int hw_instructions_errno(void)
{
    static int err = -1;
    if (err >= 0)
        return err;
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    a.disabled = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    err = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    return err;
}

const char *perf_cpu_wide_denied(char *buf, size_t n)
{
    snprintf(buf, n, "a CPU-wide count (an uncore unit counts the socket, not this task) is not permitted: "
             "kernel.perf_event_paranoid=%d, it needs 0 or less or CAP_PERFMON; run as root or 'sudo sysctl "
             "kernel.perf_event_paranoid=0'", perf_paranoid_level());
    return buf;
}

const char *perf_open_reason(int err, bool hardware, char *buf, size_t n)
{
    switch (err) {
    case EACCES:
    case EPERM:
        snprintf(buf, n, "permission denied (kernel.perf_event_paranoid=%d); run as root or "
                 "'sudo sysctl kernel.perf_event_paranoid=1'", perf_paranoid_level());
        break;
    case ENOENT:
    case EOPNOTSUPP:
    case ENODEV:
        if (hardware && !hw_instructions_errno())
            /* A PMU that counts instructions but not this: its driver does not implement the event
             * (arm64's armv8_pmuv3 answers ENOENT for generic events its PMCEID does not list). */
            snprintf(buf, n, "refused by the Linux kernel (perf_event_open: %s): this PMU's driver does not implement "
                     "the event, though the PMU counts others", strerror(err));
        else if (hardware)
            snprintf(buf, n, "no hardware PMU: the Linux kernel cannot count hardware events here "
                     "(perf_event_open: %s); run on bare metal or a VM with PMU passthrough", strerror(err));
        else
            snprintf(buf, n, "the Linux kernel does not support this event (perf_event_open: %s)", strerror(err));
        break;
    case EINVAL:
        snprintf(buf, n, "the Linux kernel rejected the encoding (EINVAL): a modifier or unit mask this CPU "
                 "or Linux kernel does not accept");
        break;
    case ENOSPC:
    case EBUSY:
        snprintf(buf, n, "no free counter (%s): another tool (NMI watchdog, perf) holds counters; "
                 "'sudo sysctl kernel.nmi_watchdog=0' frees one", strerror(err));
        break;
    default:
        snprintf(buf, n, "perf_event_open failed: %s", strerror(err));
    }
    return buf;
}

bool perf_hw_usable(char *why, size_t n)
{
    int err = hw_instructions_errno();
    if (err) {
        perf_open_reason(err, true, why, n);
        return false;
    }
    snprintf(why, n, "hardware events open");
    return true;
}
