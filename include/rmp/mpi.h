/* mpi.h — the MPI-3.1 C bindings rmp implements (everything but I/O and dynamic processes),
 * the MPI-4 tools interface (MPI_T), and MPI-4's persistent collectives, Isendrecv,
 * partitioned communication, sessions and large-count (_c) calls, for existing MPI programs.
 * Installed as
 * $PREFIX/include/rmp/mpi.h (never shadowing a system MPI); build with `rmpcc` or
 * `pkg-config --cflags --libs rmp-mpi`. Each call maps onto the rmp_* call that does the work
 * (librmp-mpi is a thin layer over librmp; attributes, error handlers and the large-count
 * splitting live in the layer itself); a call not declared here fails to compile or link,
 * never at run time. Every MPI_X is also PMPI_X (pmpi.h, the profiling interface).
 *
 *   environment   MPI_Init, Init_thread, Finalize, Initialized, Finalized, Query_thread,
 *                 Is_thread_main, Abort, Wtime, Wtick, Get_processor_name, Get_version,
 *                 Get_library_version, Alloc_mem, Free_mem, Pcontrol
 *   sessions      (MPI-4) Session_init, finalize, get_num_psets, get_nth_pset,
 *                 get_pset_info, get_info, create/set/get/call_errhandler,
 *                 Group_from_session_pset, Comm_create_from_group,
 *                 Intercomm_create_from_groups, MPI_SESSION_NULL
 *   tools         MPI_T (MPI-4.0 ch. 15): cvars, pvars, categories, events, sources
 *   errors        Comm_set/get_errhandler, Comm_create_errhandler, Comm_call_errhandler,
 *                 Win_*_errhandler, Errhandler_free, Error_string, Error_class,
 *                 Add_error_class, Add_error_code, Add_error_string (MPI_ERR_LASTCODE)
 *   communicators Comm_rank, size, dup, dup_with_info, idup, split, split_type, create (also
 *                 with disjoint groups), create_group, compare, free, disconnect, set/get_name,
 *                 set/get_info; intercommunicators: Intercomm_create, Intercomm_merge,
 *                 Comm_test_inter, Comm_remote_size, Comm_remote_group, and point-to-point
 *                 and every collective on them (MPI_ROOT, MPI_PROC_NULL roots)
 *   attributes    Comm_/Type_/Win_ create_keyval, free_keyval, set_attr, get_attr,
 *                 delete_attr, the MPI-1 Keyval_* and Attr_*, the predefined callbacks and
 *                 attributes (MPI_TAG_UB, HOST, IO, WTIME_IS_GLOBAL, UNIVERSE_SIZE, APPNUM,
 *                 LASTUSEDCODE, MPI_WIN_BASE, SIZE, DISP_UNIT, CREATE_FLAVOR, MODEL)
 *   info          Info_create, set, get, get_valuelen, get_nkeys, get_nthkey, delete, dup,
 *                 free, MPI_INFO_ENV
 *   groups        Comm_group, Group_size, rank, incl, excl, range_incl, range_excl, union,
 *                 intersection, difference, translate_ranks, compare, free
 *   datatypes     the C builtins (long double, wchar_t, bool, C complex), the pair types,
 *                 the C++ and Fortran-named handles, MPI_PACKED; Type_contiguous, vector,
 *                 hvector, indexed, hindexed, indexed_block, hindexed_block, struct (padded
 *                 as C pads), subarray, darray, resized, dup, commit, free, set/get_name,
 *                 size(_x), get_extent(_x), get_true_extent(_x), get_envelope, get_contents,
 *                 match_size, create_f90_*, Get_count, Get_elements(_x), Get_address, the
 *                 MPI-1 Type_struct/hvector/hindexed/extent/lb/ub and Address; Pack, Unpack,
 *                 Pack_size, Pack_external, Unpack_external, Pack_external_size
 *                 ("external32"), MPI_BOTTOM
 *   point-to-point Send, Recv, Isend, Irecv, Sendrecv, Sendrecv_replace, Isendrecv,
 *                 Isendrecv_replace, Probe, Iprobe, Cancel (receives and unmatched
 *                 rendezvous sends), Wait, Test, Waitall, Testall, Waitany, Testany,
 *                 Waitsome, Testsome, Request_free, Request_get_status, Test_cancelled,
 *                 Status_set_cancelled, Status_set_elements(_x); Ssend, Issend, Bsend,
 *                 Ibsend, Rsend, Irsend, Buffer_attach, Buffer_detach; Send_init, Ssend_init,
 *                 Bsend_init, Rsend_init, Recv_init, Start, Startall; Mprobe, Improbe, Mrecv,
 *                 Imrecv; generalized requests (Grequest_start, Grequest_complete);
 *                 partitioned (MPI-4): Psend_init, Precv_init, Pready, Pready_range,
 *                 Pready_list, Parrived
 *   collectives   Barrier, Bcast, Reduce, Allreduce, Gather(v), Scatter(v), Allgather(v),
 *                 Alltoall(v,w), Reduce_scatter(_block), Scan, Exscan, their nonblocking I*
 *                 forms and (MPI-4) their persistent *_init forms; Reduce_local
 *   ops           MPI_SUM, PROD, MIN, MAX, BAND, BOR, BXOR, LAND, LOR, LXOR, MINLOC,
 *                 MAXLOC (MPI_REPLACE, MPI_NO_OP exist for one-sided use), Op_create,
 *                 Op_free, Op_commutative
 *   topologies    Dims_create, Cart_create, coords, rank, shift, get, sub, map, Cartdim_get,
 *                 Graph_create, get, map, neighbors(_count), Graphdims_get, Topo_test,
 *                 Dist_graph_create, Dist_graph_create_adjacent, Dist_graph_neighbors(_count),
 *                 Neighbor_allgather(v), alltoall(v,w), their I* and *_init forms
 *   windows       Win_create, allocate, allocate_shared, shared_query, create_dynamic,
 *                 attach, detach, free, get_group, set/get_name, set/get_info, attributes
 *   one-sided     Put, Get, Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap, Rput,
 *                 Rget, Raccumulate, Rget_accumulate; Win_fence, post, start, complete, wait,
 *                 test, lock, unlock, lock_all, unlock_all, flush(_all), flush_local(_all),
 *                 sync (MPI_MODE_*, MPI_LOCK_*, MPI_WIN_UNIFIED)
 *   Fortran       the handle conversions MPI_*_c2f, MPI_*_f2c, Status_c2f/f2c
 *   large counts  the _c forms (MPI_Count) of point-to-point, the blocking collectives,
 *                 Get_count, Get_elements, Type_size, Type_get_extent, Type_contiguous,
 *                 Type_vector
 *   MPI-4.0/4.1   Comm_idup_with_info, Info_create_env, Info_get_string, MPI_ERRORS_ABORT,
 *                 Buffer_flush/iflush, Comm_attach/detach/flush/iflush_buffer,
 *                 MPI_BUFFER_AUTOMATIC, Status_get/set_source/tag/error,
 *                 Request_get_status_all/any/some, Remove_error_class/code/string,
 *                 Type_get_value_index, Get_hw_resource_info; MPI-5.0's Abi_get_version,
 *                 Abi_get_info, Abi_get_fortran_info
 *
 * Where rmp differs from the standard: MPI_Abort ends the whole job whatever the communicator;
 * a process that exits with status 0 after MPI_Init without calling MPI_Finalize (returning
 * from main, exit(0)) is finalized on its way out, as MPICH tolerates, while a non-zero status
 * still ends the job as a failure;
 * errors of completion calls (MPI_Wait, Test, Waitall, Testall, Waitany, Waitsome, Testsome,
 * Request_free, Start, Startall, Mrecv, Imrecv) are raised on
 * MPI_COMM_WORLD's error handler, not on the handler of the request's communicator. Handles
 * are ints (MPI_Request a pointer); every named predefined type is its own handle (MPI_INT32_T
 * is not MPI_INT, MPI_INTEGER is not MPI_INT), and types of one size and representation match
 * each other in point-to-point and collectives (see the builtin datatypes below). */
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
typedef rmp_info_t MPI_Info;
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
/* MPI-4.0: ends the job (rmp: every process of it, whatever the communicator), as
 * MPI_ERRORS_ARE_FATAL does, with its own name and handle. */
