/* match.c — the posted-receive and unexpected-message queues (see match.h).
 * Plain doubly linked lists searched in order: the first match in post/arrival order is the
 * one MPI requires. Per-context hashing is a later optimisation, measured first. */
#include "match.h"

#include <stdlib.h>

#include "core.h"

struct match_queues {
    struct rmp_request *posted_head, *posted_tail;
    unexp_t *unexp_head, *unexp_tail;
    size_t nposted, nunexp;
};

match_queues_t *match_create(void)
{
    return calloc(1, sizeof(match_queues_t));
}

void match_destroy(match_queues_t *mq)
{
    if (!mq)
        return;
    for (unexp_t *u = mq->unexp_head, *n; u; u = n) {
        n = u->next;
        free(u->data);
        free(u);
    }
    free(mq);
}

static bool matches(uint32_t ctx, int src, int tag, uint32_t want_ctx, int want_src,
                    int want_tag)
{
    return ctx == want_ctx && (want_src == RMP_ANY_SOURCE || want_src == src) &&
           (want_tag == RMP_ANY_TAG || want_tag == tag);
}

void match_post(match_queues_t *mq, struct rmp_request *r)
{
    r->next = NULL;
    r->prev = mq->posted_tail;
    if (mq->posted_tail)
        mq->posted_tail->next = r;
    else
        mq->posted_head = r;
    mq->posted_tail = r;
    mq->nposted++;
}

static void posted_unlink(match_queues_t *mq, struct rmp_request *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        mq->posted_head = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        mq->posted_tail = r->prev;
    r->next = r->prev = NULL;
    mq->nposted--;
}

struct rmp_request *match_take_posted(match_queues_t *mq, uint32_t ctx, int src, int tag)
{
    for (struct rmp_request *r = mq->posted_head; r; r = r->next) {
        if (matches(ctx, src, tag, r->ctx_id, r->peer, r->tag)) {
            posted_unlink(mq, r);
            return r;
        }
    }
    return NULL;
}

struct rmp_request *match_take_posted_from(match_queues_t *mq, uint32_t ctx, int src)
{
    for (struct rmp_request *r = mq->posted_head; r; r = r->next) {
        if (r->ctx_id == ctx && r->peer == src) {
            posted_unlink(mq, r);
            return r;
        }
    }
    return NULL;
}

bool match_remove_posted(match_queues_t *mq, struct rmp_request *r)
{
    for (struct rmp_request *p = mq->posted_head; p; p = p->next) {
        if (p == r) {
            posted_unlink(mq, r);
            return true;
        }
    }
    return false;
}

void match_add_unexp(match_queues_t *mq, unexp_t *u)
{
    u->next = NULL;
    u->prev = mq->unexp_tail;
    if (mq->unexp_tail)
        mq->unexp_tail->next = u;
    else
        mq->unexp_head = u;
    mq->unexp_tail = u;
    mq->nunexp++;
}

unexp_t *match_find_unexp(match_queues_t *mq, uint32_t ctx, int src, int tag, bool take)
{
    for (unexp_t *u = mq->unexp_head; u; u = u->next) {
        if (!matches(u->ctx, u->src, u->tag, ctx, src, tag))
            continue;
        if (take) {
            if (u->prev)
                u->prev->next = u->next;
            else
                mq->unexp_head = u->next;
            if (u->next)
                u->next->prev = u->prev;
            else
                mq->unexp_tail = u->prev;
            u->next = u->prev = NULL;
            mq->nunexp--;
        }
        return u;
    }
    return NULL;
}

size_t match_posted_count(const match_queues_t *mq)
{
    return mq->nposted;
}

size_t match_unexp_count(const match_queues_t *mq)
{
    return mq->nunexp;
}
