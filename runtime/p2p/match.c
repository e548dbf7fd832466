/* match.c — the posted-receive and unexpected-message queues (see match.h), in buckets keyed
 * by (context, source) in a small hash table that grows, so a match looks only at one sender's
 * entries instead of everybody's; the key (context, RMP_ANY_SOURCE) holds the context's
 * wildcard receives and all its unexpected messages in arrival order. */
#include "match.h"

#include <stdlib.h>

#include "core.h"

#define MATCH_TABLE_MIN 64 /* initial hash slots: 512 bytes, whatever the job size */
#define MATCH_SPARE_MAX 16 /* released buckets kept for reuse: no malloc per new key */
#define MATCH_IDLE 4       /* emptied buckets left in the table for their key's next message */

/* One (ctx, src) key. src == RMP_ANY_SOURCE: posted = the context's wildcard-source receives,
 * unexp = all of the context's unexpected messages (linked by_ctx); otherwise posted = the
 * receives naming src, unexp = src's messages (linked by_src). Both lists in post/arrival
 * order. A bucket is in the table while one of its lists is non-empty, or empty while it is
 * one of the MATCH_IDLE most recently emptied. */
typedef struct match_bucket {
    struct match_bucket *hnext; /* hash chain (or the spare list) */
    uint32_t ctx;
    int src;
    bool idle;                  /* empty, but kept in the table (in mq->idle) */
    list_t posted;              /* receives (request.link) */
    list_t unexp;               /* messages (unexp_t.by_src, or .by_ctx in a wildcard bucket) */
} match_bucket_t;

struct match_queues {
    match_bucket_t **table;
    size_t mask;              /* table slots - 1 (a power of two - 1) */
    size_t nbuckets;          /* buckets in the table */
    match_bucket_t *spare;    /* released buckets for reuse, at most MATCH_SPARE_MAX */
    size_t nspare;
    match_bucket_t *idle[MATCH_IDLE]; /* the most recently emptied buckets (or NULL) */
    unsigned idle_next;       /* the idle slot to evict next */
    /* the last source bucket and the last wildcard bucket found: a run of messages from one
     * sender (and its context's bucket) skips the hash (NULL when that bucket left) */
    match_bucket_t *last_src, *last_any;
    uint64_t post_seq;        /* last posting sequence number given out */
    size_t nposted, nunexp, nwild; /* nwild: posted ANY_SOURCE receives (all contexts) */
};

match_queues_t *match_create(void)
{
    match_queues_t *mq = calloc(1, sizeof(*mq));
    if (!mq)
        return NULL;
    mq->table = calloc(MATCH_TABLE_MIN, sizeof(*mq->table));
    if (!mq->table) {
        free(mq);
        return NULL;
    }
    mq->mask = MATCH_TABLE_MIN - 1;
    return mq;
}

void match_destroy(match_queues_t *mq)
{
    if (!mq)
        return;
    for (size_t i = 0; i <= mq->mask; i++) {
        for (match_bucket_t *b = mq->table[i], *bn; b; b = bn) {
            bn = b->hnext;
            /* every message is in exactly one source bucket: free it from there */
            list_t *it, *nx;
            if (b->src != RMP_ANY_SOURCE) {
                LIST_FOR_EACH_SAFE(&b->unexp, it, nx) {
                    unexp_t *u = LIST_ENTRY(it, unexp_t, by_src);
                    free(u->data);
                    free(u);
                }
            }
            free(b);
        }
    }
    for (match_bucket_t *b = mq->spare, *bn; b; b = bn) {
        bn = b->hnext;
        free(b);
    }
    free(mq->table);
    free(mq);
}

/* ---- buckets ---- */

static size_t bucket_slot(const match_queues_t *mq, uint32_t ctx, int src)
{
    uint64_t k = ((uint64_t)ctx << 32 | (uint32_t)src) * 0x9e3779b97f4a7c15ull;
    return (size_t)(k ^ k >> 29) & mq->mask;
}

static match_bucket_t *bucket_lookup(match_queues_t *mq, uint32_t ctx, int src,
                                     match_bucket_t **last)
{
    match_bucket_t *b = mq->table[bucket_slot(mq, ctx, src)];
    while (b && (b->ctx != ctx || b->src != src))
        b = b->hnext;
    if (b)
        *last = b;
    return b;
}

/* The bucket of (ctx, src) or NULL; inline: on the path of every message. */
static inline match_bucket_t *bucket_find(match_queues_t *mq, uint32_t ctx, int src)
{
    match_bucket_t **last = src == RMP_ANY_SOURCE ? &mq->last_any : &mq->last_src;
    match_bucket_t *b = *last;
    if (b && b->ctx == ctx && b->src == src)
        return b;
    return bucket_lookup(mq, ctx, src, last);
}

