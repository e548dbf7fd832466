/* verbs_rma.c — verbs' one-sided ops table (transport/rma.h): expose registers window memory
 * for remote write, read and atomics; write is an RDMA WRITE from the caller's buffer (inline
 * when small), read an RDMA READ into it, atomic an 8-byte FETCH_AND_ADD / CMP_AND_SWP whose
 * old value lands in a registered slot of a small pool, then in *result. No CPU of the target
 * takes part. Every work request is signaled; an operation completes (cb->done, from progress)
 * when its last one does, with the peer's error if any failed or was flushed.
 *
 * Reach: a window needs one atomic domain (CPU and adapter atomics are not atomic with each
 * other), so when the job spans more than one node verbs keeps a QP to every rank, those of
 * this node and itself included (rma_qps, decided alike on every rank before the wiring opens:
 * the modex wiring publishes QP numbers once). A one-node job leaves one-sided work to shm. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transport/verbs/verbs.h"

#define RMA_SLOTS 512u /* atomics in flight at once (their old values land here) */

typedef struct rma_op rma_op_t;

typedef struct rma_state {
    tp_rma_ops_t ops;        /* the table, caps filled from the device */
    uint64_t *slots;         /* [RMA_SLOTS], registered */
    struct ibv_mr *slots_mr;
    uint32_t *slot_free;     /* stack of free slot indices */
    uint32_t nfree;
    rma_op_t *ops_head;      /* every operation in flight (close frees what is left) */
    uint64_t st_writes, st_reads, st_atomics, st_wrs;
    bool am_only;            /* RMP_RMA_PATH=am */
} rma_state_t;

/* One operation; cb first: the completion of each of its work requests hands back &cb. */
struct rma_op {
    verbs_cb_t cb;
    rma_op_t *next, *prev;
    tp_rma_cb_t *ucb;
    int peer;
    enum ibv_wr_opcode opc;
    char *local;             /* write source / read destination */
    size_t len, posted;      /* bytes; posted: covered by work requests posted so far */
    uint64_t raddr;
    uint32_t rkey;
    uint64_t operand, compare, *result;
    int slot;                /* atomics: index in the pool, else -1 */
    verbs_mr_t *mr;          /* registration of local, or NULL (inline, atomics) */
    uint32_t wrs_out;        /* work requests posted, not completed */
    int status;              /* the first error */
};

static rma_state_t *rma_st(verbs_tp_t *v)
{
    return v->rma;
}

static bool rma_uses_reads(const rma_op_t *o)
{
    return o->opc != IBV_WR_RDMA_WRITE; /* READs and atomics share the QP's rd_atomic */
}

static uint32_t rma_seg(const verbs_tp_t *v)
{
    return v->max_msg < VERBS_READ_SEG ? v->max_msg : VERBS_READ_SEG;
}

/* ---- reach and the connection -------------------------------------------------------------- */

static bool rma_reach(tp_t *tp, int peer)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    if (peer < 0 || peer >= tp->env->size || !verbs_needs_qp(v, peer))
        return false;
    if (v->conns[peer].state == VC_READY || v->conns[peer].state == VC_FAILED)
        return true; /* a failed peer is still this transport's: its operations fail here */
    return tp->ops->connect(tp, peer) == RMP_SUCCESS;
}

/* c ready to post on, RMP_AGAIN (rdmacm still connecting), or why not. */
static int rma_conn(verbs_tp_t *v, int peer, verbs_conn_t **cp)
{
    if (peer < 0 || peer >= v->base.env->size)
        return RMP_ERR_RANK;
    int err = tp_peer_error(&v->base, peer);
    if (err)
        return err;
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_FAILED)
        return RMP_ERR_PEER;
    if (c->state != VC_READY) {
        if (!verbs_needs_qp(v, peer))
            return RMP_ERR_NOT_SUPPORTED;
        int rc = v->base.ops->connect(&v->base, peer);
        if (rc != RMP_SUCCESS)
            return rc;
        if (c->state != VC_READY)
            return RMP_AGAIN;
    }
    *cp = c;
    return RMP_SUCCESS;
}

/* ---- expose ---------------------------------------------------------------------------------- */

