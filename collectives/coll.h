/* coll.h — what the collectives share: argument checks, the per-call tag, packed views of
 * user buffers inside a schedule, the algorithm choice (RMP_COLL_* variables), and the
 * building blocks several collectives compile into their schedules (building.c). Every
 * collective is a schedule (sched.h); the blocking call is the nonblocking one plus a wait. */
#ifndef RMP_COLL_H
#define RMP_COLL_H

#include <stdbool.h>
#include <stddef.h>

#include "comm_coll.h" /* COLL_CTXOFF, comm_intra */
#include "core.h"
#include "sched.h"


/* What every rank of a collective call must agree on (RMP_CHECK_COLLECTIVES, coll_check.c):
 * the collective, its root, the bytes each block carries (count x type size; -1 where ranks
 * legitimately differ: the v-forms), the op and the reduction's base type. */
typedef enum {
    CK_NONE = 0, CK_BARRIER, CK_BCAST, CK_REDUCE, CK_ALLREDUCE, CK_GATHER, CK_GATHERV,
    CK_SCATTER, CK_SCATTERV, CK_ALLGATHER, CK_ALLGATHERV, CK_ALLTOALL, CK_ALLTOALLV,
    CK_ALLTOALLW, CK_REDUCE_SCATTER, CK_REDUCE_SCATTER_BLOCK, CK_SCAN, CK_EXSCAN, CK_NEIGHBOR,
    CK_NKINDS
} coll_kind_t;

typedef struct coll_sig {
    int32_t kind;  /* coll_kind_t; CK_NONE: not checked (internal schedules, intercomms) */
    int32_t root;  /* -1: none */
    int32_t op;    /* RMP_OP_NULL: none */
    int32_t base;  /* a reduction's builtin base type (dt_base_t), 0: none */
    int64_t bytes; /* -1: not compared */
} coll_sig_t;

typedef struct coll {
    comm_t *comm;
    int rank, size;
    int tag; /* this call's tag, from comm->coll_seq (set by coll_sched) */
    coll_sig_t sig; /* set by the collective before coll_begin / coll_sched */
    bool blocking;  /* the blocking form's call: its caller waits at once (coll_offload) */
} coll_t;

/* The signature of this call: bytes per block (-1: not compared), a reduction's op and type
 * (RMP_OP_NULL and NULL: none). After the checks passed. */
static inline void coll_sign(coll_t *cl, coll_kind_t kind, int root, long long bytes,
                             rmp_op_t op, const dtype_t *dt)
{
    cl->sig = (coll_sig_t){.kind = kind, .root = root, .op = op, .bytes = bytes,
                           .base = op != RMP_OP_NULL && dt ? (int32_t)dt->base : 0};
}
/* coll_sched's part (check on and a signature set): the rounds that compare every rank's
 * signature before the collective's own steps, and fail the job on a mismatch. */
void coll_check_build(sched_t *s, const coll_t *cl);
/* "allreduce", ... */
const char *coll_kind_name(int kind);

/* ---- argument checks (nothing is sent before they pass) ---- */
/* Initialized runtime and a valid communicator: fills cl (not yet started). */
int coll_comm(rmp_comm_t h, coll_t *cl);
/* RMP_ERR_ROOT unless 0 <= root < size. */
int coll_root(const coll_t *cl, int root);
/* The checks of a rooted collective (gather, scatter and their v-forms): coll_comm, a request
 * pointer (RMP_ERR_ARG), the root, and RMP_IN_PLACE at the root only (RMP_ERR_BUFFER).
 * *am_root is false on an error. */
int coll_rooted(rmp_comm_t h, const rmp_request_t *req, int root, bool in_place, coll_t *cl,
                bool *am_root);
/* The checks of a reduction every rank gets the result of (allreduce, scan, exscan):
 * coll_comm, a request pointer, type/count/op, recvbuf, and sendbuf unless RMP_IN_PLACE. */
int coll_allred_args(rmp_comm_t h, const rmp_request_t *req, const void *sendbuf,
                     const void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                     coll_t *cl, const dtype_t **dt_p, size_t *bytes_p);
/* A buffer of nblk blocks of `count` elements of a committed type: RMP_ERR_COUNT,
 * RMP_ERR_TYPE or RMP_ERR_BUFFER (NULL or RMP_IN_PLACE with count > 0). *dt_p gets the
 * type and *bytes_p the packed bytes of one block. */
