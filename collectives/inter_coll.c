/* inter_coll.c — collectives on intercommunicators (MPI-3.1 5.2.2): each group gets data from
 * the OTHER group. Every one is a schedule on the bridge (inter.h), in bridge ranks: local
 * rank i is it.lo + i, remote rank j is it.ro + j. The rmp_i* entries dispatch here; their
 * blocking forms wait on the request as usual, so both forms are served. Algorithms are
 * simple on purpose (linear exchanges; reductions gathered at each group's rank 0 and
 * combined there in rank order, so non-commutative user ops are right); no offload backend is
 * ever asked.
 *
 * Rooted ones: in the root's group the root passes RMP_ROOT, the others RMP_PROC_NULL (they
 * take no part); in the other group every member passes the root's rank in the root's group.
 * RMP_IN_PLACE has no meaning on an intercommunicator: RMP_ERR_BUFFER. */
#include <stdlib.h>

#include "coll.h"
#include "inter.h"

/* p + off, NULL staying NULL (an empty buffer may be NULL; no arithmetic on it). */
static inline char *at(const void *p, size_t off)
{
    return p ? (char *)p + off : NULL;
}

/* The checks every call starts with, then the call's tag and schedule on the bridge. */
static int begin(rmp_comm_t comm, const rmp_request_t *req, inter_t *it)
{
    int err = inter_get(comm, it);
    if (!err && !req)
        err = RMP_ERR_ARG;
    return err;
}

static int start(inter_t *it, sched_t **s)
{
    coll_t cl = {.comm = it->br, .rank = it->br->rank, .size = it->br->size};
    *s = coll_sched(&cl);
    return *s ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

typedef enum { R_NONE, R_ROOT, R_OTHER } role_t;

/* The role of this rank in a rooted collective, RMP_ERR_ROOT for a bad root. */
static int root_role(const inter_t *it, int root, role_t *role)
{
    if (root == RMP_ROOT)
        *role = R_ROOT;
    else if (root == RMP_PROC_NULL)
        *role = R_NONE;
    else if (root >= 0 && root < it->rsize)
        *role = R_OTHER;
    else
        return RMP_ERR_ROOT;
    return RMP_SUCCESS;
}

static int no_in_place(const void *buf)
{
    return buf == RMP_IN_PLACE ? RMP_ERR_BUFFER : RMP_SUCCESS;
}

/* The checks of a rooted collective: begin()'s, then this rank's role. */
static int begin_rooted(rmp_comm_t comm, const rmp_request_t *req, int root, inter_t *it,
                        role_t *role)
{
    int err = begin(comm, req, it);
    return err ? err : root_role(it, root, role);
}

/* A leaf's buffer (a rank of the group without the root): one block, never in place. */
static int leaf_buf(const void *buf, int count, rmp_datatype_t type, const dtype_t **dt,
                    size_t *bytes)
{
    int err = no_in_place(buf);
    return err ? err : coll_buf(buf, count, type, 1, dt, bytes);
}

/* A leaf's one block to or from peer (the root, or the group's rank 0). */
static void leaf_send(sched_t *s, int peer, const void *buf, int count, const dtype_t *dt,
                      size_t bytes)
{
    const char *p = coll_in(s, buf, count, 1, dt);
    if (p || !bytes)
        sched_send(s, peer, p, bytes);
}

static void leaf_recv(sched_t *s, int peer, void *buf, int count, const dtype_t *dt, size_t bytes)
{
    char *p = coll_out(s, buf, count, 1, dt, false);
    if (p || !bytes)
        sched_recv(s, peer, p, bytes);
}

int inter_ibarrier(rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    int err = begin(comm, req, &it);
    if (err || (err = start(&it, &s)))
        return err;
    /* my group checks in at its rank 0, the two rank 0s swap, then release their groups */
    if (it.rank != 0) {
        sched_send(s, it.lo, NULL, 0);
        sched_round(s);
        sched_recv(s, it.lo, NULL, 0);
    } else {
        for (int i = 1; i < it.lsize; i++)
            sched_recv(s, it.lo + i, NULL, 0);
        sched_round(s);
        sched_send(s, it.ro, NULL, 0);
        sched_recv(s, it.ro, NULL, 0);
        sched_round(s);
        for (int i = 1; i < it.lsize; i++)
            sched_send(s, it.lo + i, NULL, 0);
    }
    return sched_post(s, req);
}

int inter_ibcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                 rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role != R_NONE)
        err = coll_buf(buf, count, type, 1, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) {
        const char *p = coll_in(s, buf, count, 1, dt);
        for (int j = 0; (p || !bytes) && j < it.rsize; j++)
            sched_send(s, it.ro + j, p, bytes);
    } else if (role == R_OTHER) {
        leaf_recv(s, it.ro + root, buf, count, dt, bytes);
    }
    return sched_post(s, req);
}