static int rma_expose(tp_t *tp, void *base, size_t len, tp_rkey_t *key, void **exph)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    memset(key, 0, sizeof(*key));
    *exph = NULL;
    key->addr = (uint64_t)(uintptr_t)base;
    if (len == 0)
        return RMP_SUCCESS; /* nothing fits in it: no registration to make */
    struct ibv_mr *mr = ibv_reg_mr(v->pd, base, len,
                                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
    if (!mr) {
        verbs_reg_error(v, "one-sided window memory", len, errno);
        return errno == ENOMEM ? RMP_ERR_NO_MEM : RMP_ERR_TRANSPORT;
    }
    key->key[0] = mr->rkey;
    key->key[1] = len;
    *exph = mr;
    return RMP_SUCCESS;
}

static void rma_unexpose(tp_t *tp, void *exph)
{
    if (exph && ibv_dereg_mr(exph))
        tp_verbose(tp, "verbs: ibv_dereg_mr (window memory): %s", strerror(errno));
}

/* Whether [off, off + len) lies inside key's range: else an error line and false. */
static bool rma_in_range(verbs_tp_t *v, const char *what, int peer, const tp_rkey_t *key,
                         uint64_t off, size_t len)
{
    if (off <= key->key[1] && len <= key->key[1] - off)
        return true;
    tp_error(&v->base, "verbs: one-sided %s of %zu bytes at offset %llu of rank %d's memory: "
             "outside its %llu exposed bytes", what, len, (unsigned long long)off, peer,
             (unsigned long long)key->key[1]);
    return false;
}

/* ---- posting and completion ------------------------------------------------------------------ */

static void rma_done_wr(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc);

/* Post o's next work requests while c has send-queue slots (and read credits for READs and
 * atomics). RMP_SUCCESS, or an error when ibv_post_send refused (nothing more posted). */
static int rma_post(verbs_tp_t *v, verbs_conn_t *c, rma_op_t *o)
{
    rma_state_t *s = rma_st(v);
    uint32_t seg = rma_seg(v);
    bool reads = rma_uses_reads(o);
    do {
        if (c->sq_free == 0 || (reads && c->reads_out >= v->rd_atomic))
            return RMP_SUCCESS;
        size_t n = o->len - o->posted < seg ? o->len - o->posted : seg;
        struct ibv_sge sge = {.addr = (uintptr_t)(o->local + o->posted), .length = (uint32_t)n};
        struct ibv_send_wr wr = {.wr_id = verbs_cb_wrid(&o->cb), .sg_list = &sge, .num_sge = 1,
                                 .opcode = o->opc};
        if (o->slot >= 0) {
            sge.addr = (uintptr_t)&s->slots[o->slot];
            sge.lkey = s->slots_mr->lkey;
            wr.wr.atomic.remote_addr = o->raddr;
            wr.wr.atomic.rkey = o->rkey;
            wr.wr.atomic.compare_add = o->opc == IBV_WR_ATOMIC_CMP_AND_SWP ? o->compare
                                                                            : o->operand;
            wr.wr.atomic.swap = o->operand;
        } else {
            wr.wr.rdma.remote_addr = o->raddr + o->posted;
            wr.wr.rdma.rkey = o->rkey;
            if (o->mr)
                sge.lkey = o->mr->mr->lkey;
            else
                wr.send_flags = IBV_SEND_INLINE; /* copied at post: no registration */
        }
        int rc = verbs_post(v, c, &wr, true);
        if (rc != RMP_SUCCESS)
            return rc;
        o->posted += n;
        o->wrs_out++;
        s->st_wrs++;
        if (reads)
            c->reads_out++;
    } while (o->posted < o->len);
    return RMP_SUCCESS;
}

static void rma_free(verbs_tp_t *v, rma_op_t *o)
{
    rma_state_t *s = rma_st(v);
    if (o->prev)
        o->prev->next = o->next;
    else
        s->ops_head = o->next;
    if (o->next)
        o->next->prev = o->prev;
    if (o->slot >= 0)
        s->slot_free[s->nfree++] = (uint32_t)o->slot;
    if (o->mr)
        verbs_reg_put(v, o->mr);
    free(o);
}

