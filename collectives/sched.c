/* sched.c — the collective schedule engine (see sched.h): building a schedule (growable arrays
 * with room for small collectives inside the schedule itself, so a small allreduce costs one
 * allocation), and advancing it from the progress engine, round by round. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "hang.h"
#include "sched.h"

/* The persistent collectives' mode of this thread (coll.h): defined here, where sched_post
 * reads it, so that the engine needs nothing of coll.c, which sets it (no knot). */
_Thread_local pcoll_tls_t coll_pmode;

typedef enum { ST_SEND, ST_RECV, ST_COPY, ST_REDUCE, ST_REDUCE3, ST_CALL } step_kind_t;

typedef struct step {
    step_kind_t kind;
    int peer;         /* send, recv */
    rmp_op_t op;      /* reduce */
    const dtype_t *dt; /* reduce */
    const void *src;  /* send, copy, reduce (in) */
    const void *src2; /* reduce3 (in2) */
    void *dst;        /* recv, copy, reduce (inout; reduce3: out) */
    size_t n;         /* bytes (send, recv, copy) or elements (reduce: see op_apply) */
    bool late;        /* a local step run after the round's transfers are posted */
    int (*fn)(void *arg); /* call (arg: dst) */
} step_t;

/* Inline capacities: a binomial or doubling schedule up to 8 ranks fits without growing. */
#define INL_STEPS 12
#define INL_ROUNDS 8
#define INL_REQS 8
#define INL_TMPS 2
#define INL_TYPES 2
#define INL_ARENA 256 /* scratch of small collectives: no malloc */
#define SCHED_CACHE_MAX 4 /* schedules kept for reuse per thread (see request.c) */

static _Thread_local sched_t *sched_cache[SCHED_CACHE_MAX];
static _Thread_local int sched_cached;
static _Thread_local bool sched_cache_keyed; /* this thread's drain is registered */
static pthread_key_t sched_cache_key;
static pthread_once_t sched_cache_once = PTHREAD_ONCE_INIT;

/* Large scratch buffers are kept too: a fresh megabyte from malloc is a fresh mmap whose
 * pages all fault on first touch, and in some VMs a page fault costs microseconds (a 1 MiB
 * reduce at n=3 took 11 ms instead of 0.9 ms). Best fit, at most BUF_CACHE_MAX buffers and
 * BUF_CACHE_BYTES bytes per thread. */
#define BUF_CACHE_MAX 4
#define BUF_CACHE_BYTES (64u << 20)
typedef struct buf {
    void *p;
    size_t size;
} buf_t;
static _Thread_local buf_t buf_cache[BUF_CACHE_MAX];
static _Thread_local int buf_cached;
static _Thread_local size_t buf_cached_bytes;

/* At a thread's exit: its caches go back to malloc. */
static void sched_cache_drain(void *unused)
{
    (void)unused;
    while (sched_cached > 0)
        free(sched_cache[--sched_cached]);
    while (buf_cached > 0)
        free(buf_cache[--buf_cached].p);
    buf_cached_bytes = 0;
}

static void sched_cache_key_init(void)
{
    (void)pthread_key_create(&sched_cache_key, sched_cache_drain);
}

static void cache_key(void)
{
    if (!sched_cache_keyed) {
        (void)pthread_once(&sched_cache_once, sched_cache_key_init);
        sched_cache_keyed = pthread_setspecific(sched_cache_key, &sched_cache_keyed) == 0;
    }
}

/* A buffer of at least `bytes` (its size in *size): a cached one no more than twice as big,
 * else malloc's. */
static void *buf_get(size_t bytes, size_t *size)
{
    int best = -1;
    for (int i = 0; i < buf_cached; i++)
        if (buf_cache[i].size >= bytes && buf_cache[i].size / 2 <= bytes &&
            (best < 0 || buf_cache[i].size < buf_cache[best].size))
            best = i;
    if (best < 0) {
        *size = bytes;
        return malloc(bytes);
    }
    buf_t b = buf_cache[best];
    buf_cache[best] = buf_cache[--buf_cached];
    buf_cached_bytes -= b.size;
    *size = b.size;
    return b.p;
}

