/* io/coll_xch.c — the exchange's set-up and data movement: my runs cut per file domain and
 * announced to their aggregators, buffers sized by a dry walk of every round, the walk of a
 * round's pieces, and the messages of one round (one-piece windows go without packing). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "coll_xch.h"
#include "core.h"

/* Pieces of w meeting [lo, hi): [*a, *b); the cursor stays on a piece crossing hi. */
static void walk(walk_t *w, int64_t lo, int64_t hi, size_t *a, size_t *b)
{
    while (w->cur < w->n && w->p[w->cur].off + w->p[w->cur].len <= lo)
        w->cur++;
    size_t i = w->cur;
    while (i < w->n && w->p[i].off < hi)
        i++;
    *a = w->cur, *b = i;
    if (i > w->cur && w->p[i - 1].off + w->p[i - 1].len <= hi)
        w->cur = i;
    else if (i > w->cur)
        w->cur = i - 1;
}

/* Where byte o of piece r lives: in win (the aggregator's buffer, from file offset lo) or in
 * the piece's own memory. */
static char *place(const io_run_t *r, int64_t o, int64_t lo, char *win)
{
    return win ? win + (o - lo) : r->mem + (o - r->off);
}

int64_t xch_move(const io_run_t *p, size_t a, size_t b, int64_t lo, int64_t hi, char *win,
                 char *flat, int flat_win, int to_flat)
{
    int64_t pos = 0;
    for (size_t i = a; i < b; i++) {
        int64_t o = p[i].off > lo ? p[i].off : lo;
        int64_t e = p[i].off + p[i].len < hi ? p[i].off + p[i].len : hi;
        if (e <= o)
            continue;
        if (flat) {
            char *f = flat_win ? flat + (o - lo) : flat + pos;
            char *q = place(&p[i], o, lo, win);
            memcpy(to_flat ? f : q, to_flat ? q : f, (size_t)(e - o));
        }
        pos += e - o;
    }
    return pos;
}

char *xch_direct(const io_run_t *p, size_t a, size_t b, int64_t lo, char *win)
{
    if (b - a != 1)
        return NULL;
    return place(&p[a], p[a].off > lo ? p[a].off : lo, lo, win);
}

/* The window of domain d in round r: [*lo, *hi), empty past the domain's end. */
static void window(const coll_plan_t *p, int d, int64_t r, int64_t *lo, int64_t *hi)
{
    int64_t end = p->dom[d + 1];
    *lo = p->dom[d] + r * p->cb;
    *lo = *lo < end ? *lo : end;
    *hi = end - *lo < p->cb ? end : *lo + p->cb;
}

/* This round's pieces: per source in my window (aggregator), per domain of mine. */
void xch_round_walk(xch_t *x, int64_t r)
{
    const coll_plan_t *p = x->pl;
    if (p->me_agg >= 0) {
        window(p, p->me_agg, r, &x->wlo, &x->whi);
        for (int s = 0; s < p->size; s++) {
            walk(&x->theirs[s], x->wlo, x->whi, &x->from[s].a, &x->from[s].b);
            x->from[s].bytes = xch_move(x->theirs[s].p, x->from[s].a, x->from[s].b, x->wlo,
                                        x->whi, NULL, NULL, 0, 0);
        }
    }
    for (int d = 0; d < p->naggs; d++) {
        int64_t lo, hi;
        window(p, d, r, &lo, &hi);
        x->to[d].lo = lo, x->to[d].hi = hi;
        walk(&x->mine[d], lo, hi, &x->to[d].a, &x->to[d].b);
        x->to[d].bytes = xch_move(x->mine[d].p, x->to[d].a, x->to[d].b, lo, hi, NULL, NULL, 0, 0);
    }
}

int xch_split(xch_t *x, io_run_t *runs, size_t n)
{
    const coll_plan_t *p = x->pl;
    size_t na = (size_t)p->naggs, ns = (size_t)p->size;
    x->mine_runs = malloc((n + na) * sizeof(io_run_t));
    x->mine = calloc(na, sizeof(walk_t));
    x->theirs = calloc(ns, sizeof(walk_t));
    x->to = calloc(na, sizeof(span_t));
    x->from = calloc(ns, sizeof(span_t));
    x->reqs = malloc((ns + na + 2) * sizeof(*x->reqs));
    if (!x->mine_runs || !x->mine || !x->theirs || !x->to || !x->from || !x->reqs)
        return RMP_ERR_NO_MEM;
    size_t k = 0;
    int d = 0;
    for (size_t i = 0; i < n; i++) /* a run crossing domain boundaries is cut there */
        for (int64_t o = runs[i].off, e = o + runs[i].len; o < e;) {
            while (d < p->naggs - 1 && p->dom[d + 1] <= o)
                d++;
            int64_t de = d == p->naggs - 1 || p->dom[d + 1] > e ? e : p->dom[d + 1];
            x->mine_runs[k] = (io_run_t){o, de - o, runs[i].mem + (o - runs[i].off)};
            if (x->mine[d].n++ == 0)
                x->mine[d].p = &x->mine_runs[k];
            k++;
            o = de;
        }
    return RMP_SUCCESS;
}

