/* rmp/rmp_coll.h — collectives: blocking, nonblocking and persistent (every rank of comm calls with
 * matching arguments).
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_COLL_H
#define RMP_API_COLL_H

/* ---- Collectives (collective over comm; every rank must call with matching arguments, and
 * all ranks must start collectives on a communicator in the same order, blocking and
 * nonblocking alike) ----
 * RMP_IN_PLACE where it is not allowed (bcast, non-roots) gives RMP_ERR_BUFFER; a contribution
 * longer than the receiver's slot (gather, scatter, allgather, alltoall) RMP_ERR_TRUNCATE.
 * Every op is treated as commutative. The algorithm is chosen by message and communicator
 * size; RMP_COLL_<NAME>=<algorithm> forces one and RMP_COLL_<NAME>_LARGE etc. move the
 * thresholds (see README.md). */
int rmp_barrier(rmp_comm_t comm);
int rmp_bcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm);
/* sendbuf may be RMP_IN_PLACE at the root (data taken from recvbuf). */
int rmp_reduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
               int root, rmp_comm_t comm);
/* sendbuf may be RMP_IN_PLACE (data taken from recvbuf). */
int rmp_allreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                  rmp_op_t op, rmp_comm_t comm);
/* sendbuf may be RMP_IN_PLACE at the root (its block is already in its slot of recvbuf). */
int rmp_gather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
               int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm);
/* recvbuf may be RMP_IN_PLACE at the root (its block stays in sendbuf). */
int rmp_scatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm);
/* sendbuf may be RMP_IN_PLACE (each rank's block is already in its slot of recvbuf). */
int rmp_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm);
/* sendbuf may be RMP_IN_PLACE (blocks taken from recvbuf). */
int rmp_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm);
/* The reduction of everyone's sendbuf (sum of recvcounts[] elements), cut into parts: rank i
 * gets recvcounts[i] elements. sendbuf may be RMP_IN_PLACE (the whole vector in recvbuf). */
int rmp_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm);
/* The same with recvcount elements for every rank. */
int rmp_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm);

/* v-collectives: a block size per rank. Rank i's block is counts[i] elements of the type at
 * buf + displs[i] * extent (the root's buffer for gatherv and scatterv; every rank's for
 * allgatherv and alltoallv). NULL counts or displs give RMP_ERR_ARG, a negative count
 * RMP_ERR_COUNT; a block longer than its slot is cut to it (RMP_ERR_TRUNCATE where it lands).
 * RMP_IN_PLACE as for the plain forms: gatherv's sendbuf at the root, scatterv's recvbuf at the
 * root, allgatherv's sendbuf (each rank's block already in its slot), alltoallv's sendbuf (the
 * blocks to send taken from recvbuf, with recvcounts and rdispls). */
int rmp_gatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                rmp_comm_t comm);
int rmp_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 rmp_datatype_t sendtype, void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                 int root, rmp_comm_t comm);
int rmp_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                   rmp_comm_t comm);
int rmp_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm);
/* alltoallv with a type per peer and displacements in bytes (sdispls[j] bytes into sendbuf). */
int rmp_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm);
/* Prefix reductions: rank r gets the reduction of ranks 0..r's sendbuf (scan) or of ranks
 * 0..r-1's (exscan: rank 0's recvbuf is left untouched). sendbuf may be RMP_IN_PLACE (the
 * contribution taken from recvbuf). Operands are combined in rank order. */
int rmp_scan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
             rmp_comm_t comm);
int rmp_exscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
               rmp_comm_t comm);

/* Nonblocking collectives: the same arguments plus a request, completed with rmp_wait,
 * rmp_test and the other completion calls, alongside point-to-point requests. Buffers must
 * not be touched until then. Several may be in flight, on one communicator or several. */
int rmp_ibarrier(rmp_comm_t comm, rmp_request_t *req);
int rmp_ibcast(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
               rmp_request_t *req);