static void buf_put(void *p, size_t size)
{
    cache_key();
    if (!sched_cache_keyed || size > BUF_CACHE_BYTES) {
        free(p);
        return;
    }
    /* make room: drop the smallest buffers first */
    while (buf_cached > 0 &&
           (buf_cached == BUF_CACHE_MAX || buf_cached_bytes + size > BUF_CACHE_BYTES)) {
        int small = 0;
        for (int i = 1; i < buf_cached; i++)
            if (buf_cache[i].size < buf_cache[small].size)
                small = i;
        if (buf_cache[small].size >= size) { /* everything cached is bigger: keep those */
            free(p);
            return;
        }
        free(buf_cache[small].p);
        buf_cached_bytes -= buf_cache[small].size;
        buf_cache[small] = buf_cache[--buf_cached];
    }
    buf_cache[buf_cached++] = (buf_t){p, size};
    buf_cached_bytes += size;
}


/* A growable array whose first storage lives inside the schedule. */
typedef struct vec {
    void *p;
    int n, cap;
} vec_t;

struct sched {
    comm_t *comm;
    rmp_op_t op; /* the reduction's op (RMP_OP_NULL: none), held while posted (op_hold) */
    int tag;
    const char *label; /* what the schedule runs ("allreduce"), for the hang report */
    int check_rounds;  /* its first rounds that check the signatures (coll_check.c) */
    int round; /* the round in flight, -1 before the start */
    int err;   /* first error (building: RMP_ERR_NO_MEM) */
    int op_err; /* a user op found no memory (op_apply): reported at the end */
    bool late; /* steps added now run after their round's transfers are posted */
    int trunc; /* RMP_ERR_TRUNCATE once data did not fit here: reported at the end, and every
                * later send is poisoned (see start_round) */
    vec_t steps, ends, reqs, tmps; /* step_t, int (one past a round's last step), req, buf_t */
    /* the derived types its steps and views read while it runs: held from its post to its end
     * (dtype_hold), so that a type freed meanwhile keeps its slot */
    vec_t types;
    void (*done_fn)(void *arg, int err);
    void *done_arg;
    size_t arena_used; /* bytes of arena handed out by sched_tmp */
    _Alignas(16) char arena[INL_ARENA];
    step_t steps_inl[INL_STEPS];
    int ends_inl[INL_ROUNDS];
    struct rmp_request *reqs_inl[INL_REQS];
    buf_t tmps_inl[INL_TMPS];
    const dtype_t *types_inl[INL_TYPES];
};

/* Room for one more element of size esz; NULL (and s->err) when out of memory. */
static void *vec_push(sched_t *s, vec_t *v, void *inl, size_t esz)
{
    if (v->n == v->cap) {
        int cap = v->cap * 2;
        void *p = v->p == inl ? malloc((size_t)cap * esz) : realloc(v->p, (size_t)cap * esz);
        if (!p) {
            s->err = RMP_ERR_NO_MEM;
            return NULL;
        }
        if (v->p == inl)
            memcpy(p, inl, (size_t)v->n * esz);
        v->p = p;
        v->cap = cap;
    }
    return (char *)v->p + (size_t)v->n++ * esz;
}

static void vec_free(vec_t *v, void *inl)
{
    if (v->p != inl)
        free(v->p);
}

sched_t *sched_new(comm_t *comm, int tag)
{
    sched_t *s = sched_cached ? sched_cache[--sched_cached] : malloc(sizeof(*s));
    if (!s)
        return NULL;
    s->arena_used = 0;
    s->comm = comm;
    s->op = RMP_OP_NULL;
    s->tag = tag;
    s->label = NULL;
    s->check_rounds = 0;
    s->round = -1;
    s->err = RMP_SUCCESS;
    s->trunc = RMP_SUCCESS;
    s->op_err = RMP_SUCCESS;
    s->steps = (vec_t){s->steps_inl, 0, INL_STEPS};
    s->ends = (vec_t){s->ends_inl, 0, INL_ROUNDS};
    s->reqs = (vec_t){s->reqs_inl, 0, INL_REQS};
    s->tmps = (vec_t){s->tmps_inl, 0, INL_TMPS};
    s->types = (vec_t){s->types_inl, 0, INL_TYPES};
    s->done_fn = NULL;
    s->done_arg = NULL;
    s->late = false;
    return s;
}

