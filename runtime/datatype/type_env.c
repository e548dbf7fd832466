/* type_env.c — the records of how derived types were built (see type_env.h). */
#include <stdlib.h>
#include <string.h>

#include "datatype.h"
#include "type_env.h"

dt_env_t *dtype_env_alloc(int combiner, int ni, int na, int nt)
{
    if (ni < 0 || na < 0 || nt < 0)
        return NULL;
    /* the addresses first after the record: the strictest alignment of the three arrays */
    size_t sz = sizeof(dt_env_t) + (size_t)na * sizeof(ptrdiff_t) + (size_t)ni * sizeof(int) +
                (size_t)nt * sizeof(rmp_datatype_t);
    dt_env_t *e = malloc(sz);
    if (!e)
        return NULL;
    e->combiner = combiner;
    e->ni = ni;
    e->na = na;
    e->nt = nt;
    e->addrs = (ptrdiff_t *)(e + 1);
    e->ints = (int *)(e->addrs + na);
    e->types = (rmp_datatype_t *)(e->ints + ni);
    return e;
}

dt_env_t *dtype_env_copy(const dt_env_t *e)
{
    if (!e)
        return NULL;
    dt_env_t *c = dtype_env_alloc(e->combiner, e->ni, e->na, e->nt);
    if (!c)
        return NULL;
    memcpy(c->addrs, e->addrs, (size_t)e->na * sizeof(ptrdiff_t));
    memcpy(c->ints, e->ints, (size_t)e->ni * sizeof(int));
    memcpy(c->types, e->types, (size_t)e->nt * sizeof(rmp_datatype_t));
    return c;
}

void dtype_env_free(dt_env_t *e)
{
    free(e);
}
