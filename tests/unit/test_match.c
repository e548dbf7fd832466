/* test_match.c — unit tests of the matching engine (runtime/match.h): first-match order in both
 * queues (MPI's non-overtaking rule), order across wildcard and specific receives in every
 * posting order, source and tag wildcards, context separation, probe (find without take), cancel
 * and the fault path's take; order under mixes, scale and the list model in test_match_order.c. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "match_fixture.h"

match_queues_t *mq;

static void setup(void)
{
    mq = match_create();
    cr_assert_not_null(mq);
}

static void teardown(void)
{
    match_destroy(mq);
}

TestSuite(match, .init = setup, .fini = teardown, .timeout = 10);

Test(match, empty_queues)
{
    cr_assert_eq(match_posted_count(mq), 0);
    cr_assert_eq(match_unexp_count(mq), 0);
    cr_assert_null(match_take_posted(mq, 0, 0, 0));
    cr_assert_null(match_find_unexp(mq, 0, RMP_ANY_SOURCE, RMP_ANY_TAG, false));
    cr_assert_null(match_find_unexp(mq, 0, RMP_ANY_SOURCE, RMP_ANY_TAG, true));
}

Test(match, posted_first_match_wins_in_post_order)
{
    struct rmp_request *exact = recv_req(1, 2, 5), *any_src = recv_req(1, RMP_ANY_SOURCE, 5),
                       *any_tag = recv_req(1, 2, RMP_ANY_TAG),
                       *any = recv_req(1, RMP_ANY_SOURCE, RMP_ANY_TAG);
    match_post(mq, exact);
    match_post(mq, any_src);
    match_post(mq, any_tag);
    match_post(mq, any);
    cr_assert_eq(match_posted_count(mq), 4);
    /* four arrivals (ctx 1, src 2, tag 5): each matches all four, taken in post order */
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), exact);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), any_src);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), any_tag);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), any);
    cr_assert_null(match_take_posted(mq, 1, 2, 5));
    cr_assert_eq(match_posted_count(mq), 0);
    free(exact), free(any_src), free(any_tag), free(any);
}

Test(match, posted_skips_receives_that_do_not_match)
{
    struct rmp_request *from3 = recv_req(1, 3, 5), *tag6 = recv_req(1, 2, 6),
                       *from2 = recv_req(1, 2, 5);
    match_post(mq, from3);
    match_post(mq, tag6);
    match_post(mq, from2);
    cr_assert_eq(match_take_posted(mq, 1, 2, 5), from2);
    cr_assert_null(match_take_posted(mq, 1, 2, 5));
    cr_assert_null(match_take_posted(mq, 1, 4, 6), "a receive from 2 matched source 4");
    cr_assert_eq(match_posted_count(mq), 2);
    cr_assert_eq(match_take_posted(mq, 1, 2, 6), tag6);
    cr_assert_eq(match_take_posted(mq, 1, 3, 5), from3);
    cr_assert_eq(match_posted_count(mq), 0);
    free(from3), free(tag6), free(from2);
}

Test(match, source_wildcard_matches_any_sender_only_with_its_tag)
{
    struct rmp_request *r = recv_req(7, RMP_ANY_SOURCE, 9);
    match_post(mq, r);
    cr_assert_null(match_take_posted(mq, 7, 0, 8));
    cr_assert_eq(match_take_posted(mq, 7, 12345, 9), r);
    free(r);
}

Test(match, tag_wildcard_matches_any_tag_only_from_its_source)
{
    struct rmp_request *r = recv_req(7, 4, RMP_ANY_TAG);
    match_post(mq, r);
    cr_assert_null(match_take_posted(mq, 7, 5, 0));
    cr_assert_eq(match_take_posted(mq, 7, 4, RMP_TAG_UB), r);
    free(r);
}

Test(match, arrival_tag_is_never_a_wildcard)
{
    /* only receives carry wildcards: a specific receive never takes a "tag -1" arrival */
    struct rmp_request *r = recv_req(1, 0, 3);
    match_post(mq, r);
    cr_assert_null(match_take_posted(mq, 1, 0, 4));
    cr_assert_null(match_take_posted(mq, 1, 1, 3));
    cr_assert_eq(match_posted_count(mq), 1);
    cr_assert_eq(match_take_posted(mq, 1, 0, 3), r);
    free(r);
}

Test(match, contexts_never_match_each_other)
{
    struct rmp_request *r = recv_req(10, RMP_ANY_SOURCE, RMP_ANY_TAG);
    match_post(mq, r);
    cr_assert_null(match_take_posted(mq, 11, 0, 0), "context 11 matched a receive of 10");
    cr_assert_null(match_take_posted(mq, 9, 0, 0));
    cr_assert_eq(match_take_posted(mq, 10, 0, 0), r);
    free(r);

    match_add_unexp(mq, arrival(11, 0, 0, 4));
    cr_assert_null(match_find_unexp(mq, 10, RMP_ANY_SOURCE, RMP_ANY_TAG, true));
    cr_assert_null(match_find_unexp(mq, 12, RMP_ANY_SOURCE, RMP_ANY_TAG, false));
    unexp_t *u = match_find_unexp(mq, 11, RMP_ANY_SOURCE, RMP_ANY_TAG, true);
    cr_assert_not_null(u);
    free_unexp(u);
}

