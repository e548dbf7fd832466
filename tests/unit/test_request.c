/* test_request.c — unit tests of the request table (runtime/request.c, core.h): a handle names
 * its request while it lives; after req_free, and after its slot was reused, it names nothing;
 * values rmp never handed out name nothing; slots are shared safely between threads. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The same slot index with another generation (what a stale copy or a guess would carry). */
static rmp_request_t with_gen(rmp_request_t h, uint32_t gen)
{
    uintptr_t v = (uintptr_t)h & (((uintptr_t)1 << REQ_GEN_SHIFT) - 1);
    return (rmp_request_t)(v | (uintptr_t)(gen & REQ_GEN_MASK) << REQ_GEN_SHIFT);
}

Test(request, live_handle_names_its_request_until_freed)
{
    struct rmp_request *r = req_alloc(REQ_SEND);
    cr_assert_not_null(r);
    cr_assert_eq(r->kind, REQ_SEND);
    cr_assert_eq(r->peer_world, -1);
    rmp_request_t h = req_handle(r);
    cr_assert_neq(h, RMP_REQUEST_NULL);
    cr_assert_eq(req_lookup(h), r);
    cr_assert_eq(req_lookup(h), r, "a lookup must not change anything");
    req_free(r);
    cr_assert_null(req_lookup(h), "a freed request's handle still resolves");
}

Test(request, stale_handle_of_a_reused_slot_is_refused)
{
    struct rmp_request *a = req_alloc(REQ_RECV);
    cr_assert_not_null(a);
    rmp_request_t stale = req_handle(a);
    req_free(a);
    struct rmp_request *b = req_alloc(REQ_RECV); /* the freeing thread reuses its last slot */
    cr_assert_eq(b, a, "the slot was not reused: the test proves nothing");
    rmp_request_t fresh = req_handle(b);
    cr_assert_neq(fresh, stale);
    cr_assert_null(req_lookup(stale), "the stale handle resolves to the new owner's request");
    cr_assert_eq(req_lookup(fresh), b);
    req_free(b);
    cr_assert_null(req_lookup(fresh));
    cr_assert_null(req_lookup(stale));
}

Test(request, values_never_handed_out_are_refused)
{
    struct rmp_request *r = req_alloc(REQ_SEND);
    cr_assert_not_null(r);
    rmp_request_t h = req_handle(r);
    uint32_t gen = (uint32_t)((uintptr_t)h >> REQ_GEN_SHIFT);
    int on_stack;
    void *heap = malloc(4096);
    cr_assert_not_null(heap);
    memset(heap, 0xff, 4096);
    const rmp_request_t wild[] = {
        RMP_REQUEST_NULL,
        (rmp_request_t)(uintptr_t)1,            /* slot 0, generation 0 (free) */
        (rmp_request_t)(uintptr_t)2,
        (rmp_request_t)(uintptr_t)0x10,
        (rmp_request_t)(uintptr_t)0xdeadbeef,
        (rmp_request_t)UINTPTR_MAX,
        (rmp_request_t)(UINTPTR_MAX - 7),
        (rmp_request_t)(void *)&on_stack,       /* real pointers: never bit 0 */
        (rmp_request_t)heap,
        (rmp_request_t)(void *)r,               /* the request's own address */
        with_gen(h, gen + 2),                   /* a later generation of a live slot */
        with_gen(h, gen - 2),                   /* an earlier one */
        with_gen(h, gen + 1),                   /* even: the free state */
        (rmp_request_t)((uintptr_t)(REQ_MAX_LIVE - 1) << 1 | 1u | (uintptr_t)1 << REQ_GEN_SHIFT),
        (rmp_request_t)((uintptr_t)REQ_MAX_LIVE << 1 | 1u | (uintptr_t)1 << REQ_GEN_SHIFT),
    };
    for (size_t i = 0; i < sizeof wild / sizeof wild[0]; i++)
        cr_assert_null(req_lookup(wild[i]), "value %zu (%p) resolved to a request", i,
                       (void *)wild[i]);
    cr_assert_eq(req_lookup(h), r, "the live handle stopped resolving");
    free(heap);
    req_free(r);
}

Test(request, double_free_does_not_revive_a_slot)
{
    struct rmp_request *r = req_alloc(REQ_SEND);
    cr_assert_not_null(r);
    rmp_request_t h = req_handle(r);
    req_free(r);
    req_free(r); /* an rmp bug; must not make the slot live (odd generation) again */
    cr_assert_null(req_lookup(h));
    struct rmp_request *a = req_alloc(REQ_SEND), *b = req_alloc(REQ_SEND);
    cr_assert(a && b && a != b, "one slot handed out twice after a double free");
    req_free(a);
    req_free(b);
}

#define MANY 5000 /* several chunks of the table */

Test(request, many_live_requests_have_distinct_working_handles)
{
    static struct rmp_request *r[MANY];
    static rmp_request_t h[MANY];
    for (int i = 0; i < MANY; i++) {
        r[i] = req_alloc(REQ_RECV);
        cr_assert_not_null(r[i], "allocation %d failed", i);
        r[i]->tag = i;
        h[i] = req_handle(r[i]);
    }
    for (int i = 0; i < MANY; i++) {
        cr_assert_eq(req_lookup(h[i]), r[i], "handle %d", i);
        cr_assert_eq(req_lookup(h[i])->tag, i);
    }
    for (int i = 0; i < MANY; i += 2)
        req_free(r[i]);
    for (int i = 0; i < MANY; i++)
        cr_assert_eq(req_lookup(h[i]), i % 2 ? r[i] : NULL, "handle %d after freeing evens", i);
    for (int i = 1; i < MANY; i += 2)
        req_free(r[i]);
    for (int i = 0; i < MANY; i++)
        cr_assert_null(req_lookup(h[i]), "handle %d after freeing all", i);
}

/* Threads allocate, hand requests to each other and free them, while checking that their own
 * live handles keep resolving and stale ones never do (run under TSan too). */
#define NTHREADS 4
#define ROUNDS 20000
static rmp_request_t mailbox[NTHREADS];
static pthread_mutex_t mailbox_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int thread_errors;

static void *churn(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        struct rmp_request *r = req_alloc(REQ_SEND);
        if (!r) {
            thread_errors++;
            break;
        }
        r->tag = me;
        rmp_request_t h = req_handle(r);
        if (req_lookup(h) != r)
            thread_errors++;
        /* swap with the mailbox of the next thread: free whatever was there (another
         * thread's request), so frees cross threads */
        pthread_mutex_lock(&mailbox_lock);
        rmp_request_t old = mailbox[(me + 1) % NTHREADS];
        mailbox[(me + 1) % NTHREADS] = h;
        struct rmp_request *o = req_lookup(old);
        if (old != RMP_REQUEST_NULL && !o)
            thread_errors++;
        req_free(o);
        pthread_mutex_unlock(&mailbox_lock);
        if (o && req_lookup(old))
            thread_errors++;
    }
    return NULL;
}

Test(request, threads_share_the_table)
{
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, churn, (void *)(intptr_t)i), 0);
    for (int i = 0; i < NTHREADS; i++)
        cr_assert_eq(pthread_join(t[i], NULL), 0);
    cr_assert_eq(thread_errors, 0, "%d wrong lookups", thread_errors);
    for (int i = 0; i < NTHREADS; i++) {
        struct rmp_request *r = req_lookup(mailbox[i]);
        cr_assert_not_null(r, "mailbox %d lost its request", i);
        cr_assert_eq(r->tag, (i + NTHREADS - 1) % NTHREADS);
        req_free(r);
        cr_assert_null(req_lookup(mailbox[i]));
    }
}
