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

/* Bytes of the arrays of p that the start needs, copied into mem (rank-dependent lengths:
 * the communicator's size, or the topology's degrees for the neighbourhood forms; rooted
 * v-forms copy the root's arrays only). */
typedef struct arr {
    const void **dst; /* the pcoll_t field */
    const void *src;
    size_t bytes;
} arr_t;

static size_t al16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* Check the arguments (a dry run of the nonblocking call), then make the persistent request
 * holding p (a stack template) and copies of the arrays in arrs[0..narr-1]. */
static int pc_init(const pcoll_t *tpl, arr_t *arrs, int narr, rmp_request_t *req)
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
    size_t total = sizeof(pcoll_t);
    for (int i = 0; i < narr; i++)
        total += al16(arrs[i].bytes);
    pcoll_t *p = malloc(total);
    struct rmp_request *r = p ? req_alloc(REQ_COLL) : NULL;
    if (!r) {
        free(p);
        return RMP_ERR_NO_MEM;
    }
    *p = *tpl;
    char *at = p->mem;
    for (int i = 0; i < narr; i++) {
        /* the field's offset in the template, the same in the copy */
        size_t off = (size_t)((const char *)arrs[i].dst - (const char *)tpl);
        const void **field = (const void **)((char *)p + off);
        if (arrs[i].src && arrs[i].bytes) {
            memcpy(at, arrs[i].src, arrs[i].bytes);
            *field = at;
            at += al16(arrs[i].bytes);
        }
    }
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

/* The communicator's size (0 if invalid: the dry run reports it) and whether I am root. */
static int comm_n(rmp_comm_t h)
{
    comm_t *c = comm_get(h);
    return c ? c->size : 0;
}

static bool am_root(rmp_comm_t h, int root)
{
    comm_t *c = comm_get(h);
    return c && c->rank == root;
}

#define ARR(field, ptr, n, T)                                                                      \
    (arr_t)                                                                                        \
    {                                                                                              \
        .dst = (const void **)&tpl.field, .src = (ptr), .bytes = (size_t)(n) * sizeof(T)           \
    }

int rmp_barrier_init(rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_BARRIER, .comm = comm};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_bcast_init(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                   rmp_request_t *req)
{
    pcoll_t tpl = {
        .kind = PC_BCAST, .comm = comm, .rbuf = buf, .rcount = count, .rtype = type, .root = root};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_reduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                    int root, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_REDUCE,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcount = count,
                   .rtype = type,
                   .op = op,
                   .root = root};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_allreduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                       rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLREDUCE,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcount = count,
                   .rtype = type,
                   .op = op};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_gather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                    rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_GATHER,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype,
                   .root = root};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_gatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                     rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_GATHERV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype,
                   .root = root};
    int n = am_root(comm, root) ? comm_n(comm) : 0;
    arr_t a[] = {ARR(rcounts, recvcounts, n, int), ARR(rdispls, displs, n, int)};
    return pc_init(&tpl, a, 2, req);
}

int rmp_scatter_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                     rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_SCATTER,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype,
                   .root = root};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                      rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_SCATTERV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = displs,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype,
                   .root = root};
    int n = am_root(comm, root) ? comm_n(comm) : 0;
    arr_t a[] = {ARR(scounts, sendcounts, n, int), ARR(sdispls, displs, n, int)};
    return pc_init(&tpl, a, 2, req);
}

int rmp_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                       int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLGATHER,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                        rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLGATHERV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    int n = comm_n(comm);
    arr_t a[] = {ARR(rcounts, recvcounts, n, int), ARR(rdispls, displs, n, int)};
    return pc_init(&tpl, a, 2, req);
}

int rmp_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                      int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLTOALL,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                       rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLTOALLV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    int n = comm_n(comm);
    arr_t a[] = {ARR(scounts, sendcounts, n, int), ARR(sdispls, sdispls, n, int),
                 ARR(rcounts, recvcounts, n, int), ARR(rdispls, rdispls, n, int)};
    return pc_init(&tpl, a, 4, req);
}