#define MPI_ERRORS_ABORT ((MPI_Errhandler)3)

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

/* Builtin datatypes. Every named type is its own handle (MPI_INT32_T is not MPI_INT), with
 * the layout of its C type on this platform (LP64 or ILP32): rmp's builtin of that size, or
 * one of rmp's named synonyms of it (rmp.h). Types of one size and representation (MPI_INT
 * and MPI_INT32_T, MPI_LONG and MPI_INT64_T on LP64, MPI_INTEGER and MPI_INT...) carry the
 * same bytes: a send of one matches a receive of the other, as in MPICH and Open MPI (rmp
 * does not compare type signatures; the standard calls such a program erroneous). */
#define MPI_CHAR ((MPI_Datatype)RMP_INT8)
#define MPI_SIGNED_CHAR ((MPI_Datatype)RMP_SIGNED_CHAR)
#define MPI_UNSIGNED_CHAR ((MPI_Datatype)RMP_UINT8)
#define MPI_BYTE ((MPI_Datatype)RMP_BYTE)
#define MPI_SHORT ((MPI_Datatype)RMP_INT16)
#define MPI_UNSIGNED_SHORT ((MPI_Datatype)RMP_UINT16)
#define MPI_INT ((MPI_Datatype)RMP_INT32)
#define MPI_UNSIGNED ((MPI_Datatype)RMP_UINT32)
#define MPI_LONG ((MPI_Datatype)RMP_LONG)
#define MPI_UNSIGNED_LONG ((MPI_Datatype)RMP_UNSIGNED_LONG)
#define MPI_LONG_LONG_INT ((MPI_Datatype)RMP_INT64)
#define MPI_LONG_LONG ((MPI_Datatype)RMP_LONG_LONG)
#define MPI_UNSIGNED_LONG_LONG ((MPI_Datatype)RMP_UINT64)
#define MPI_FLOAT ((MPI_Datatype)RMP_FLOAT)
#define MPI_DOUBLE ((MPI_Datatype)RMP_DOUBLE)
#define MPI_INT8_T ((MPI_Datatype)RMP_INT8_T)
#define MPI_INT16_T ((MPI_Datatype)RMP_INT16_T)
#define MPI_INT32_T ((MPI_Datatype)RMP_INT32_T)
#define MPI_INT64_T ((MPI_Datatype)RMP_INT64_T)
#define MPI_UINT8_T ((MPI_Datatype)RMP_UINT8_T)
#define MPI_UINT16_T ((MPI_Datatype)RMP_UINT16_T)
#define MPI_UINT32_T ((MPI_Datatype)RMP_UINT32_T)
#define MPI_UINT64_T ((MPI_Datatype)RMP_UINT64_T)
#define MPI_AINT ((MPI_Datatype)RMP_AINT)
#define MPI_OFFSET ((MPI_Datatype)RMP_OFFSET)
#define MPI_COUNT ((MPI_Datatype)RMP_COUNT)
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
/* The tools interface's classes (MPI-4.0 15.3.10), returned by the MPI_T_ calls. */
#define MPI_T_ERR_MEMORY 58
#define MPI_T_ERR_NOT_INITIALIZED 59
#define MPI_T_ERR_CANNOT_INIT 60
#define MPI_T_ERR_INVALID_INDEX 61
#define MPI_T_ERR_INVALID_ITEM 62
#define MPI_T_ERR_INVALID_HANDLE 63
#define MPI_T_ERR_OUT_OF_HANDLES 64
#define MPI_T_ERR_OUT_OF_SESSIONS 65
#define MPI_T_ERR_INVALID_SESSION 66
#define MPI_T_ERR_CVAR_SET_NOT_NOW 67
#define MPI_T_ERR_CVAR_SET_NEVER 68
#define MPI_T_ERR_PVAR_NO_STARTSTOP 69
#define MPI_T_ERR_PVAR_NO_WRITE 70
#define MPI_T_ERR_PVAR_NO_ATOMIC 71
#define MPI_T_ERR_INVALID_NAME 72
#define MPI_T_ERR_INVALID 73
#define MPI_T_ERR_NOT_ACCESSIBLE 74
#define MPI_T_ERR_NOT_SUPPORTED 75
#define MPI_ERR_LASTCLASS 75

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
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr); /* info: hints, unused */
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
/* MPI_Comm_free once every member got here (collective; MPI-3.1 10.5.4 on a communicator of
 * this job: the rest of dynamic processes is absent). */
int MPI_Comm_disconnect(MPI_Comm *comm);
/* Collective over comm; the ranks outside group get MPI_COMM_NULL. */
int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm);
int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result);
/* split_type MPI_COMM_TYPE_SHARED (or MPI_UNDEFINED: MPI_COMM_NULL); info: hints, unused. */
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

/* ---- OSU micro-benchmark support: names, windows and one-sided, topologies, neighbourhood ---
 * (What the OSU micro-benchmarks' shared utility code refers to, so that their programs build
 * unchanged with rmpcc/rmpicxx.) */
#define MPI_MAX_OBJECT_NAME RMP_MAX_OBJECT_NAME
/* A named type's own name ("MPI_INT32_T" for MPI_INT32_T; MPI_C_COMPLEX and MPI_LONG_LONG,
 * the standard's synonyms, have their own handles and names too), "" for a derived type, the
 * name MPI_Type_set_name gave, once it did. Thread-safe. */
int MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen);
int MPI_Get_address(const void *location, MPI_Aint *address);

/* Windows (MPI-3.1 ch. 11): creation and free are collectives (every rank's base, size and
 * displacement unit are exchanged; MPI_Win_allocate allocates, MPI_Win_free waits for all
 * ranks and frees). info: hints, kept (MPI_Win_get_info). Creation errors are raised on the
 * communicator's handler, the others on the window's once the program set one
 * (MPI_Win_set_errhandler), else (and for an invalid window) on MPI_COMM_WORLD's. */
typedef rmp_win_t MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)RMP_WIN_NULL)
int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win);
int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win);
/* Memory the ranks of one node load and store directly (contiguous in rank order; the hint
 * alloc_shared_noncontig is accepted and changes nothing): MPI_ERR_RMA_SHARED when comm's
 * ranks are not all on one node. MPI_Win_shared_query gives a rank's part as an address here
 * (MPI_PROC_NULL: the first rank with size > 0); on the other flavors too (MPI-4), a rank's
 * memory where this process maps it (mine; an allocate window's on one node), else 0 at NULL. */
int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win);
int MPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr);
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win);
int MPI_Win_attach(MPI_Win win, void *base, MPI_Aint size);
int MPI_Win_detach(MPI_Win win, const void *base);
int MPI_Win_free(MPI_Win *win);
int MPI_Win_get_group(MPI_Win win, MPI_Group *group);

/* One-sided operations, over rmp's (rmp.h "One-sided communication" says what each does).
 * target_disp counts the target's disp_unit from its base (a dynamic window: an address in
 * the target, MPI_Get_address). MPI_PROC_NULL targets do nothing. Errors, raised on the
 * window's handler: MPI_ERR_RMA_SYNC outside an access epoch to the target (the request forms
 * need a passive-target one), MPI_ERR_RMA_RANGE for an access outside the target's window
 * (nothing is touched), MPI_ERR_OP for a user op (only builtins, MPI_REPLACE and MPI_NO_OP),
 * MPI_ERR_RMA_FLAVOR for a call the window's flavor cannot do. Accumulates are element-wise
 * atomic among accumulates to one location with one builtin type and the same op (or
 * MPI_REPLACE / MPI_NO_OP), applied in the order one origin issued them. */
int MPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
            int target_rank, MPI_Aint target_disp, int target_count,
            MPI_Datatype target_datatype, MPI_Win win);
int MPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win);
int MPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                   int target_rank, MPI_Aint target_disp, int target_count,
                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                       void *result_addr, int result_count, MPI_Datatype result_datatype,
                       int target_rank, MPI_Aint target_disp, int target_count,
                       MPI_Datatype target_datatype, MPI_Op op, MPI_Win win);
int MPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win);
int MPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                         MPI_Datatype datatype, int target_rank, MPI_Aint target_disp,
                         MPI_Win win);
int MPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request);
int MPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
             MPI_Request *request);
int MPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request *request);
int MPI_Rget_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr, int result_count,
                        MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                        MPI_Request *request);

/* Synchronization. The asserts are rmp's values (an OR of them, 0 for none); a bit a call does
 * not accept (fence: NOSTORE, NOPUT, NOPRECEDE, NOSUCCEED; post: NOCHECK, NOSTORE, NOPUT;
 * start, lock, lock_all: NOCHECK) raises MPI_ERR_ASSERT, a lock type other than the two
 * MPI_ERR_LOCKTYPE (MPICH 4.0.2 raises MPI_ERR_ARG for both). Lock, unlock, flush and
 * flush_local of MPI_PROC_NULL do nothing, as in MPICH. A second lock of one target, an
 * unlock without lock, a complete without start...: MPI_ERR_RMA_SYNC. */
#define MPI_MODE_NOCHECK RMP_MODE_NOCHECK
#define MPI_MODE_NOSTORE RMP_MODE_NOSTORE
#define MPI_MODE_NOPUT RMP_MODE_NOPUT
#define MPI_MODE_NOPRECEDE RMP_MODE_NOPRECEDE
#define MPI_MODE_NOSUCCEED RMP_MODE_NOSUCCEED
#define MPI_LOCK_EXCLUSIVE RMP_LOCK_EXCLUSIVE
#define MPI_LOCK_SHARED RMP_LOCK_SHARED
int MPI_Win_fence(int assert, MPI_Win win);
int MPI_Win_post(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_start(MPI_Group group, int assert, MPI_Win win);
int MPI_Win_complete(MPI_Win win);
int MPI_Win_wait(MPI_Win win);
int MPI_Win_test(MPI_Win win, int *flag);
int MPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win);
int MPI_Win_unlock(int rank, MPI_Win win);
int MPI_Win_lock_all(int assert, MPI_Win win);
int MPI_Win_unlock_all(MPI_Win win);
int MPI_Win_flush(int rank, MPI_Win win);
int MPI_Win_flush_all(MPI_Win win);
int MPI_Win_flush_local(int rank, MPI_Win win);
int MPI_Win_flush_local_all(MPI_Win win);
int MPI_Win_sync(MPI_Win win);

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

/* ---- Intercommunicators ------------------------------------------------------------------ */
#define MPI_ROOT RMP_ROOT
int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm *newintercomm);
int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm);
int MPI_Comm_test_inter(MPI_Comm comm, int *flag);
int MPI_Comm_remote_size(MPI_Comm comm, int *size);
int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group);



/* ---- Communicator creation, names, info objects, attributes, error classes --------------- */
/* -- attributes and error classes -- */
/* Attribute caching (MPI-3.1 6.7) on communicators, datatypes and windows. The callbacks have
 * MPI signatures, so the MPI layer holds keyvals and attributes (rmp's native API has none).
 * Copy callbacks run at MPI_Comm_dup (and MPI_Type_dup), in the order the attributes were
 * set; a copy callback's error makes the dup fail with that error (the new handle is then
 * MPI_COMM_NULL). Delete callbacks run at delete_attr, when set_attr replaces a value, and
 * when the object is freed (in the reverse order of setting; MPI_Finalize frees
 * MPI_COMM_SELF's, then MPI_COMM_WORLD's). A delete callback's error is returned and the
 * attribute stays. A freed keyval stays valid for the attributes still holding it. Keyvals of
 * one kind of object give MPI_ERR_KEYVAL on another, as do freed, invalid and (for set,
 * delete and free) predefined keyvals. */
#define MPI_KEYVAL_INVALID (-1)
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval,
                                        void *extra_state, void *attribute_val_in,
                                        void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state,
                                       void *attribute_val_in, void *attribute_val_out,
                                       int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val,
                                         void *extra_state);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
                                void *extra_state);
/* The predefined callbacks (functions, as MPI-3.1 6.7.2 declares them): null copy sets
 * *flag = 0 (not copied); dup sets *(void **)attribute_val_out = attribute_val_in and
 * *flag = 1; null delete does nothing. */
int MPI_NULL_COPY_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                     void *attribute_val_out, int *flag);
int MPI_DUP_FN(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
               void *attribute_val_out, int *flag);
int MPI_NULL_DELETE_FN(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);
int MPI_COMM_NULL_COPY_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                          void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_COMM_DUP_FN(MPI_Comm oldcomm, int comm_keyval, void *extra_state, void *attribute_val_in,
                    void *attribute_val_out, int *flag);
int MPI_COMM_NULL_DELETE_FN(MPI_Comm comm, int comm_keyval, void *attribute_val,
                            void *extra_state);
int MPI_TYPE_NULL_COPY_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                          void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_DUP_FN(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                    void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                            void *extra_state);
int MPI_WIN_NULL_COPY_FN(MPI_Win oldwin, int win_keyval, void *extra_state,
                         void *attribute_val_in, void *attribute_val_out, int *flag);
int MPI_WIN_DUP_FN(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag);
int MPI_WIN_NULL_DELETE_FN(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);

/* Predefined attributes (read-only; get_attr's attribute_val receives a pointer to an int,
 * except MPI_WIN_BASE: the base itself, and MPI_WIN_SIZE: a pointer to an MPI_Aint).
 * Communicator ones, on every communicator: MPI_TAG_UB (RMP_TAG_UB), MPI_HOST
 * (MPI_PROC_NULL), MPI_IO (MPI_ANY_SOURCE: every rank can do I/O), MPI_WTIME_IS_GLOBAL (0),
 * MPI_UNIVERSE_SIZE (the size of MPI_COMM_WORLD), MPI_APPNUM (0), MPI_LASTUSEDCODE (the last
 * code MPI_Add_error_class/code made, MPI_ERR_LASTCODE before any). Window ones: what the
 * calling rank gave at creation (a dynamic window: MPI_BOTTOM, 0 and 1), the flavor, and
 * MPI_WIN_UNIFIED. */
#define MPI_TAG_UB 1
#define MPI_HOST 2
#define MPI_IO 3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE 5
#define MPI_LASTUSEDCODE 6
#define MPI_APPNUM 7
#define MPI_WIN_BASE 8
#define MPI_WIN_SIZE 9
#define MPI_WIN_DISP_UNIT 10
#define MPI_WIN_CREATE_FLAVOR 11
#define MPI_WIN_MODEL 12
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                           MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                           void *extra_state);
int MPI_Comm_free_keyval(int *comm_keyval);
int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val);
/* attribute_val is a void ** passed as void * (the standard's type). */
int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag);
int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval);
int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                           MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                           void *extra_state);
int MPI_Type_free_keyval(int *type_keyval);
int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val);
int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag);
int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval);
int MPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn,
                          MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                          void *extra_state);
int MPI_Win_free_keyval(int *win_keyval);
int MPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val);
int MPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag);
int MPI_Win_delete_attr(MPI_Win win, int win_keyval);
/* MPI-1 names (deprecated) of the communicator calls. */
int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state);
int MPI_Keyval_free(int *keyval);
int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val);
int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag);
int MPI_Attr_delete(MPI_Comm comm, int keyval);

