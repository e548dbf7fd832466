/* hpool.c — the handle pools of hpool.h: a stack of freed handles over a high-water mark. */
#include <stdlib.h>
#include <string.h>

#include "hpool.h"

int hpool_get(hpool_t *p)
{
    if (p->nfree > 0)
        return p->stack[--p->nfree];
    if (p->next >= p->limit)
        return -1;
    int out = p->next - p->first + 1; /* handles out once this one is: the stack's need */
    if (out > p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        int *s = realloc(p->stack, sizeof(int) * (size_t)cap);
        if (!s)
            return -1;
        p->stack = s;
        p->cap = cap;
    }
    return p->next++;
}

void hpool_put(hpool_t *p, int h)
{
    p->stack[p->nfree++] = h; /* room: at most next - first handles are ever out */
}

void hpool_fini(hpool_t *p)
{
    free(p->stack);
    *p = hpool_make(p->first, p->limit);
}

bool hpool_grow(void **tab, int *n, size_t elem, int need)
{
    if (need < *n)
        return true;
    int grow = *n ? *n : 16;
    while (grow <= need)
        grow *= 2;
    char *t = realloc(*tab, elem * (size_t)grow);
    if (!t)
        return false;
    memset(t + elem * (size_t)*n, 0, elem * (size_t)(grow - *n));
    *tab = t;
    *n = grow;
    return true;
}

int hpool_get_in(hpool_t *p, void **tab, int *n, size_t elem)
{
    int h = hpool_get(p);
    if (h >= 0 && !hpool_grow(tab, n, elem, h)) {
        hpool_put(p, h);
        return -1;
    }
    return h;
}