int rmp_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                       rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_ALLTOALLW,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stypes = sendtypes,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtypes = recvtypes};
    int n = comm_n(comm);
    arr_t a[] = {ARR(scounts, sendcounts, n, int),
                 ARR(sdispls, sdispls, n, int),
                 ARR(stypes, sendtypes, n, rmp_datatype_t),
                 ARR(rcounts, recvcounts, n, int),
                 ARR(rdispls, rdispls, n, int),
                 ARR(rtypes, recvtypes, n, rmp_datatype_t)};
    return pc_init(&tpl, a, 6, req);
}

int rmp_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_REDUCE_SCATTER,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rtype = type,
                   .op = op};
    int n = comm_n(comm);
    arr_t a[] = {ARR(rcounts, recvcounts, n, int)};
    return pc_init(&tpl, a, 1, req);
}

int rmp_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                                  rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_REDUCE_SCATTER_BLOCK,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = type,
                   .op = op};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_scan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                  rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_SCAN,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcount = count,
                   .rtype = type,
                   .op = op};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_exscan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                    rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_EXSCAN,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .rbuf = recvbuf,
                   .rcount = count,
                   .rtype = type,
                   .op = op};
    return pc_init(&tpl, NULL, 0, req);
}

/* In- and out-degree of a communicator's topology (0 without one: the dry run reports it). */
static void degrees(rmp_comm_t h, int *in, int *out)
{
    comm_t *c = comm_get(h);
    const topo_t *t = c ? topo_of(c) : NULL;
    *in = t ? t->indeg : 0;
    *out = t ? t->outdeg : 0;
}

int rmp_neighbor_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                                rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLGATHER,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_neighbor_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLGATHERV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = displs,
                   .rtype = recvtype};
    int in, out;
    degrees(comm, &in, &out);
    arr_t a[] = {ARR(rcounts, recvcounts, in, int), ARR(rdispls, displs, in, int)};
    return pc_init(&tpl, a, 2, req);
}

int rmp_neighbor_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                               void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                               rmp_comm_t comm, rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLTOALL,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scount = sendcount,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcount = recvcount,
                   .rtype = recvtype};
    return pc_init(&tpl, NULL, 0, req);
}

int rmp_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                                rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLTOALLV,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sdispls = sdispls,
                   .stype = sendtype,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rdispls = rdispls,
                   .rtype = recvtype};
    int in, out;
    degrees(comm, &in, &out);
    arr_t a[] = {ARR(scounts, sendcounts, out, int), ARR(sdispls, sdispls, out, int),
                 ARR(rcounts, recvcounts, in, int), ARR(rdispls, rdispls, in, int)};
    return pc_init(&tpl, a, 4, req);
}

int rmp_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const ptrdiff_t sdispls[], const rmp_datatype_t sendtypes[],
                                void *recvbuf, const int recvcounts[], const ptrdiff_t rdispls[],
                                const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                                rmp_request_t *req)
{
    pcoll_t tpl = {.kind = PC_NB_ALLTOALLW,
                   .comm = comm,
                   .sbuf = sendbuf,
                   .scounts = sendcounts,
                   .sbdispls = sdispls,
                   .stypes = sendtypes,
                   .rbuf = recvbuf,
                   .rcounts = recvcounts,
                   .rbdispls = rdispls,
                   .rtypes = recvtypes};
    int in, out;
    degrees(comm, &in, &out);
    arr_t a[] = {
        ARR(scounts, sendcounts, out, int),          ARR(sbdispls, sdispls, out, ptrdiff_t),
        ARR(stypes, sendtypes, out, rmp_datatype_t), ARR(rcounts, recvcounts, in, int),
        ARR(rbdispls, rdispls, in, ptrdiff_t),       ARR(rtypes, recvtypes, in, rmp_datatype_t)};
    return pc_init(&tpl, a, 6, req);
}