/* A send buffer that is the receive buffer's slot for this rank's own block (off bytes in):
 * RMP_ERR_BUFFER (MPI forbids aliased arguments; RMP_IN_PLACE is the way to say it). Like
 * MPICH, each rank checks only what it alone sees, without a message: a rooted collective
 * fails at the root before it sends or receives anything, so its peers' calls are matched
 * by the root's next call of the same collective, and a collective every rank calls with
 * aliased buffers fails on every rank. RMP_BOTTOM is never an alias (the types place the
 * data). */
int coll_alias(const void *in, const void *out, ptrdiff_t off);
int coll_buf(const void *buf, int count, rmp_datatype_t type, int nblk, const dtype_t **dt_p,
             size_t *bytes_p);
/* Type, count and op of a reduction: RMP_ERR_TYPE, RMP_ERR_COUNT, RMP_ERR_OP. */
int coll_reduction(int count, rmp_datatype_t type, rmp_op_t op, const dtype_t **dt_p);

/* Persistent collectives (persist_coll.c) run the nonblocking entry points in one of two
 * modes, per thread: PCOLL_DRY (at rmp_*_init: the checks only; coll_sched notes that they
 * passed and returns NULL, so nothing is built or sent) and PCOLL_START (at rmp_start: the
 * schedule takes the tag given at init instead of a new one, sched_post posts it as the
 * persistent request `req` instead of a new request, and no offload is tried). */
typedef enum { PCOLL_NONE = 0, PCOLL_DRY, PCOLL_START } pcoll_mode_t;
typedef struct pcoll_tls {
    pcoll_mode_t mode;
    bool reached;             /* PCOLL_DRY: the checks passed */
    int tag;                  /* PCOLL_START: the tag taken at init */
    struct rmp_request *req;  /* PCOLL_START: the request to post as (NULL once used) */
} pcoll_tls_t;
extern _Thread_local pcoll_tls_t coll_pmode;

/* Take this call's tag and a new schedule for it: every rank calls it once per collective,
 * after the checks. NULL: out of memory. */
sched_t *coll_sched(coll_t *cl);
/* After the checks: the algorithm (*alg, see coll_algorithm), then the call's tag and
 * schedule (*s). RMP_ERR_ARG (unknown forced algorithm) or RMP_ERR_NO_MEM. */
typedef struct coll_tune coll_tune_t;
int coll_begin(coll_t *cl, coll_tune_t *t, int *alg, sched_t **s);
/* coll_begin without the schedule, for a collective that first asks the offload (which needs
 * the tag only): a small collective the shared-memory backend runs then makes no schedule
 * to throw away. blocking: the call is the blocking form's (cl->blocking, see coll_offload).
 * RMP_ERR_NO_MEM too in a persistent init's dry run (nothing is to run). */
int coll_begin_lazy(coll_t *cl, coll_tune_t *t, int *alg, bool blocking);
/* Then, when the offload declined: the schedule for the tag taken. NULL: out of memory. */
sched_t *coll_sched_tagged(coll_t *cl);
/* The blocking form: wait for the request a nonblocking call returned (err: its result); the
 * hang report names the blocking call (its __func__). */
int coll_block_named(const char *call, int err, rmp_request_t *req);
#define coll_block(err, req) coll_block_named(__func__, (err), (req))

/* ---- offload to the adapter (offload.c) ---- */
/* Asks the transport that runs collectives on the adapter to run this call (a->seq is filled
 * from cl's tag: call after coll_begin). RMP_SUCCESS: started as *req (the caller frees its
 * unused schedule); RMP_ERR_NOT_SUPPORTED: run the software schedule; else the call failed.
 * For a blocking call (cl->blocking) that the backend completes at once (a broadcast's root,
 * the last member of an allreduce to arrive), no request: *req = RMP_REQUEST_NULL and the
 * call's outcome is returned (RMP_ERR_TRUNCATE, ... as an error). */
