/* test_match_order.c — the matching engine's order under mixes (suite match, fixture in
 * test_match.c): specific and wildcard receives in every posting order, buckets, 1M messages
 * in both orders, and random operations checked against a plain-list model. */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "match_fixture.h"

/* ---- order across specific and wildcard receives, buckets, scale ---- */

/* Every posting order of five receives that all take an arrival (1, 2, 5) — two naming source
 * 2, ANY_SOURCE, ANY_TAG, both wildcards — with non-matching receives around them: the
 * arrivals must take them exactly in posting order, and the others must stay. */
Test(match, wildcard_and_specific_taken_in_posting_order_for_every_interleaving)
{
    enum { K = 5 };
    const int srcs[K] = {2, 2, RMP_ANY_SOURCE, 2, RMP_ANY_SOURCE};
    const int tagv[K] = {5, 5, 5, RMP_ANY_TAG, RMP_ANY_TAG};
    int perm[K] = {0, 1, 2, 3, 4}, tried = 0;
    for (;;) {
        struct rmp_request *r[K];
        struct rmp_request *other[3] = {
            recv_req(1, RMP_ANY_SOURCE, 6), /* wrong tag, posted first */
            recv_req(1, 3, 5),              /* another source, posted in the middle */
            recv_req(2, RMP_ANY_SOURCE, 5), /* another context, likewise */
        };
        match_post(mq, other[0]);
        for (int i = 0; i < K; i++) {
            r[perm[i]] = recv_req(1, srcs[perm[i]], tagv[perm[i]]);
            match_post(mq, r[perm[i]]);
            if (i == 2) {
                match_post(mq, other[1]);
                match_post(mq, other[2]);
            }
        }
        for (int i = 0; i < K; i++)
            cr_assert_eq(match_take_posted(mq, 1, 2, 5), r[perm[i]],
                         "permutation %d%d%d%d%d: arrival %d took the wrong receive", perm[0],
                         perm[1], perm[2], perm[3], perm[4], i);
        cr_assert_null(match_take_posted(mq, 1, 2, 5));
        cr_assert_eq(match_posted_count(mq), 3);
        cr_assert_eq(match_take_posted(mq, 2, 7, 5), other[2]);
        cr_assert_eq(match_take_posted(mq, 1, 3, 5), other[1]);
        cr_assert_eq(match_take_posted(mq, 1, 3, 6), other[0]);
        for (int i = 0; i < K; i++)
            free(r[i]);
        free(other[0]), free(other[1]), free(other[2]);
        tried++;
        /* next permutation (lexicographic) */
        int i = K - 2;
        while (i >= 0 && perm[i] > perm[i + 1])
            i--;
        if (i < 0)
            break;
        int j = K - 1;
        while (perm[j] < perm[i])
            j--;
        int t = perm[i];
        perm[i] = perm[j], perm[j] = t;
        for (int a = i + 1, b = K - 1; a < b; a++, b--)
            t = perm[a], perm[a] = perm[b], perm[b] = t;
    }
    cr_assert_eq(tried, 120);
}

Test(match, earlier_wildcard_with_other_tag_does_not_block_a_specific_receive)
{
    struct rmp_request *w = recv_req(1, RMP_ANY_SOURCE, 9), *s = recv_req(1, 4, 3),
                       *wa = recv_req(1, RMP_ANY_SOURCE, RMP_ANY_TAG);
    match_post(mq, w);
    match_post(mq, s);
    match_post(mq, wa);
    cr_assert_eq(match_take_posted(mq, 1, 4, 3), s);
    cr_assert_eq(match_take_posted(mq, 1, 4, 3), wa, "the later wildcard must take the next");
    cr_assert_eq(match_take_posted(mq, 1, 0, 9), w);
    cr_assert_eq(match_posted_count(mq), 0);
    free(w), free(s), free(wa);
}