/* Doubles the table when buckets outnumber slots; on failure the longer chains stay. */
static void table_grow(match_queues_t *mq)
{
    size_t slots = (mq->mask + 1) * 2;
    match_bucket_t **old = mq->table, **t = calloc(slots, sizeof(*t));
    if (!t)
        return;
    size_t old_slots = mq->mask + 1;
    mq->table = t;
    mq->mask = slots - 1;
    for (size_t i = 0; i < old_slots; i++) {
        for (match_bucket_t *b = old[i], *bn; b; b = bn) {
            bn = b->hnext;
            size_t s = bucket_slot(mq, b->ctx, b->src);
            b->hnext = t[s];
            t[s] = b;
        }
    }
    free(old);
}

/* A new empty bucket for (ctx, src) in the table; NULL when out of memory. */
static match_bucket_t *bucket_new(match_queues_t *mq, uint32_t ctx, int src)
{
    match_bucket_t *b;
    if (mq->spare) {
        b = mq->spare;
        mq->spare = b->hnext;
        mq->nspare--;
    } else if (!(b = malloc(sizeof(*b)))) {
        return NULL;
    }
    *b = (match_bucket_t){.ctx = ctx, .src = src};
    list_init(&b->posted);
    list_init(&b->unexp);
    if (++mq->nbuckets > mq->mask + 1)
        table_grow(mq);
    size_t s = bucket_slot(mq, ctx, src);
    b->hnext = mq->table[s];
    mq->table[s] = b;
    return b;
}

/* The bucket of (ctx, src), created empty if needed; NULL when out of memory. */
static inline match_bucket_t *bucket_get(match_queues_t *mq, uint32_t ctx, int src)
{
    match_bucket_t *b = bucket_find(mq, ctx, src);
    return b ? b : bucket_new(mq, ctx, src);
}

/* Takes an empty bucket out of the table (onto the spare list or freed). */
static void bucket_unlink(match_queues_t *mq, match_bucket_t *b)
{
    match_bucket_t **pp = &mq->table[bucket_slot(mq, b->ctx, b->src)];
    while (*pp != b)
        pp = &(*pp)->hnext;
    *pp = b->hnext;
    mq->nbuckets--;
    if (mq->last_src == b)
        mq->last_src = NULL;
    if (mq->last_any == b)
        mq->last_any = NULL;
    if (mq->nspare < MATCH_SPARE_MAX) {
        b->hnext = mq->spare;
        mq->spare = b;
        mq->nspare++;
    } else {
        free(b);
    }
}

/* An emptied bucket stays in the table among the MATCH_IDLE most recently emptied, so a pair
 * that keeps talking (a ping-pong: one message queued and taken at a time) finds its bucket
 * again instead of relinking it per message; the oldest idle bucket leaves the table if it is
 * still empty. */
static void bucket_park(match_queues_t *mq, match_bucket_t *b)
{
    match_bucket_t *old = mq->idle[mq->idle_next];
    mq->idle[mq->idle_next] = b;
    mq->idle_next = (mq->idle_next + 1) % MATCH_IDLE;
    b->idle = true;
    if (old) {
        old->idle = false;
        if (list_empty(&old->posted) && list_empty(&old->unexp))
            bucket_unlink(mq, old);
    }
}

/* Called when one of b's lists may have emptied (inline: on every message's path). */
static inline void bucket_release(match_queues_t *mq, match_bucket_t *b)
{
    if (list_empty(&b->posted) && list_empty(&b->unexp) && !b->idle)
        bucket_park(mq, b);
}

/* ---- posted receives ---- */

bool match_post(match_queues_t *mq, struct rmp_request *r)
{
    match_bucket_t *b = bucket_get(mq, r->ctx_id, r->peer);
    if (!b)
        return false;
    r->match_seq = ++mq->post_seq;
    list_push_back(&b->posted, &r->link);
    mq->nposted++;
    if (r->peer == RMP_ANY_SOURCE)
        mq->nwild++;
    if (r->comm) /* a posted receive keeps its context id from being reused (comm_hold) */
        comm_hold(r->comm);
    return true;
}

/* Last, after the queues are consistent again: the unhold may release a communicator freed
 * meanwhile, which drops its unexpected messages (match_drop_ctx). */
static void posted_unlink(match_queues_t *mq, match_bucket_t *b, struct rmp_request *r)
{
    list_remove(&r->link);
    r->match_seq = 0;
    mq->nposted--;
    if (b->src == RMP_ANY_SOURCE)
        mq->nwild--;
    bucket_release(mq, b);
    if (r->comm)
        comm_unhold(r->comm);
}

/* The first receive of b's posted list that takes `tag`, or NULL. */
static struct rmp_request *posted_first_tag(match_bucket_t *b, int tag)
{
    for (list_t *it = b->posted.next; it != &b->posted; it = it->next) {
        struct rmp_request *r = LIST_ENTRY(it, struct rmp_request, link);
        if (r->tag == tag || r->tag == RMP_ANY_TAG)
            return r;
    }
    return NULL;
}