/* Every work request of o is back: hand its outcome to the caller, once. */
static void rma_finish(verbs_tp_t *v, rma_op_t *o)
{
    int status = o->status;
    if (status == RMP_SUCCESS && o->slot >= 0)
        *o->result = rma_st(v)->slots[o->slot];
    tp_rma_cb_t *ucb = o->ucb;
    rma_free(v, o);
    ucb->done(ucb, status); /* may issue more operations */
}

static int rma_peer_status(verbs_tp_t *v, int peer)
{
    int err = tp_peer_error(&v->base, peer);
    return err ? err : RMP_ERR_PEER;
}

static void rma_done_wr(verbs_tp_t *v, verbs_cb_t *cb, const struct ibv_wc *wc)
{
    rma_op_t *o = (rma_op_t *)(void *)cb;
    verbs_conn_t *c = &v->conns[o->peer];
    bool reads = rma_uses_reads(o);
    o->wrs_out--;
    if (reads)
        c->reads_out--;
    if (wc->status == IBV_WC_SUCCESS) {
        verbs_sq_retire(v, c);
    } else {
        if (wc->status != IBV_WC_WR_FLUSH_ERR) {
            char why[320];
            snprintf(why, sizeof(why), "one-sided %s with rank %d on %s: %s%s",
                     o->opc == IBV_WR_RDMA_WRITE ? "RDMA WRITE"
                     : o->opc == IBV_WR_RDMA_READ ? "RDMA READ" : "atomic", o->peer,
                     v->devname, ibv_wc_status_str(wc->status), verbs_wc_fix(wc->status));
            verbs_peer_failed(v, o->peer, why); /* flushes the rest of the QP */
        }
        if (o->status == RMP_SUCCESS)
            o->status = rma_peer_status(v, o->peer);
    }
    if (o->status == RMP_SUCCESS && o->posted < o->len) {
        /* The rest of a split operation goes as its own completions free room. */
        if (c->state != VC_READY) {
            o->status = rma_peer_status(v, o->peer);
        } else if (rma_post(v, c, o) != RMP_SUCCESS) {
            o->status = RMP_ERR_PEER;
            verbs_peer_failed(v, o->peer, "cannot post a one-sided operation's next part");
        }
    }
    if (o->wrs_out == 0 && (o->status != RMP_SUCCESS || o->posted == o->len))
        rma_finish(v, o);
    if (reads && c->state == VC_READY)
        verbs_reads_push(v, c); /* a read credit came back: queued rendezvous gets may go */
}

/* Start o on peer: RMP_INPROGRESS (cb->done follows), RMP_AGAIN (nothing posted: no room),
 * or an error. o is consumed either way. */
static int rma_start(verbs_tp_t *v, verbs_conn_t *c, rma_op_t *o)
{
    rma_state_t *s = rma_st(v);
    o->cb.done = rma_done_wr;
    o->peer = c->peer;
    o->next = s->ops_head;
    if (s->ops_head)
        s->ops_head->prev = o;
    s->ops_head = o;
    int rc = rma_post(v, c, o);
    if (o->wrs_out == 0) {
        rma_free(v, o);
        return rc != RMP_SUCCESS ? RMP_ERR_TRANSPORT : RMP_AGAIN;
    }
    if (rc != RMP_SUCCESS) { /* part of it went: the QP's flush completes it with the error */
        o->status = RMP_ERR_PEER;
        verbs_peer_failed(v, c->peer, "cannot post a one-sided operation");
    }
    return RMP_INPROGRESS;
}

/* ---- write, read, atomic --------------------------------------------------------------------- */

/* The checks and the record write and read share; RMP_SUCCESS with *op, or what to return. */
static int rma_prepare(verbs_tp_t *v, int peer, const char *what, size_t len,
                       const tp_rkey_t *key, uint64_t off, verbs_conn_t **cp, rma_op_t **op)
{
    int rc = rma_conn(v, peer, cp);
    if (rc != RMP_SUCCESS)
        return rc;
    if (!rma_in_range(v, what, peer, key, off, len))
        return RMP_ERR_RMA_RANGE;
    if (len == 0)
        return RMP_SUCCESS; /* nothing moves: complete now (*op stays NULL) */
    if ((*cp)->sq_free == 0)
        return RMP_AGAIN; /* before any registration work */
    if (!(*op = calloc(1, sizeof(**op))))
        return RMP_ERR_NO_MEM;
    (*op)->slot = -1;
    (*op)->len = len;
    (*op)->raddr = key->addr + off;
    (*op)->rkey = (uint32_t)key->key[0];
    return RMP_SUCCESS;
}