Test(match, cancel_in_the_middle_of_a_bucket)
{
    struct rmp_request *r[5], *w = recv_req(1, RMP_ANY_SOURCE, 5);
    for (int i = 0; i < 5; i++) {
        r[i] = recv_req(1, 2, 5);
        match_post(mq, r[i]);
        if (i == 1)
            match_post(mq, w);
    }
    cr_assert(match_remove_posted(mq, r[2]));
    cr_assert_not(match_remove_posted(mq, r[2]));
    cr_assert(match_remove_posted(mq, w));
    cr_assert_eq(match_posted_count(mq), 4);
    /* the fault path takes only receives naming the source, never the wildcard ones */
    struct rmp_request *w2 = recv_req(1, RMP_ANY_SOURCE, RMP_ANY_TAG);
    match_post(mq, w2);
    cr_assert_eq(match_take_posted_from(mq, 1, 2), r[0]);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), r[1]);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), r[3]);
    cr_assert_eq(match_take_posted_from(mq, 1, 2), r[4]);
    cr_assert_null(match_take_posted_from(mq, 1, 2));
    cr_assert_null(match_take_posted_from(mq, 1, RMP_ANY_SOURCE));
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), w2);
    cr_assert_eq(match_posted_count(mq), 0);
    for (int i = 0; i < 5; i++)
        free(r[i]);
    free(w), free(w2);
}

Test(match, interleaved_senders_keep_per_sender_order_under_any_mix)
{
    enum { N = 300 };
    unexp_t *u[N];
    for (int i = 0; i < N; i++) {
        u[i] = arrival(4, i % 3, i % 2, (size_t)i);
        match_add_unexp(mq, u[i]);
    }
    /* source 1, then ANY_SOURCE tag 1, then everything left in arrival order */
    for (int i = 1; i < N; i += 3)
        cr_assert_eq(match_find_unexp(mq, 4, 1, RMP_ANY_TAG, true), u[i]);
    for (int i = 0; i < N; i++) {
        if (i % 3 == 1 || i % 2 != 1)
            continue;
        cr_assert_eq(match_find_unexp(mq, 4, RMP_ANY_SOURCE, 1, true), u[i]);
    }
    for (int i = 0; i < N; i++) {
        if (i % 3 == 1 || i % 2 == 1)
            continue;
        if (i % 4 == 0)
            cr_assert_eq(match_find_unexp(mq, 4, i % 3, 0, true), u[i]);
        else
            cr_assert_eq(match_find_unexp(mq, 4, RMP_ANY_SOURCE, RMP_ANY_TAG, true), u[i]);
    }
    cr_assert_eq(match_unexp_count(mq), 0);
    for (int i = 0; i < N; i++)
        free_unexp(u[i]);
}

Test(match, probe_sees_earliest_across_sources_and_within_a_sender)
{
    unexp_t *a = arrival(1, 2, 7, 1), *b = arrival(1, 0, 7, 2), *c = arrival(1, 2, 8, 3);
    match_add_unexp(mq, a);
    match_add_unexp(mq, b);
    match_add_unexp(mq, c);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, false), a);
    cr_assert_eq(match_find_unexp(mq, 1, 0, RMP_ANY_TAG, false), b);
    cr_assert_eq(match_find_unexp(mq, 1, 2, 8, false), c);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, 8, false), c);
    cr_assert_null(match_find_unexp(mq, 1, 1, RMP_ANY_TAG, false));
    cr_assert_eq(match_unexp_count(mq), 3);
    cr_assert_eq(match_find_unexp(mq, 1, 2, RMP_ANY_TAG, true), a);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, false), b);
    cr_assert_eq(match_find_unexp(mq, 1, 2, RMP_ANY_TAG, false), c);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, true), b);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, true), c);
    cr_assert_null(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, false));
    free_unexp(a), free_unexp(b), free_unexp(c);
}

Test(match, many_sources_and_contexts_come_and_go)
{
    /* 20000 distinct (ctx, source) keys at once: the table grows; all drain to nothing */
    enum { N = 20000 };
    struct rmp_request **r = calloc(N, sizeof *r);
    cr_assert_not_null(r);
    for (int i = 0; i < N; i++) {
        r[i] = recv_req((uint32_t)(i % 5), i, i % 3);
        cr_assert(match_post(mq, r[i]));
        cr_assert(match_add_unexp(mq, arrival((uint32_t)(i % 5), i, 9, 0)));
    }
    for (int i = N - 1; i >= 0; i--) {
        cr_assert_eq(match_take_posted(mq, (uint32_t)(i % 5), i, i % 3), r[i]);
        unexp_t *u = match_find_unexp(mq, (uint32_t)(i % 5), i, 9, true);
        cr_assert(u && u->src == i);
        free_unexp(u);
        free(r[i]);
    }
    cr_assert_eq(match_posted_count(mq) + match_unexp_count(mq), 0);
    free(r);
}

