/* shm_coll_bcast.c — broadcast in shared memory, fan-out only: the root publishes into one of
 * two buffers of its channel and returns; each member copies it out and counts itself as read
 * (the design is told at the top of shm_coll.c). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "transport/shm/shm_coll_call.h"

/* Broadcast: the publication buffer of the root's that is free (-1: none), or, for a reader,
 * the one that holds this call (-1: not yet). */
int sc_pub_free(const sc_chan_t *root)
{
    for (int p = 0; p < 2; p++)
        if (atomic_load_explicit(&root->read[p], memory_order_acquire) == root->need[p])
            return p;
    return -1;
}

/* The count first, then the tag: a communicator freed and made again over the same members
 * gets the same context id and counts its calls from 1 again, so the new call's tag can equal
 * an old, fully read publication's. Were the tag read first, a reader could see the old tag,
 * then the count the root has just reset for the new call, and copy the old bytes (or half of
 * the new ones): the root resets the count after clearing the tag, with release, so a reader
 * that sees the reset count sees the cleared tag, or the new one with its data complete. */
int sc_pub_find(const sc_call_t *k, const sc_chan_t *root)
{
    for (int p = 0; p < 2; p++)
        if (atomic_load_explicit(&root->read[p], memory_order_acquire) < root->need[p] &&
            atomic_load_explicit(&root->pub[p].tag, memory_order_acquire) == k->tag)
            return p;
    return -1;
}

/* A broadcast's tag: its communicator (context id and members) and its sequence number there.
 * The members make it part of a publication's name because a context id comes back: a
 * communicator freed and made again over other ranks may reach the same sequence number while
 * a reader of the old one has not read yet (a reader holds its context pair until then, so
 * the same members cannot have it again). The same members do get the same tag again once the
 * old one is read: sc_pub_find tells them apart by the count. Never 0. */
uint64_t sc_bcast_tag(const ofl_comm_t *comm, uint32_t seq)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)comm->ctx_id << 32 | seq);
    for (int r = 0; r < comm->size; r++)
        h = (h ^ (uint32_t)comm->world[r]) * 0x100000001b3ull;
    h ^= h >> 29;
    return h ? h : 1;
}

/* Broadcast, fan-out only: the root publishes into a free buffer of its own and is done; a
 * member copies the publication out and counts itself as read; the last to read wakes the
 * root if it sleeps waiting for a buffer. Nobody waits for anyone but the root. */
int sc_bcast_step(sc_call_t *k)
{
    sc_chan_t *root = k->mem[k->root].ch;
    int p, n = k->size;
    if (k->rank == k->root) {
        if ((p = sc_pub_free(root)) < 0)
            return RMP_INPROGRESS;
        atomic_store_explicit(&root->pub[p].tag, 0, memory_order_relaxed);
        root->need[p] = (uint32_t)n - 1;
        /* release: whoever sees the reset count sees the tag cleared (sc_pub_find) */
        atomic_store_explicit(&root->read[p], 0, memory_order_release);
        if (k->bytes)
            memcpy(root->pub[p].data, k->buf, k->bytes);
        root->pub[p].bytes = k->bytes;
        atomic_store_explicit(&root->pub[p].tag, k->tag, memory_order_release);
        atomic_thread_fence(memory_order_seq_cst); /* pairs with the sleeper's: shm_wake.c */
        for (int r = 0; r < n; r++)
            if (r != k->rank)
                k->sc->host.wake(k->sc->tp, k->mem[r].world);
        return RMP_SUCCESS;
    }
    if ((p = sc_pub_find(k, root)) < 0)
        return RMP_INPROGRESS;
    uint32_t need = root->need[p]; /* before I count: the root may reuse p once I did */
    size_t sent = root->pub[p].bytes, got = sent < k->bytes ? sent : k->bytes;
    if (got)
        memcpy(k->buf, root->pub[p].data, got);
    if (atomic_fetch_add_explicit(&root->read[p], 1, memory_order_acq_rel) + 1 == need) {
        atomic_thread_fence(memory_order_seq_cst);
        k->sc->host.wake(k->sc->tp, k->mem[k->root].world);
    }
    return sent == k->bytes ? RMP_SUCCESS : RMP_ERR_TRUNCATE;
}
