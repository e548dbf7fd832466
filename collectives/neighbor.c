/* neighbor.c — the neighbourhood collectives (allgather, alltoall and their v and w forms) on
 * a communicator with a topology (topo.h). Every form becomes one description, blocks of
 * (count, byte offset, type) for each out- and in-neighbour, compiled into a schedule:
 * - a distributed graph: one round, every receive and send posted at once, in list order, so
 *   that several edges between two ranks match in the order they were given;
 * - a Cartesian grid: two rounds, first everyone sends downwards (block 2d to the neighbour
 *   below) and receives from above (into block 2d+1), then the reverse: the block a rank gets
 *   from below is always what that neighbour sent upwards, even when the neighbours below and
 *   above are one process (periodic dimensions of size 1 or 2).
 * RMP_PROC_NULL neighbours are skipped. */
#include <stdlib.h>

#include "coll.h"
#include "topo.h"

/* How one side's blocks (one per neighbour) lie in its buffer. */
typedef enum {
    NB_SAME, /* count elements of type at buf, the same block for every neighbour (allgather) */
    NB_SEQ,  /* block i: count elements at i * count extents (alltoall, allgather's receive) */
    NB_V,    /* block i: counts[i] elements at displs[i] extents */
    NB_W     /* block i: counts[i] elements of types[i] at bdispls[i] bytes */
} nb_shape_t;

typedef struct nb_side {
    nb_shape_t shape;
    const void *buf;
    int count;
    const int *counts, *displs;
    const ptrdiff_t *bdispls;
    rmp_datatype_t type;
    const rmp_datatype_t *types;
} nb_side_t;

/* n blocks of a side: block i is counts[i] elements of dts[i] at user + offs[i] bytes. */
typedef struct nb_blocks {
    char *user;
    int n;
    int *counts;
    ptrdiff_t *offs;
    const dtype_t **dts;
    char **at; /* its packed bytes (user memory for contiguous types) */
    size_t *bytes;
} nb_blocks_t;

/* Block i of a side: committed type (RMP_ERR_TYPE), count >= 0 with a representable span and
 * offset (RMP_ERR_COUNT), a real buffer under it if not empty (RMP_ERR_BUFFER: RMP_IN_PLACE,
 * or RMP_BOTTOM where the type and offset hold no absolute address: dtype_block_ok). */
static int nb_block(const nb_side_t *sd, int i, int *c_p, ptrdiff_t *off_p, const dtype_t **dt_p)
{
    const dtype_t *dt = dtype_get(sd->shape == NB_W ? sd->types[i] : sd->type, true);
    int c = sd->shape >= NB_V ? sd->counts[i] : sd->count;
    size_t bytes;
    if (!dt)
        return RMP_ERR_TYPE;
    if (c < 0 || dtype_bytes(dt, (size_t)c, &bytes))
        return RMP_ERR_COUNT;
    /* blocks placed by extents of a negative-extent type (dtype_t.neg_extent): refused */
    if (dt->neg_extent && c > 0 && sd->shape != NB_W && (i > 0 || sd->shape >= NB_V))
        return RMP_ERR_COUNT;
    ptrdiff_t off = 0;
    if (sd->shape == NB_W)
        off = sd->bdispls[i];
    else if (sd->shape != NB_SAME &&
             __builtin_mul_overflow(sd->shape == NB_V ? (long long)sd->displs[i] : (long long)i * c,
                                    (long long)dt->extent, &off))
        return RMP_ERR_COUNT;
    if (c > 0 && !dtype_block_ok(sd->buf, off, dt))
        return RMP_ERR_BUFFER;
    *c_p = c;
    *off_p = off;
    *dt_p = dt;
    return RMP_SUCCESS;
}

/* The whole side checked before anything is sent: the arrays its shape needs (RMP_ERR_ARG),
 * then every block. */
static int nb_check(const nb_side_t *sd, int n)
{
    if ((sd->shape >= NB_V && !sd->counts) || (sd->shape == NB_V && !sd->displs) ||
        (sd->shape == NB_W && (!sd->bdispls || !sd->types)))
        return n > 0 ? RMP_ERR_ARG : RMP_SUCCESS;
    int c;
    ptrdiff_t off;
    const dtype_t *dt;
    for (int i = 0; i < n; i++) {
        int err = nb_block(sd, i, &c, &off, &dt);
        if (err)
            return err;
    }
    return RMP_SUCCESS;
}