/* User error classes, codes and strings (MPI-3.1 8.5): new classes and codes are numbered
 * from MPI_ERR_LASTCODE + 1 up (MPI_LASTUSEDCODE tells the last); MPI_Error_class and
 * MPI_Error_string know them (a code or class with no string added has the string "").
 * Strings may be added only to user codes and classes (else MPI_ERR_ARG), and must be
 * shorter than MPI_MAX_ERROR_STRING. */
#define MPI_ERR_LASTCODE 127
int MPI_Add_error_class(int *errorclass);
int MPI_Add_error_code(int errorclass, int *errorcode);
int MPI_Add_error_string(int errorcode, const char *string);

/* User error handlers (MPI-3.1 8.3): called with the communicator (window) and the error
 * code when a call on it fails, then the call returns the code. A handler is refcounted: a
 * communicator or window using it keeps it alive after MPI_Errhandler_free, and a new
 * communicator inherits its parent's. MPI_Comm_get_errhandler returns a new reference (free
 * it). A window has no handler of its own until MPI_Win_set_errhandler: MPI_COMM_WORLD's
 * takes its errors (as in MPICH) and MPI_Win_get_errhandler reports that one.
 * MPI_Comm_call_errhandler and MPI_Win_call_errhandler return MPI_SUCCESS once the handler
 * returned (MPI_ERRORS_RETURN: at once). */
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn;
typedef MPI_Comm_errhandler_function MPI_Handler_function; /* MPI-1 name */
typedef void MPI_Win_errhandler_function(MPI_Win *win, int *error_code, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;
int MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn,
                               MPI_Errhandler *errhandler);
int MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode);
int MPI_Win_create_errhandler(MPI_Win_errhandler_function *win_errhandler_fn,
                              MPI_Errhandler *errhandler);
int MPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler);
int MPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *errhandler);
int MPI_Win_call_errhandler(MPI_Win win, int errorcode);
/* MPI-1 names (removed in MPI-3.0, kept for old programs). */
int MPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler);
int MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler);

/* -- info objects, names, communicator creation -- */
/* Info objects (MPI-3.1 ch. 9; errors raised on MPI_COMM_WORLD's handler). Keys of 1 to
 * MPI_MAX_INFO_KEY characters (else MPI_ERR_INFO_KEY), values of 1 to MPI_MAX_INFO_VAL (else
 * MPI_ERR_INFO_VALUE), compared exactly; MPI_Info_get_nthkey lists keys in the order they were
 * first set. MPI_Info_get copies at most valuelen characters and a NUL (value holds
 * valuelen + 1 bytes). MPI_INFO_ENV (read-only: set, delete and free raise MPI_ERR_INFO) holds
 * "command", "argv" (when the program had arguments), "maxprocs" (the size of
 * MPI_COMM_WORLD), "host", "arch", "wdir" and "thread_level". */
#define MPI_INFO_ENV ((MPI_Info)RMP_INFO_ENV)
#define MPI_MAX_INFO_KEY RMP_MAX_INFO_KEY
#define MPI_MAX_INFO_VAL RMP_MAX_INFO_VAL
int MPI_Info_create(MPI_Info *info);
int MPI_Info_set(MPI_Info info, const char *key, const char *value);
int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag);
int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag);
int MPI_Info_get_nkeys(MPI_Info info, int *nkeys);
int MPI_Info_get_nthkey(MPI_Info info, int n, char *key);
int MPI_Info_delete(MPI_Info info, const char *key);
int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo);
int MPI_Info_free(MPI_Info *info);

/* Names (cut to MPI_MAX_OBJECT_NAME - 1 characters): MPI_COMM_WORLD and MPI_COMM_SELF are
 * named so, other communicators and windows "" until named; a builtin type keeps the name
 * MPI_Type_get_name gives until renamed. Window errors go to MPI_COMM_WORLD's handler. */
int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name);
int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen);
int MPI_Type_set_name(MPI_Datatype datatype, const char *type_name);
int MPI_Win_set_name(MPI_Win win, const char *win_name);
int MPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen);

/* Hints: kept and returned, none changes what rmp does. set_info updates the hints info
 * names (MPI_INFO_NULL: none); get_info returns a new info with every hint set (free it).
 * MPI_Comm_dup copies comm's hints, MPI_Comm_dup_with_info takes info's instead; windows get
 * the hints of the info they were created with, and MPI_Win_get_info adds after them the
 * defaults of MPI-3.1 11.2.1 that were not set (accumulate_ordering "rar,raw,war,waw",
 * accumulate_ops "same_op_no_op": what rmp does); window errors go to the window's
 * handler. Every call that takes an MPI_Info
 * (MPI_Comm_split_type, MPI_Win_create..., MPI_Alloc_mem, MPI_Dist_graph_create_adjacent)
 * accepts any valid one and raises MPI_ERR_INFO for an invalid handle. */
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info info);
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used);
int MPI_Win_set_info(MPI_Win win, MPI_Info info);
int MPI_Win_get_info(MPI_Win win, MPI_Info *info_used);

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm);
/* Nonblocking MPI_Comm_dup: newcomm is usable once request completes; comm may meanwhile be
 * used for anything else (other collectives, other creations, other idups). */
int MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request);
/* Collective over the members of group only (a subset of comm's, else MPI_ERR_GROUP); tag
 * (0..RMP_TAG_UB, else MPI_ERR_TAG) tells apart concurrent calls; a caller outside group gets
 * MPI_COMM_NULL. */
int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm);



/* ---- Datatypes: constructors, decoding, packing; predefined types and ops ---------------- */
/* -- type constructors, decoding, packing -- */
/* A packed buffer's bytes (MPI_Pack): sent and received as bytes. */
#define MPI_PACKED ((MPI_Datatype)RMP_PACKED)
/* Address 0: the buffer for types whose displacements are absolute (MPI_Get_address). */
#define MPI_BOTTOM RMP_BOTTOM
#define MPI_ORDER_C RMP_ORDER_C
#define MPI_ORDER_FORTRAN RMP_ORDER_FORTRAN
#define MPI_DISTRIBUTE_BLOCK RMP_DISTRIBUTE_BLOCK
#define MPI_DISTRIBUTE_CYCLIC RMP_DISTRIBUTE_CYCLIC
#define MPI_DISTRIBUTE_NONE RMP_DISTRIBUTE_NONE
#define MPI_DISTRIBUTE_DFLT_DARG RMP_DISTRIBUTE_DFLT_DARG
#define MPI_COMBINER_NAMED RMP_COMBINER_NAMED
#define MPI_COMBINER_DUP RMP_COMBINER_DUP
#define MPI_COMBINER_CONTIGUOUS RMP_COMBINER_CONTIGUOUS
#define MPI_COMBINER_VECTOR RMP_COMBINER_VECTOR
#define MPI_COMBINER_HVECTOR_INTEGER RMP_COMBINER_HVECTOR_INTEGER
#define MPI_COMBINER_HVECTOR RMP_COMBINER_HVECTOR
#define MPI_COMBINER_INDEXED RMP_COMBINER_INDEXED
#define MPI_COMBINER_HINDEXED_INTEGER RMP_COMBINER_HINDEXED_INTEGER
#define MPI_COMBINER_HINDEXED RMP_COMBINER_HINDEXED
#define MPI_COMBINER_INDEXED_BLOCK RMP_COMBINER_INDEXED_BLOCK
#define MPI_COMBINER_HINDEXED_BLOCK RMP_COMBINER_HINDEXED_BLOCK
#define MPI_COMBINER_STRUCT_INTEGER RMP_COMBINER_STRUCT_INTEGER
#define MPI_COMBINER_STRUCT RMP_COMBINER_STRUCT
#define MPI_COMBINER_SUBARRAY RMP_COMBINER_SUBARRAY
#define MPI_COMBINER_DARRAY RMP_COMBINER_DARRAY
#define MPI_COMBINER_F90_REAL RMP_COMBINER_F90_REAL
#define MPI_COMBINER_F90_COMPLEX RMP_COMBINER_F90_COMPLEX
#define MPI_COMBINER_F90_INTEGER RMP_COMBINER_F90_INTEGER
#define MPI_COMBINER_RESIZED RMP_COMBINER_RESIZED
int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                            MPI_Datatype *newtype);
int MPI_Type_create_indexed_block(int count, int blocklength,
                                  const int array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype);
