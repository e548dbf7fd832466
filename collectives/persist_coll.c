/* persist_coll.c — persistent collectives (MPI-4.0 6.13): rmp_<coll>_init checks the arguments
 * (every check of the nonblocking call, run in PCOLL_DRY mode: see coll.h) and takes the
 * call's tag from the communicator's collective counter, once, as every rank calls the inits
 * in the same order; it keeps the arguments (count and displacement arrays copied) in a
 * persistent request. rmp_start / rmp_startall then run the nonblocking call again in
 * PCOLL_START mode: the schedule is built anew at each start, from the same arguments (the
 * algorithm chosen again: the same on every rank, as it depends only on what they share), is
 * tagged with the init's tag and posted as the persistent request itself, which wait/test
 * leave inactive and rmp_request_free frees.
 *
 * Why a new schedule per start, not one replayed: a schedule packs non-contiguous inputs when
 * it is built and its scratch memory follows that build, so replaying would send the first
 * start's data; building costs little next to the transfers. Why the init's tag: MPI lets
 * ranks start different persistent collectives in different orders, so a start cannot take
 * the next number of the counter (ranks would disagree); one tag per request, reused, keeps
 * starts of one request apart because the next start waits for the previous one's end, and
 * messages between two ranks match in order. The offload backends are not used for persistent
 * collectives (their sequence numbers must grow): the software schedule always runs. */
#include <stdlib.h>
#include <string.h>

#include "coll.h"
#include "topo.h"

typedef enum {
    PC_BARRIER,
    PC_BCAST,
    PC_REDUCE,
    PC_ALLREDUCE,
    PC_GATHER,
    PC_GATHERV,
    PC_SCATTER,
    PC_SCATTERV,
    PC_ALLGATHER,
    PC_ALLGATHERV,
    PC_ALLTOALL,
    PC_ALLTOALLV,
    PC_ALLTOALLW,
    PC_REDUCE_SCATTER,
    PC_REDUCE_SCATTER_BLOCK,
    PC_SCAN,
    PC_EXSCAN,
    PC_NB_ALLGATHER,
    PC_NB_ALLGATHERV,
    PC_NB_ALLTOALL,
    PC_NB_ALLTOALLV,
    PC_NB_ALLTOALLW
} pc_kind_t;

/* One persistent collective's arguments (the request's tmp: freed with it). */
typedef struct pcoll {
    pc_kind_t kind;
    int tag;
    rmp_comm_t comm;
    const void *sbuf;
    void *rbuf;
    int scount, rcount, root;
    rmp_datatype_t stype, rtype;
    rmp_op_t op;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const ptrdiff_t *sbdispls, *rbdispls;
    const rmp_datatype_t *stypes, *rtypes;
    _Alignas(16) char mem[]; /* the copied arrays */
} pcoll_t;

/* The nonblocking call of p (in the mode coll_pmode says). */
static int pc_call(const pcoll_t *p, rmp_request_t *req)
{
    switch (p->kind) {
    case PC_BARRIER:
        return rmp_ibarrier(p->comm, req);
    case PC_BCAST:
        return rmp_ibcast(p->rbuf, p->rcount, p->rtype, p->root, p->comm, req);
    case PC_REDUCE:
        return rmp_ireduce(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->root, p->comm, req);
    case PC_ALLREDUCE:
        return rmp_iallreduce(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm, req);
    case PC_GATHER:
        return rmp_igather(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->root,
                           p->comm, req);
    case PC_GATHERV:
        return rmp_igatherv(p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts, p->rdispls, p->rtype,
                            p->root, p->comm, req);
    case PC_SCATTER:
        return rmp_iscatter(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->root,
                            p->comm, req);
    case PC_SCATTERV:
        return rmp_iscatterv(p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf, p->rcount,
                             p->rtype, p->root, p->comm, req);
    case PC_ALLGATHER:
        return rmp_iallgather(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->comm,
                              req);
    case PC_ALLGATHERV:
        return rmp_iallgatherv(p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts, p->rdispls,
                               p->rtype, p->comm, req);
    case PC_ALLTOALL:
        return rmp_ialltoall(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype, p->comm,
                             req);
    case PC_ALLTOALLV:
        return rmp_ialltoallv(p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf, p->rcounts,
                              p->rdispls, p->rtype, p->comm, req);
    case PC_ALLTOALLW:
        return rmp_ialltoallw(p->sbuf, p->scounts, p->sdispls, p->stypes, p->rbuf, p->rcounts,
                              p->rdispls, p->rtypes, p->comm, req);
    case PC_REDUCE_SCATTER:
        return rmp_ireduce_scatter(p->sbuf, p->rbuf, p->rcounts, p->rtype, p->op, p->comm, req);
    case PC_REDUCE_SCATTER_BLOCK:
        return rmp_ireduce_scatter_block(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm,
                                         req);
    case PC_SCAN:
        return rmp_iscan(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm, req);
    case PC_EXSCAN:
        return rmp_iexscan(p->sbuf, p->rbuf, p->rcount, p->rtype, p->op, p->comm, req);
    case PC_NB_ALLGATHER:
        return rmp_ineighbor_allgather(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype,
                                       p->comm, req);
    case PC_NB_ALLGATHERV:
        return rmp_ineighbor_allgatherv(p->sbuf, p->scount, p->stype, p->rbuf, p->rcounts,
                                        p->rdispls, p->rtype, p->comm, req);
    case PC_NB_ALLTOALL:
        return rmp_ineighbor_alltoall(p->sbuf, p->scount, p->stype, p->rbuf, p->rcount, p->rtype,
                                      p->comm, req);
    case PC_NB_ALLTOALLV:
        return rmp_ineighbor_alltoallv(p->sbuf, p->scounts, p->sdispls, p->stype, p->rbuf,
                                       p->rcounts, p->rdispls, p->rtype, p->comm, req);
    case PC_NB_ALLTOALLW:
        return rmp_ineighbor_alltoallw(p->sbuf, p->scounts, p->sbdispls, p->stypes, p->rbuf,
                                       p->rcounts, p->rbdispls, p->rtypes, p->comm, req);
    }
    return RMP_ERR_INTERNAL;
}