/* The checked side's blocks in schedule memory; a block of an RMP_PROC_NULL neighbour (nbrs[i])
 * becomes empty, so nothing is packed from it or unpacked into it. false: out of memory
 * (sched_post says so). */
static bool nb_describe(sched_t *s, const nb_side_t *sd, int n, const int *nbrs, nb_blocks_t *b)
{
    size_t k = (size_t)(n ? n : 1);
    *b = (nb_blocks_t){.user = (char *)sd->buf, .n = n};
    b->counts = sched_tmp(s, sizeof(int) * k);
    b->offs = sched_tmp(s, sizeof(ptrdiff_t) * k);
    b->dts = sched_tmp(s, sizeof(*b->dts) * k);
    if (!b->counts || !b->offs || !b->dts)
        return false;
    for (int i = 0; i < n; i++) {
        nb_block(sd, i, &b->counts[i], &b->offs[i], &b->dts[i]); /* checked: cannot fail */
        if (nbrs[i] == RMP_PROC_NULL)
            b->counts[i] = 0;
        /* nb_unpack reads the type when the schedule ends: a type freed since the call (as
         * MPI allows) must keep its layout until then */
        if (b->counts[i] > 0 && !b->dts[i]->contig)
            sched_hold_type(s, b->dts[i]);
    }
    return true;
}

/* Packed views of the blocks (packed copies of input blocks of non-contiguous types). false:
 * out of memory (sched_post reports it). */
static bool nb_view(sched_t *s, nb_blocks_t *b, bool input)
{
    b->at = sched_tmp(s, sizeof(char *) * (size_t)(b->n ? b->n : 1));
    b->bytes = sched_tmp(s, sizeof(size_t) * (size_t)(b->n ? b->n : 1));
    if (!b->at || !b->bytes || !b->counts)
        return false;
    for (int i = 0; i < b->n; i++) {
        const dtype_t *dt = b->dts[i];
        char *u = b->user + b->offs[i];
        b->bytes[i] = (size_t)b->counts[i] * dt->size;
        if (dt->contig || !b->counts[i]) {
            b->at[i] = u;
            continue;
        }
        if (!(b->at[i] = sched_tmp(s, b->bytes[i])))
            return false;
        if (input)
            dtype_pack(dt, b->counts[i], u, b->at[i]);
    }
    return true;
}

/* When the schedule ends: received blocks of non-contiguous types into the user's buffer. */
static void nb_unpack(void *arg, int err)
{
    const nb_blocks_t *b = arg;
    if (err != RMP_SUCCESS && err != RMP_ERR_TRUNCATE)
        return;
    for (int i = 0; i < b->n; i++)
        if (b->counts[i] > 0 && !b->dts[i]->contig)
            dtype_unpack(b->dts[i], b->counts[i], b->at[i], b->bytes[i], b->user + b->offs[i]);
}

static void nb_recv(sched_t *s, const topo_t *t, const nb_blocks_t *in, int i)
{
    if (t->in[i] != RMP_PROC_NULL)
        sched_recv(s, t->in[i], in->at[i], in->bytes[i]);
}

static void nb_send(sched_t *s, const topo_t *t, const nb_blocks_t *out, int j)
{
    if (t->out[j] != RMP_PROC_NULL)
        sched_send(s, t->out[j], out->at[j], out->bytes[j]);
}

static void nb_compile(sched_t *s, const topo_t *t, const nb_blocks_t *out, const nb_blocks_t *in)
{
    if (t->kind != RMP_CART) { /* distributed graph, or graph (in = out = its neighbours) */
        for (int i = 0; i < t->indeg; i++)
            nb_recv(s, t, in, i);
        for (int j = 0; j < t->outdeg; j++)
            nb_send(s, t, out, j);
        return;
    }
    for (int d = 0; d < t->ndims; d++) { /* downwards */
        nb_recv(s, t, in, 2 * d + 1);
        nb_send(s, t, out, 2 * d);
    }
    sched_round(s);
    for (int d = 0; d < t->ndims; d++) { /* upwards */
        nb_recv(s, t, in, 2 * d);
        nb_send(s, t, out, 2 * d + 1);
    }
}