int inter_igather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                  rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role == R_ROOT)
        err = coll_buf(recvbuf, recvcount, recvtype, it.rsize, &dt, &bytes);
    if (!err && role == R_OTHER)
        err = leaf_buf(sendbuf, sendcount, sendtype, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) {
        char *p = coll_out(s, recvbuf, recvcount, it.rsize, dt, false);
        for (int j = 0; (p || !bytes) && j < it.rsize; j++)
            sched_recv(s, it.ro + j, at(p, (size_t)j * bytes), bytes);
    } else if (role == R_OTHER) {
        leaf_send(s, it.ro + root, sendbuf, sendcount, dt, bytes);
    }
    return sched_post(s, req);
}

int inter_igatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                   int root, rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role == R_ROOT)
        err = coll_vbuf(recvbuf, recvcounts, displs, it.rsize, recvtype, &dt);
    if (!err && role == R_OTHER)
        err = leaf_buf(sendbuf, sendcount, sendtype, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) {
        vview_t v;
        if (coll_vout(s, recvbuf, recvcounts, displs, it.rsize, dt, false, &v))
            for (int j = 0; j < it.rsize; j++)
                sched_recv(s, it.ro + j, v.at[j], v.bytes[j]);
    } else if (role == R_OTHER) {
        leaf_send(s, it.ro + root, sendbuf, sendcount, dt, bytes);
    }
    return sched_post(s, req);
}

int inter_iscatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                   rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role == R_ROOT)
        err = coll_buf(sendbuf, sendcount, sendtype, it.rsize, &dt, &bytes);
    if (!err && role == R_OTHER)
        err = leaf_buf(recvbuf, recvcount, recvtype, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) {
        const char *p = coll_in(s, sendbuf, sendcount, it.rsize, dt);
        for (int j = 0; (p || !bytes) && j < it.rsize; j++)
            sched_send(s, it.ro + j, at(p, (size_t)j * bytes), bytes);
    } else if (role == R_OTHER) {
        leaf_recv(s, it.ro + root, recvbuf, recvcount, dt, bytes);
    }
    return sched_post(s, req);
}

int inter_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                    rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                    rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role == R_ROOT)
        err = coll_vbuf(sendbuf, sendcounts, displs, it.rsize, sendtype, &dt);
    if (!err && role == R_OTHER)
        err = leaf_buf(recvbuf, recvcount, recvtype, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) {
        vview_t v;
        if (coll_vin(s, sendbuf, sendcounts, displs, it.rsize, dt, &v))
            for (int j = 0; j < it.rsize; j++)
                sched_send(s, it.ro + j, v.at[j], v.bytes[j]);
    } else if (role == R_OTHER) {
        leaf_recv(s, it.ro + root, recvbuf, recvcount, dt, bytes);
    }
    return sched_post(s, req);
}

/* ---- reductions ---- */

/* My group's contributions (`in`, bytes each) reduced in rank order at its rank 0: the others
 * send theirs (this round) and get NULL; rank 0 gets the result, ready in the next round
 * (local steps of the round begun here; a send added after them reads it). */
static const char *group_reduce(sched_t *s, const inter_t *it, const red_t *rd, const char *in,
                                size_t bytes)
{
    int n = it->lsize;
    if (it->rank != 0) {
        sched_send(s, it->lo, in, bytes);
        return NULL;
    }
    if (n == 1)
        return in;
    char *x = bytes ? sched_tmp(s, bytes * (size_t)n) : NULL; /* slot j: rank j's part */
    if (!x && bytes)
        return NULL;
    for (int j = 1; j < n; j++)
        sched_recv(s, it->lo + j, at(x, (size_t)j * bytes), bytes);
    sched_round(s);
    if (!bytes)
        return NULL;
    size_t cnt = bytes / rd->esz;
    char *acc = x + (size_t)(n - 1) * bytes; /* acc = x_j op acc, j from n-2 down to 0 */
    for (int j = n - 2; j >= 1; j--)
        sched_reduce(s, rd->op, rd->dt, x + (size_t)j * bytes, acc, cnt);
    sched_reduce(s, rd->op, rd->dt, in, acc, cnt);
    return acc;
}

int inter_ireduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                  rmp_op_t op, int root, rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    role_t role;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin_rooted(comm, req, root, &it, &role);
    if (!err && role != R_NONE)
        err = coll_reduction(count, type, op, &dt);
    if (!err && role == R_ROOT)
        err = coll_buf(recvbuf, count, type, 1, &dt, &bytes);
    if (!err && role == R_OTHER)
        err = leaf_buf(sendbuf, count, type, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    if (role == R_ROOT) { /* the other group's rank 0 sends the result */
        leaf_recv(s, it.ro, recvbuf, count, dt, bytes);
    } else if (role == R_OTHER) {
        red_t rd = red_of(op, dt);
        const char *in = coll_in(s, sendbuf, count, 1, dt);
        const char *acc = in || !bytes ? group_reduce(s, &it, &rd, in, bytes) : NULL;
        if (it.rank == 0 && (acc || !bytes))
            sched_send(s, it.ro + root, acc, bytes);
    }
    return sched_post(s, req);
}