/* rmp_start of a persistent collective (persist.c; lock not held). */
static int pc_start(struct rmp_request *r)
{
    const pcoll_t *p = r->tmp;
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    r->active = true;
    atomic_store_explicit(&r->done, 0, memory_order_release);
    coll_pmode = (pcoll_tls_t){.mode = PCOLL_START, .tag = p->tag, .req = r};
    rmp_request_t inner = RMP_REQUEST_NULL;
    int rc = pc_call(p, &inner);
    bool posted_as_r = coll_pmode.req == NULL;
    coll_pmode = (pcoll_tls_t){0};
    if (rc != RMP_SUCCESS) { /* nothing started: inactive again */
        r->active = false;
        atomic_store_explicit(&r->done, 1, memory_order_release);
        return rc;
    }
    if (!posted_as_r) { /* the call completed another way (no schedule): mirror it */
        rmp_status_t st;
        int err = rmp_wait(&inner, &st);
        rmp_ctx_t *c = &rmp_ctx;
        ctx_lock(c);
        req_complete(r, err);
        ctx_unlock(c);
    }
    return RMP_SUCCESS;
}

/* The arrays a start needs, copied at init (rank-dependent lengths): how many entries each
 * side's arrays (counts, displacements, types) have, by kind. Rooted v-forms copy the root's
 * arrays only; the neighbourhood forms follow the topology's degrees. */
typedef enum { PA_NONE, PA_SIZE, PA_ROOT_SIZE, PA_INDEG, PA_OUTDEG } pc_len_t;
static const struct {
    pc_len_t s, r;
} pc_arrays[] = {
    [PC_GATHERV] = {PA_NONE, PA_ROOT_SIZE},  [PC_SCATTERV] = {PA_ROOT_SIZE, PA_NONE},
    [PC_ALLGATHERV] = {PA_NONE, PA_SIZE},    [PC_ALLTOALLV] = {PA_SIZE, PA_SIZE},
    [PC_ALLTOALLW] = {PA_SIZE, PA_SIZE},     [PC_REDUCE_SCATTER] = {PA_NONE, PA_SIZE},
    [PC_NB_ALLGATHERV] = {PA_NONE, PA_INDEG}, [PC_NB_ALLTOALLV] = {PA_OUTDEG, PA_INDEG},
    [PC_NB_ALLTOALLW] = {PA_OUTDEG, PA_INDEG},
};

/* Entries of one side's arrays on this rank (0 for an invalid communicator or a missing
 * topology: the dry run has reported it by then). */
static size_t pc_len(const comm_t *c, pc_len_t how, int root)
{
    const topo_t *t = c && (how == PA_INDEG || how == PA_OUTDEG) ? topo_of(c) : NULL;
    switch (how) {
    case PA_SIZE:
        return c ? (size_t)c->size : 0;
    case PA_ROOT_SIZE:
        return c && c->rank == root ? (size_t)c->size : 0;
    case PA_INDEG:
        return t ? (size_t)t->indeg : 0;
    case PA_OUTDEG:
        return t ? (size_t)t->outdeg : 0;
    case PA_NONE:
        break;
    }
    return 0;
}