int MPI_Type_create_hindexed_block(int count, int blocklength,
                                   const MPI_Aint array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_subarray(int ndims, const int array_of_sizes[],
                             const int array_of_subsizes[], const int array_of_starts[],
                             int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                           const int array_of_distribs[], const int array_of_dargs[],
                           const int array_of_psizes[], int order, MPI_Datatype oldtype,
                           MPI_Datatype *newtype);
int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner);
/* Derived types returned are new handles (free them); builtins come back as they are. */
int MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                          int max_datatypes, int array_of_integers[],
                          MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]);
int MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent);
int MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size);
int MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb,
                               MPI_Count *true_extent);
int MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2);
/* Deprecated MPI-1 names (MPI_LB and MPI_UB, removed in MPI-3, are not provided). */
int MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                     MPI_Datatype *newtype);
int MPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                    MPI_Datatype array_of_types[], MPI_Datatype *newtype);
int MPI_Address(void *location, MPI_Aint *address);
int MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent);
int MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement);
int MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement);
/* Packing: the bytes are the data in typemap order (what a message carries). Too small a
 * buffer gives MPI_ERR_TRUNCATE. external32: big-endian, each named type in the standard's
 * size for it (MPI-3.1 table 13.2: MPI_LONG and MPI_UNSIGNED_LONG 4 bytes, MPI_WCHAR 2,
 * MPI_LONG_DOUBLE 16 as IEEE binary128, MPI_INT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT 8...);
 * a long out of the 4 bytes' range keeps its low 32 bits, a wchar_t its low 16, a binary128
 * is rounded toward zero to long double. Another datarep gives MPI_ERR_ARG. */
int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
             int *position, MPI_Comm comm);
int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
               MPI_Datatype datatype, MPI_Comm comm);
int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
int MPI_Pack_external(const char datarep[], const void *inbuf, int incount,
                      MPI_Datatype datatype, void *outbuf, MPI_Aint outsize, MPI_Aint *position);
int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                        MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype);
int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                           MPI_Aint *size);


/* -- predefined types and ops -- */
/* More C types, each its own handle. MPI_C_BOOL is a bool (logical ops only); MPI_WCHAR has no
 * reduction op; the complex types reduce with MPI_SUM and MPI_PROD; long double with MPI_SUM,
 * PROD, MIN, MAX, LAND, LOR and LXOR. The C++ types have handles of their own, with the C
 * types' layouts and ops. */
#define MPI_LONG_DOUBLE ((MPI_Datatype)RMP_LONG_DOUBLE)
#define MPI_WCHAR ((MPI_Datatype)RMP_WCHAR)
#define MPI_C_BOOL ((MPI_Datatype)RMP_C_BOOL)
#define MPI_C_FLOAT_COMPLEX ((MPI_Datatype)RMP_C_FLOAT_COMPLEX)
#define MPI_C_COMPLEX ((MPI_Datatype)RMP_C_COMPLEX)
#define MPI_C_DOUBLE_COMPLEX ((MPI_Datatype)RMP_C_DOUBLE_COMPLEX)
#define MPI_C_LONG_DOUBLE_COMPLEX ((MPI_Datatype)RMP_C_LONG_DOUBLE_COMPLEX)
#define MPI_CXX_BOOL ((MPI_Datatype)RMP_CXX_BOOL)
#define MPI_CXX_FLOAT_COMPLEX ((MPI_Datatype)RMP_CXX_FLOAT_COMPLEX)
#define MPI_CXX_DOUBLE_COMPLEX ((MPI_Datatype)RMP_CXX_DOUBLE_COMPLEX)
#define MPI_CXX_LONG_DOUBLE_COMPLEX ((MPI_Datatype)RMP_CXX_LONG_DOUBLE_COMPLEX)
/* {long double value; int index;} for MPI_MINLOC and MPI_MAXLOC. */
#define MPI_LONG_DOUBLE_INT ((MPI_Datatype)RMP_LONG_DOUBLE_INT)

/* Fortran's types, usable from C (as gfortran lays them out: INTEGER and LOGICAL 4 bytes,
 * REAL 4, DOUBLE PRECISION 8), each its own handle. Integer and real ones have the layout and
 * ops of the C types of their size; COMPLEX and DOUBLE COMPLEX those of the C complex types. MPI_LOGICAL
 * is its own type (logical ops only, 0 false, results 0 or 1), as are MPI_2REAL and
 * MPI_2DOUBLE_PRECISION (value and index both of the value's type). No REAL*16 here (gfortran's
 * is IEEE quad, not C's long double): MPI_REAL16, MPI_COMPLEX32 are MPI_DATATYPE_NULL, and so is
 * MPI_INTEGER16 (the optional types a program tests against MPI_DATATYPE_NULL). */
#define MPI_INTEGER ((MPI_Datatype)RMP_INTEGER)
#define MPI_REAL ((MPI_Datatype)RMP_REAL)
#define MPI_DOUBLE_PRECISION ((MPI_Datatype)RMP_DOUBLE_PRECISION)
#define MPI_COMPLEX ((MPI_Datatype)RMP_COMPLEX)
#define MPI_DOUBLE_COMPLEX ((MPI_Datatype)RMP_DOUBLE_COMPLEX)
#define MPI_LOGICAL ((MPI_Datatype)RMP_LOGICAL)
#define MPI_CHARACTER ((MPI_Datatype)RMP_CHARACTER)
#define MPI_INTEGER1 ((MPI_Datatype)RMP_INTEGER1)
#define MPI_INTEGER2 ((MPI_Datatype)RMP_INTEGER2)
#define MPI_INTEGER4 ((MPI_Datatype)RMP_INTEGER4)
#define MPI_INTEGER8 ((MPI_Datatype)RMP_INTEGER8)
#define MPI_REAL4 ((MPI_Datatype)RMP_REAL4)
#define MPI_REAL8 ((MPI_Datatype)RMP_REAL8)
#define MPI_REAL2 MPI_DATATYPE_NULL /* no 2-byte float in C: not available either */
#define MPI_REAL16 MPI_DATATYPE_NULL
#define MPI_INTEGER16 MPI_DATATYPE_NULL /* no 16-byte integer either */
#define MPI_COMPLEX4 MPI_DATATYPE_NULL
#define MPI_COMPLEX8 ((MPI_Datatype)RMP_COMPLEX8)
#define MPI_COMPLEX16 ((MPI_Datatype)RMP_COMPLEX16)
#define MPI_COMPLEX32 MPI_DATATYPE_NULL
/* LOGICAL*n: LOGICAL4 matches MPI_LOGICAL; LOGICAL1 matches MPI_C_BOOL (logical ops only);
 * LOGICAL2 and LOGICAL8 MPI_INT16_T and MPI_INT64_T (logical ops, integer ops an extension). */
#define MPI_LOGICAL1 ((MPI_Datatype)RMP_LOGICAL1)
#define MPI_LOGICAL2 ((MPI_Datatype)RMP_LOGICAL2)
#define MPI_LOGICAL4 ((MPI_Datatype)RMP_LOGICAL4)
#define MPI_LOGICAL8 ((MPI_Datatype)RMP_LOGICAL8)
#define MPI_2INTEGER ((MPI_Datatype)RMP_2INTEGER)
#define MPI_2REAL ((MPI_Datatype)RMP_2REAL)
#define MPI_2DOUBLE_PRECISION ((MPI_Datatype)RMP_2DOUBLE_PRECISION)

