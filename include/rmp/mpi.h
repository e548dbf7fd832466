/* mpi.h — the MPI-3.1 C bindings of the subset rmp implements, for existing MPI programs.
 * Installed as $PREFIX/include/rmp/mpi.h (never shadowing a system MPI); build with `rmpcc`
 * or `pkg-config --cflags --libs rmp-mpi`. Each call maps onto the rmp_* call that does the
 * work (librmp-mpi is a thin layer over librmp); a call not declared here fails to compile
 * or link, never at run time.
 *
 * The subset (everything else of MPI-3.1 is absent):
 *   environment   MPI_Init, Init_thread, Finalize, Initialized, Finalized, Query_thread,
 *                 Is_thread_main, Abort, Wtime, Wtick, Get_processor_name, Get_version,
 *                 Get_library_version, Alloc_mem, Free_mem
 *   errors        Comm_set_errhandler, Comm_get_errhandler, Errhandler_free, Error_string,
 *                 Error_class (MPI_ERRORS_ARE_FATAL by default, MPI_ERRORS_RETURN)
 *   communicators Comm_rank, Comm_size, Comm_dup, Comm_split, Comm_split_type
 *                 (MPI_COMM_TYPE_SHARED), Comm_create, Comm_compare, Comm_free
 *   groups        Comm_group, Group_size, Group_rank, Group_incl, Group_excl,
 *                 Group_translate_ranks, Group_compare, Group_free (MPI_GROUP_EMPTY)
 *   datatypes     the C builtins and pair types below, Type_size, Type_get_extent,
 *                 Type_contiguous, Type_vector, Type_indexed, Type_create_hindexed,
 *                 Type_create_struct, Type_create_resized, Type_commit, Type_free,
 *                 Get_count, Get_elements
 *   point-to-point Send, Recv, Isend, Irecv, Sendrecv, Sendrecv_replace, Probe, Iprobe,
 *                 Cancel, Wait, Test, Waitall, Testall, Waitany, Waitsome, Testsome,
 *                 Request_free; Ssend, Issend, Bsend, Ibsend, Rsend, Irsend, Buffer_attach,
 *                 Buffer_detach; Send_init, Ssend_init, Bsend_init, Rsend_init, Recv_init,
 *                 Start, Startall; Mprobe, Improbe, Mrecv, Imrecv (MPI_Message)
 *   collectives   Barrier, Bcast, Reduce, Allreduce, Gather, Gatherv, Scatter, Scatterv,
 *                 Allgather, Allgatherv, Alltoall, Alltoallv, Alltoallw, Reduce_scatter,
 *                 Reduce_scatter_block, Scan, Exscan, and their nonblocking I* forms
 *   ops           MPI_SUM, PROD, MIN, MAX, BAND, BOR, BXOR, LAND, LOR, MINLOC, MAXLOC;
 *                 Op_create (commutative or not: non-commutative ops combine in rank
 *                 order), Op_free
 *   names         Type_get_name (MPI_MAX_OBJECT_NAME)
 *   windows       Win_create, Win_allocate, Win_create_dynamic, Win_attach, Win_detach,
 *                 Win_free, Get_address: windows WITHOUT one-sided operations (no Put, Get,
 *                 Accumulate, fence, lock...: a program using them fails to link)
 *   topologies    Dims_create, Cart_create, Cart_coords, Cart_rank, Cart_shift, Cart_get,
 *                 Cartdim_get, Topo_test, Dist_graph_create_adjacent, Dist_graph_neighbors,
 *                 Dist_graph_neighbors_count; Neighbor_allgather, allgatherv, alltoall,
 *                 alltoallv, alltoallw and their nonblocking MPI_Ineighbor_* forms
 *
 * Where rmp differs from the standard: MPI_Abort ends the whole job whatever the communicator;
 * a process that exits with status 0 after MPI_Init without calling MPI_Finalize (returning
 * from main, exit(0)) is finalized on its way out, as MPICH tolerates, while a non-zero status
 * still ends the job as a failure;
 * errors of completion calls (MPI_Wait, Test, Waitall, Testall, Waitany, Waitsome, Testsome,
 * Request_free, Start, Startall, Mrecv, Imrecv) are raised on
 * MPI_COMM_WORLD's error handler, not on the handler of the request's communicator. Handles
 * are ints (MPI_Request a pointer), so MPI_INT and
 * MPI_INT32_T, for instance, are the same handle. */