struct rmp_request *match_take_posted(match_queues_t *mq, uint32_t ctx, int src, int tag)
{
    if (src < 0 || !mq->nposted)
        return NULL; /* an arrival always names its sender; nothing posted: no lookup */
    match_bucket_t *b = bucket_find(mq, ctx, src);
    struct rmp_request *r = b ? posted_first_tag(b, tag) : NULL;
    if (mq->nwild) {
        /* a wildcard receive posted before the sender's first match takes the message */
        match_bucket_t *w = bucket_find(mq, ctx, RMP_ANY_SOURCE);
        struct rmp_request *rw = w ? posted_first_tag(w, tag) : NULL;
        if (rw && (!r || rw->match_seq < r->match_seq)) {
            r = rw;
            b = w;
        }
    }
    if (r)
        posted_unlink(mq, b, r);
    return r;
}

struct rmp_request *match_take_posted_from(match_queues_t *mq, uint32_t ctx, int src)
{
    match_bucket_t *b = src >= 0 ? bucket_find(mq, ctx, src) : NULL;
    if (!b || list_empty(&b->posted))
        return NULL;
    struct rmp_request *r = LIST_ENTRY(b->posted.next, struct rmp_request, link);
    posted_unlink(mq, b, r);
    return r;
}

bool match_remove_posted(match_queues_t *mq, struct rmp_request *r)
{
    if (!r->match_seq)
        return false; /* never posted, or matched/removed since */
    match_bucket_t *b = bucket_find(mq, r->ctx_id, r->peer);
    if (!b || !list_linked(&r->link))
        return false;
    posted_unlink(mq, b, r);
    return true;
}

/* ---- unexpected messages ---- */

/* The message a link of b's list belongs to: by_ctx in a context's wildcard bucket, by_src
 * in a source's. */
static unexp_t *unexp_of(const match_bucket_t *b, list_t *l)
{
    return b->src == RMP_ANY_SOURCE ? LIST_ENTRY(l, unexp_t, by_ctx)
                                    : LIST_ENTRY(l, unexp_t, by_src);
}

bool match_add_unexp(match_queues_t *mq, unexp_t *u)
{
    if (u->src < 0)
        return false;
    match_bucket_t *bs = bucket_get(mq, u->ctx, u->src);
    if (!bs)
        return false;
    match_bucket_t *bc = bucket_get(mq, u->ctx, RMP_ANY_SOURCE);
    if (!bc) {
        bucket_release(mq, bs); /* if it was created just now */
        return false;
    }
    u->b_src = bs;
    u->b_ctx = bc;
    list_push_back(&bs->unexp, &u->by_src);
    list_push_back(&bc->unexp, &u->by_ctx);
    mq->nunexp++;
    return true;
}

unexp_t *match_find_unexp(match_queues_t *mq, uint32_t ctx, int src, int tag, bool take)
{
    if (!mq->nunexp)
        return NULL; /* the usual case of a receive posted ahead: no lookup */
    /* a specific source looks at its sender's messages only, ANY_SOURCE at the context's */
    match_bucket_t *b = bucket_find(mq, ctx, src);
    if (!b)
        return NULL;
    unexp_t *u = NULL;
    for (list_t *it = b->unexp.next; it != &b->unexp && !u; it = it->next)
        if (tag == RMP_ANY_TAG || unexp_of(b, it)->tag == tag)
            u = unexp_of(b, it);
    if (u && take) {
        /* one list, then its bucket, then the other: parking an emptied bucket may evict
         * another empty one, which must not be the one u is still in */
        list_remove(&u->by_src);
        bucket_release(mq, u->b_src);
        list_remove(&u->by_ctx);
        bucket_release(mq, u->b_ctx);
        u->b_src = u->b_ctx = NULL;
        mq->nunexp--;
    }
    return u;
}

unexp_t *match_take_unexp_seq(match_queues_t *mq, int src_world, uint32_t seq)
{
    if (!mq->nunexp)
        return NULL;
    unexp_t *u = NULL;
    for (size_t i = 0; i <= mq->mask && !u; i++)
        for (match_bucket_t *b = mq->table[i]; b && !u; b = b->hnext) {
            if (b->src == RMP_ANY_SOURCE) /* every message is in one source bucket too */
                continue;
            for (list_t *it = b->unexp.next; it != &b->unexp && !u; it = it->next) {
                unexp_t *x = unexp_of(b, it);
                if (x->src_world == src_world && x->seq == seq)
                    u = x;
            }
        }
    if (u) { /* as match_find_unexp takes one */
        list_remove(&u->by_src);
        bucket_release(mq, u->b_src);
        list_remove(&u->by_ctx);
        bucket_release(mq, u->b_ctx);
        u->b_src = u->b_ctx = NULL;
        mq->nunexp--;
    }
    return u;
}

size_t match_drop_ctx(match_queues_t *mq, uint32_t ctx)
{
    size_t n = 0;
    unexp_t *u;
    while ((u = match_find_unexp(mq, ctx, RMP_ANY_SOURCE, RMP_ANY_TAG, true))) {
        free(u->data);
        free(u);
        n++;
    }
    return n;
}

size_t match_posted_count(const match_queues_t *mq)
{
    return mq->nposted;
}

size_t match_unexp_count(const match_queues_t *mq)
{
    return mq->nunexp;
}