int coll_offload(const coll_t *cl, ofl_args_t *a, rmp_request_t *req);
/* The communicator is about to be freed (lock held): the backends drop their state for it. */
void coll_offload_comm_free(comm_t *comm);
ofl_op_t coll_offload_op(rmp_op_t op);
/* How a backend that reduces in host memory combines count elements of dt under op. */
ofl_reduce_t coll_offload_reduce(rmp_op_t op, const dtype_t *dt, int count);
ofl_elem_t coll_offload_elem(dt_base_t base);

/* ---- packed views, valid for the schedule's lifetime ---- */
/* nblk blocks of `count` elements of dt at `user` as packed bytes: the user memory itself for
 * contiguous types, else a packed copy in schedule memory. */
const char *coll_in(sched_t *s, const void *user, int count, int nblk, const dtype_t *dt);
/* Where the schedule writes a result for the user buffer: the buffer itself for contiguous
 * types, else schedule memory that is unpacked into the buffer when the schedule succeeds
 * (one such view per schedule). With `fill`, it starts with the buffer's content. */
char *coll_out(sched_t *s, void *user, int count, int nblk, const dtype_t *dt, bool fill);

/* ---- vector views, for the v-collectives: n blocks, block i being counts[i] elements of dt
 * at user + displs[i] * extent (blocks may be anywhere, even overlap for inputs) ---- */
/* Checks: counts and displs given (else RMP_ERR_ARG), committed type (RMP_ERR_TYPE), counts
 * >= 0 and spans representable (RMP_ERR_COUNT), a buffer where a block is not empty
 * (RMP_ERR_BUFFER). */
int coll_vbuf(const void *buf, const int *counts, const int *displs, int n, rmp_datatype_t type,
              const dtype_t **dt_p);
typedef struct vview {
    char **at;     /* packed bytes of block i */
    size_t *bytes; /* its length */
} vview_t;
/* Packed views of the blocks, valid for the schedule's life: user memory itself for contiguous
 * types, else packed copies (coll_vin) or schedule memory unpacked into the user's blocks when
 * the schedule succeeds (coll_vout; one output view per schedule; with fill, it starts with
 * the blocks' content). false: out of memory (sched_post reports it). */
bool coll_vin(sched_t *s, const void *user, const int *counts, const int *displs, int n,
              const dtype_t *dt, vview_t *v);
bool coll_vout(sched_t *s, void *user, const int *counts, const int *displs, int n,
               const dtype_t *dt, bool fill, vview_t *v);
/* The same with a type per block and displacements in bytes (alltoallw). coll_wbuf checks
 * them like coll_vbuf and fills dts[0..n-1]. */
int coll_wbuf(const void *buf, const int *counts, const int *bdispls,
              const rmp_datatype_t *types, int n, const dtype_t **dts);
bool coll_win(sched_t *s, const void *user, const int *counts, const int *bdispls,
              const dtype_t *const *dts, int n, vview_t *v);
bool coll_wout(sched_t *s, void *user, const int *counts, const int *bdispls,
               const dtype_t *const *dts, int n, bool fill, vview_t *v);

/* ---- algorithm choice ---- */
/* One collective's tunables: RMP_COLL_<NAME>=auto|<algorithm> forces an algorithm. */
struct coll_tune {
    const char *name;         /* upper case: "ALLREDUCE" reads RMP_COLL_ALLREDUCE */
    const char *const *algs;  /* NULL-terminated; algs[0] is "auto" */
    atomic_int forced;        /* 0 unread, 1 auto, k+1 algs[k], -1 invalid */
};
/* *alg: 0 for automatic choice, else the forced algorithm's index in algs. The value was
 * validated at rmp_init (runtime/knobs.c); RMP_ERR_INTERNAL (reported once) if that table and
 * algs disagree. */
int coll_algorithm(coll_tune_t *t, int *alg);
/* The automatic choice made (alg, an index in t->algs): RMP_PROFILE's record of the call
 * names it instead of "auto". */
static inline void coll_chose(const coll_tune_t *t, int alg)
{
    if (__builtin_expect(rmp_prof_on, 0))
        prof_alg(t->name, t->algs[alg]);
}
/* A size threshold from RMP_COLL_<NAME> (bytes; k/m/g suffixes, validated at rmp_init), read
 * once into *cache (a static of the caller's, initially -1); dflt when unset. */
long coll_threshold(atomic_long *cache, const char *name, long dflt);

