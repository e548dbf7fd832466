/* hpool.h — handing out the handles of the runtime's tables (datatypes, communicators,
 * groups, infos, user ops) in O(1) however many have lived: freed handles wait on a stack and
 * come back first (the last freed is the next handed out, as MPICH and Open MPI do), fresh
 * ones come from a high-water mark. The owner of a table keeps its own pool and its lock. */
#ifndef RMP_HPOOL_H
#define RMP_HPOOL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct hpool {
    int first; /* the lowest handle it hands out */
    int limit; /* fresh handles stop below it */
    int next;  /* the next fresh handle */
    int *stack; /* freed handles; room for every handle handed out, so put never fails */
    int nfree, cap;
} hpool_t;

/* A pool of the handles [first, limit). */
static inline hpool_t hpool_make(int first, int limit)
{
    return (hpool_t){.first = first, .limit = limit, .next = first};
}
/* A handle: the last one put back, else a fresh one; -1 when all of [first, limit) are out
 * or no memory is left for the stack. */
int hpool_get(hpool_t *p);
/* h (handed out by p, and no longer used) goes back. */
void hpool_put(hpool_t *p, int h);
/* Handles handed out so far ever (the high-water mark: [first, next) were used). */
static inline int hpool_high(const hpool_t *p)
{
    return p->next;
}
void hpool_fini(hpool_t *p);

/* For a table that grows (*tab, *n elements of elem bytes): grow it, zeroed, to hold index
 * need (doubling, from 16). false when out of memory (the table stays as it was). */
bool hpool_grow(void **tab, int *n, size_t elem, int need);
/* A handle of p with the table grown to hold it; -1 when out of memory. */
int hpool_get_in(hpool_t *p, void **tab, int *n, size_t elem);

#endif