int rmp_ireduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
                int root, rmp_comm_t comm, rmp_request_t *req);
int rmp_iallreduce(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                   rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int rmp_igather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                rmp_request_t *req);
int rmp_iscatter(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                 rmp_request_t *req);
int rmp_iallgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                   int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_ialltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int rmp_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                              rmp_request_t *req);
int rmp_igatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], rmp_datatype_t recvtype, int root,
                 rmp_comm_t comm, rmp_request_t *req);
int rmp_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                  rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req);
int rmp_iallgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                    rmp_comm_t comm, rmp_request_t *req);
int rmp_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                   rmp_request_t *req);
int rmp_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                   rmp_request_t *req);
int rmp_iscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type, rmp_op_t op,
              rmp_comm_t comm, rmp_request_t *req);
int rmp_iexscan(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);

/* ---- MPI-4: persistent collectives, Isendrecv, large counts ------------------------------ */
/* Persistent collectives (MPI-4.0 6.13): the nonblocking collectives' arguments, checked once
 * at init (every check of the rmp_i* call, with its error codes; nothing is sent), kept in a
 * persistent request that rmp_start / rmp_startall run as often as wanted, with the data the
 * buffers hold at each start. Collective: every rank of comm makes the same inits in the same
 * order; then every rank starts each request as many times, in any order among requests.
 * Completion as for persistent point-to-point requests (wait/test leave it inactive, with its
 * handle); starting an active one gives RMP_ERR_REQUEST; rmp_request_free frees an inactive one
 * (an active one: RMP_ERR_REQUEST). The count and displacement arrays are copied at init; the
 * communicator, datatypes and op must stay valid (not freed) until the request is freed: a
 * start on a freed one fails with its error. Each start builds the call's schedule again (the
 * algorithm choice included) and runs it in software (never offloaded to the adapter). */
int rmp_barrier_init(rmp_comm_t comm, rmp_request_t *req);
int rmp_bcast_init(void *buf, int count, rmp_datatype_t type, int root, rmp_comm_t comm,
                   rmp_request_t *req);
int rmp_reduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                    rmp_op_t op, int root, rmp_comm_t comm, rmp_request_t *req);
int rmp_allreduce_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                       rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int rmp_gather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                    int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                    rmp_request_t *req);
int rmp_gatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], rmp_datatype_t recvtype,
                     int root, rmp_comm_t comm, rmp_request_t *req);
int rmp_scatter_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                     int recvcount, rmp_datatype_t recvtype, int root, rmp_comm_t comm,
                     rmp_request_t *req);
int rmp_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      rmp_datatype_t sendtype, void *recvbuf, int recvcount,
                      rmp_datatype_t recvtype, int root, rmp_comm_t comm, rmp_request_t *req);
int rmp_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                       void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                       rmp_request_t *req);
int rmp_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                      void *recvbuf, int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm,
                      rmp_request_t *req);
int rmp_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                       rmp_request_t *req);
int rmp_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const rmp_datatype_t sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                       rmp_request_t *req);
int rmp_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                            rmp_request_t *req);
int rmp_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  rmp_datatype_t type, rmp_op_t op, rmp_comm_t comm,
                                  rmp_request_t *req);
int rmp_scan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                  rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int rmp_exscan_init(const void *sendbuf, void *recvbuf, int count, rmp_datatype_t type,
                    rmp_op_t op, rmp_comm_t comm, rmp_request_t *req);
int rmp_neighbor_allgather_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                                rmp_comm_t comm, rmp_request_t *req);
int rmp_neighbor_allgatherv_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_neighbor_alltoall_init(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                               void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                               rmp_comm_t comm, rmp_request_t *req);
int rmp_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                const int sdispls[], rmp_datatype_t sendtype, void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const ptrdiff_t sdispls[], const rmp_datatype_t sendtypes[],
                                void *recvbuf, const int recvcounts[], const ptrdiff_t rdispls[],
                                const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                                rmp_request_t *req);

#endif