/* Each group's reduction at its rank 0; the two rank 0s swap them into `out` and pass on to
 * their groups: the part of allreduce and reduce_scatter after which rank 0 of each group
 * holds the other group's reduction in out (total bytes). The others get nothing here. */
static void swap_reductions(sched_t *s, const inter_t *it, const red_t *rd, const char *in,
                            char *out, size_t total)
{
    const char *acc = group_reduce(s, it, rd, in, total);
    if (it->rank == 0 && (acc || !total)) {
        sched_send(s, it->ro, acc, total);
        sched_recv(s, it->ro, out, total);
        sched_round(s);
    }
}

int inter_iallreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                     rmp_op_t op, rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *dt = NULL;
    size_t bytes = 0;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_reduction(count, type, op, &dt);
    if (!err)
        err = coll_buf(recvbuf, count, type, 1, &dt, &bytes);
    if (!err)
        err = coll_buf(sendbuf, count, type, 1, &dt, &bytes);
    if (err || (err = start(&it, &s)))
        return err;
    red_t rd = red_of(op, dt);
    const char *in = coll_in(s, sendbuf, count, 1, dt);
    char *out = coll_out(s, recvbuf, count, 1, dt, false);
    if ((in && out) || !bytes) {
        swap_reductions(s, &it, &rd, in, out, bytes);
        if (it.rank == 0)
            for (int i = 1; i < it.lsize; i++)
                sched_send(s, it.lo + i, out, bytes);
        else
            sched_recv(s, it.lo, out, bytes);
    }
    return sched_post(s, req);
}

/* reduce_scatter: my group's vector (sum of counts[] over my group, the same size as the other
 * group's) is reduced and scattered over the OTHER group by its counts; I get counts[me]
 * elements of the other group's reduction. */
static int reduce_scatter(const void *sendbuf, void *recvbuf, const int *counts, int blk,
                          rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                          rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *dt = NULL;
    size_t bytes = 0, total = 0;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_reduction(0, type, op, &dt);
    long long sum = 0;
    for (int i = 0; !err && i < it.lsize; i++) {
        int c = counts ? counts[i] : blk;
        if (c < 0)
            err = RMP_ERR_COUNT;
        sum += c;
    }
    if (!err && sum > INT32_MAX)
        err = RMP_ERR_COUNT;
    int mine = err ? 0 : counts ? counts[it.rank] : blk;
    if (!err)
        err = coll_buf(recvbuf, mine, type, 1, &dt, &bytes);
    if (!err)
        err = coll_buf(sendbuf, (int)sum, type, 1, &dt, &total);
    if (err || (err = start(&it, &s)))
        return err;
    red_t rd = red_of(op, dt);
    const char *in = coll_in(s, sendbuf, (int)sum, 1, dt);
    char *out = coll_out(s, recvbuf, mine, 1, dt, false);
    char *full = it.rank == 0 && total ? sched_tmp(s, total) : NULL;
    if ((in || !total) && (out || !bytes) && (full || it.rank != 0 || !total)) {
        swap_reductions(s, &it, &rd, in, full, total);
        if (it.rank == 0) {
            size_t off = bytes;
            if (bytes)
                sched_copy(s, out, full, bytes);
            for (int i = 1; i < it.lsize; i++) {
                size_t b = (size_t)(counts ? counts[i] : blk) * dt->size;
                sched_send(s, it.lo + i, at(full, off), b);
                off += b;
            }
        } else {
            sched_recv(s, it.lo, out, bytes);
        }
    }
    return sched_post(s, req);
}

int inter_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                          rmp_request_t *req)
{
    if (!recvcounts)
        return inter_get(comm, &(inter_t){0}) ? RMP_ERR_COMM : RMP_ERR_ARG;
    return reduce_scatter(sendbuf, recvbuf, recvcounts, 0, type, op, comm, req);
}

int inter_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                                rmp_request_t *req)
{
    if (recvcount < 0)
        return inter_get(comm, &(inter_t){0}) ? RMP_ERR_COMM : RMP_ERR_COUNT;
    return reduce_scatter(sendbuf, recvbuf, NULL, recvcount, type, op, comm, req);
}

/* ---- all-to-all exchanges: every member with every member of the other group ---- */

