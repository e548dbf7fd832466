/* shm_coll_count.c — barrier, allreduce and allgather in shared memory: each member counts
 * itself in at the home channel, the n-th combines and hands every member its result; a large
 * allgather's blocks go through their owners' block buffers (the design: top of shm_coll.c). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "transport/shm/shm_coll_call.h"

/* Large allgather: my block buffer of this call is free (its last readers are done). */
bool sc_blocks_free(const sc_call_t *k)
{
    const sc_blocks_t *b = k->mem[k->rank].bl;
    return atomic_load_explicit(&b->read[k->par], memory_order_acquire) == b->need[k->par];
}

/* Large allgather: my block into my buffer of this call, for the n - 1 others (published by
 * my count, which releases). RMP_INPROGRESS while the buffer's last readers still copy. */
static int blocks_post(sc_call_t *k)
{
    if (k->posted)
        return RMP_SUCCESS;
    if (!sc_blocks_free(k))
        return RMP_INPROGRESS;
    sc_blocks_t *b = k->mem[k->rank].bl;
    int p = k->par;
    atomic_store_explicit(&b->read[p], 0, memory_order_relaxed);
    b->need[p] = (uint32_t)k->size - 1;
    b->bytes = (uint32_t)k->bytes;
    const char *src = k->sbuf ? k->sbuf : (char *)k->buf + (size_t)k->rank * k->bytes;
    if (k->bytes)
        memcpy(b->blk + (size_t)p * k->sc->block_cap, src, k->bytes);
    k->posted = true;
    return RMP_SUCCESS;
}

/* Large allgather, the call over with rc: every block copied straight from its owner's buffer
 * (mine from where it is), each owner counted as read, and woken by its last reader (it may
 * sleep waiting for the buffer). A failed call reads nothing: each member frees its own. */
void sc_blocks_copy(sc_call_t *k, int rc)
{
    int n = k->size, me = k->rank, p = k->par;
    sc_blocks_t *mine = k->mem[me].bl;
    if (rc != RMP_SUCCESS && rc != RMP_ERR_TRUNCATE) {
        atomic_store_explicit(&mine->read[p], mine->need[p], memory_order_release);
        return;
    }
    if (k->sbuf && k->bytes)
        memcpy((char *)k->buf + (size_t)me * k->bytes, k->sbuf, k->bytes);
    for (int i = 1; i < n; i++) { /* from me + 1 on: the members do not all start at rank 0 */
        int r = (me + i) % n;
        sc_blocks_t *b = k->mem[r].bl;
        uint32_t need = b->need[p]; /* before I count: the owner may reuse blk[p] once I did */
        if (k->bytes)
            memcpy((char *)k->buf + (size_t)r * k->bytes, b->blk + (size_t)p * k->sc->block_cap,
                   k->bytes);
        if (atomic_fetch_add_explicit(&b->read[p], 1, memory_order_acq_rel) + 1 == need) {
            atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
            k->sc->host.wake(k->sc->tp, k->mem[r].world);
        }
    }
}

/* The n-th member: every input is visible (acquired through the count). The result, in my
 * buffer, then in every other member's out (an allgather's in mine only); their flags; one
 * fence; their wakeups. */