/* MPI_LXOR reduces integer, floating, bool and logical types (MPI_LAND, LOR and LXOR on
 * floating types, long double included, are an extension, as in MPICH, which Open MPI
 * refuses: nonzero is true, the result 1 or 0 of the type). MPI_REPLACE and MPI_NO_OP are
 * for one-sided accumulates (which rmp has not): every reduction refuses them (MPI_ERR_OP), as
 * it refuses any op on a type the op is not defined for (MPI-3.1 5.9.2). */
#define MPI_LXOR ((MPI_Op)RMP_LXOR)
#define MPI_REPLACE ((MPI_Op)RMP_REPLACE)
#define MPI_NO_OP ((MPI_Op)RMP_NO_OP)

/* inoutbuf = inbuf op inoutbuf, locally: builtin ops on types made of one builtin, user ops on
 * any type. inbuf and inoutbuf must be distinct buffers (MPI_IN_PLACE: MPI_ERR_BUFFER). */
int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op);
/* 1 for the builtin reductions and commutative user ops; 0 for MPI_REPLACE, MPI_NO_OP and
 * non-commutative user ops. */
int MPI_Op_commutative(MPI_Op op, int *commute);

#define MPI_TYPECLASS_INTEGER RMP_TYPECLASS_INTEGER
#define MPI_TYPECLASS_REAL RMP_TYPECLASS_REAL
#define MPI_TYPECLASS_COMPLEX RMP_TYPECLASS_COMPLEX
/* A predefined type of the class and size: MPI_INTEGER1, 2, 4, 8; MPI_REAL4, MPI_REAL8,
 * MPI_LONG_DOUBLE (16); MPI_COMPLEX8, MPI_COMPLEX16, MPI_C_LONG_DOUBLE_COMPLEX (32), as MPICH
 * answers; MPI_ERR_ARG if none. */
int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype);
/* As MPICH: types like the predefined ones of the kind (MPI_INTEGER1..8, MPI_REAL4, MPI_REAL8,
 * MPI_LONG_DOUBLE, and the complex types of those), the smallest with the precision p and range r
 * asked (MPI_UNDEFINED: any, not for both); MPI_ERR_ARG when none has them. Not to be freed. */
int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype);


/* ---- Groups, topologies, requests -------------------------------------------------------- */
/* Groups by ranges and set operations (MPI-3.1 6.3.2); errors raised on MPI_COMM_WORLD's
 * handler. A range's first and last must be ranks of the group (MPI_ERR_RANK), its stride
 * non-zero and heading from first to last (MPI_ERR_ARG); a rank named twice: MPI_ERR_RANK. */
int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup);
int MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);
int MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup);

/* Graph topologies (MPI_Topo_test: MPI_GRAPH; the neighbourhood collectives exchange with
 * MPI_Graph_neighbors' list, in its order), the mapping queries (ranks are not reordered: my
 * rank if it is in the topology, else MPI_UNDEFINED), MPI_Cart_sub (keeping no dimension:
 * rank 0 gets a 0-dimensional grid of itself, the others MPI_COMM_NULL, as MPICH) and the general
 * MPI_Dist_graph_create (neighbours listed by the rank that gave the edge, then in the order
 * it gave them). */
#define MPI_GRAPH RMP_GRAPH
int MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                     int reorder, MPI_Comm *comm_graph);
int MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges);
int MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]);
int MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors);
int MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[]);
int MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[],
                  int *newrank);
int MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank);
int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm);
int MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], MPI_Info info,
                          int reorder, MPI_Comm *comm_dist_graph);

/* Requests (errors raised on MPI_COMM_WORLD's handler). MPI_Cancel of a send, in any mode
 * (persistent ones too), cancels it if no receive has matched its message yet (the receiver
 * is asked: its MPI calls, or its MPI_Finalize, answer); MPI_Test_cancelled tells which, after
 * the wait. A cancelled buffered send gives its space in the attached buffer back. Generalized
 * requests complete
 * in every completion call; their callbacks' error codes come back from that call by class
 * (a class rmp has no error of, MPI_ERR_OTHER included, comes back as MPI_ERR_INTERN). */
int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status);
/* MPI_Test's answer without completing the request (it stays live, the handle unchanged). */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status);
int MPI_Test_cancelled(const MPI_Status *status, int *flag);
int MPI_Status_set_cancelled(MPI_Status *status, int flag);
int MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
int MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);
int MPI_Grequest_start(MPI_Grequest_query_function *query_fn,
                       MPI_Grequest_free_function *free_fn,
                       MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                       MPI_Request *request);
int MPI_Grequest_complete(MPI_Request request);



/* ---- MPI-4: persistent collectives, Isendrecv, large counts ------------------------------ */
/* Persistent collectives (MPI-4.0 6.13): the init checks the arguments and returns an
 * inactive persistent request; MPI_Start/MPI_Startall run it (with the data the buffers hold
 * then), MPI_Wait/Test complete it and leave it inactive, MPI_Request_free frees an inactive
 * one (an active one: MPI_ERR_REQUEST, as is starting an active one). Every rank makes the same
 * inits in the same order and starts each request as often; requests may be started in any
 * order. info: MPI_INFO_NULL (another value: MPI_ERR_INFO). The communicator, datatypes and op
 * must not be freed before the request. Errors of the inits go to comm's handler, those of
 * Start/Startall/Wait to MPI_COMM_WORLD's. */
int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request);
int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request);
int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request);
int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request);
int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request);
int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request);
int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_Info info, MPI_Request *request);
int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request);
int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request);
int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request);
int MPI_Neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request);
int MPI_Neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info info, MPI_Request *request);
int MPI_Neighbor_alltoallw_init(const void *sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                MPI_Request *request);

/* MPI-4.0: a send and a receive in one nonblocking call, one request (status: the receive's).
 * The replace form copies the outgoing data at the call. */
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *request);

/* MPI-4.0 partitioned communication (rmp_psend_init ... in rmp.h say how it moves): the send
 * and receive sides may have different partition counts (only the total size must match,
 * else MPI_ERR_TRUNCATE on both), matching in the order of the inits; no wildcards. Pready*
 * from any thread; a partition out of range or made ready twice in a round: MPI_ERR_ARG; a
 * request that is not an active partitioned send (Pready*) or a partitioned receive
 * (Parrived): MPI_ERR_REQUEST. info: checked, hints ignored. Errors of Pready* and Parrived
 * go to MPI_COMM_WORLD's handler. */
int MPI_Psend_init(const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Precv_init(void *buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                   int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int MPI_Pready(int partition, MPI_Request request);
int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request);
int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request);
int MPI_Parrived(MPI_Request request, int partition, int *flag);

/* MPI-4.0 sessions (rmp_session_init ... in rmp.h): usable before, with, after (until the
 * runtime ends) and without MPI_Init; MPI_Initialized reports the world model only. psets
 * "mpi://WORLD", "mpi://SELF" and "rmp://node" (this node's ranks); pset info: "mpi_size".
 * Session info: "thread_level" (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE; asked at init,
 * reported by get_info). Errors of a call on a session go to its handler; an invalid session
 * handle, or an unknown pset name: MPI_ERR_ARG (on MPI_COMM_WORLD's handler for the handle).
 * Comm_create_from_group (Intercomm_create_from_groups): collective over the group's members
 * (both groups'), matched by the string tag; the new communicator gets errhandler (MPI_ERRHANDLER_NULL: MPI_ERRORS_ARE_FATAL). */
typedef int MPI_Session;
#define MPI_SESSION_NULL ((MPI_Session)RMP_SESSION_NULL)
#define MPI_MAX_PSET_NAME_LEN 256
#define MPI_MAX_STRINGTAG_LEN 256
typedef void MPI_Session_errhandler_function(MPI_Session *session, int *error_code, ...);
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session);
int MPI_Session_finalize(MPI_Session *session);
int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names);
int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                             char *pset_name);
int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info);
int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used);
int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                  MPI_Errhandler *errhandler);
int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler);
int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler);
int MPI_Session_call_errhandler(MPI_Session session, int errorcode);
int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                MPI_Group *newgroup);
int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                               MPI_Errhandler errhandler, MPI_Comm *newcomm);
int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                     MPI_Group remote_group, int remote_leader,
                                     const char *stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm *newintercomm);