static int rma_write(tp_t *tp, int peer, const void *src, size_t len, const tp_rkey_t *key,
                     uint64_t off, tp_rma_cb_t *cb)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    verbs_conn_t *c;
    rma_op_t *o = NULL;
    int rc = rma_prepare(v, peer, "write", len, key, off, &c, &o);
    if (rc != RMP_SUCCESS || !o)
        return rc;
    o->opc = IBV_WR_RDMA_WRITE;
    o->local = (char *)(uintptr_t)src;
    o->ucb = cb;
    if (len > v->max_inline) {
        /* Local read access only: the source may be read-only memory. */
        o->mr = verbs_reg_get(v, o->local, len, 0, "one-sided write source");
        if (!o->mr) {
            free(o);
            return RMP_ERR_NOT_SUPPORTED; /* the layer above moves it another way */
        }
    }
    rc = rma_start(v, c, o);
    rma_st(v)->st_writes += rc == RMP_INPROGRESS;
    return rc;
}

static int rma_read(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *key,
                    uint64_t off, tp_rma_cb_t *cb)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    if (v->rd_atomic == 0)
        return RMP_ERR_NOT_SUPPORTED; /* the device has no RDMA READ */
    verbs_conn_t *c;
    rma_op_t *o = NULL;
    int rc = rma_prepare(v, peer, "read", len, key, off, &c, &o);
    if (rc != RMP_SUCCESS || !o)
        return rc;
    if (c->reads_out >= v->rd_atomic) {
        free(o);
        return RMP_AGAIN;
    }
    o->opc = IBV_WR_RDMA_READ;
    o->local = dst;
    o->ucb = cb;
    o->mr = verbs_reg_get(v, dst, len, IBV_ACCESS_LOCAL_WRITE, "one-sided read destination");
    if (!o->mr) {
        free(o);
        return RMP_ERR_NOT_SUPPORTED;
    }
    rc = rma_start(v, c, o);
    rma_st(v)->st_reads += rc == RMP_INPROGRESS;
    v->base.stats.rdma_reads += rc == RMP_INPROGRESS;
    return rc;
}

static int rma_atomic(tp_t *tp, int peer, tp_amo_t op, uint64_t operand, uint64_t compare,
                      uint64_t *result, const tp_rkey_t *key, uint64_t off, tp_rma_cb_t *cb)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    rma_state_t *s = rma_st(v);
    if (!(s->ops.caps & TP_RMA_ATOMIC))
        return RMP_ERR_NOT_SUPPORTED;
    if (op != TP_AMO_FADD && op != TP_AMO_CSWAP) {
        tp_error(tp, "verbs: one-sided atomic: unknown operation %d", (int)op);
        return RMP_ERR_ARG;
    }
    if ((key->addr + off) % 8) {
        tp_error(tp, "verbs: one-sided atomic at offset %llu of rank %d's memory: not 8-byte "
                 "aligned", (unsigned long long)off, peer);
        return RMP_ERR_ARG;
    }
    verbs_conn_t *c;
    rma_op_t *o = NULL;
    int rc = rma_prepare(v, peer, "atomic", 8, key, off, &c, &o);
    if (rc != RMP_SUCCESS)
        return rc;
    if (c->reads_out >= v->rd_atomic || s->nfree == 0) {
        free(o);
        return RMP_AGAIN;
    }
    o->opc = op == TP_AMO_FADD ? IBV_WR_ATOMIC_FETCH_AND_ADD : IBV_WR_ATOMIC_CMP_AND_SWP;
    o->operand = operand;
    o->compare = compare;
    o->result = result;
    o->slot = (int)s->slot_free[--s->nfree];
    o->ucb = cb;
    rc = rma_start(v, c, o);
    s->st_atomics += rc == RMP_INPROGRESS;
    return rc;
}

/* ---- life cycle ------------------------------------------------------------------------------ */