static void combine(sc_call_t *k, uint32_t word)
{
    int rc = RMP_SUCCESS, n = k->size;
    const char *res = NULL;
    bool bad = (word & SC_BAD) != 0, gather = k->coll == OFL_ALLGATHER;
    if (bad) {
        rc = RMP_ERR_ARG;
        tp_error(k->sc->tp, "the ranks of a communicator (collective context %u) called different "
                 "collectives, or one with different sizes, at the same point: each call "
                 "fails with RMP_ERR_ARG (RMP_CHECK_COLLECTIVES=1 names the ranks)", k->ctx);
    } else if (k->coll == OFL_ALLREDUCE && k->bytes) {
        /* in_0 op (in_1 op (... op in_n-1)), into my own result buffer */
        memcpy(k->buf, k->mem[n - 1].ch->in, k->bytes);
        for (int r = n - 2; r >= 0 && rc == RMP_SUCCESS; r--)
            rc = k->red.fn(&k->red, k->mem[r].ch->in, k->buf);
        res = k->buf;
    } else if (k->large) { /* the blocks stay where their owners put them */
        for (int r = 0; r < n && rc == RMP_SUCCESS; r++)
            if (k->mem[r].bl->bytes != (uint32_t)k->bytes) {
                rc = RMP_ERR_ARG;
                tp_error(k->sc->tp, "the ranks of a communicator (collective context %u) called "
                         "allgather with blocks of different sizes (%zu bytes here, %u at rank "
                         "%d): each call fails with RMP_ERR_ARG", k->ctx, k->bytes,
                         k->mem[r].bl->bytes, r);
            }
        if (rc == RMP_SUCCESS && (word & SC_CUT))
            rc = RMP_ERR_TRUNCATE;
    } else if (gather) {
        for (int r = 0; r < n && k->bytes; r++)
            memcpy((char *)k->buf + (size_t)r * k->bytes, k->mem[r].ch->in, k->bytes);
        memcpy(k->mem[k->rank].ch->out, k->buf, (size_t)n * k->bytes);
        if (word & SC_CUT)
            rc = RMP_ERR_TRUNCATE;
    }
    for (int r = 0; r < n; r++) {
        if (r == k->rank)
            continue;
        sc_chan_t *m = k->mem[r].ch;
        if (res)
            memcpy(m->out, res, k->bytes);
        m->status = rc;
        m->from = k->rank;
        atomic_store_explicit(&m->done, 1, memory_order_release);
    }
    atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
    for (int r = 0; r < n; r++)
        if (r != k->rank)
            k->sc->host.wake(k->sc->tp, k->mem[r].world);
    k->rc = rc;
}

/* Count myself in. RMP_INPROGRESS: the home's count belongs to another communicator still
 * (try again later), or I am in and wait; RMP_SUCCESS: I was the n-th and the call is done. */
int sc_arrive(sc_call_t *k)
{
    sc_chan_t *mine = k->mem[k->rank].ch, *home = k->mem[0].ch;
    uint64_t v = atomic_load_explicit(&home->arrived, memory_order_relaxed), nv;
    uint32_t in, lo, what = (uint32_t)k->coll << SC_KIND_SHIFT |
                            (k->large ? SC_LARGE_BYTES : (uint32_t)k->bytes) << SC_BYTES_SHIFT;
    bool posted = false;
    if (k->large && blocks_post(k) == RMP_INPROGRESS)
        return RMP_INPROGRESS;
    do {
        lo = (uint32_t)v;
        in = lo & SC_COUNT_MASK;
        if (in && (uint32_t)(v >> 32) != k->ctx)
            return RMP_INPROGRESS;
        if (!posted) { /* my contribution, before I count (my channel is free: see top) */
            atomic_store_explicit(&mine->done, 0, memory_order_relaxed);
            if (k->bytes && k->coll != OFL_BARRIER && !k->large)
                memcpy(mine->in,
                       k->sbuf                     ? k->sbuf
                       : k->coll == OFL_ALLGATHER ? (char *)k->buf + (size_t)k->rank * k->bytes
                                                   : k->buf,
                       k->bytes);
            posted = true;
        }
        uint32_t nlo = !in ? what | 1
                       : (lo & ~(SC_BAD | SC_CUT | SC_COUNT_MASK)) != what ? (lo + 1) | SC_BAD
                                                                           : lo + 1;
        nlo |= k->cut ? SC_CUT : 0;
        nv = (uint64_t)k->ctx << 32 | nlo;
    } while (!atomic_compare_exchange_weak_explicit(&home->arrived, &v, nv, memory_order_acq_rel,
                                                    memory_order_relaxed));
    atomic_store_explicit(&mine->entered, k->mark, memory_order_relaxed);
    if ((int)in + 1 < k->size) {
        k->state = SC_ARRIVED;
        return RMP_INPROGRESS;
    }
    atomic_store_explicit(&home->arrived, 0, memory_order_relaxed); /* before any result */
    combine(k, (uint32_t)nv);
    if (k->large)
        sc_blocks_copy(k, k->rc);
    return RMP_SUCCESS;
}