/* MPI-4.0 large counts: the _c forms take MPI_Count counts (and MPI_Aint displacements in the
 * v-forms). A count up to INT_MAX goes straight to the int form; a larger one WORKS: it becomes
 * one element of a derived type (point-to-point, bcast, gather, scatter, allgather, alltoall;
 * one message), reductions go in pieces, and the v-forms whose counts or displacements pass
 * int run as an alltoallw with a type per peer (after one small allreduce by which the ranks
 * agree to: the one extra cost of the v-forms). MPI_ERR_COUNT only for MPI_Alltoallv_c in place
 * with such counts. Test knob: RMPI_BIGCOUNT_LIMIT=<n> lowers INT_MAX to n in these calls. */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm);
int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm);
int MPI_Bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm);
int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm);
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm, MPI_Request *request);
int MPI_Issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                 MPI_Comm comm, MPI_Request *request);
int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status);
int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                MPI_Comm comm, MPI_Request *request);
int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                           int sendtag, int source, int recvtag, MPI_Comm comm,
                           MPI_Status *status);
int MPI_Get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int MPI_Get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int MPI_Type_size_c(MPI_Datatype datatype, MPI_Count *size);
int MPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
/* Negative strides: MPI_ERR_ARG, as MPI_Type_vector's. */
int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype);
int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm);
int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm);
int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
               MPI_Op op, MPI_Comm comm);
int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm);
int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm);
int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                     MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);



/* ---- MPI-4.0 and 4.1 calls (mpi/mpi41.c, mpi/buffers.c, mpi/errclass.c) --------------- */
/* Nonblocking MPI_Comm_dup_with_info: newcomm gets info's hints, not comm's. */
int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm,
                            MPI_Request *request);
/* A new info with the keys of MPI_INFO_ENV that are the same before MPI_Init, during and
 * after: command and argv from argv[0..argc-1] when argv is given, else from the process's
 * command line; host, arch, wdir (maxprocs and thread_level: MPI_INFO_ENV, after MPI_Init).
 * rmp knows no soft or file keys. */
int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info);
/* MPI-4.0's MPI_Info_get: *flag = 1 if key is set; then value gets at most *buflen - 1
 * characters of it and a NUL (nothing when *buflen is 0) and *buflen becomes the value's length
 * + 1. *flag = 0 leaves value and *buflen alone. */
int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag);

/* Buffered sends (MPI-4.1 3.6): a communicator's own buffer serves the bsends on it, the
 * process's (MPI_Buffer_attach) the others. MPI_BUFFER_AUTOMATIC as the address: rmp
 * allocates each message's space as needed (size ignored; detach returns it and 0). Flush
 * waits until the messages buffered before the call were sent (the buffer stays attached);
 * iflush returns a request that completes then. Detach waits the same and detaches; freeing a
 * communicator detaches its buffer. rmp has no sessions: no MPI_Session_*_buffer. */
#define MPI_BUFFER_AUTOMATIC RMP_BUFFER_AUTOMATIC
int MPI_Buffer_flush(void);
int MPI_Buffer_iflush(MPI_Request *request);
int MPI_Comm_attach_buffer(MPI_Comm comm, void *buffer, int size);
/* buffer_addr is a void ** (as MPI_Buffer_detach's). */
int MPI_Comm_detach_buffer(MPI_Comm comm, void *buffer_addr, int *size);
int MPI_Comm_flush_buffer(MPI_Comm comm);
int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request *request);

/* Status fields through calls (MPI-4.1; for languages that cannot reach the fields). */
int MPI_Status_get_source(MPI_Status *status, int *source);
int MPI_Status_set_source(MPI_Status *status, int source);
int MPI_Status_get_tag(MPI_Status *status, int *tag);
int MPI_Status_set_tag(MPI_Status *status, int tag);
int MPI_Status_get_error(MPI_Status *status, int *error);
int MPI_Status_set_error(MPI_Status *status, int error);

/* MPI_Request_get_status over arrays (MPI-4.1): what MPI_Testall, Testany and Testsome
 * answer, but no request is freed or made inactive (a later wait or test completes them). */
int MPI_Request_get_status_all(int count, MPI_Request array_of_requests[], int *flag,
                               MPI_Status array_of_statuses[]);
int MPI_Request_get_status_any(int count, MPI_Request array_of_requests[], int *index,
                               int *flag, MPI_Status *status);
int MPI_Request_get_status_some(int incount, MPI_Request array_of_requests[], int *outcount,
                                int array_of_indices[], MPI_Status array_of_statuses[]);

/* Removing what MPI_Add_error_class, _code and _string added (MPI-4.1): a predefined class or
 * code, an unknown one, a class that still has codes, or a code without a string gives
 * MPI_ERR_ARG. A removed number is not given out again. */
int MPI_Remove_error_class(int errorclass);
int MPI_Remove_error_code(int errorcode);
int MPI_Remove_error_string(int errorcode);

/* The predefined pair type {value; index} for MPI_MINLOC/MAXLOC (MPI-4.1): MPI_FLOAT +
 * MPI_INT -> MPI_FLOAT_INT, DOUBLE, LONG, INT, SHORT, LONG_DOUBLE with MPI_INT, and the
 * Fortran REAL, DOUBLE_PRECISION, INTEGER with themselves; MPI_DATATYPE_NULL for any other
 * pair of valid types (an invalid one: MPI_ERR_TYPE). */
int MPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type,
                             MPI_Datatype *pair_type);

/* MPI-4.1: a new info describing the hardware this process runs on: "mpi_hw_resource_type"
 * "mpi_shared_memory" (the one resource type rmp splits by, MPI_COMM_TYPE_SHARED), and rmp's
 * own keys "rmp_host" (the node's name), "rmp_ncpus" (processors online), "rmp_arch". */
int MPI_Get_hw_resource_info(MPI_Info *hw_info);

/* MPI-5.0's ABI queries. rmp has its own ABI, not the standard one: MPI_Abi_get_version gives
 * -1 and -1; MPI_Abi_get_info says so ("mpi_abi" "rmp", "mpi_abi_standard" "false") with the
 * sizes in bytes of MPI_Aint, MPI_Count and MPI_Offset ("mpi_aint_size" ...); rmp has no
 * Fortran bindings: MPI_Abi_get_fortran_info gives "mpi_fortran_bindings" "none" and the size
 * of MPI_Fint ("mpi_fint_size"). */
int MPI_Abi_get_version(int *abi_major, int *abi_minor);
int MPI_Abi_get_info(MPI_Info *info);
int MPI_Abi_get_fortran_info(MPI_Info *info);



/* ---- Handle conversion for Fortran (MPI-3.1 17.2.4) ----------------------------------------- */
/* rmp has no Fortran bindings, but C code that hands handles to Fortran, or keeps them as
 * integers, converts them: a communicator, datatype, group, info, op, errhandler or window is
 * an int already (c2f and f2c are the identity); a request or message (a pointer here) gets
 * a small integer of its own, the same one each time (0 for the null handle), held until
 * the program ends. A status is MPI_STATUS_SIZE integers. */
#define MPI_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
#define MPI_F_STATUS_IGNORE ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)
MPI_Fint MPI_Comm_c2f(MPI_Comm comm);
MPI_Comm MPI_Comm_f2c(MPI_Fint comm);
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype);
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype);
MPI_Fint MPI_Group_c2f(MPI_Group group);
MPI_Group MPI_Group_f2c(MPI_Fint group);
MPI_Fint MPI_Info_c2f(MPI_Info info);
MPI_Info MPI_Info_f2c(MPI_Fint info);
MPI_Fint MPI_Op_c2f(MPI_Op op);
MPI_Op MPI_Op_f2c(MPI_Fint op);
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler);
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler);
MPI_Fint MPI_Win_c2f(MPI_Win win);
MPI_Win MPI_Win_f2c(MPI_Fint win);
MPI_Fint MPI_Request_c2f(MPI_Request request);
MPI_Request MPI_Request_f2c(MPI_Fint request);
MPI_Fint MPI_Message_c2f(MPI_Message message);
MPI_Message MPI_Message_f2c(MPI_Fint message);
int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status);
int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status);