/* Every aggregator learns every rank's pieces of its domain. */
int xch_announce(xch_t *x)
{
    const coll_plan_t *p = x->pl;
    size_t ns = (size_t)p->size;
    int *cnt = calloc(4 * ns, sizeof(int));
    int64_t *sbuf = NULL, *rbuf = NULL, total = 0;
    int st = io_agree(p->comm, cnt ? RMP_SUCCESS : RMP_ERR_NO_MEM);
    if (st)
        goto out;
    int *scount = cnt, *sdisp = cnt + ns, *rcount = cnt + 2 * ns, *rdisp = cnt + 3 * ns;
    for (int d = 0; d < p->naggs; d++) {
        sdisp[p->aggs[d]] = (int)total;
        scount[p->aggs[d]] = (int)(2 * x->mine[d].n);
        total += 2 * (int64_t)x->mine[d].n;
        if (total > INT_MAX) /* over 2^30 pieces for the aggregators */
            st = RMP_ERR_COUNT;
    }
    if (!st && !(sbuf = malloc((size_t)(total ? total : 1) * sizeof(int64_t))))
        st = RMP_ERR_NO_MEM;
    for (int d = 0; !st && d < p->naggs; d++)
        for (size_t i = 0; i < x->mine[d].n; i++) {
            sbuf[sdisp[p->aggs[d]] + 2 * i] = x->mine[d].p[i].off;
            sbuf[sdisp[p->aggs[d]] + 2 * i + 1] = x->mine[d].p[i].len;
        }
    st = io_agree(p->comm, st);
    if (!st)
        st = rmp_alltoall(scount, 1, RMP_INT, rcount, 1, RMP_INT, p->comm);
    total = 0;
    for (size_t s = 0; !st && s < ns; s++) {
        rdisp[s] = (int)total;
        total += rcount[s];
        st = total > INT_MAX ? RMP_ERR_COUNT : st;
    }
    if (!st && !(rbuf = malloc((size_t)(total ? total : 1) * sizeof(int64_t))))
        st = RMP_ERR_NO_MEM;
    if (!st && !(x->their_runs = malloc((size_t)(total / 2 + 1) * sizeof(io_run_t))))
        st = RMP_ERR_NO_MEM;
    /* before the alltoallv: its counts say whether every rank can take part */
    st = io_agree(p->comm, st);
    if (!st)
        st = rmp_alltoallv(sbuf, scount, sdisp, RMP_INT64, rbuf, rcount, rdisp, RMP_INT64,
                           p->comm);
    for (size_t s = 0; !st && s < ns; s++) {
        x->theirs[s].p = &x->their_runs[rdisp[s] / 2];
        x->theirs[s].n = (size_t)rcount[s] / 2;
        for (size_t i = 0; i < x->theirs[s].n; i++)
            x->theirs[s].p[i] = (io_run_t){rbuf[rdisp[s] + 2 * i], rbuf[rdisp[s] + 2 * i + 1],
                                           NULL};
    }
out:
    free(cnt), free(sbuf), free(rbuf);
    return st;
}

/* The packed bytes of one round: of the sources (aggregator side), of my domains (mine). */
static void round_needs(const xch_t *x, int64_t *ab, int64_t *rb, int64_t *nseg)
{
    const coll_plan_t *p = x->pl;
    *ab = *rb = *nseg = 0;
    for (int s = 0; p->me_agg >= 0 && s < p->size; s++) {
        *nseg += (int64_t)(x->from[s].b - x->from[s].a);
        if (s != p->rank && x->from[s].b - x->from[s].a > 1)
            *ab += x->from[s].bytes;
    }
    for (int d = 0; d < p->naggs; d++)
        if (p->aggs[d] != p->rank && x->to[d].b - x->to[d].a > 1)
            *rb += x->to[d].bytes;
}

