/* shm_p2p.c — shm's point-to-point data path: records through the peer's shared queue, then
 * through a fast ring of our own once we talk often; progress delivers them to the core. */
#include <string.h>

#include "transport/shm/shm_tp.h"

/* Hand peer p one of my fast rings, if one is left: a record in its queue names the ring, and
 * from then on everything to p goes through the ring. p starts reading the ring only when it
 * reaches that record, after everything I queued before it: order is kept. 0 if p now has a
 * ring; RMP_AGAIN if its queue is full (the caller's record waits too). */
static int fast_offer(shm_tp_t *s, shm_peer_t *p)
{
    uint32_t slot = (uint32_t)s->nfast_used;
    int rc = shm_queue_try_write(&p->outq, (uint32_t)s->me | SHM_FROM_FAST, &slot,
                                 sizeof(slot), NULL, 0);
    if (rc == SHM_QUEUE_AGAIN)
        return RMP_AGAIN;
    if (rc != SHM_QUEUE_OK)
        return rc == SHM_QUEUE_CORRUPT ? RMP_ERR_TRANSPORT : RMP_ERR_INTERNAL;
    shm_ring_attach(&p->out, shm_seg_fast(s, s->seg, (int)slot), s->ring_cap, true); /* mine */
    s->nfast_used++;
    return RMP_SUCCESS;
}

/* Records go through the peer's queue, shared with all its other senders, until this rank has
 * sent SHM_FAST_AFTER to it; then, while any of my SHM_FAST_RINGS rings is left, through a
 * fast ring of our own (no compare-and-swap, and the receiver polls it only because I use it).
 * Either path is bounded: when full, RMP_AGAIN, and the core keeps the packet queued until the
 * receiver makes room (eager back-pressure: see the note at shm_progress). */
int shm_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                    size_t len)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = shm_peer_of(s, peer);
    if (!p || !p->outq.ctl) /* not on this node, or not wired up */
        return RMP_ERR_ARG;
    int rc;
    if (!p->out.ctl && p->queued >= SHM_FAST_AFTER && s->nfast_used < SHM_FAST_RINGS) {
        rc = fast_offer(s, p);
        if (rc == RMP_AGAIN)
            return rc;
        if (rc != RMP_SUCCESS)
            goto corrupt;
    }
    if (p->out.ctl) {
        rc = shm_ring_try_write(&p->out, hdr, hdrlen, payload, len);
        rc = rc == SHM_RING_OK ? SHM_QUEUE_OK : rc == SHM_RING_AGAIN ? SHM_QUEUE_AGAIN
                                                                    : SHM_QUEUE_TOOBIG;
    } else {
        rc = shm_queue_try_write(&p->outq, (uint32_t)s->me, hdr, hdrlen, payload, len);
        p->queued += rc == SHM_QUEUE_OK && p->queued < SHM_FAST_AFTER;
    }
    if (rc == SHM_QUEUE_AGAIN)
        return RMP_AGAIN;
    if (rc == SHM_QUEUE_CORRUPT)
        goto corrupt;
    if (rc != SHM_QUEUE_OK) {
        tp_error(tp, "shm: send of %zu bytes to rank %d exceeds max_send %zu",
                 hdrlen + len, peer, tp->max_send);
        return RMP_ERR_INTERNAL;
    }
    shm_tp_ring(s, p);
    return RMP_SUCCESS;
corrupt:
    tp_error(tp, "shm: the queue of rank %d holds impossible indices (memory corruption by a "
             "process of this node?); nothing more is sent to it", peer);
    return RMP_ERR_TRANSPORT;
}

/* Deliver up to `budget` records from peer p's fast ring to me. */
static int poll_fast(shm_tp_t *s, shm_peer_t *p, int budget)
{
    int events = 0;
    for (int b = 0; b < budget && !p->broken; b++) {
        const void *data;
        size_t len;
        int rc = shm_ring_peek(&p->in, &data, &len);
        if (rc == SHM_RING_EMPTY)
            break;
        if (rc == SHM_RING_CORRUPT) {
            p->broken = true;
            tp_error(&s->base, "shm: garbage in the ring from rank %d (memory corruption "
                     "in that process?)", p->world);
            tp_peer_failed(&s->base, p->world, RMP_ERR_TRANSPORT, "corrupt shm ring");
            break;
        }
        /* Zero copy: the core copies out before returning; release frees the space. */
        tp_deliver(&s->base, p->world, data, len);
        shm_ring_release(&p->in);
        events++;
    }
    return events;
}