#ifndef RMP_MPI_H
#define RMP_MPI_H

#include <stddef.h>
#include <stdint.h>

#include "../rmp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

/* ---- Handle and integer types ----------------------------------------------------------- */
typedef rmp_comm_t MPI_Comm;
typedef rmp_datatype_t MPI_Datatype;
typedef rmp_op_t MPI_Op;
typedef rmp_request_t MPI_Request;
typedef rmp_group_t MPI_Group;
typedef int MPI_Errhandler;
typedef ptrdiff_t MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;
typedef int MPI_Fint;
typedef int MPI_Info; /* only MPI_INFO_NULL exists */
typedef rmp_message_t MPI_Message;
#define MPI_INFO_NULL ((MPI_Info)0)

/* The same object as rmp_status_t (a union of the two views), so that arrays of statuses pass
 * to rmp unchanged; MPI_SOURCE, MPI_TAG and MPI_ERROR are members as the standard requires,
 * and MPI_ERROR holds an MPI error code. */
#if defined(__GNUC__)
#define RMP_MPI_ANON_ __extension__ /* anonymous members: C11, an extension before (-pedantic) */
#else
#define RMP_MPI_ANON_
#endif
typedef union MPI_Status {
    rmp_status_t rmp_status_;
    RMP_MPI_ANON_ struct {
        int MPI_SOURCE;
        int MPI_TAG;
        int MPI_ERROR;
    };
} MPI_Status;
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE ((MPI_Status *)0)

/* ---- Constants -------------------------------------------------------------------------- */
#define MPI_COMM_WORLD ((MPI_Comm)RMP_COMM_WORLD)
#define MPI_COMM_SELF ((MPI_Comm)RMP_COMM_SELF)
#define MPI_COMM_NULL ((MPI_Comm)RMP_COMM_NULL)
#define MPI_REQUEST_NULL ((MPI_Request)RMP_REQUEST_NULL)
#define MPI_OP_NULL ((MPI_Op)RMP_OP_NULL)
#define MPI_DATATYPE_NULL ((MPI_Datatype)RMP_DATATYPE_NULL)
#define MPI_GROUP_NULL ((MPI_Group)RMP_GROUP_NULL)
#define MPI_GROUP_EMPTY ((MPI_Group)RMP_GROUP_EMPTY)
#define MPI_MESSAGE_NULL ((MPI_Message)RMP_MESSAGE_NULL)
#define MPI_MESSAGE_NO_PROC ((MPI_Message)RMP_MESSAGE_NO_PROC)
#define MPI_BSEND_OVERHEAD RMP_BSEND_OVERHEAD
#define MPI_COMM_TYPE_SHARED RMP_COMM_TYPE_SHARED

/* Results of MPI_Comm_compare and MPI_Group_compare. */
#define MPI_IDENT RMP_IDENT
#define MPI_CONGRUENT RMP_CONGRUENT
#define MPI_SIMILAR RMP_SIMILAR
#define MPI_UNEQUAL RMP_UNEQUAL

#define MPI_ERRHANDLER_NULL ((MPI_Errhandler)0)
#define MPI_ERRORS_ARE_FATAL ((MPI_Errhandler)1)
#define MPI_ERRORS_RETURN ((MPI_Errhandler)2)