/* 1M messages from 3 senders (tags 0..6) through the unexpected queue, drained sender by
 * sender by exact tag, then again in arrival order by ANY_SOURCE; each must be the exact one. */
Test(match, million_unexpected_in_both_orders, .timeout = 120)
{
    enum { N = 1000000, S = 3 };
    unexp_t *u = calloc(N, sizeof *u);
    cr_assert_not_null(u);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < N; i++) {
            u[i] = (unexp_t){.ctx = 6, .src = i % S, .tag = (i / S) % 7, .len = (size_t)i};
            cr_assert(match_add_unexp(mq, &u[i]));
        }
        cr_assert_eq(match_unexp_count(mq), N);
        for (int s = 0; s < S; s++) {
            for (int i = pass ? 0 : s; i < N; i += pass ? 1 : S) {
                unexp_t *got = pass ? match_find_unexp(mq, 6, RMP_ANY_SOURCE, RMP_ANY_TAG, true)
                                    : match_find_unexp(mq, 6, s, (i / S) % 7, true);
                if (got != &u[i])
                    cr_assert_fail("pass %d: got message %zd, expected %d", pass,
                             got ? (ssize_t)got->len : -1, i);
            }
            if (pass)
                break;
        }
        cr_assert_eq(match_unexp_count(mq), 0);
    }
    free(u);
}

/* 1M receives from 3 sources posted, then matched by arrivals sender by sender and (second
 * pass, with every third receive a wildcard) in posting order. */
Test(match, million_posted_in_both_orders, .timeout = 120)
{
    enum { N = 1000000, S = 3 };
    struct rmp_request *r = calloc(N, sizeof *r);
    cr_assert_not_null(r);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < N; i++) {
            r[i] = (struct rmp_request){.kind = REQ_RECV, .ctx_id = 6, .tag = i % 7,
                                        .peer = pass && i % 3 == 2 ? RMP_ANY_SOURCE : i % S};
            cr_assert(match_post(mq, &r[i]));
        }
        for (int s = 0; s < S; s++) {
            for (int i = pass ? 0 : s; i < N; i += pass ? 1 : S) {
                struct rmp_request *got = match_take_posted(mq, 6, i % S, i % 7);
                if (got != &r[i])
                    cr_assert_fail("pass %d: arrival %d took receive %td", pass, i,
                             got ? got - r : -1);
            }
            if (pass)
                break;
        }
        cr_assert_eq(match_posted_count(mq), 0);
    }
    free(r);
}

/* ---- random operations checked against a plain-list model of MPI matching ---- */

enum { MODEL_MAX = 4096 };
typedef struct model {
    struct rmp_request *posted[MODEL_MAX]; /* in posting order */
    unexp_t *unexp[MODEL_MAX];             /* in arrival order */
    int np, nu;
} model_t;

static bool model_matches(uint32_t ctx, int src, int tag, uint32_t wctx, int wsrc, int wtag)
{
    return ctx == wctx && (wsrc == RMP_ANY_SOURCE || wsrc == src) &&
           (wtag == RMP_ANY_TAG || wtag == tag);
}

/* Remove entry i of a model array of n entries. */
#define MODEL_DROP(v, n, i)                                                                    \
    do {                                                                                       \
        memmove(&(v)[i], &(v)[(i) + 1], (size_t)((n) - (i)-1) * sizeof((v)[0]));              \
        (n)--;                                                                                 \
    } while (0)

/* One arrival: the model's first matching posted receive, else it is queued. */
static void model_arrival(model_t *m, uint32_t ctx, int src, int tag, int step)
{
    int i = 0;
    while (i < m->np && !model_matches(ctx, src, tag, m->posted[i]->ctx_id, m->posted[i]->peer,
                                       m->posted[i]->tag))
        i++;
    struct rmp_request *want = i < m->np ? m->posted[i] : NULL;
    struct rmp_request *got = match_take_posted(mq, ctx, src, tag);
    if (got != want)
        cr_assert_fail("step %d: arrival (%u, %d, %d) took the wrong receive", step, ctx, src, tag);
    if (want) {
        MODEL_DROP(m->posted, m->np, i);
        free(want);
    } else {
        unexp_t *u = arrival(ctx, src, tag, 0);
        cr_assert(match_add_unexp(mq, u));
        m->unexp[m->nu++] = u;
    }
}