/* Every form: checks, then the schedule. */
static int nb_start(rmp_comm_t comm, const nb_side_t *snd, const nb_side_t *rcv, rmp_request_t *req)
{
    coll_t cl;
    int err = coll_comm(comm, &cl);
    const topo_t *t = err ? NULL : topo_of(cl.comm);
    if (!err && !t)
        err = RMP_ERR_TOPOLOGY;
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err)
        err = nb_check(snd, t->outdeg);
    if (!err)
        err = nb_check(rcv, t->indeg);
    if (err)
        return err;
    coll_sign(&cl, CK_NEIGHBOR, -1, -1, RMP_OP_NULL, NULL);
    sched_t *s = coll_sched(&cl);
    if (!s)
        return RMP_ERR_NO_MEM;
    nb_blocks_t *out = sched_tmp(s, sizeof(*out)), *in = sched_tmp(s, sizeof(*in));
    if (out && in && nb_describe(s, snd, t->outdeg, t->out, out) &&
        nb_describe(s, rcv, t->indeg, t->in, in) && nb_view(s, out, true) &&
        nb_view(s, in, false)) {
        sched_on_done(s, nb_unpack, in);
        nb_compile(s, t, out, in);
    }
    return sched_post(s, req);
}

int rmp_ineighbor_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                            void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                            rmp_request_t *req)
{
    nb_side_t snd = {.shape = NB_SAME, .buf = sendbuf, .count = sendcount, .type = sendtype};
    nb_side_t rcv = {.shape = NB_SEQ, .buf = recvbuf, .count = recvcount, .type = recvtype};
    return nb_start(comm, &snd, &rcv, req);
}

int rmp_ineighbor_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    nb_side_t snd = {.shape = NB_SAME, .buf = sendbuf, .count = sendcount, .type = sendtype};
    nb_side_t rcv = {
        .shape = NB_V, .buf = recvbuf, .counts = recvcounts, .displs = displs, .type = recvtype};
    return nb_start(comm, &snd, &rcv, req);
}

int rmp_ineighbor_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                           void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                           rmp_request_t *req)
{
    nb_side_t snd = {.shape = NB_SEQ, .buf = sendbuf, .count = sendcount, .type = sendtype};
    nb_side_t rcv = {.shape = NB_SEQ, .buf = recvbuf, .count = recvcount, .type = recvtype};
    return nb_start(comm, &snd, &rcv, req);
}

int rmp_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                            rmp_request_t *req)
{
    nb_side_t snd = {
        .shape = NB_V, .buf = sendbuf, .counts = sendcounts, .displs = sdispls, .type = sendtype};
    nb_side_t rcv = {
        .shape = NB_V, .buf = recvbuf, .counts = recvcounts, .displs = rdispls, .type = recvtype};
    return nb_start(comm, &snd, &rcv, req);
}

int rmp_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const ptrdiff_t sdispls[],
                            const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                            const ptrdiff_t rdispls[], const rmp_datatype_t recvtypes[],
                            rmp_comm_t comm, rmp_request_t *req)
{
    nb_side_t snd = {.shape = NB_W,
                     .buf = sendbuf,
                     .counts = sendcounts,
                     .bdispls = sdispls,
                     .types = sendtypes};
    nb_side_t rcv = {.shape = NB_W,
                     .buf = recvbuf,
                     .counts = recvcounts,
                     .bdispls = rdispls,
                     .types = recvtypes};
    return nb_start(comm, &snd, &rcv, req);
}

int rmp_neighbor_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                           void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, comm, &r),
                      &r);
}

int rmp_neighbor_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, comm, &r),
                      &r);
}

int rmp_neighbor_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                          void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, &r),
                      &r);
}

int rmp_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm, &r),
                      &r);
}

int rmp_neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const ptrdiff_t sdispls[],
                           const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                           const ptrdiff_t rdispls[], const rmp_datatype_t recvtypes[],
                           rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(rmp_ineighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                              recvcounts, rdispls, recvtypes, comm, &r),
                      &r);
}