Test(match, unexpected_first_arrival_wins)
{
    unexp_t *a = arrival(1, 1, 5, 0), *b = arrival(1, 2, 5, 8), *c = arrival(1, 1, 6, 16);
    match_add_unexp(mq, a);
    match_add_unexp(mq, b);
    match_add_unexp(mq, c);
    cr_assert_eq(match_unexp_count(mq), 3);
    cr_assert_eq(match_find_unexp(mq, 1, 1, RMP_ANY_TAG, true), a);
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, 6, true), c);
    cr_assert_null(match_find_unexp(mq, 1, 1, RMP_ANY_TAG, true));
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, true), b);
    cr_assert_eq(match_unexp_count(mq), 0);
    free_unexp(a), free_unexp(b), free_unexp(c);
}

Test(match, unexpected_same_sender_and_tag_in_arrival_order)
{
    unexp_t *u[5];
    for (int i = 0; i < 5; i++) {
        u[i] = arrival(3, 1, 2, (size_t)i + 1);
        match_add_unexp(mq, u[i]);
    }
    for (int i = 0; i < 5; i++) {
        unexp_t *got = match_find_unexp(mq, 3, i % 2 ? RMP_ANY_SOURCE : 1,
                                        i % 3 ? RMP_ANY_TAG : 2, true);
        cr_assert_eq(got, u[i], "arrival %d overtaken", i);
        cr_assert_eq(got->len, (size_t)i + 1);
        free_unexp(got);
    }
}

Test(match, probe_finds_without_taking)
{
    unexp_t *a = arrival(1, 4, 8, 32), *b = arrival(1, 4, 9, 0);
    match_add_unexp(mq, a);
    match_add_unexp(mq, b);
    cr_assert_eq(match_find_unexp(mq, 1, 4, 9, false), b);
    cr_assert_eq(match_find_unexp(mq, 1, 4, 9, false), b, "a probe consumed the message");
    cr_assert_eq(match_find_unexp(mq, 1, RMP_ANY_SOURCE, RMP_ANY_TAG, false), a);
    cr_assert_eq(match_unexp_count(mq), 2);
    cr_assert_eq(match_find_unexp(mq, 1, 4, 9, true), b);
    cr_assert_eq(match_unexp_count(mq), 1);
    cr_assert_null(match_find_unexp(mq, 1, 4, 9, false));
    free_unexp(b);
    /* a is left queued: match_destroy frees it and its data (checked by ASan's leak check) */
}

Test(match, remove_posted_cancels_once)
{
    struct rmp_request *r1 = recv_req(1, 0, 1), *r2 = recv_req(1, 0, 1), *r3 = recv_req(1, 0, 1);
    match_post(mq, r1);
    match_post(mq, r2);
    match_post(mq, r3);
    cr_assert(match_remove_posted(mq, r2));
    cr_assert_not(match_remove_posted(mq, r2), "removed twice");
    cr_assert_eq(match_posted_count(mq), 2);
    cr_assert_eq(match_take_posted(mq, 1, 0, 1), r1);
    cr_assert_not(match_remove_posted(mq, r1), "a matched receive was removed");
    cr_assert_eq(match_take_posted(mq, 1, 0, 1), r3);
    cr_assert_null(match_take_posted(mq, 1, 0, 1), "a cancelled receive matched");
    free(r1), free(r2), free(r3);
}

Test(match, remove_posted_head_and_tail_keep_the_queue_linked)
{
    struct rmp_request *r[4];
    for (int i = 0; i < 4; i++) {
        r[i] = recv_req(2, RMP_ANY_SOURCE, i);
        match_post(mq, r[i]);
    }
    cr_assert(match_remove_posted(mq, r[0])); /* head */
    cr_assert(match_remove_posted(mq, r[3])); /* tail */
    struct rmp_request *late = recv_req(2, RMP_ANY_SOURCE, RMP_ANY_TAG);
    match_post(mq, late); /* appended after r[2] */
    cr_assert_eq(match_posted_count(mq), 3);
    cr_assert_eq(match_take_posted(mq, 2, 0, 3), late);
    cr_assert_eq(match_take_posted(mq, 2, 0, 2), r[2]);
    cr_assert_eq(match_take_posted(mq, 2, 0, 1), r[1]);
    cr_assert_eq(match_posted_count(mq), 0);
    cr_assert_not(match_remove_posted(mq, late));
    for (int i = 0; i < 4; i++)
        free(r[i]);
    free(late);
}

Test(match, remove_posted_of_a_receive_never_posted)
{
    struct rmp_request *r = recv_req(1, 0, 0), *other = recv_req(1, 0, 0);
    match_post(mq, r);
    cr_assert_not(match_remove_posted(mq, other));
    cr_assert_eq(match_posted_count(mq), 1);
    cr_assert(match_remove_posted(mq, r));
    free(r), free(other);
}

Test(match, many_receives_taken_out_of_order)
{
    enum { N = 5000 };
    struct rmp_request **r = calloc(N, sizeof *r);
    for (int i = 0; i < N; i++) {
        r[i] = recv_req(1, i % 7, i);
        match_post(mq, r[i]);
    }
    cr_assert_eq(match_posted_count(mq), N);
    /* odd tags from the back, then even ones from the front */
    for (int i = N - 1; i >= 0; i -= 2)
        cr_assert_eq(match_take_posted(mq, 1, i % 7, i), r[i]);
    for (int i = 0; i < N; i += 2)
        cr_assert_eq(match_take_posted(mq, 1, i % 7, i), r[i]);
    cr_assert_eq(match_posted_count(mq), 0);
    for (int i = 0; i < N; i++)
        free(r[i]);
    free(r);
}

Test(match, destroy_frees_queued_arrivals)
{
    for (int i = 0; i < 100; i++)
        match_add_unexp(mq, arrival(1, i, i, (size_t)i * 3));
    cr_assert_eq(match_unexp_count(mq), 100);
    /* teardown's match_destroy must free all of them (ASan's leak check runs in make check) */
}
