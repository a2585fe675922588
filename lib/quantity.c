#include "quantity.h"
#include <math.h>
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