void sched_free(sched_t *s)
{
    if (!s)
        return;
    buf_t *t = s->tmps.p;
    for (int i = 0; i < s->tmps.n; i++)
        buf_put(t[i].p, t[i].size);
    vec_free(&s->steps, s->steps_inl);
    vec_free(&s->ends, s->ends_inl);
    vec_free(&s->reqs, s->reqs_inl);
    vec_free(&s->tmps, s->tmps_inl);
    vec_free(&s->types, s->types_inl);
    cache_key();
    if (sched_cache_keyed && sched_cached < SCHED_CACHE_MAX)
        sched_cache[sched_cached++] = s;
    else
        free(s);
}

void *sched_tmp(sched_t *s, size_t bytes)
{
    size_t at = (s->arena_used + 15) & ~(size_t)15;
    if (bytes <= INL_ARENA && at + bytes <= INL_ARENA) {
        s->arena_used = at + bytes;
        return s->arena + at;
    }
    size_t size;
    void *p = buf_get(bytes ? bytes : 1, &size);
    buf_t *slot = p ? vec_push(s, &s->tmps, s->tmps_inl, sizeof(buf_t)) : NULL;
    if (!slot) {
        free(p);
        s->err = RMP_ERR_NO_MEM;
        return NULL;
    }
    *slot = (buf_t){p, size};
    return p;
}

static void add(sched_t *s, step_t st)
{
    st.late = s->late;
    step_t *p = vec_push(s, &s->steps, s->steps_inl, sizeof(step_t));
    if (p)
        *p = st;
}

void sched_send(sched_t *s, int peer, const void *buf, size_t bytes)
{
    add(s, (step_t){.kind = ST_SEND, .peer = peer, .src = buf, .n = bytes});
}

void sched_recv(sched_t *s, int peer, void *buf, size_t bytes)
{
    add(s, (step_t){.kind = ST_RECV, .peer = peer, .dst = buf, .n = bytes});
}

void sched_copy(sched_t *s, void *dst, const void *src, size_t bytes)
{
    if (bytes > 0 && dst != src)
        add(s, (step_t){.kind = ST_COPY, .src = src, .dst = dst, .n = bytes});
}

void sched_hold_type(sched_t *s, const dtype_t *dt)
{
    const dtype_t **slot;
    if (!dt->builtin && (slot = vec_push(s, &s->types, s->types_inl, sizeof(*slot))))
        *slot = dt;
}

/* The holds on its types (lock held): +1 at the post, -1 at the end. */
static void sched_types_hold(sched_t *s, int delta)
{
    const dtype_t **t = s->types.p;
    for (int i = 0; i < s->types.n; i++)
        dtype_hold(t[i], delta);
}

void sched_reduce(sched_t *s, rmp_op_t op, const dtype_t *dt, const void *in, void *inout,
                  size_t n)
{
    sched_hold_type(s, dt);
    s->op = op;
    if (n > 0)
        add(s,
            (step_t){.kind = ST_REDUCE, .op = op, .dt = dt, .src = in, .dst = inout, .n = n});
}

void sched_reduce3(sched_t *s, rmp_op_t op, const dtype_t *dt, const void *in, const void *in2,
                   void *out, size_t n)
{
    sched_hold_type(s, dt);
    s->op = op;
    if (n > 0)
        add(s, (step_t){.kind = ST_REDUCE3, .op = op, .dt = dt, .src = in, .src2 = in2,
                        .dst = out, .n = n});
}

void sched_local(sched_t *s, int (*fn)(void *arg), void *arg)
{
    add(s, (step_t){.kind = ST_CALL, .fn = fn, .dst = arg});
}

void sched_label(sched_t *s, const char *label)
{
    s->label = label;
}

int sched_rounds(const sched_t *s)
{
    return s->ends.n;
}

void sched_checked(sched_t *s, int rounds)
{
    s->check_rounds = rounds;
}

void sched_overlap(sched_t *s)
{
    s->late = true;
}

void sched_round(sched_t *s)
{
    s->late = false;
    int *ends = s->ends.p;
    if (s->ends.n > 0 && ends[s->ends.n - 1] == s->steps.n)
        return; /* empty round */
    int *e = vec_push(s, &s->ends, s->ends_inl, sizeof(int));
    if (e)
        *e = s->steps.n;
}

void sched_truncated(sched_t *s)
{
    s->trunc = RMP_ERR_TRUNCATE;
}

void sched_on_done(sched_t *s, void (*fn)(void *arg, int err), void *arg)
{
    s->done_fn = fn;
    s->done_arg = arg;
}