#define MPI_ANY_SOURCE RMP_ANY_SOURCE
#define MPI_ANY_TAG RMP_ANY_TAG
#define MPI_PROC_NULL RMP_PROC_NULL
#define MPI_UNDEFINED RMP_UNDEFINED
#define MPI_IN_PLACE RMP_IN_PLACE

#define MPI_THREAD_SINGLE RMP_THREAD_SINGLE
#define MPI_THREAD_FUNNELED RMP_THREAD_FUNNELED
#define MPI_THREAD_SERIALIZED RMP_THREAD_SERIALIZED
#define MPI_THREAD_MULTIPLE RMP_THREAD_MULTIPLE

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256
#define MPI_MAX_LIBRARY_VERSION_STRING 256

/* Builtin datatypes: C types by their size on this platform (LP64 or ILP32). */
#define MPI_CHAR ((MPI_Datatype)RMP_INT8)
#define MPI_SIGNED_CHAR ((MPI_Datatype)RMP_INT8)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)RMP_UINT8)
#define MPI_BYTE ((MPI_Datatype)RMP_BYTE)
#define MPI_SHORT ((MPI_Datatype)RMP_INT16)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)RMP_UINT16)
#define MPI_INT ((MPI_Datatype)RMP_INT32)
#define MPI_UNSIGNED ((MPI_Datatype)RMP_UINT32)
#if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 4
#define MPI_LONG ((MPI_Datatype)RMP_INT32)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)RMP_UINT32)
#else
#define MPI_LONG ((MPI_Datatype)RMP_INT64)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)RMP_UINT64)
#endif
#define MPI_LONG_LONG_INT ((MPI_Datatype)RMP_INT64)
#define MPI_LONG_LONG ((MPI_Datatype)RMP_INT64)
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)RMP_UINT64)
#define MPI_FLOAT ((MPI_Datatype)RMP_FLOAT)
#define MPI_DOUBLE ((MPI_Datatype)RMP_DOUBLE)
#define MPI_INT8_T ((MPI_Datatype)RMP_INT8)
#define MPI_INT16_T ((MPI_Datatype)RMP_INT16)
#define MPI_INT32_T ((MPI_Datatype)RMP_INT32)
#define MPI_INT64_T ((MPI_Datatype)RMP_INT64)
#define MPI_UINT8_T ((MPI_Datatype)RMP_UINT8)
#define MPI_UINT16_T ((MPI_Datatype)RMP_UINT16)
#define MPI_UINT32_T ((MPI_Datatype)RMP_UINT32)
#define MPI_UINT64_T ((MPI_Datatype)RMP_UINT64)
#define MPI_C_BOOL ((MPI_Datatype)RMP_UINT8)
#if defined(__SIZEOF_POINTER__) && __SIZEOF_POINTER__ == 4
#define MPI_AINT ((MPI_Datatype)RMP_INT32)
#else
#define MPI_AINT ((MPI_Datatype)RMP_INT64)
#endif
#define MPI_OFFSET ((MPI_Datatype)RMP_INT64)
#define MPI_COUNT ((MPI_Datatype)RMP_INT64)
/* Value-index pairs for MPI_MINLOC and MPI_MAXLOC: the C structs {T value; int index;}. */
#define MPI_2INT ((MPI_Datatype)RMP_2INT)
#define MPI_FLOAT_INT ((MPI_Datatype)RMP_FLOAT_INT)
#define MPI_DOUBLE_INT ((MPI_Datatype)RMP_DOUBLE_INT)
#define MPI_LONG_INT ((MPI_Datatype)RMP_LONG_INT)
#define MPI_SHORT_INT ((MPI_Datatype)RMP_SHORT_INT)

