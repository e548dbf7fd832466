/* rmp/rmp_rma.h — windows and one-sided communication (MPI-3.1 ch. 11).
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_RMA_H
#define RMP_API_RMA_H

/* Windows: memory a communicator's ranks expose to each other, as collective objects (every
 * rank of comm calls each creation function and rmp_win_free), and the one-sided operations
 * on them (MPI-3.1 ch. 11): a window records every rank's base, size and displacement unit,
 * which rmp_win_get_peer reports. */
typedef int rmp_win_t;
#define RMP_WIN_NULL ((rmp_win_t)0)
/* Expose size bytes at base (size >= 0, disp_unit > 0, base non-NULL if size > 0). */
int rmp_win_create(void *base, ptrdiff_t size, int disp_unit, rmp_comm_t comm, rmp_win_t *win);
/* The same over size bytes rmp allocates (aligned for any type): *baseptr gets them; freed
 * with the window. */
int rmp_win_allocate(ptrdiff_t size, int disp_unit, rmp_comm_t comm, void **baseptr,
                     rmp_win_t *win);
/* A window with no memory at first; rmp_win_attach/detach add and remove regions (local). */
int rmp_win_create_dynamic(rmp_comm_t comm, rmp_win_t *win);
int rmp_win_attach(rmp_win_t win, void *base, ptrdiff_t size);
int rmp_win_detach(rmp_win_t win, const void *base); /* RMP_ERR_ARG: base not attached */
/* What rank `rank` of the window's communicator exposed at creation (base as an address in
 * its process: 0 for a dynamic window). */
int rmp_win_get_peer(rmp_win_t win, int rank, intptr_t *base, ptrdiff_t *size, int *disp_unit);
/* Collective: waits for every rank, then frees (and the memory rmp_win_allocate made);
 * *win becomes RMP_WIN_NULL. RMP_ERR_RMA_SYNC (the window stays valid) while this rank has
 * an epoch open on it (a lock, lock_all, start or post not ended): MPI-3.1 11.2.5. */
int rmp_win_free(rmp_win_t *win);

/* ---- One-sided communication (MPI-3.1 ch. 11) ------------------------------------------- */
/* Window flavors (rmp_win_get_flavor) and memory models (rmp_win_get_model). */
enum { RMP_WIN_FLAVOR_CREATE = 1, RMP_WIN_FLAVOR_ALLOCATE = 2, RMP_WIN_FLAVOR_DYNAMIC = 3,
       RMP_WIN_FLAVOR_SHARED = 4 };
enum { RMP_WIN_SEPARATE = 1, RMP_WIN_UNIFIED = 2 };
/* Asserts of fence, post, start and lock (an OR of them, 0 for none): promises the program
 * makes, which rmp may use to skip synchronization. */
enum { RMP_MODE_NOCHECK = 1, RMP_MODE_NOSTORE = 2, RMP_MODE_NOPUT = 4, RMP_MODE_NOPRECEDE = 8,
       RMP_MODE_NOSUCCEED = 16 };
/* Lock types. */
enum { RMP_LOCK_EXCLUSIVE = 234, RMP_LOCK_SHARED = 235 };

/* The same as rmp_win_allocate, with memory the ranks of one node can load and store
 * directly: rmp_win_shared_query gives a rank's memory as an address in this process.
 * Contiguous across the ranks of the node in rank order (MPI's default; the info hint
 * alloc_shared_noncontig is accepted and changes nothing). RMP_ERR_RMA_SHARED when the ranks
 * of comm are not all on one node (or cannot share memory: RMP_TRANSPORT without shm). */
int rmp_win_allocate_shared(ptrdiff_t size, int disp_unit, rmp_comm_t comm, void **baseptr,
                            rmp_win_t *win);
/* Rank `rank`'s memory of a window of any flavor (MPI-4), as an address here (RMP_PROC_NULL:
 * the first rank with size > 0 mapped here): an allocate_shared window's ranks, an allocate
 * window's ranks that share memory, my own memory; any other rank's is size 0 at NULL (and so
 * is a rank of size 0). */
int rmp_win_shared_query(rmp_win_t win, int rank, ptrdiff_t *size, int *disp_unit,
                         void **baseptr);
int rmp_win_get_flavor(rmp_win_t win, int *flavor);
int rmp_win_get_model(rmp_win_t win, int *model); /* RMP_WIN_UNIFIED: memory is coherent */
/* A new group of the window's ranks (free it with rmp_group_free). */
int rmp_win_get_group(rmp_win_t win, rmp_group_t *group);