int inter_iallgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                     void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                     rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sb = 0, rb = 0;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sb);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, it.rsize, &rdt, &rb);
    if (err || (err = start(&it, &s)))
        return err;
    const char *in = coll_in(s, sendbuf, sendcount, 1, sdt);
    char *out = coll_out(s, recvbuf, recvcount, it.rsize, rdt, false);
    if ((in || !sb) && (out || !rb)) /* one side may move nothing: a NULL buffer there */
        for (int k = 0; k < it.rsize; k++) {
            int j = (it.rank + k) % it.rsize; /* not everyone on remote rank 0 first */
            sched_recv(s, it.ro + j, at(out, (size_t)j * rb), rb);
            sched_send(s, it.ro + j, in, sb);
        }
    return sched_post(s, req);
}

int inter_iallgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sb = 0;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_buf(sendbuf, sendcount, sendtype, 1, &sdt, &sb);
    if (!err)
        err = coll_vbuf(recvbuf, recvcounts, displs, it.rsize, recvtype, &rdt);
    if (err || (err = start(&it, &s)))
        return err;
    const char *in = coll_in(s, sendbuf, sendcount, 1, sdt);
    vview_t v;
    if ((in || !sb) && coll_vout(s, recvbuf, recvcounts, displs, it.rsize, rdt, false, &v))
        for (int k = 0; k < it.rsize; k++) {
            int j = (it.rank + k) % it.rsize;
            sched_recv(s, it.ro + j, v.at[j], v.bytes[j]);
            sched_send(s, it.ro + j, in, sb);
        }
    return sched_post(s, req);
}

int inter_ialltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                    rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *sdt = NULL, *rdt = NULL;
    size_t sb = 0, rb = 0;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_buf(sendbuf, sendcount, sendtype, it.rsize, &sdt, &sb);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, it.rsize, &rdt, &rb);
    if (err || (err = start(&it, &s)))
        return err;
    const char *in = coll_in(s, sendbuf, sendcount, it.rsize, sdt);
    char *out = coll_out(s, recvbuf, recvcount, it.rsize, rdt, false);
    if ((in || !sb) && (out || !rb)) /* one side may move nothing: a NULL buffer there */
        for (int k = 0; k < it.rsize; k++) {
            int j = (it.rank + k) % it.rsize;
            sched_recv(s, it.ro + j, at(out, (size_t)j * rb), rb);
            sched_send(s, it.ro + j, at(in, (size_t)j * sb), sb);
        }
    return sched_post(s, req);
}

static int exchange_v(sched_t *s, const inter_t *it, bool ok, const vview_t *in,
                      const vview_t *out, rmp_request_t *req)
{
    for (int k = 0; ok && k < it->rsize; k++) {
        int j = (it->rank + k) % it->rsize;
        sched_recv(s, it->ro + j, out->at[j], out->bytes[j]);
        sched_send(s, it->ro + j, in->at[j], in->bytes[j]);
    }
    return sched_post(s, req);
}

int inter_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                     rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    const dtype_t *sdt = NULL, *rdt = NULL;
    int err = begin(comm, req, &it);
    if (!err && !(err = no_in_place(sendbuf)))
        err = coll_vbuf(sendbuf, sendcounts, sdispls, it.rsize, sendtype, &sdt);
    if (!err)
        err = coll_vbuf(recvbuf, recvcounts, rdispls, it.rsize, recvtype, &rdt);
    if (err || (err = start(&it, &s)))
        return err;
    vview_t in, out;
    bool ok = coll_vin(s, sendbuf, sendcounts, sdispls, it.rsize, sdt, &in) &&
              coll_vout(s, recvbuf, recvcounts, rdispls, it.rsize, rdt, false, &out);
    return exchange_v(s, &it, ok, &in, &out, req);
}

int inter_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                     rmp_request_t *req)
{
    inter_t it = {0};
    sched_t *s;
    int err = begin(comm, req, &it);
    const dtype_t **sdts = NULL, **rdts = NULL;
    if (!err && !(err = no_in_place(sendbuf))) {
        sdts = malloc(sizeof(*sdts) * (size_t)it.rsize);
        rdts = malloc(sizeof(*rdts) * (size_t)it.rsize);
        if (!sdts || !rdts)
            err = RMP_ERR_NO_MEM;
    }
    if (!err)
        err = coll_wbuf(sendbuf, sendcounts, sdispls, sendtypes, it.rsize, sdts);
    if (!err)
        err = coll_wbuf(recvbuf, recvcounts, rdispls, recvtypes, it.rsize, rdts);
    if (!err)
        err = start(&it, &s);
    if (!err) {
        vview_t in, out;
        bool ok = coll_win(s, sendbuf, sendcounts, sdispls, sdts, it.rsize, &in) &&
                  coll_wout(s, recvbuf, recvcounts, rdispls, rdts, it.rsize, false, &out);
        err = exchange_v(s, &it, ok, &in, &out, req);
    }
    free(sdts);
    free(rdts);
    return err;
}