#define MPI_SUM ((MPI_Op)RMP_SUM)
#define MPI_PROD ((MPI_Op)RMP_PROD)
#define MPI_MIN ((MPI_Op)RMP_MIN)
#define MPI_MAX ((MPI_Op)RMP_MAX)
#define MPI_BAND ((MPI_Op)RMP_BAND)
#define MPI_BOR ((MPI_Op)RMP_BOR)
#define MPI_BXOR ((MPI_Op)RMP_BXOR)
#define MPI_LAND ((MPI_Op)RMP_LAND)
#define MPI_LOR ((MPI_Op)RMP_LOR)
#define MPI_MINLOC ((MPI_Op)RMP_MINLOC)
#define MPI_MAXLOC ((MPI_Op)RMP_MAXLOC)

/* ---- Error classes (MPI-3.1 section 8.4). An error code is its class, or, for an rmp error
 * with no class of its own (a failed peer, a transport failure...), a code above
 * MPI_ERR_LASTCLASS whose MPI_Error_class is MPI_ERR_OTHER or MPI_ERR_INTERN and whose
 * MPI_Error_string is rmp's own description. ---- */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_GROUP 9
#define MPI_ERR_OP 10
#define MPI_ERR_TOPOLOGY 11
#define MPI_ERR_DIMS 12
#define MPI_ERR_ARG 13
#define MPI_ERR_UNKNOWN 14
#define MPI_ERR_TRUNCATE 15
#define MPI_ERR_OTHER 16
#define MPI_ERR_INTERN 17
#define MPI_ERR_IN_STATUS 18
#define MPI_ERR_PENDING 19
#define MPI_ERR_KEYVAL 20
#define MPI_ERR_NO_MEM 21
#define MPI_ERR_BASE 22
#define MPI_ERR_INFO_KEY 23
#define MPI_ERR_INFO_VALUE 24
#define MPI_ERR_INFO_NOKEY 25
#define MPI_ERR_SPAWN 26
#define MPI_ERR_PORT 27
#define MPI_ERR_SERVICE 28
#define MPI_ERR_NAME 29
#define MPI_ERR_WIN 30
#define MPI_ERR_SIZE 31
#define MPI_ERR_DISP 32
#define MPI_ERR_INFO 33
#define MPI_ERR_LOCKTYPE 34
#define MPI_ERR_ASSERT 35
#define MPI_ERR_RMA_CONFLICT 36
#define MPI_ERR_RMA_SYNC 37
#define MPI_ERR_FILE 38
#define MPI_ERR_NOT_SAME 39
#define MPI_ERR_AMODE 40
#define MPI_ERR_UNSUPPORTED_DATAREP 41
#define MPI_ERR_UNSUPPORTED_OPERATION 42
#define MPI_ERR_NO_SUCH_FILE 43
#define MPI_ERR_FILE_EXISTS 44
#define MPI_ERR_BAD_FILE 45
#define MPI_ERR_ACCESS 46
#define MPI_ERR_NO_SPACE 47
#define MPI_ERR_QUOTA 48
#define MPI_ERR_READ_ONLY 49
#define MPI_ERR_FILE_IN_USE 50
#define MPI_ERR_DUP_DATAREP 51
#define MPI_ERR_CONVERSION 52
#define MPI_ERR_IO 53
#define MPI_ERR_RMA_RANGE 54
#define MPI_ERR_RMA_ATTACH 55
#define MPI_ERR_RMA_SHARED 56
#define MPI_ERR_RMA_FLAVOR 57
#define MPI_ERR_LASTCLASS 57

/* ---- Environment ------------------------------------------------------------------------ */
int MPI_Init(int *argc, char ***argv);
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided);
int MPI_Finalize(void);
int MPI_Initialized(int *flag);
int MPI_Finalized(int *flag);
int MPI_Query_thread(int *provided);
int MPI_Is_thread_main(int *flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_processor_name(char *name, int *resultlen);
int MPI_Get_version(int *version, int *subversion);
int MPI_Get_library_version(char *version, int *resultlen);
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr); /* info: MPI_INFO_NULL */
int MPI_Free_mem(void *base);

/* ---- Errors ----------------------------------------------------------------------------- */
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler);
int MPI_Errhandler_free(MPI_Errhandler *errhandler);
int MPI_Error_string(int errorcode, char *string, int *resultlen);
int MPI_Error_class(int errorcode, int *errorclass);