/* ---- running ------------------------------------------------------------------------------ */

/* After a truncation, a send carries one byte more than its step says: the receiver's slot
 * (sized like the step) then truncates too, so the error travels along the data's path to
 * every rank whose result depends on it, while the first n bytes it gets are the real data.
 * Without memory for the padded copy, the plain send still goes out: no hang, only the
 * error is not passed on. */
static const void *poisoned(sched_t *s, const step_t *st, size_t *n)
{
    char *p = s->trunc ? sched_tmp(s, st->n + 1) : NULL;
    if (s->err == RMP_ERR_NO_MEM) /* sched_tmp's failure is not the schedule's */
        s->err = RMP_SUCCESS;
    if (!p)
        return st->src;
    if (st->n)
        memcpy(p, st->src, st->n);
    p[st->n] = 0;
    *n = st->n + 1;
    return p;
}

/* The round's local steps (copy, reduce) of one kind: early (before the transfers are posted)
 * or late (after, overlapping them). */
static void run_locals(sched_t *s, int lo, int hi, bool late)
{
    const step_t *st = s->steps.p;
    for (int i = lo; i < hi; i++) {
        int rc = RMP_SUCCESS;
        if (st[i].late != late)
            continue;
        if (st[i].kind == ST_COPY)
            memcpy(st[i].dst, st[i].src, st[i].n);
        else if (st[i].kind == ST_REDUCE)
            rc = op_apply(st[i].op, st[i].dt, st[i].src, st[i].dst, st[i].n);
        else if (st[i].kind == ST_REDUCE3)
            rc = op_apply3(st[i].op, st[i].dt, st[i].src, st[i].src2, st[i].dst, st[i].n);
        else if (st[i].kind == ST_CALL && (rc = st[i].fn(st[i].dst)) && !s->err)
            s->err = rc; /* final: the round posts nothing, the schedule ends with it */
        if (rc && !s->op_err) /* reported at the end: the messages still go, nobody hangs */
            s->op_err = rc;
    }
}

/* Start round s->round: early local steps in order, then receives, then sends, then the late
 * local steps (lock held). */
static void start_round(sched_t *s)
{
    const step_t *st = s->steps.p;
    const int *ends = s->ends.p;
    int lo = s->round ? ends[s->round - 1] : 0, hi = ends[s->round];
    run_locals(s, lo, hi, false);
    s->reqs.n = 0;
    for (int pass = 0; pass < 2 && !s->err; pass++) {
        step_kind_t want = pass == 0 ? ST_RECV : ST_SEND;
        for (int i = lo; i < hi && !s->err; i++) {
            if (st[i].kind != want)
                continue;
            struct rmp_request **slot = vec_push(s, &s->reqs, s->reqs_inl, sizeof(*slot));
            if (!slot)
                break;
            *slot = NULL;
            size_t n = st[i].n;
            const void *src = want == ST_SEND ? poisoned(s, &st[i], &n) : NULL;
            int rc = want == ST_RECV
                         ? p2p_irecv_locked(s->comm, COLL_CTXOFF, st[i].dst, n, st[i].peer,
                                            s->tag, slot)
                         : p2p_isend_locked(s->comm, COLL_CTXOFF, src, n, st[i].peer, s->tag,
                                            slot);
            if (rc != RMP_SUCCESS) {
                s->reqs.n--;
                s->err = rc;
            }
        }
    }
    if (s->err) { /* receives posted for a round that cannot finish would never match */
        struct rmp_request **r = s->reqs.p;
        for (int i = 0; i < s->reqs.n; i++)
            p2p_cancel_locked(r[i]);
        return;
    }
    run_locals(s, lo, hi, true);
}

/* A schedule's receive expects exactly its step's bytes: every rank of a collective derives
 * them from the same type signature. A message of another length (a peer passed another
 * count) is the call's error, found in the status of data that arrives anyway: shorter is
 * reported like longer (RMP_ERR_TRUNCATE), and poisons this rank's later sends the same. */
static bool recv_mismatch(const struct rmp_request *r)
{
    return r->kind == REQ_RECV && !r->status.cancelled && r->status.count != r->bytes;
}

/* True when every request of the round has completed; then frees them. A truncation does not
 * stop the schedule: every rank still runs every round (so no peer waits for a message that
 * never comes), and the error is kept for the end. Any other error is final: the round's
 * receives still posted are cancelled, as their senders may never send (a failed peer). */