/* Whether some rank of the job is on another node (or on one the launcher does not name). */
static bool rma_job_spans_nodes(const tp_env_t *env)
{
    for (int p = 0; p < env->size; p++)
        if (!env->node || env->node[p] < 0 || env->node[p] != env->node[env->rank])
            return true;
    return false;
}

int verbs_rma_open(verbs_tp_t *v)
{
    const tp_env_t *env = v->base.env;
    rma_state_t *s = calloc(1, sizeof(*s));
    if (!s)
        return RMP_ERR_NO_MEM;
    v->rma = s;
    if (posix_memalign((void **)&s->slots, 4096, RMA_SLOTS * sizeof(uint64_t)) ||
        !(s->slot_free = calloc(RMA_SLOTS, sizeof(uint32_t))))
        return RMP_ERR_NO_MEM;
    memset(s->slots, 0, RMA_SLOTS * sizeof(uint64_t));
    s->slots_mr = ibv_reg_mr(v->pd, s->slots, RMA_SLOTS * sizeof(uint64_t),
                             IBV_ACCESS_LOCAL_WRITE);
    if (!s->slots_mr) {
        verbs_reg_error(v, "the one-sided atomics' result slots", RMA_SLOTS * sizeof(uint64_t),
                        errno);
        return RMP_ERR_TRANSPORT;
    }
    for (uint32_t i = 0; i < RMA_SLOTS; i++)
        s->slot_free[s->nfree++] = RMA_SLOTS - 1 - i;
    /* Same answer on every rank (the node map and the knobs are the job's): the modex wiring
     * needs it. RMP_RMA_PATH=am sends every one-sided operation through active messages: then
     * no window asks verbs to reach a rank the core does not route to it. */
    const char *path = tp_knob(&v->base, "RMP_RMA_PATH");
    s->am_only = path && !strcmp(path, "am");
    v->rma_qps = !s->am_only && rma_job_spans_nodes(env);
    s->ops = (tp_rma_ops_t){
        .caps = v->dattr.atomic_cap != IBV_ATOMIC_NONE && v->rd_atomic ? TP_RMA_ATOMIC : 0,
        .reach = rma_reach, .expose = rma_expose, .unexpose = rma_unexpose,
        .write = rma_write, .read = rma_read, .atomic = rma_atomic,
    };
    return RMP_SUCCESS;
}

void verbs_rma_enable(verbs_tp_t *v)
{
    rma_state_t *s = rma_st(v);
    v->base.rma = &s->ops;
    const char *why = s->ops.caps & TP_RMA_ATOMIC ? "fetch-add and compare-swap on 8 bytes"
                      : v->rd_atomic == 0        ? "none: the device has no RDMA READ credits"
                                                 : "none: the device's atomic_cap is NONE";
    tp_verbose(&v->base, "verbs: one-sided table on: RDMA WRITE (inline up to %u bytes), READ, "
               "parts of %u KiB; atomics: %s; reaches %s", v->max_inline, rma_seg(v) >> 10, why,
               v->rma_qps  ? "every rank, this node's and itself too (the job spans nodes)"
               : s->am_only ? "the ranks routed to verbs (RMP_RMA_PATH=am: one-sided goes "
                              "through active messages)"
                            : "the ranks routed to verbs (the job is on one node)");
}

void verbs_rma_close(verbs_tp_t *v)
{
    rma_state_t *s = rma_st(v);
    if (!s)
        return;
    if (v->base.env->verbose && (s->st_writes || s->st_reads || s->st_atomics))
        tp_verbose(&v->base, "verbs: one-sided: %llu writes, %llu reads, %llu atomics in %llu "
                   "work requests", (unsigned long long)s->st_writes,
                   (unsigned long long)s->st_reads, (unsigned long long)s->st_atomics,
                   (unsigned long long)s->st_wrs);
    while (s->ops_head) /* the QPs are gone: nothing completes any more */
        rma_free(v, s->ops_head);
    if (s->slots_mr && ibv_dereg_mr(s->slots_mr))
        tp_verbose(&v->base, "verbs: ibv_dereg_mr (atomics' slots): %s", strerror(errno));
    free(s->slots);
    free(s->slot_free);
    free(s);
    v->rma = NULL;
    v->base.rma = NULL;
}