/* One receive (or probe): the model's first matching arrival, else it is posted. */
static void model_receive(model_t *m, uint32_t ctx, int src, int tag, bool probe, int step)
{
    int i = 0;
    while (i < m->nu && !model_matches(m->unexp[i]->ctx, m->unexp[i]->src, m->unexp[i]->tag,
                                       ctx, src, tag))
        i++;
    unexp_t *want = i < m->nu ? m->unexp[i] : NULL;
    unexp_t *got = match_find_unexp(mq, ctx, src, tag, !probe);
    if (got != want)
        cr_assert_fail("step %d: %s (%u, %d, %d) found the wrong message", step,
                 probe ? "probe" : "receive", ctx, src, tag);
    if (probe)
        return;
    if (want) {
        MODEL_DROP(m->unexp, m->nu, i);
        free_unexp(want);
    } else {
        struct rmp_request *r = recv_req(ctx, src, tag);
        cr_assert(match_post(mq, r));
        m->posted[m->np++] = r;
    }
}

/* A cancel of a random posted receive, or the fault path's take of a source's receives. */
static void model_cancel(model_t *m, uint64_t rv, int step)
{
    if (!m->np)
        return;
    int i = (int)(rv % (uint64_t)m->np);
    struct rmp_request *r = m->posted[i];
    if (r->peer != RMP_ANY_SOURCE && rv % 3 == 0) {
        int first = 0;
        while (m->posted[first]->ctx_id != r->ctx_id || m->posted[first]->peer != r->peer)
            first++;
        r = m->posted[i = first];
        if (match_take_posted_from(mq, r->ctx_id, r->peer) != r)
            cr_assert_fail("step %d: take_posted_from did not take the first receive", step);
    } else if (!match_remove_posted(mq, r)) {
        cr_assert_fail("step %d: cancel of a posted receive failed", step);
    }
    MODEL_DROP(m->posted, m->np, i);
    free(r);
}

Test(match, random_operations_agree_with_the_list_model, .timeout = 120)
{
    model_t *m = calloc(1, sizeof *m);
    cr_assert_not_null(m);
    uint64_t seed = 0x6d61746368ull;
    for (int step = 0; step < 300000; step++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t rv = seed >> 16;
        uint32_t ctx = (uint32_t)(rv % 2);
        int src = (int)((rv >> 4) % 4), tag = (int)((rv >> 8) % 4);
        int wsrc = (rv >> 12) % 3 == 0 ? RMP_ANY_SOURCE : src;
        int wtag = (rv >> 14) % 3 == 0 ? RMP_ANY_TAG : tag;
        int op = (int)((rv >> 20) % 16);
        if (m->np >= MODEL_MAX - 1)
            op = 0; /* keep the model bounded: arrivals drain receives */
        else if (m->nu >= MODEL_MAX - 1)
            op = 8;
        if (op < 7)
            model_arrival(m, ctx, src, tag, step);
        else if (op < 13)
            model_receive(m, ctx, wsrc, wtag, false, step);
        else if (op < 15)
            model_receive(m, ctx, wsrc, wtag, true, step);
        else
            model_cancel(m, rv >> 24, step);
        if (match_posted_count(mq) != (size_t)m->np || match_unexp_count(mq) != (size_t)m->nu)
            cr_assert_fail("step %d: counts %zu/%zu, model %d/%d", step, match_posted_count(mq),
                     match_unexp_count(mq), m->np, m->nu);
    }
    while (m->np)
        model_cancel(m, 0, -1);
    cr_assert_eq(match_posted_count(mq), 0);
    for (int i = 0; i < m->nu; i++) { /* what is left comes out in arrival order per context */
        unexp_t *u = match_find_unexp(mq, m->unexp[i]->ctx, RMP_ANY_SOURCE, RMP_ANY_TAG, true);
        cr_assert_eq(u, m->unexp[i]);
        free_unexp(u);
    }
    cr_assert_eq(match_unexp_count(mq), 0);
    free(m);
}
