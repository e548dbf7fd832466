/* io/coll_exchange.c — the two phases: each rank's runs are cut at the domain boundaries and
 * announced to the aggregators (alltoallv of offsets and lengths); then (coll_run.c runs the
 * rounds) each aggregator's window of cb bytes is filled from the ranks and written with
 * large requests (or read, then sent out). Holes are sieved only where it pays. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "coll_xch.h"

static int cmp_seg(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The union of every source's pieces in my window, merged into x->seg[0 .. return). */
static size_t coverage(xch_t *x, int64_t *covered)
{
    size_t k = 0;
    for (int s = 0; s < x->pl->size; s++)
        for (size_t i = x->from[s].a; i < x->from[s].b; i++) {
            const io_run_t *q = &x->theirs[s].p[i];
            int64_t o = q->off > x->wlo ? q->off : x->wlo;
            int64_t e = q->off + q->len < x->whi ? q->off + q->len : x->whi;
            if (e > o)
                x->seg[k][0] = o, x->seg[k++][1] = e;
        }
    qsort(x->seg, k, sizeof(*x->seg), cmp_seg);
    size_t m = 0;
    *covered = 0;
    for (size_t i = 0; i < k; i++) {
        if (m > 0 && x->seg[i][0] <= x->seg[m - 1][1]) {
            x->seg[m - 1][1] = x->seg[i][1] > x->seg[m - 1][1] ? x->seg[i][1] : x->seg[m - 1][1];
            continue;
        }
        x->seg[m][0] = x->seg[i][0], x->seg[m++][1] = x->seg[i][1];
    }
    for (size_t i = 0; i < m; i++)
        *covered += x->seg[i][1] - x->seg[i][0];
    return m;
}

/* The aggregator's file access of one round: the merged segments one request each, or the
 * whole extent at once when sieving the holes pays (a write then reads it first, under a
 * lock, so that the holes' bytes go back unchanged). A failure stops this rank's I/O. */
void xch_fs_round(xch_t *x, int phase)
{
    int64_t covered;
    size_t m = coverage(x, &covered);
    if (m == 0 || x->st)
        return;
    const coll_plan_t *p = x->pl;
    int64_t lo = x->seg[0][0], ext = x->seg[m - 1][1] - lo;
    int sieve = coll_sieve(p->sieve, p->is_write, ext, covered, m) && (!p->is_write || x->readable);
    char *at = x->cbuf - x->wlo;
    if (sieve && p->is_write && phase == 0) { /* before the data lands: read the holes */
        x->locked = coll_fs_lock(p->fd, lo, ext, 1) == 0;
        x->st = coll_fs_read(p->fd, at + lo, ext, lo);
        if (x->st && x->locked)
            coll_fs_lock(p->fd, lo, ext, 0), x->locked = 0;
        return;
    }
    if (p->is_write && phase == 0)
        return;
    if (sieve) {
        x->st = p->is_write ? coll_fs_write(p->fd, at + lo, ext, lo)
                            : coll_fs_read(p->fd, at + lo, ext, lo);
    } else {
        for (size_t i = 0; i < m && !x->st; i++) {
            int64_t o = x->seg[i][0], l = x->seg[i][1] - o;
            x->st = p->is_write ? coll_fs_write(p->fd, at + o, l, o)
                                : coll_fs_read(p->fd, at + o, l, o);
        }
    }
    if (x->locked)
        coll_fs_lock(p->fd, lo, ext, 0), x->locked = 0;
}

int xch_setup(xch_t *x, const coll_plan_t *p, io_run_t *runs, size_t n)
{
    x->pl = p;
    int fl = fcntl(p->fd, F_GETFL);
    x->readable = fl >= 0 && (fl & O_ACCMODE) != O_WRONLY;
    int st = io_agree(p->comm, xch_split(x, runs, n));
    if (!st)
        st = xch_announce(x);
    if (!st)
        st = io_agree(p->comm, xch_buffers(x));
    return st;
}