static size_t al16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* One array field of p: copied into mem at *at (n entries of `size` bytes) when set. */
static void pc_copy(const void **field, size_t n, size_t size, char **at)
{
    if (!*field || !n)
        return;
    memcpy(*at, *field, n * size);
    *field = *at;
    *at += al16(n * size);
}

/* The arrays of p that are set, copied into its mem (ns entries a send-side array, nr a
 * receive-side one): p then points at its own copies. */
static void pc_arrays_copy(pcoll_t *p, size_t ns, size_t nr, char *at)
{
    pc_copy((const void **)&p->scounts, ns, sizeof(int), &at);
    pc_copy((const void **)&p->sdispls, ns, sizeof(int), &at);
    pc_copy((const void **)&p->sbdispls, ns, sizeof(ptrdiff_t), &at);
    pc_copy((const void **)&p->stypes, ns, sizeof(rmp_datatype_t), &at);
    pc_copy((const void **)&p->rcounts, nr, sizeof(int), &at);
    pc_copy((const void **)&p->rdispls, nr, sizeof(int), &at);
    pc_copy((const void **)&p->rbdispls, nr, sizeof(ptrdiff_t), &at);
    pc_copy((const void **)&p->rtypes, nr, sizeof(rmp_datatype_t), &at);
}

/* Check the arguments (a dry run of the nonblocking call), then make the persistent request
 * holding a copy of tpl and of the arrays the start needs (pc_arrays). */
static int pc_init(const pcoll_t *tpl, rmp_request_t *req)
{
    if (!req) /* (the dry run cannot see it: it gets a request of its own) */
        return RMP_ERR_ARG;
    coll_pmode = (pcoll_tls_t){.mode = PCOLL_DRY};
    rmp_request_t inner = RMP_REQUEST_NULL;
    int rc = pc_call(tpl, &inner);
    bool checked = coll_pmode.reached;
    coll_pmode = (pcoll_tls_t){0};
    if (!checked) {
        if (rc == RMP_SUCCESS) /* it ran without a schedule: finish it (no such call today) */
            rmp_wait(&inner, RMP_STATUS_IGNORE);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    comm_t *c = comm_get(tpl->comm); /* valid: the checks passed */
    size_t ns = pc_len(c, pc_arrays[tpl->kind].s, tpl->root);
    size_t nr = pc_len(c, pc_arrays[tpl->kind].r, tpl->root);
    /* 8 arrays at most, each rounded up to 16 bytes */
    size_t room = 4 * (al16(ns * sizeof(ptrdiff_t)) + al16(nr * sizeof(ptrdiff_t)));
    pcoll_t *p = malloc(sizeof(pcoll_t) + room);
    struct rmp_request *r = p ? req_alloc(REQ_COLL) : NULL;
    if (!r) {
        free(p);
        return RMP_ERR_NO_MEM;
    }
    *p = *tpl;
    pc_arrays_copy(p, ns, nr, p->mem);
    rmp_ctx_t *ctx = &rmp_ctx;
    ctx_lock(ctx);
    p->tag = (int)(c->coll_seq++ & RMP_TAG_UB); /* every rank's init takes the same */
    comm_hold(c); /* released by req_free (a persistent request with a comm) */
    ctx_unlock(ctx);
    r->persistent = true;
    r->comm = c;
    r->tmp = p;
    r->coll_start = pc_start;
    r->status = (rmp_status_t){.source = RMP_ANY_SOURCE, .tag = RMP_ANY_TAG};
    atomic_store_explicit(&r->done, 1, memory_order_release); /* inactive */
    *req = req_handle(r);
    return RMP_SUCCESS;
}

/* The shapes the inits share: one helper per argument list, one line per init. */
static int pc_blocks(pc_kind_t kind, const void *sbuf, int scount, rmp_datatype_t stype,
                     void *rbuf, int rcount, rmp_datatype_t rtype, int root, rmp_comm_t comm,
                     rmp_request_t *req)
{
    pcoll_t tpl = {.kind = kind, .comm = comm, .sbuf = sbuf, .scount = scount, .stype = stype,
                   .rbuf = rbuf, .rcount = rcount, .rtype = rtype, .root = root};
    return pc_init(&tpl, req);
}

static int pc_reduce(pc_kind_t kind, const void *sbuf, void *rbuf, int count,
                     const int *rcounts, rmp_datatype_t type, rmp_op_t op, int root,
                     rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = kind, .comm = comm, .sbuf = sbuf, .rbuf = rbuf, .rcount = count,
                   .rcounts = rcounts, .rtype = type, .op = op, .root = root};
    return pc_init(&tpl, req);
}

