#include "core/quantity.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name, *help;
} vocabulary[Q_COUNT] = {
#define QUANTITY_ROW(id, name, help) [Q_##id] = {name, help},
    QUANTITY_LIST(QUANTITY_ROW)
#undef QUANTITY_ROW
};

void quantities_unstated(struct quantities *q)
{
    for (int i = 0; i < Q_COUNT; i++)
        q->v[i] = NAN;
    q->v[Q_ITER] = 1;
    q->unstated_why = NULL;
}

bool quantity_stated(const struct quantities *q, enum quantity_id id)
{
    return !isnan(q->v[id]);
}

const char *quantity_name(enum quantity_id id)
{
    return (unsigned)id < Q_COUNT ? vocabulary[id].name : "?";
}

const char *quantity_help(enum quantity_id id)
{
    return (unsigned)id < Q_COUNT ? vocabulary[id].help : "?";
}

int quantity_lookup(const char *name)
{
    for (int i = 0; i < Q_COUNT; i++)
        if (!strcmp(vocabulary[i].name, name))
            return i;
    return -1;
}

void quantities_derive(struct quantities *q)
{
    static const struct {
        enum quantity_id kind, mispred;
    } parts[] = {
        {Q_BR_COND, Q_BR_COND_MISPRED},
        {Q_BR_INDIRECT, Q_BR_INDIRECT_MISPRED},
        {Q_BR_RET, Q_BR_RET_MISPRED},
    };
    double *v = q->v;
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        if (isnan(v[parts[i].mispred]) && (v[parts[i].kind] == 0 || v[Q_BR_MISPRED] == 0))
            v[parts[i].mispred] = 0;
    int unstated = -1, n_unstated = 0;
    double stated = 0;
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        if (isnan(v[parts[i].mispred])) {
            unstated = (int)i;
            n_unstated++;
        } else {
            stated += v[parts[i].mispred];
        }
    }
    if (n_unstated == 1 && !isnan(v[Q_BR_MISPRED]))
        v[parts[unstated].mispred] = v[Q_BR_MISPRED] - stated;
    else if (n_unstated == 0 && isnan(v[Q_BR_MISPRED]))
        v[Q_BR_MISPRED] = stated;
    /* FMAs are a part of the FP instructions of their width: none where there are none, and none
     * at all in a model that states no FMA of any width (a kernel that fuses says so: flops). */
    static const enum quantity_id fp[][2] = {
        {Q_FP_SCALAR_DP, Q_FMA_SCALAR_DP}, {Q_FP_128_DP, Q_FMA_128_DP}, {Q_FP_256_DP, Q_FMA_256_DP},
        {Q_FP_512_DP, Q_FMA_512_DP}, {Q_FP_SCALAR_SP, Q_FMA_SCALAR_SP}, {Q_FP_128_SP, Q_FMA_128_SP},
        {Q_FP_256_SP, Q_FMA_256_SP}, {Q_FP_512_SP, Q_FMA_512_SP},
    };
    bool fma_stated = false;
    for (size_t i = 0; i < sizeof(fp) / sizeof(fp[0]); i++)
        fma_stated |= !isnan(v[fp[i][1]]);
    for (size_t i = 0; i < sizeof(fp) / sizeof(fp[0]); i++)
        if (isnan(v[fp[i][1]]) && (v[fp[i][0]] == 0 || !fma_stated))
            v[fp[i][1]] = 0;
}

/* The length of a part's "NAME, NAME: " prefix at p, 0 where p starts none. */
static size_t names_prefix(const char *p)
{
    const char *s = p;
    for (;;) {
        const char *w = s;
        while (islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '.' || *s == '_' || *s == '*')
            s++;
        if (s == w)
            return 0;
        if (s[0] == ':' && s[1] == ' ')
            return (size_t)(s + 2 - p);
        if (s[0] != ',' || s[1] != ' ')
            return 0;
        s += 2;
    }
}

/* Does the prefix name a quantity that appears as a word of expr? */
static bool names_used(const char *prefix, size_t len, const char *expr)
{
    for (const char *w = prefix; w < prefix + len;) {
        size_t n = strcspn(w, ",:");
        bool wild = n > 1 && w[n - 1] == '*';
        for (const char *e = expr; *e;) {
            size_t m = strcspn(e, " +-*/()");
            if (m && (wild ? !strncmp(e, w, n - 1) : m == n && !strncmp(e, w, n)))
                return true;
            e += m ? m : 1;
        }
        w += n + 2;
    }
    return false;
}

const char *quantity_unstated_why(const struct quantities *q, const char *expr_text, char *buf, size_t n)
{
    const char *why = q->unstated_why;
    if (!why)
        return "";
    size_t used = 0;
    buf[0] = 0;
    /* Parts start at the text's beginning and after a "; " that a names prefix follows. */
    for (const char *p = why; *p;) {
        const char *next = p;
        do
            next = strstr(next + 1, "; ");
        while (next && !names_prefix(next + 2));
        size_t len = next ? (size_t)(next - p) : strlen(p), pre = names_prefix(p);
        if (pre && names_used(p, pre, expr_text) && used + 2 < n)
            used += (size_t)snprintf(buf + used, n - used, "%s%.*s", used ? "; " : "", (int)len, p);
        p = next ? next + 2 : p + len;
    }
    return buf[0] ? buf : why;
}
