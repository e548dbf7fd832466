/* test_shm_coop.c — the two-sided copy's claims (transport/shm/shm_coop.c) between two threads,
 * with memcpy standing in for CMA: every byte arrives once whoever copies it, a sender that
 * never helps leaves the copy to the receiver, a stale or withdrawn key is declined, a chunk
 * the sender fails to write is copied again, and a slot is reused across generations. The
 * TSan build checks the ordering of the receiver's description and the chunks' counts. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "transport/shm/shm_coop.h"

typedef struct io_ctx {
    atomic_int writes, reads;
    bool fail_writes;
} io_ctx_t;

static int t_read(void *arg, char *dst, uint64_t src, size_t n)
{
    atomic_fetch_add(&((io_ctx_t *)arg)->reads, 1);
    memcpy(dst, (const void *)(uintptr_t)src, n);
    return 0;
}

static int t_write(void *arg, int peer, uint64_t dst, const char *src, size_t n)
{
    io_ctx_t *c = arg;
    cr_assert_eq(peer, 1, "the sender writes to the receiver it offered to");
    if (c->fail_writes)
        return 14; /* EFAULT */
    atomic_fetch_add(&c->writes, 1);
    memcpy((void *)(uintptr_t)dst, src, n);
    return 0;
}

static int t_alive(void *arg)
{
    return 0;
}

static void t_kick(void *arg)
{
}

typedef struct helper {
    shm_coop_t *co;
    shm_coop_io_t *io;
    atomic_bool stop;
    int copied;
} helper_t;

static void *help_loop(void *arg)
{
    helper_t *h = arg;
    while (!atomic_load(&h->stop))
        h->copied += shm_coop_help(h->co, h->io);
    return NULL;
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 131 + seed + (i >> 12));
}

/* One transfer of len bytes; helped: a sender thread progresses meanwhile. */
static void transfer(size_t len, bool helped, bool fail_writes, int *sender_chunks)
{
    void *area = aligned_alloc(64, shm_coop_area_bytes());
    cr_assert_not_null(area);
    memset(area, 0, shm_coop_area_bytes());
    shm_coop_t *co = malloc(sizeof(*co));
    cr_assert_not_null(co);
    shm_coop_attach(co, area);
    unsigned char *src = malloc(len), *dst = malloc(len + 64);
    cr_assert(src && dst);
    fill(src, len, (unsigned)len);
    memset(dst, 0, len + 64);
    io_ctx_t ctx = {.fail_writes = fail_writes};
    shm_coop_io_t io = {t_read, t_write, t_alive, t_kick, &ctx};

    uint64_t key = shm_coop_offer(co, src, len, 1);
    cr_assert_neq(key, 0);
    helper_t h = {.co = co, .io = &io};
    pthread_t th;
    if (helped)
        cr_assert_eq(pthread_create(&th, NULL, help_loop, &h), 0);
    int rc = shm_coop_pull(shm_coop_slot(area, key), key, (char *)dst, (uintptr_t)src, len, &io);
    atomic_store(&h.stop, true);
    if (helped)
        pthread_join(th, NULL);
    cr_assert_eq(rc, 0);
    cr_assert(memcmp(dst, src, len) == 0, "%zu bytes arrived wrong", len);
    for (size_t i = 0; i < 64; i++)
        cr_assert_eq(dst[len + i], 0, "byte %zu past the end written", i);
    if (!helped)
        cr_assert_eq(atomic_load(&ctx.writes), 0);
    if (sender_chunks)
        *sender_chunks = h.copied;
    shm_coop_withdraw(co, key);
    cr_assert(!shm_coop_busy(co));
    free(src);
    free(dst);
    free(co);
    free(area);
}

Test(shm_coop, sizes_with_a_helping_sender)
{
    const size_t sizes[] = {SHM_COOP_MIN, SHM_COOP_MIN + 1, 256 * 1024 + 4097, (1 << 20) - 1,
                            4u << 20, (4u << 20) + 4095, (16u << 20) + 5};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        for (int round = 0; round < 4; round++)
            transfer(sizes[i], true, false, NULL);
}

Test(shm_coop, a_sender_that_never_helps_leaves_it_all_to_the_receiver)
{
    transfer((4u << 20) + 17, false, false, NULL);
}

Test(shm_coop, chunks_the_sender_failed_are_copied_again)
{
    transfer((1u << 20) + 3, true, true, NULL);
}

Test(shm_coop, stale_withdrawn_and_foreign_keys_are_declined)
{
    void *area = aligned_alloc(64, shm_coop_area_bytes());
    cr_assert_not_null(area);
    memset(area, 0, shm_coop_area_bytes());
    shm_coop_t co;
    shm_coop_attach(&co, area);
    char src[8] = "abcdefg", dst[8] = {0};
    io_ctx_t ctx = {0};
    shm_coop_io_t io = {t_read, t_write, t_alive, t_kick, &ctx};
    cr_assert_null(shm_coop_slot(area, 0), "key 0 names no slot");
    cr_assert_null(shm_coop_slot(area, SHM_COOP_SLOTS + 1), "past the last slot");
    uint64_t k1 = shm_coop_offer(&co, src, sizeof(src), 1);
    shm_coop_withdraw(&co, k1);
    cr_assert_eq(shm_coop_pull(shm_coop_slot(area, k1), k1, dst, (uintptr_t)src, sizeof(src),
                               &io), SHM_COOP_DECLINED, "withdrawn");
    uint64_t k2 = shm_coop_offer(&co, src, sizeof(src), 1);
    uint64_t wrong = k2 + (1u << 8); /* the same slot, another generation */
    cr_assert_eq(shm_coop_pull(shm_coop_slot(area, wrong), wrong, dst, (uintptr_t)src,
                               sizeof(src), &io), SHM_COOP_DECLINED, "stale generation");
    cr_assert_eq(atomic_load(&ctx.reads), 0, "a declined pull copies nothing");
    shm_coop_withdraw(&co, k2);
    free(area);
}

Test(shm_coop, every_slot_taken_then_none_offered)
{
    void *area = aligned_alloc(64, shm_coop_area_bytes());
    cr_assert_not_null(area);
    memset(area, 0, shm_coop_area_bytes());
    shm_coop_t co;
    shm_coop_attach(&co, area);
    static char buf[1];
    uint64_t keys[SHM_COOP_SLOTS];
    for (int i = 0; i < SHM_COOP_SLOTS; i++)
        cr_assert_neq(keys[i] = shm_coop_offer(&co, buf, 1, 1), 0);
    cr_assert_eq(shm_coop_offer(&co, buf, 1, 1), 0, "no slot left: no offer");
    shm_coop_withdraw(&co, keys[5]);
    cr_assert_neq(shm_coop_offer(&co, buf, 1, 1), 0, "a withdrawn slot is offered again");
    free(area);
}