int xch_buffers(xch_t *x)
{
    const coll_plan_t *p = x->pl;
    int64_t ab = 0, rb = 0, nseg = 1;
    for (int64_t r = 0; r < p->rounds; r++) { /* the same walk as the rounds', dry */
        int64_t a, b, s;
        xch_round_walk(x, r);
        round_needs(x, &a, &b, &s);
        ab = a > ab ? a : ab, rb = b > rb ? b : rb, nseg = s > nseg ? s : nseg;
    }
    for (int d = 0; d < p->naggs; d++)
        x->mine[d].cur = 0;
    for (int s = 0; s < p->size; s++)
        x->theirs[s].cur = 0;
    int64_t cb = 1;
    if (p->me_agg >= 0) {
        int64_t span = p->dom[p->me_agg + 1] - p->dom[p->me_agg];
        cb = span < p->cb ? (span > 0 ? span : 1) : p->cb;
    }
    x->cbuf = malloc((size_t)cb);
    x->ab = malloc((size_t)(ab ? ab : 1));
    x->rb = malloc((size_t)(rb ? rb : 1));
    x->seg = malloc((size_t)nseg * sizeof(*x->seg));
    return x->cbuf && x->ab && x->rb && x->seg ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

/* Receive or send one span's bytes with peer; a failure to start counts as the round's. */
static void post_one(xch_t *x, int *nreq, char *buf, int64_t bytes, int peer, int recv)
{
    int rc = recv ? p2p_irecv_locked(x->cm, 0, buf, (size_t)bytes, peer, x->tag,
                                     &x->reqs[*nreq])
                  : p2p_isend_locked(x->cm, 0, buf, (size_t)bytes, peer, x->tag,
                                     &x->reqs[*nreq]);
    if (rc)
        x->st = x->st ? x->st : rc;
    else
        ++*nreq;
}

int xch_post(xch_t *x, int agg)
{
    const coll_plan_t *p = x->pl;
    int w = p->is_write, nreq = 0;
    int64_t pos = 0;
    for (int s = 0; agg && s < p->size; s++) { /* the aggregator and its sources */
        span_t *f = &x->from[s];
        if (s == p->rank || f->bytes == 0)
            continue;
        char *buf = xch_direct(x->theirs[s].p, f->a, f->b, x->wlo, x->cbuf);
        if (!buf) {
            buf = x->ab + pos, pos += f->bytes;
            if (!w)
                xch_move(x->theirs[s].p, f->a, f->b, x->wlo, x->whi, x->cbuf, buf, 0, 1);
        }
        post_one(x, &nreq, buf, f->bytes, s, w);
    }
    pos = 0;
    for (int d = 0; d < p->naggs; d++) { /* me and the aggregators */
        span_t *t = &x->to[d];
        if (p->aggs[d] == p->rank || t->bytes == 0)
            continue;
        char *buf = xch_direct(x->mine[d].p, t->a, t->b, t->lo, NULL);
        if (!buf) {
            buf = x->rb + pos, pos += t->bytes;
            if (w)
                xch_move(x->mine[d].p, t->a, t->b, t->lo, t->hi, NULL, buf, 0, 1);
        }
        post_one(x, &nreq, buf, t->bytes, p->aggs[d], !w);
    }
    if (agg) { /* my own pieces of my window: a copy */
        span_t *t = &x->to[p->me_agg];
        xch_move(x->mine[p->me_agg].p, t->a, t->b, t->lo, t->hi, NULL, x->cbuf, 1, w);
    }
    return nreq;
}

void xch_unpack(xch_t *x, int agg)
{
    const coll_plan_t *p = x->pl;
    int64_t pos = 0;
    for (int s = 0; agg && p->is_write && s < p->size; s++) {
        span_t *f = &x->from[s];
        if (s == p->rank || f->bytes == 0 || f->b - f->a == 1)
            continue;
        xch_move(x->theirs[s].p, f->a, f->b, x->wlo, x->whi, x->cbuf, x->ab + pos, 0, 0);
        pos += f->bytes;
    }
    pos = 0;
    for (int d = 0; !p->is_write && d < p->naggs; d++) {
        span_t *t = &x->to[d];
        if (p->aggs[d] == p->rank || t->bytes == 0 || t->b - t->a == 1)
            continue;
        xch_move(x->mine[d].p, t->a, t->b, t->lo, t->hi, NULL, x->rb + pos, 0, 0);
        pos += t->bytes;
    }
}

void xch_free(xch_t *x)
{
    free(x->mine_runs), free(x->their_runs), free(x->mine), free(x->theirs);
    free(x->to), free(x->from), free(x->reqs), free(x->cbuf), free(x->ab), free(x->rb);
    free(x->seg);
}