static bool round_done(sched_t *s)
{
    struct rmp_request **r = s->reqs.p;
    bool all = true;
    for (int i = 0; i < s->reqs.n; i++) {
        if (!atomic_load_explicit(&r[i]->done, memory_order_acquire)) {
            all = false;
            continue;
        }
        int e = r[i]->status.error;
        if (e == RMP_ERR_TRUNCATE || (e == RMP_SUCCESS && recv_mismatch(r[i]))) {
            s->trunc = RMP_ERR_TRUNCATE;
        } else if (e != RMP_SUCCESS && s->err == RMP_SUCCESS) {
            s->err = e;
            for (int j = 0; j < s->reqs.n; j++)
                p2p_cancel_locked(r[j]);
        }
    }
    if (!all)
        return false;
    for (int i = 0; i < s->reqs.n; i++)
        req_free(r[i]);
    s->reqs.n = 0;
    return true;
}

/* The request's coll_progress (lock held): start rounds while the previous ones are done. */
static int sched_progress(struct rmp_request *r)
{
    sched_t *s = r->coll;
    int events = 0;
    while (round_done(s)) {
        if (s->err || s->round + 1 >= s->ends.n) {
            int err = s->err ? s->err : s->op_err ? s->op_err : s->trunc;
            if (s->done_fn)
                s->done_fn(s->done_arg, err);
            comm_t *comm = s->comm;
            rmp_op_t op = s->op;
            r->coll = NULL;
            sched_types_hold(s, -1);
            sched_free(s);
            progress_coll_remove(&rmp_ctx, r);
            req_complete(r, err); /* the last touch of r: a waiting thread may free it now */
            comm_unhold(comm);    /* may release a communicator freed meanwhile */
            op_unhold(op);        /* and an op */
            return events + 1;
        }
        s->round++;
        events++;
        start_round(s);
    }
    return events;
}

/* The hang report's line for a schedule (lock held): what it runs, where, and which peers'
 * transfers of the round in flight have not completed. */
static void sched_describe(struct rmp_request *r, char *buf, size_t len)
{
    sched_t *s = r->coll;
    char cn[160];
    hang_comm_name(s->comm, cn, sizeof(cn));
    size_t used = (size_t)snprintf(buf, len, "%s on %s, collective seq %d, round %d of %d%s",
                                   s->label ? s->label : "a collective", cn, s->tag,
                                   s->round + 1, s->ends.n,
                                   s->round < s->check_rounds ? " (checking the ranks' "
                                   "arguments: RMP_CHECK_COLLECTIVES)" : "");
    struct rmp_request **q = s->reqs.p;
    for (int pass = 0; pass < 2; pass++) {
        int shown = 0;
        for (int i = 0; i < s->reqs.n && used < len; i++) {
            if (atomic_load_explicit(&q[i]->done, memory_order_acquire) ||
                (q[i]->kind == REQ_RECV) != (pass == 0))
                continue;
            char w[40];
            hang_world_of(s->comm, q[i]->peer, w, sizeof(w));
            used += (size_t)snprintf(buf + used, len - used, "%s%d%s",
                                     shown++ ? ", " : pass == 0 ? ": waiting for rank "
                                                                : "; for rank ",
                                     q[i]->peer, w);
        }
        if (shown && pass == 1 && used < len)
            used += (size_t)snprintf(buf + used, len - used, " to receive");
    }
}

int sched_post(sched_t *s, rmp_request_t *req)
{
    sched_round(s);
    int err = s->err;
    struct rmp_request *r = NULL;
    if (!err && coll_pmode.mode == PCOLL_START && coll_pmode.req) { /* persist_coll.c */
        r = coll_pmode.req;
        coll_pmode.req = NULL;
    } else if (!err) {
        r = req_alloc(REQ_COLL);
    }
    if (!r) {
        sched_free(s);
        return err ? err : RMP_ERR_NO_MEM;
    }
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->coll = s;
    r->coll_progress = sched_progress;
    r->coll_describe = sched_describe;
    *req = req_handle(r); /* before progress: r may complete (but not be freed) at once */
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    progress_coll_add(c, r);
    comm_hold(s->comm);
    op_hold(s->op);
    sched_types_hold(s, +1);
    sched_progress(r);
    ctx_unlock(c);
    return RMP_SUCCESS;
}
