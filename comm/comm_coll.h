/* comm_coll.h — what the communicator layer needs of the collectives above it, without
 * calling up: making a communicator is collective (an allgather of colours in split,
 * allreduces of context-id masks, broadcasts of an intercommunicator's groups), so comm/ runs
 * them through this table, which collectives/comm_serve.c fills when the library is loaded
 * (comm/ never names a collectives/ symbol). And the intracommunicator check every creation
 * starts with. */
#ifndef RMP_COMM_COLL_H
#define RMP_COMM_COLL_H

#include "core.h"

/* A communicator's collective context (ctx_id + 1): user p2p traffic never matches it. */
#define COLL_CTXOFF 1

typedef struct comm_coll_ops {
    int (*barrier)(rmp_comm_t comm);
    int (*bcast)(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm);
    int (*allreduce)(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                     rmp_op_t op, rmp_comm_t comm);
    int (*gather)(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm);
    int (*allgather)(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                     void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm);
    int (*alltoall)(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm);
    int (*alltoallv)(const void *sendbuf, const int sendcounts[], const int sdispls[],
                     rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                     const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm);
    /* An intracommunicator is about to be freed (lock held): the collectives' state of it
     * (the offload backends') goes. */
    void (*comm_free)(comm_t *comm);
} comm_coll_ops_t;

extern comm_coll_ops_t comm_coll; /* comm_coll.c; filled by collectives/comm_serve.c */

/* An intracommunicator a call runs on: the communicator, my rank, its size. */
typedef struct intra {
    comm_t *comm;
    int rank, size;
} intra_t;

/* Initialized runtime and a valid intracommunicator (RMP_ERR_COMM for an intercommunicator). */
int comm_intra(rmp_comm_t h, intra_t *in);
/* RMP_ERR_ROOT unless 0 <= root < size. */
int intra_root(const intra_t *in, int root);

#endif