/* My queue held garbage. Any local peer may have written it, and anything queued after it is
 * lost: every local peer fails (RMP_ERR_TRANSPORT on what waits for them), rather than a
 * wrong one being blamed or a receive waiting forever. */
static void queue_broken(shm_tp_t *s, const char *what)
{
    s->inq_broken = true;
    tp_error(&s->base, "shm: %s in my incoming queue (memory corruption by a process of this "
             "node?); every rank of this node is treated as failed", what);
    for (int i = 0; i < s->nlocal; i++)
        if (i != s->me)
            tp_peer_failed(&s->base, s->peers[i].world, RMP_ERR_TRANSPORT, "corrupt shm queue");
}

/* Peer `from` hands me its fast ring `slot` (a record of 4 bytes). 1: attached (or to retry
 * later: 0 and nothing consumed), -1: garbage. */
static int fast_accept(shm_tp_t *s, uint32_t from, const void *data, size_t len)
{
    uint32_t slot;
    if (from >= (uint32_t)s->nlocal || len != sizeof(slot))
        return -1;
    shm_peer_t *p = &s->peers[from];
    if (!p->seg) /* a peer done with its wire-up before me: map it first (shm_wireup) */
        return 0;
    memcpy(&slot, data, sizeof(slot));
    if (p->in.ctl || slot >= SHM_FAST_RINGS ||
        shm_ring_attach(&p->in, shm_seg_fast(s, p->seg, (int)slot), s->ring_cap, false))
        return -1;
    shm_prefault(s, p->in.ctl, shm_ring_footprint(s->ring_cap)); /* read on every message */
    s->hot[s->nhot++] = (int)from;
    return 1;
}

/* Deliver up to SHM_QUEUE_BUDGET records from my queue. */
static int poll_queue(shm_tp_t *s)
{
    int events = 0;
    for (int b = 0; b < SHM_QUEUE_BUDGET && !s->inq_broken; b++) {
        uint32_t from;
        const void *data;
        size_t len;
        int rc = shm_queue_peek(&s->inq, &from, &data, &len);
        if (rc == SHM_QUEUE_EMPTY)
            break;
        if (rc == SHM_QUEUE_CORRUPT) {
            queue_broken(s, "garbage");
            break;
        }
        if (from & SHM_FROM_FAST) {
            int ok = fast_accept(s, from & ~SHM_FROM_FAST, data, len);
            if (ok == 0)
                break;
            if (ok < 0) {
                queue_broken(s, "an invalid fast-ring offer");
                break;
            }
        } else if (from >= (uint32_t)s->nlocal) {
            queue_broken(s, "a record from no local rank");
            break;
        } else {
            tp_deliver(&s->base, s->peers[from].world, data, len);
        }
        shm_queue_release(&s->inq);
        events++;
    }
    return events;
}

/* Only the peers that handed me a fast ring are polled, plus the one queue: the cost of a
 * progress call follows the peers I hear from, not the node's size.
 *
 * Eager flow control: a sender's records wait in my queue or its ring, both bounded; when
 * they are full the sender gets RMP_AGAIN and the core holds the packet (its send request
 * stays incomplete, as an MPI_Send larger than what the system buffers). Records move from
 * here to the core's unexpected queue whenever I progress, whether or not receives are posted,
 * so a program that is legal under MPI (no reliance on buffering beyond the eager limit) never
 * deadlocks on full shared memory: the space comes back at the receiver's next progress. */
int shm_progress(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int events = 0;
    /* A nested call (tp_deliver reaching progress) would deliver the record being
     * delivered a second time: it gets nothing instead. */
    if (s->in_progress)
        return 0;
    s->in_progress = true;
    /* Round-robin start and a per-ring budget: one flooding peer cannot starve the others.
     * (The two divisions look like waste in a loop that runs once per turn of every wait, but
     * the same loop without them measured 10 % slower 8-byte ping-pongs, 0.108 against 0.098
     * us: a receiver that polls the next record's line more often takes it from the sender
     * between the stores that write the record. A `pause` in the wait loop gives the same.) */
    for (int k = 0; k < s->nhot; k++)
        events += poll_fast(s, &s->peers[s->hot[(s->rr + (unsigned)k) % (unsigned)s->nhot]],
                            SHM_POLL_BUDGET);
    events += poll_queue(s);
    if (shm_coop_busy(&s->coop)) /* after the rings: a FIN that came withdraws its slot */
        events += shm_coop_help_mine(s);
    if (s->nhot)
        s->rr = (s->rr + 1) % (unsigned)s->nhot;
    s->in_progress = false;
    return events;
}