/* The v-forms: either side a count or counts and displacements. */
static int pc_vec(pc_kind_t kind, const void *sbuf, int scount, const int *scounts,
                  const int *sdispls, rmp_datatype_t stype, void *rbuf, int rcount,
                  const int *rcounts, const int *rdispls, rmp_datatype_t rtype, int root,
                  rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = kind, .comm = comm, .sbuf = sbuf, .scount = scount,
                   .scounts = scounts, .sdispls = sdispls, .stype = stype, .rbuf = rbuf,
                   .rcount = rcount, .rcounts = rcounts, .rdispls = rdispls, .rtype = rtype,
                   .root = root};
    return pc_init(&tpl, req);
}

int rmp_barrier_init(rmp_comm_t comm, rmp_request_t *req)
{
    return pc_init(&(pcoll_t){.kind = PC_BARRIER, .comm = comm}, req);
}

int rmp_bcast_init(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                   rmp_request_t *req)
{
    return pc_blocks(PC_BCAST, NULL, 0, 0, buf, count, type, root, comm, req);
}

int rmp_reduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                    int root, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_reduce(PC_REDUCE, sendbuf, recvbuf, count, NULL, type, op, root, comm, req);
}

int rmp_allreduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                       rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_reduce(PC_ALLREDUCE, sendbuf, recvbuf, count, NULL, type, op, 0, comm, req);
}

int rmp_gather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                    rmp_request_t *req)
{
    return pc_blocks(PC_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                     comm, req);
}

int rmp_gatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                     rmp_comm_t comm, rmp_request_t *req)
{
    return pc_vec(PC_GATHERV, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts,
                  displs, recvtype, root, comm, req);
}

int rmp_scatter_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                     rmp_request_t *req)
{
    return pc_blocks(PC_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                     comm, req);
}

int rmp_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                      rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_vec(PC_SCATTERV, sendbuf, 0, sendcounts, displs, sendtype, recvbuf, recvcount, NULL,
                  NULL, recvtype, root, comm, req);
}

int rmp_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                       int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_blocks(PC_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                     comm, req);
}

int rmp_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                        rmp_comm_t comm, rmp_request_t *req)
{
    return pc_vec(PC_ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0, recvcounts,
                  displs, recvtype, 0, comm, req);
}

int rmp_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                      int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_blocks(PC_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                     comm, req);
}

int rmp_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                       rmp_request_t *req)
{
    return pc_vec(PC_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0, recvcounts,
                  rdispls, recvtype, 0, comm, req);
}

int rmp_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                       rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLTOALLW, .comm = comm, .sbuf = sendbuf, .scounts = sendcounts,
                   .sdispls = sdispls, .stypes = sendtypes, .rbuf = recvbuf,
                   .rcounts = recvcounts, .rdispls = rdispls, .rtypes = recvtypes};
    return pc_init(&tpl, req);
}

int rmp_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_reduce(PC_REDUCE_SCATTER, sendbuf, recvbuf, 0, recvcounts, type, op, 0, comm, req);
}

int rmp_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                                  rmp_request_t *req)
{
    return pc_reduce(PC_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount, NULL, type, op, 0, comm,
                     req);
}

int rmp_scan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                  rmp_comm_t comm, rmp_request_t *req)
{
    return pc_reduce(PC_SCAN, sendbuf, recvbuf, count, NULL, type, op, 0, comm, req);
}

int rmp_exscan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                    rmp_comm_t comm, rmp_request_t *req)
{
    return pc_reduce(PC_EXSCAN, sendbuf, recvbuf, count, NULL, type, op, 0, comm, req);
}

int rmp_neighbor_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                                rmp_comm_t comm, rmp_request_t *req)
{
    return pc_blocks(PC_NB_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                     0, comm, req);
}

int rmp_neighbor_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    return pc_vec(PC_NB_ALLGATHERV, sendbuf, sendcount, NULL, NULL, sendtype, recvbuf, 0,
                  recvcounts, displs, recvtype, 0, comm, req);
}

int rmp_neighbor_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                               void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                               rmp_comm_t comm, rmp_request_t *req)
{
    return pc_blocks(PC_NB_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                     comm, req);
}

int rmp_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                                rmp_request_t *req)
{
    return pc_vec(PC_NB_ALLTOALLV, sendbuf, 0, sendcounts, sdispls, sendtype, recvbuf, 0,
                  recvcounts, rdispls, recvtype, 0, comm, req);
}

int rmp_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const ptrdiff_t sdispls[], const rmp_datatype_t sendtypes[],
                                void *recvbuf, const int recvcounts[], const ptrdiff_t rdispls[],
                                const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                                rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLTOALLW, .comm = comm, .sbuf = sendbuf, .scounts = sendcounts,
                   .sbdispls = sdispls, .stypes = sendtypes, .rbuf = recvbuf,
                   .rcounts = recvcounts, .rbdispls = rdispls, .rtypes = recvtypes};
    return pc_init(&tpl, req);
}
