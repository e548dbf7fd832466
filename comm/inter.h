/* inter.h — intercommunicators (inter.c: construction; inter_coll.c: collectives). An
 * intercommunicator is a comm_t whose size/world are the remote group (see core.h) plus a
 * hidden "bridge" intracommunicator over both groups that owns their shared context pair:
 * everything collective (context agreement for dup/split/merge, the collectives themselves)
 * runs as ordinary schedules on the bridge, so no new machinery reaches the p2p paths, and
 * the offload backends are never asked (the inter collectives never call coll_offload). */
#ifndef RMP_INTER_H
#define RMP_INTER_H

#include "comm_coll.h"
#include "ctxid.h"

/* ---- context ids (ctxid.c) ---- */
/* Called inside a context id agreement round, after the mask was reduced over the parent:
 * combines buf (n words, the reduced masks and, last, the "every member held its mask" flag)
 * with the other group's (bitwise AND), the same result on every member. */
typedef int (*ctx_combine_t)(void *arg, uint32_t *buf, int n);
/* Collective over the intracommunicator parent (and, through combine, another group): a
 * context pair free on every member, taken (ctx_release, ctxid.h, gives it back). */
int comm_agree_ctx(rmp_comm_t parent, ctx_combine_t combine, void *arg, uint32_t *id);
/* The same with the priority key given (key->parent, key->sub; ctxid.h): an
 * intercommunicator's creation, whose two groups must rank it alike. */
int comm_agree_ctx_keyed(rmp_comm_t parent, const ctx_waiter_t *key, ctx_combine_t combine,
                         void *arg, uint32_t *id);

/* A new intercommunicator: local group lw[0..ln-1] (me: my rank there), remote group
 * rw[0..rn-1], on context pair id (taken; given back on failure). lfirst: my group comes first
 * in the bridge, decided alike by both groups (rmp_intercomm_create, port.c's accept). */
int inter_build(const int *lw, int ln, int me, const int *rw, int rn, bool lfirst, uint32_t id,
                rmp_comm_t *out);

/* ---- constructors on an intercommunicator (inter.c), dispatched from comm_ops.c ---- */
int inter_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm);
int inter_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm);
int inter_comm_create(rmp_comm_t comm, rmp_group_t group, rmp_comm_t *newcomm);

/* The intercommunicator of a handle with its bridge (lock taken inside): RMP_ERR_COMM when h
 * is not a valid intercommunicator. */
typedef struct inter {
    comm_t *ic, *br;
    int lsize, rsize, rank; /* local and remote sizes, my local rank */
    int lo, ro;             /* bridge rank of local rank 0, of remote rank 0 */
} inter_t;
int inter_get(rmp_comm_t h, inter_t *it);
/* A new intercommunicator with the groups of `it`, my rank there and the same bridge order, on
 * context pair id (taken, given back on failure): rmp_comm_dup's, and rmp_comm_idup's, which
 * builds it at the call on an id that matches nothing and sets the pair agreed, on it and on
 * its bridge, when the request completes. */
int inter_build_copy(const inter_t *it, uint32_t id, rmp_comm_t *out);

/* ---- collectives (inter_coll.c), dispatched from the rmp_i* entries ---- */
int inter_ibarrier(rmp_comm_t comm, rmp_request_t *req);
int inter_ibcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                 rmp_request_t *req);
int inter_igather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                  rmp_request_t *req);
int inter_igatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                   int root, rmp_comm_t comm, rmp_request_t *req);
int inter_iscatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                   rmp_request_t *req);
int inter_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                    rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                    rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req);
int inter_ireduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                  rmp_op_t op, int root, rmp_comm_t comm, rmp_request_t *req);
int inter_iallreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                     rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int inter_iallgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                     void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                     rmp_request_t *req);
int inter_iallgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                      void *recvbuf, const int recvcounts[], const int displs[],
                      rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int inter_ialltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                    rmp_request_t *req);
int inter_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                     rmp_request_t *req);
int inter_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                     const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                     rmp_request_t *req);
int inter_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                          rmp_request_t *req);
int inter_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                                rmp_request_t *req);

#endif