/* ---- Communicators ---------------------------------------------------------------------- */
int MPI_Comm_rank(MPI_Comm comm, int *rank);
int MPI_Comm_size(MPI_Comm comm, int *size);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm);
int MPI_Comm_free(MPI_Comm *comm);
/* Collective over comm; the ranks outside group get MPI_COMM_NULL. */
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
/* split_type MPI_COMM_TYPE_SHARED (or MPI_UNDEFINED: MPI_COMM_NULL); info: MPI_INFO_NULL. */
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm);

/* ---- Groups (local objects; errors are raised on MPI_COMM_WORLD's handler) -------------- */
int MPI_Comm_group(MPI_Comm comm, MPI_Group *group);
int MPI_Group_size(MPI_Group group, int *size);
int MPI_Group_rank(MPI_Group group, int *rank);
int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup);
int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                              int ranks2[]);
int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result);
int MPI_Group_free(MPI_Group *group); /* MPI_GROUP_EMPTY too: it only becomes MPI_GROUP_NULL */

/* ---- Datatypes -------------------------------------------------------------------------- */
int MPI_Type_size(MPI_Datatype datatype, int *size);
int MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                    MPI_Datatype *newtype);
int MPI_Type_indexed(int count, const int array_of_blocklengths[],
                     const int array_of_displacements[], MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int MPI_Type_create_hindexed(int count, const int array_of_blocklengths[],
                             const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                             MPI_Datatype *newtype);
int MPI_Type_create_struct(int count, const int array_of_blocklengths[],
                           const MPI_Aint array_of_displacements[],
                           const MPI_Datatype array_of_types[], MPI_Datatype *newtype);
int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype);
int MPI_Type_commit(MPI_Datatype *datatype);
int MPI_Type_free(MPI_Datatype *datatype);
int MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
int MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);

/* ---- User-defined reductions ------------------------------------------------------------ */
/* void fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype): inoutvec[i] =
 * invec[i] op inoutvec[i] for *len elements (MPI_Datatype is rmp_datatype_t). */
typedef rmp_user_function MPI_User_function;
int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op);
int MPI_Op_free(MPI_Op *op);

/* ---- Point-to-point --------------------------------------------------------------------- */
int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
             MPI_Comm comm);
int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status);
int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request);
int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request);
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                 int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);
int MPI_Cancel(MPI_Request *request);
int MPI_Wait(MPI_Request *request, MPI_Status *status);
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status);
int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]);
int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[]);
int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status);
int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]);
int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[]);
int MPI_Request_free(MPI_Request *request);
int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status);

/* Send modes: a ready send is a standard send (correct for every ready send). */
int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm);
int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request);
int MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm);
int MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request);
int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm);
int MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request);
int MPI_Buffer_attach(void *buffer, int size);
/* buffer_addr is a void ** (the standard's type is void * for historical reasons). */
int MPI_Buffer_detach(void *buffer_addr, int *size);

/* Persistent requests (errors of Start and Startall go to MPI_COMM_WORLD's handler). */
int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Request *request);
int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Start(MPI_Request *request);
int MPI_Startall(int count, MPI_Request array_of_requests[]);

/* Matched probes (errors of Mrecv and Imrecv go to MPI_COMM_WORLD's handler). */
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                MPI_Status *status);
int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
              MPI_Status *status);
int MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
               MPI_Request *request);

/* ---- Collectives ------------------------------------------------------------------------ */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm);
int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm);
int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm);
int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm);

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request);
int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request);
int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request *request);
int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request);
int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request);
int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request);
int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request);
int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request);
int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request *request);
int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request);
int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request);
int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm, MPI_Request *request);

/* ---- OSU micro-benchmark support: names, windows, topologies, neighbourhood collectives ---
 * (What the OSU micro-benchmarks' shared utility code refers to, so that their programs build
 * unchanged with rmpcc/rmpicxx.) */