/* ---- The tools interface, MPI_T (MPI-4.0 chapter 15; mpi/mpit*.c) ----------------------
 * Usable before MPI_Init, after MPI_Finalize and without them; MPI_T_init_thread and
 * MPI_T_finalize nest (reference-counted). Control variables are the RMP_* knobs (rmp_cvar_*),
 * performance variables the runtime's counters (rmp_stats_*), in categories by concern; rmp
 * defines no events (every event call works and refuses each index and handle it is given)
 * and one source, the process's monotonic clock. Handles are ints. */
typedef int MPI_T_enum;
typedef int MPI_T_cvar_handle;
typedef int MPI_T_pvar_handle;
typedef int MPI_T_pvar_session;
typedef int MPI_T_event_instance;
typedef int MPI_T_event_registration;
typedef enum MPI_T_cb_safety {
    MPI_T_CB_REQUIRE_NONE = 0,
    MPI_T_CB_REQUIRE_MPI_RESTRICTED,
    MPI_T_CB_REQUIRE_THREAD_SAFE,
    MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE
} MPI_T_cb_safety;
typedef enum MPI_T_source_order { MPI_T_SOURCE_ORDERED = 0, MPI_T_SOURCE_UNORDERED } MPI_T_source_order;
typedef void MPI_T_event_cb_function(MPI_T_event_instance event_instance,
                                     MPI_T_event_registration event_registration,
                                     MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_free_cb_function(MPI_T_event_registration event_registration,
                                          MPI_T_cb_safety cb_safety, void *user_data);
typedef void MPI_T_event_dropped_cb_function(MPI_Count count,
                                             MPI_T_event_registration event_registration,
                                             int source_index, MPI_T_cb_safety cb_safety,
                                             void *user_data);
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)
#define MPI_T_CVAR_HANDLE_NULL ((MPI_T_cvar_handle)0)
#define MPI_T_PVAR_HANDLE_NULL ((MPI_T_pvar_handle)0)
#define MPI_T_PVAR_SESSION_NULL ((MPI_T_pvar_session)0)
#define MPI_T_EVENT_REGISTRATION_NULL ((MPI_T_event_registration)0)
#define MPI_T_PVAR_ALL_HANDLES ((MPI_T_pvar_handle)-1)
enum {
    MPI_T_VERBOSITY_USER_BASIC = 221, MPI_T_VERBOSITY_USER_DETAIL, MPI_T_VERBOSITY_USER_ALL,
    MPI_T_VERBOSITY_TUNER_BASIC, MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
    MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL, MPI_T_VERBOSITY_MPIDEV_ALL
};
enum {
    MPI_T_BIND_NO_OBJECT = 9700, MPI_T_BIND_MPI_COMM, MPI_T_BIND_MPI_DATATYPE,
    MPI_T_BIND_MPI_ERRHANDLER, MPI_T_BIND_MPI_FILE, MPI_T_BIND_MPI_GROUP, MPI_T_BIND_MPI_OP,
    MPI_T_BIND_MPI_REQUEST, MPI_T_BIND_MPI_WIN, MPI_T_BIND_MPI_MESSAGE, MPI_T_BIND_MPI_INFO,
    MPI_T_BIND_MPI_SESSION
};
enum {
    MPI_T_SCOPE_CONSTANT = 60438, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL, MPI_T_SCOPE_GROUP,
    MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL, MPI_T_SCOPE_ALL_EQ
};
enum {
    MPI_T_PVAR_CLASS_STATE = 240, MPI_T_PVAR_CLASS_LEVEL, MPI_T_PVAR_CLASS_SIZE,
    MPI_T_PVAR_CLASS_PERCENTAGE, MPI_T_PVAR_CLASS_HIGHWATERMARK,
    MPI_T_PVAR_CLASS_LOWWATERMARK, MPI_T_PVAR_CLASS_COUNTER, MPI_T_PVAR_CLASS_AGGREGATE,
    MPI_T_PVAR_CLASS_TIMER, MPI_T_PVAR_CLASS_GENERIC
};
int MPI_T_init_thread(int required, int *provided);
int MPI_T_finalize(void);
int MPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len);
int MPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len);
int MPI_T_cvar_get_num(int *num_cvar);
int MPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity,
                        MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len,
                        int *bind, int *scope);
int MPI_T_cvar_get_index(const char *name, int *cvar_index);
int MPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle,
                            int *count);
int MPI_T_cvar_handle_free(MPI_T_cvar_handle *handle);
int MPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf);
int MPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf);
int MPI_T_pvar_get_num(int *num_pvar);
int MPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity,
                        int *var_class, MPI_Datatype *datatype, MPI_T_enum *enumtype,
                        char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                        int *atomic);
int MPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index);
int MPI_T_pvar_session_create(MPI_T_pvar_session *session);
int MPI_T_pvar_session_free(MPI_T_pvar_session *session);
int MPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle,
                            MPI_T_pvar_handle *handle, int *count);
int MPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle);
int MPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
int MPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf);
int MPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int MPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf);
int MPI_T_category_get_num(int *num_cat);
int MPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                            int *desc_len, int *num_cvars, int *num_pvars,
                            int *num_categories);
int MPI_T_category_get_num_events(int cat_index, int *num_events);
int MPI_T_category_get_index(const char *name, int *cat_index);
int MPI_T_category_get_cvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_pvars(int cat_index, int len, int indices[]);
int MPI_T_category_get_categories(int cat_index, int len, int indices[]);
int MPI_T_category_get_events(int cat_index, int len, int indices[]);
int MPI_T_category_changed(int *update_number);
int MPI_T_source_get_num(int *num_sources);
int MPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc,
                          int *desc_len, MPI_T_source_order *ordering, MPI_Count *ticks_per_second,
                          MPI_Count *max_ticks, MPI_Info *info);
int MPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp);
int MPI_T_event_get_num(int *num_events);
int MPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                         MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                         int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                         int *desc_len, int *bind);
int MPI_T_event_get_index(const char *name, int *event_index);
int MPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                             MPI_T_event_registration *event_registration);
int MPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info);
int MPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                MPI_Info *info_used);
int MPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                  MPI_T_event_cb_function *event_cb_function);
int MPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info info);
int MPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                  MPI_T_cb_safety cb_safety, MPI_Info *info_used);
int MPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                            MPI_T_event_free_cb_function *free_cb_function);
int MPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                    MPI_T_event_dropped_cb_function *dropped_cb_function);
int MPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer);
int MPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer);
int MPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp);
int MPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index);

/* ---- The profiling interface (PMPI_) ----------------------------------------------------- */
/* MPI-3.1 14.2: every MPI_ call above is also declared, defined and exported as PMPI_ (same
 * arguments). pmpi.h is generated from this header (tools/gen-pmpi; make regenerates it), so
 * a call added anywhere above has its PMPI_ form with nothing else to write. Included last:
 * its prototypes may use any type declared above. */
/* MPI-3.1 14.2.4: for profiling tools only (a tool's MPI_Pcontrol reads level: 0 off, 1 on,
 * 2 flush...); rmp's does nothing and returns MPI_SUCCESS, whatever the arguments. */
int MPI_Pcontrol(const int level, ...);
/* MPI-IO: files, views, data access (its own header). */
#include "mpi_io.h"
#ifndef RMP_PMPI_GENERATING
#include "pmpi.h"
#endif



#ifdef __cplusplus
}
#endif
#endif /* RMP_MPI_H */
