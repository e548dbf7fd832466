/* type_walk.c — the walk of a type's layout (its vector or block description) that moves its
 * data between the user's memory and contiguous bytes: dtype_pack and dtype_unpack, which
 * every non-contiguous send, receive and collective goes through. */

#include <float.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "datatype.h"
#include "type_env.h"

typedef enum { DT_PACK, DT_UNPACK } dt_dir_t;

static inline void dt_move(dt_dir_t dir, char *user, char *packed, size_t n)
{
    if (dir == DT_PACK)
        memcpy(packed, user, n);
    else
        memcpy(user, packed, n);
}

/* p + off on a user's address: integer arithmetic, since p may be NULL (RMP_BOTTOM: the
 * offsets are then absolute addresses, and NULL + offset is undefined for the compiler). */
#define DT_AT(p, off) ((char *)((uintptr_t)(p) + (uintptr_t)(off)))

/* Walk the first nblk blocks (element e, block b at user + e*extent + b*step); p advances
 * through the packed bytes. N is a constant in the common cases so each copy is inlined; the
 * inner loop has a plain trip count (whole elements, then the blocks of a partial one). */
#define DT_RUNS_LOOP(COPY, N)                                                                      \
    for (size_t e = 0; e <= nblk / per; e++) {                                                     \
        char *u = DT_AT(user, e * t->extent);                                                      \
        size_t m = e < nblk / per ? per : nblk % per;                                              \
        for (size_t b = 0; b < m; b++, u = DT_AT(u, step), p += (N))                               \
            COPY;                                                                                  \
    }
#define DT_RUNS(N)                                                                                 \
    do {                                                                                           \
        if (dir == DT_PACK) {                                                                      \
            DT_RUNS_LOOP(memcpy(p, u, (N)), N)                                                     \
        } else {                                                                                   \
            DT_RUNS_LOOP(memcpy(u, p, (N)), N)                                                     \
        }                                                                                          \
    } while (0)

/* A vector over a contiguous old type: every block is one run of blk bytes. Copies `budget`
 * packed bytes (the last block possibly in part). */
static size_t dt_runs(const dtype_t *t, char *user, char *packed, size_t budget, dt_dir_t dir,
                      size_t blk, size_t step)
{
    size_t nblk = budget / blk, per = (size_t)t->count;
    char *p = packed;
    switch (blk) {
    case 1:
        DT_RUNS(1);
        break;
    case 2:
        DT_RUNS(2);
        break;
    case 4:
        DT_RUNS(4);
        break;
    case 8:
        DT_RUNS(8);
        break;
    case 16:
        DT_RUNS(16);
        break;
    default:
        DT_RUNS(blk);
        break;
    }
    size_t rem = budget - nblk * blk;
    if (rem)
        dt_move(dir, DT_AT(user, nblk / per * t->extent + nblk % per * step), p, rem);
    return budget;
}

/* Copy between `count` elements of t at `user` and packed bytes, at most `budget` packed
 * bytes, in packed order; returns the bytes copied. */
static size_t dt_copy(const dtype_t *t, size_t count, char *user, char *packed, size_t budget,
                      dt_dir_t dir)
{
    size_t total;
    if (__builtin_mul_overflow(count, t->size, &total))
        total = SIZE_MAX;
    if (budget > total)
        budget = total;
    if (budget == 0)
        return 0;
    if (t->contig) {
        dt_move(dir, user, packed, budget);
        return budget;
    }
    if (t->nblocks > 0) { /* block kind: each element, each block of its own type */
        size_t done = 0;
        for (size_t e = 0; done < budget; e++) {
            char *u = DT_AT(user, e * t->extent);
            for (int b = 0; b < t->nblocks && done < budget; b++) {
                const dt_block_t *k = &t->blocks[b];
                done += dt_copy(&rmp_ctx.dtypes[k->old], (size_t)k->count, DT_AT(u, k->disp),
                                packed + done, budget - done, dir);
            }
        }
        return done;
    }
    /* Freed old types keep their slot's descriptor, so no validity check here. */
    const dtype_t *o = &rmp_ctx.dtypes[t->old];
    size_t step = (size_t)t->stride * o->extent;
    if (o->contig)
        return dt_runs(t, user, packed, budget, dir, (size_t)t->blocklen * o->size, step);
    size_t done = 0;
    for (size_t e = 0; done < budget; e++) {
        char *u = DT_AT(user, e * t->extent);
        for (int b = 0; b < t->count && done < budget; b++, u = DT_AT(u, step))
            done += dt_copy(o, (size_t)t->blocklen, u, packed + done, budget - done, dir);
    }
    return done;
}

void dtype_pack(const dtype_t *t, int count, const void *src, void *dst)
{
    if (count > 0)
        dt_copy(t, (size_t)count, (char *)src, dst, SIZE_MAX, DT_PACK);
}

void dtype_unpack(const dtype_t *t, int count, const void *src, size_t bytes, void *dst)
{
    if (count > 0)
        dt_copy(t, (size_t)count, dst, (char *)src, bytes, DT_UNPACK);
}