#define MPI_MAX_OBJECT_NAME RMP_MAX_OBJECT_NAME
/* A builtin's name, "" for a derived type. Where several names are one handle the name is
 * the first of: MPI_CHAR (= MPI_SIGNED_CHAR, MPI_INT8_T), MPI_SHORT, MPI_INT (= MPI_INT32_T),
 * MPI_LONG (LP64: = MPI_LONG_LONG, MPI_INT64_T, MPI_AINT...), MPI_UNSIGNED_CHAR (= MPI_UINT8_T,
 * MPI_C_BOOL), ... Thread-safe. */
int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
int MPI_Get_address(const void *location, MPI_Aint *address);

/* Windows WITHOUT one-sided operations: creation and free are real collectives (every rank's
 * base, size and displacement unit are exchanged; MPI_Win_allocate allocates, MPI_Win_free
 * waits for all ranks and frees), but MPI_Put, Get, Accumulate, Win_fence, Win_lock... are not
 * declared, so a program that uses them fails to link. info: MPI_INFO_NULL. Errors are raised
 * on MPI_COMM_WORLD's handler (windows have none of their own here). */
typedef rmp_win_t MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)RMP_WIN_NULL)
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);

/* Process topologies (MPI_Comm_dup copies them). reorder is ignored (ranks keep their
 * order); MPI_Cart_create gives MPI_COMM_NULL to the ranks past the grid; MPI_Cart_rank wraps
 * periodic dimensions and raises MPI_ERR_RANK off a non-periodic one. */
#define MPI_CART RMP_CART
#define MPI_DIST_GRAPH RMP_DIST_GRAPH
#define MPI_UNWEIGHTED RMP_UNWEIGHTED
#define MPI_WEIGHTS_EMPTY RMP_WEIGHTS_EMPTY
int MPI_Dims_create(int nnodes, int ndims, int dims[]);
int MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                    int reorder, MPI_Comm *comm_cart);
int MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[]);
int MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank);
int MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest);
int MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]);
int MPI_Cartdim_get(MPI_Comm comm, int *ndims);
int MPI_Topo_test(MPI_Comm comm, int *status); /* MPI_CART, MPI_DIST_GRAPH or MPI_UNDEFINED */
int MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[], const int destweights[],
                                   MPI_Info info, int reorder, MPI_Comm *comm_dist_graph);
int MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree,
                                   int *weighted);
int MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                             int maxoutdegree, int destinations[], int destweights[]);

/* Neighbourhood collectives, on distributed-graph and Cartesian communicators (MPI-3.1 7.6). */
int MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                           const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                           void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request);
int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request *request);
int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request);
int MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                            void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request *request);

/* ==== issue 20: intercommunicators ==== */



/* ==== issue 20: communicator creation, names, info and attributes ==== */



/* ==== issue 20: datatypes, packing and ops ==== */



/* ==== issue 20: groups, topologies and requests ==== */



/* ==== issue 20: persistent collectives, isendrecv and large counts ==== */



/* ==== issue 20: the profiling interface ==== */
/* MPI-3.1 14.2: every MPI_ call above is also declared, defined and exported as PMPI_ (same
 * arguments). pmpi.h is generated from this header (tools/gen-pmpi; make regenerates it), so
 * a call added anywhere above has its PMPI_ form with nothing else to write. Included last:
 * its prototypes may use any type declared above. */
/* MPI-3.1 14.2.4: for profiling tools only (a tool's MPI_Pcontrol reads level: 0 off, 1 on,
 * 2 flush...); rmp's does nothing and returns MPI_SUCCESS, whatever the arguments. */
int MPI_Pcontrol(const int level, ...);
#ifndef RMP_PMPI_GENERATING
#include "pmpi.h"
#endif



#ifdef __cplusplus
}
#endif
#endif /* RMP_MPI_H */