/* Operations. The target is a rank of the window's communicator (RMP_PROC_NULL: nothing
 * happens); target_disp counts the target's disp_unit from its base (a dynamic window: an
 * absolute address in the target, rmp_get_address). Any datatype on either side (the target
 * type is read here, it describes the target's layout); the origin and target type
 * signatures must match. Allowed only in an access epoch to that target (fence, start, lock,
 * lock_all), else RMP_ERR_RMA_SYNC; an access outside the target's window is RMP_ERR_RMA_RANGE
 * and touches nothing. Completion: at the end of the epoch, or flush / flush_local; the
 * request forms (passive target only) complete locally (rput, raccumulate: the origin buffer
 * may be reused) or when the result arrived (rget, rget_accumulate). Accumulates are atomic per
 * element among accumulates to the same location with the same builtin type and the same op
 * (or RMP_REPLACE / RMP_NO_OP, defined below with the ops), and apply in the order issued from
 * one origin to one location. op: a builtin op (not a user op), RMP_REPLACE, or RMP_NO_OP
 * (get_accumulate, fetch_and_op: the target is only read); types made of one builtin. */
int rmp_put(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
            ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win);
int rmp_get(void *origin, int origin_count, rmp_datatype_t origin_type, int target,
            ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win);
int rmp_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
                   ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                   rmp_op_t op, rmp_win_t win);
/* result gets the target's elements before the op (origin ignored with RMP_NO_OP). */
int rmp_get_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                       void *result, int result_count, rmp_datatype_t result_type, int target,
                       ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                       rmp_op_t op, rmp_win_t win);
/* One element of a builtin type. */
int rmp_fetch_and_op(const void *origin, void *result, rmp_datatype_t type, int target,
                     ptrdiff_t target_disp, rmp_op_t op, rmp_win_t win);
/* The target element becomes *origin if it equals *compare; *result gets what it was. An
 * integer, byte or C bool type (MPI-3.1 11.3.4). */
int rmp_compare_and_swap(const void *origin, const void *compare, void *result,
                         rmp_datatype_t type, int target, ptrdiff_t target_disp, rmp_win_t win);
int rmp_rput(const void *origin, int origin_count, rmp_datatype_t origin_type, int target,
             ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win,
             rmp_request_t *req);
int rmp_rget(void *origin, int origin_count, rmp_datatype_t origin_type, int target,
             ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type, rmp_win_t win,
             rmp_request_t *req);
int rmp_raccumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                    int target, ptrdiff_t target_disp, int target_count,
                    rmp_datatype_t target_type, rmp_op_t op, rmp_win_t win, rmp_request_t *req);
int rmp_rget_accumulate(const void *origin, int origin_count, rmp_datatype_t origin_type,
                        void *result, int result_count, rmp_datatype_t result_type, int target,
                        ptrdiff_t target_disp, int target_count, rmp_datatype_t target_type,
                        rmp_op_t op, rmp_win_t win, rmp_request_t *req);

/* Synchronization. Active target: fence (collective over the window: ends the previous epoch,
 * every operation done at origins and targets, and opens the next unless
 * RMP_MODE_NOSUCCEED); post / wait / test (the target side, exposure to a group) and start /
 * complete (the origin side, access to a group). Passive target: lock / unlock one target
 * (RMP_LOCK_SHARED or RMP_LOCK_EXCLUSIVE; the target need not call rmp meanwhile), lock_all /
 * unlock_all (shared, every rank); flush (every operation to target done there), flush_all,
 * flush_local (origin buffers reusable), flush_local_all; sync (memory views agree: a
 * barrier for the processor's stores). A second lock of one target, or an unlock without
 * lock: RMP_ERR_RMA_SYNC. */
int rmp_win_fence(int assert_mode, rmp_win_t win);
int rmp_win_post(rmp_group_t group, int assert_mode, rmp_win_t win);
int rmp_win_start(rmp_group_t group, int assert_mode, rmp_win_t win);
int rmp_win_complete(rmp_win_t win);
int rmp_win_wait(rmp_win_t win);
int rmp_win_test(rmp_win_t win, int *flag);
int rmp_win_lock(int lock_type, int rank, int assert_mode, rmp_win_t win);
int rmp_win_unlock(int rank, rmp_win_t win);
int rmp_win_lock_all(int assert_mode, rmp_win_t win);
int rmp_win_unlock_all(rmp_win_t win);
int rmp_win_flush(int rank, rmp_win_t win);
int rmp_win_flush_all(rmp_win_t win);
int rmp_win_flush_local(int rank, rmp_win_t win);
int rmp_win_flush_local_all(rmp_win_t win);
int rmp_win_sync(rmp_win_t win);

/* Cartesian and distributed-graph topologies (MPI-3.1 ch. 7). A topology lives in a new
 * communicator (collective over comm), and rmp_comm_dup copies it; reorder is accepted and
 * ignored: ranks keep their order in comm. */
#define RMP_CART 2
#define RMP_DIST_GRAPH 3
/* Fills the zero entries of dims[ndims] so that their product with the others is nnodes, as
 * balanced as possible, in non-increasing order. RMP_ERR_DIMS: a negative entry, or nnodes
 * not a multiple of the product of the positive ones. */
int rmp_dims_create(int nnodes, int ndims, int dims[]);
/* A grid of dims[0] x ... x dims[ndims-1] over the first prod(dims) ranks of comm (row-major:
 * the last dimension varies fastest); periods[i] != 0 makes dimension i wrap around. The ranks
 * past the grid get RMP_COMM_NULL. RMP_ERR_DIMS: ndims < 0, a dims[i] <= 0, or a grid larger
 * than comm. */
