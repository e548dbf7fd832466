/* flat.c — a datatype x count as the list of contiguous byte ranges it covers, in type-map
 * order: what the one-sided paths move piece by piece (a transport write per piece, a memcpy
 * per piece, a target layout an active message carries). It walks the type as the packing
 * code does (runtime/datatype.c dt_copy), so a piece list and a packed buffer agree byte for
 * byte. */
#include <stdlib.h>

#include "rma.h"

typedef struct flat {
    rma_piece_t *p;
    int n, cap;
    rma_piece_t *one;
    int err;
} flat_t;

static void emit(flat_t *f, int64_t off, size_t len)
{
    if (f->err || !len)
        return;
    if (f->n && f->p[f->n - 1].off + (int64_t)f->p[f->n - 1].len == off) {
        f->p[f->n - 1].len += len; /* adjacent: one piece (a contiguous run of elements) */
        return;
    }
    if (f->n == f->cap) {
        int cap = f->cap * 2;
        rma_piece_t *q = f->p == f->one ? malloc(sizeof(*q) * (size_t)cap)
                                        : realloc(f->p, sizeof(*q) * (size_t)cap);
        if (!q) {
            f->err = RMP_ERR_NO_MEM;
            return;
        }
        if (f->p == f->one)
            q[0] = f->one[0];
        f->p = q;
        f->cap = cap;
    }
    f->p[f->n++] = (rma_piece_t){.off = off, .len = len};
}

static void walk(flat_t *f, const dtype_t *t, size_t count, int64_t off)
{
    if (f->err || !count)
        return;
    if (t->contig) { /* as dt_copy: a contiguous type's data starts at the buffer */
        emit(f, off, count * t->size);
        return;
    }
    for (size_t e = 0; e < count && !f->err; e++) {
        int64_t at = off + (int64_t)(e * t->extent);
        if (t->nblocks > 0) {
            for (int b = 0; b < t->nblocks; b++)
                walk(f, &rmp_ctx.dtypes[t->blocks[b].old], (size_t)t->blocks[b].count,
                     at + t->blocks[b].disp);
            continue;
        }
        const dtype_t *o = &rmp_ctx.dtypes[t->old];
        int64_t step = (int64_t)t->stride * (int64_t)o->extent;
        for (int b = 0; b < t->count; b++, at += step)
            walk(f, o, (size_t)t->blocklen, at);
    }
}

int rma_flatten(const dtype_t *t, int count, rma_piece_t *one, rma_piece_t **pcs, int *n)
{
    flat_t f = {.p = one, .cap = 1, .one = one};
    if (count > 0)
        walk(&f, t, (size_t)count, 0);
    if (f.err) {
        rma_pieces_free(one, f.p);
        *pcs = NULL;
        *n = 0;
        return f.err;
    }
    *pcs = f.p;
    *n = f.n;
    return RMP_SUCCESS;
}

void rma_pieces_free(rma_piece_t *one, rma_piece_t *pcs)
{
    if (pcs && pcs != one)
        free(pcs);
}