/* Automatic choices take a direct algorithm (every rank exchanging with every other in one
 * round: n-1 messages in flight per rank) up to this many ranks, where it was measured to win
 * (bench/README.md, "Pipelined large collectives"); beyond, the hop-based ones. */
#define COLL_DIRECT_MAX 8

/* The segment size (bytes) of a pipelined schedule: RMP_COLL_SEGMENT when set (validated at
 * rmp_init, at least 1), else dflt. Every rank must pass the same dflt (derive it from sizes
 * all ranks share), or their segments would not match. */
size_t coll_segment(size_t dflt);

/* ---- building blocks (building.c) ---- */
/* n ranks fold onto p = 2^floor(log2 n) participants: the first 2*rem (rem = n - p) ranks
 * pair up, the even one of each pair handing its data to the odd one, which takes part as
 * participant number rank/2; ranks from 2*rem on are participants rank - rem. Participant
 * nr stands for the comm ranks [fold_lo(nr), fold_lo(nr + 1)) — contiguous and increasing. */
typedef struct fold {
    int n, p, rem, me;
    int nr; /* my participant number, -1 when I fold out (even rank below 2*rem) */
} fold_t;
void fold_init(fold_t *f, int n, int me);
int fold_rank(const fold_t *f, int nr); /* comm rank of participant nr */
int fold_lo(const fold_t *f, int nr);   /* first comm rank participant nr stands for */

/* The reduction data of one collective call. An element (esz bytes, what sched_reduce counts)
 * is a base element for a builtin op, one element of the type for a user op. */
typedef struct red {
    rmp_op_t op;
    const dtype_t *dt;
    size_t esz;
} red_t;
static inline red_t red_of(rmp_op_t op, const dtype_t *dt)
{
    return (red_t){.op = op, .dt = dt,
                   .esz = op_is_user(op) ? (dt->size ? dt->size : 1) /* no data: n = 0 */
                                         : dtype_base_size(dt->base)};
}

/* acc = got (op) src over bytes: in place when src is acc, else without first copying src. */
void build_combine(sched_t *s, const red_t *rd, const char *got, const char *src, char *acc,
                   size_t bytes);
/* Recursive-halving reduce-scatter among the participants: off[0..p] are byte offsets of p
 * consecutive regions of my contribution src (off[0] = 0, off[p] = total); afterwards
 * participant nr's acc region nr holds the reduction of everyone's region nr. src may be acc
 * (in place) or another buffer, which is then only read. tmp is as large as acc. */
void build_rs_halving(sched_t *s, const fold_t *f, const red_t *rd, const char *src, char *acc,
                      char *tmp, const size_t *off);
/* Recursive-doubling allgather among the participants over the same regions: participant nr
 * holds region nr of buf; afterwards every participant holds all of buf. */
void build_ag_doubling(sched_t *s, const fold_t *f, char *buf, const size_t *off);
/* Ring reduce-scatter over n regions of acc (off[0..n], one per rank): afterwards rank r's
 * region r holds the full reduction. tmp holds the largest region. */
void build_rs_ring(sched_t *s, const coll_t *cl, const red_t *rd, char *acc, char *tmp,
                   const size_t *off);
/* Ring allgather over n regions of buf: rank r holds region r; afterwards all of them. */
void build_ag_ring(sched_t *s, const coll_t *cl, char *buf, const size_t *off);
/* For ops that do not commute (user ops created so): everyone's `mine` reduced in rank order
 * (ranks 0..n-1, left to right) into out at the root (out unused elsewhere; mine is read in
 * the first round only, so it may be the root's out). A binomial tree towards rank 0 whose
 * subtrees cover consecutive ranks, the lower always on the left; rank 0 passes the result to
 * the root. */
void build_reduce_ordered(sched_t *s, const coll_t *cl, const red_t *rd, const char *mine,
                          char *out, size_t bytes, int root);
/* Binomial broadcast of buf from root: ceil(log2 n) rounds of the whole message. */
void build_bcast_binomial(sched_t *s, const coll_t *cl, char *buf, size_t bytes, int root);

/* off[0..k] for `total` elements of esz bytes split into k nearly equal parts. */
size_t *build_split(sched_t *s, size_t total, size_t esz, int k);

/* Largest power of two <= n (n >= 1). */
int coll_pow2_floor(int n);

#endif