int rmp_cart_create(rmp_comm_t comm, int ndims, const int dims[], const int periods[],
                    int reorder, rmp_comm_t *newcomm);
/* The coordinates of a rank (maxdims >= ndims), and the rank at coordinates: periodic
 * dimensions wrap, a coordinate out of a non-periodic one gives RMP_ERR_RANK. */
int rmp_cart_coords(rmp_comm_t comm, int rank, int maxdims, int coords[]);
int rmp_cart_rank(rmp_comm_t comm, const int coords[], int *rank);
/* My neighbours disp steps down (source) and up (dest) dimension direction; RMP_PROC_NULL off
 * the edge of a non-periodic dimension. A direction outside 0..ndims-1 gives RMP_ERR_DIMS. */
int rmp_cart_shift(rmp_comm_t comm, int direction, int disp, int *source, int *dest);
int rmp_cart_get(rmp_comm_t comm, int maxdims, int dims[], int periods[], int coords[]);
int rmp_cartdim_get(rmp_comm_t comm, int *ndims);
/* RMP_CART, RMP_DIST_GRAPH, or RMP_UNDEFINED (no topology). */
int rmp_topo_test(rmp_comm_t comm, int *status);
/* Weights arguments: RMP_UNWEIGHTED (the graph has no weights), RMP_WEIGHTS_EMPTY (no
 * weight because the degree is 0, in a weighted graph): each the address of an object inside
 * the library, never NULL and never equal to a program's array, which rmp_unweighted and
 * rmp_weights_empty return (a small constant address instead would make compilers warn that
 * the call reads outside any object; NULL is not a sentinel, as in MPICH and Open MPI). NULL
 * weights where a rank gives no edges mean "no weights of its own": such a rank does not vote.
 * The graph is weighted when any rank gives weights (arrays or RMP_WEIGHTS_EMPTY), decided
 * collectively at creation; NULL weights with edges are RMP_ERR_ARG. */
int *rmp_unweighted(void);
int *rmp_weights_empty(void);
#define RMP_UNWEIGHTED (rmp_unweighted())
#define RMP_WEIGHTS_EMPTY (rmp_weights_empty())
/* A graph in which I receive from sources[0..indegree-1] and send to
 * destinations[0..outdegree-1] (ranks of comm, repeats allowed): the neighbourhood
 * collectives exchange with them in that order. Every edge must be given at both ends. */
int rmp_dist_graph_create_adjacent(rmp_comm_t comm, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   int reorder, rmp_comm_t *newcomm);
int rmp_dist_graph_neighbors_count(rmp_comm_t comm, int *indegree, int *outdegree,
                                   int *weighted);
/* The lists as given at creation, the first maxindegree / maxoutdegree entries (weights only
 * when the graph has them and the arrays are not RMP_UNWEIGHTED). These two calls need a
 * distributed-graph communicator (else RMP_ERR_TOPOLOGY). */
int rmp_dist_graph_neighbors(rmp_comm_t comm, int maxindegree, int sources[],
                             int sourceweights[], int maxoutdegree, int destinations[],
                             int destweights[]);

/* Neighbourhood collectives on a communicator with a topology. A distributed graph: block i of
 * the receive buffer comes from sources[i], block j of the send buffer goes to
 * destinations[j]. A Cartesian communicator: for dimension d, block 2d is the neighbour below
 * (coordinate - 1) and block 2d+1 the one above, for sending and receiving alike; block 2d
 * receives what the neighbour below sent upwards, even when both neighbours are one process
 * (a periodic dimension of size 1 or 2). RMP_PROC_NULL neighbours (edges) move nothing and
 * their receive blocks stay untouched. RMP_ERR_TOPOLOGY on a communicator without topology;
 * no RMP_IN_PLACE. */
int rmp_neighbor_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                           void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                           rmp_comm_t comm);
int rmp_neighbor_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            rmp_datatype_t recvtype, rmp_comm_t comm);
int rmp_neighbor_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                          void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                          rmp_comm_t comm);
int rmp_neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm);
/* Displacements in bytes, a type per block. */
int rmp_neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                           const ptrdiff_t sdispls[], const rmp_datatype_t sendtypes[],
                           void *recvbuf, const int recvcounts[], const ptrdiff_t rdispls[],
                           const rmp_datatype_t recvtypes[], rmp_comm_t comm);
int rmp_ineighbor_allgather(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                            void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                            rmp_comm_t comm, rmp_request_t *req);
int rmp_ineighbor_allgatherv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req);
int rmp_ineighbor_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype,
                           void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                           rmp_comm_t comm, rmp_request_t *req);
int rmp_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            rmp_datatype_t sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], rmp_datatype_t recvtype, rmp_comm_t comm,
                            rmp_request_t *req);
int rmp_ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const ptrdiff_t sdispls[], const rmp_datatype_t sendtypes[],
                            void *recvbuf, const int recvcounts[], const ptrdiff_t rdispls[],
                            const rmp_datatype_t recvtypes[], rmp_comm_t comm,
                            rmp_request_t *req);

#endif
