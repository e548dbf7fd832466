/* rma.h — the optional third ops table of a transport: the data movers of one-sided
 * communication (MPI's RMA), next to the send path (transport.h) and the collective offload
 * (offload.h). A transport that has one sets tp_t.rma; the RMA layer above (rma/) owns windows,
 * epochs, ordering and every fallback (active messages through send(), CPU atomics in memory
 * it maps), and calls these only for what they say they do. Depends on nothing of the
 * runtime above the transports.
 *
 * Memory: a rank exposes memory once per window (expose), publishes the key to its peers (the
 * layer above exchanges them), and peers write, read and run 8-byte atomics on it by key and
 * offset. A transport may also hand out memory that the other ranks of its node can map
 * (seg_alloc / seg_map: shm's segments), which the layer above loads and stores directly.
 *
 * Return codes of write, read and atomic: RMP_SUCCESS (done now, remotely too: cb is never
 * called), RMP_INPROGRESS (cb->done(cb, status) follows exactly once, from the transport's
 * progress, when the operation is complete at the target (write, atomic) or its data landed
 * here (read, atomic's *result)), RMP_AGAIN (out of resources now: retry after progress),
 * RMP_ERR_NOT_SUPPORTED (not for this peer or this memory: the layer above falls back), or an
 * error (RMP_ERR_PEER: the peer failed). Operations to one peer may complete in any order. */
#ifndef RMP_TRANSPORT_RMA_H
#define RMP_TRANSPORT_RMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tp;
struct tp_rkey;

/* Completion of one operation; embedded by the caller in its own record. */
typedef struct tp_rma_cb {
    void (*done)(struct tp_rma_cb *cb, int status);
} tp_rma_cb_t;

/* 8-byte atomics on exposed memory (offset 8-aligned), atomic with respect to every other
 * atomic() on that memory through the same transport (not to the CPU's stores, not to other
 * transports: rdma_rxe and most HCAs are IBV_ATOMIC_HCA). *result gets the old value. */
typedef enum {
    TP_AMO_FADD = 0, /* mem += operand */
    TP_AMO_CSWAP,    /* if (mem == compare) mem = operand */
} tp_amo_t;

enum {
    TP_RMA_ATOMIC = 1u << 0, /* atomic() works (verbs: the device's atomic_cap) */
};

typedef struct tp_rma_ops {
    unsigned caps; /* TP_RMA_* */
    /* Whether this transport can reach world rank peer for one-sided operations. It may serve
     * peers the core routes elsewhere (verbs reaches same-node ranks through the device), so
     * that one transport can carry every atomic of a window. Connects lazily if needed. */
    bool (*reach)(struct tp *tp, int peer);
    /* Make [base, base + len) writable, readable and (caps) atomically updatable by peers:
     * *key is what they pass back; *exph goes to unexpose. len may be 0 (a key that nothing
     * fits in). */
    int (*expose)(struct tp *tp, void *base, size_t len, struct tp_rkey *key, void **exph);
    void (*unexpose)(struct tp *tp, void *exph);
    int (*write)(struct tp *tp, int peer, const void *src, size_t len, const struct tp_rkey *key,
                 uint64_t off, tp_rma_cb_t *cb);
    int (*read)(struct tp *tp, int peer, void *dst, size_t len, const struct tp_rkey *key,
                uint64_t off, tp_rma_cb_t *cb);
    int (*atomic)(struct tp *tp, int peer, tp_amo_t op, uint64_t operand, uint64_t compare,
                  uint64_t *result, const struct tp_rkey *key, uint64_t off, tp_rma_cb_t *cb);
    /* Optional (NULL: none): len zeroed bytes, page-aligned, that ranks of this node can map.
     * *ptr: the memory here; *key: for seg_map on the others; *segh for seg_free. Named so that
     * no other user can open it, and removed when the job ends however it ends. */
    int (*seg_alloc)(struct tp *tp, size_t len, void **ptr, struct tp_rkey *key, void **segh);
    /* Map peer's segment (len bytes, as its seg_alloc gave) here: *ptr, *segh. */
    int (*seg_map)(struct tp *tp, int peer, const struct tp_rkey *key, size_t len, void **ptr,
                   void **segh);
    /* Unmap (and, for the rank that allocated it, remove) a segment. */
    void (*seg_free)(struct tp *tp, void *segh);
} tp_rma_ops_t;

#endif
