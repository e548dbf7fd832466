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
#define MPI_COMM_TYPE_HW_GUIDED RMP_COMM_TYPE_HW_GUIDED /* MPI-4.0: rmp/rmp_comm_hw.h */
#define MPI_COMM_TYPE_HW_UNGUIDED RMP_COMM_TYPE_HW_UNGUIDED

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

/* ---- User-defined reductions ------------------------------------------------------------ */
/* void fn(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype): inoutvec[i] =
 * invec[i] op inoutvec[i] for *len elements (MPI_Datatype is rmp_datatype_t). */
typedef rmp_user_function MPI_User_function;
/* MPI-4.0's large-count form (MPI_Op_create_c): *len is an MPI_Count (long long). */
typedef rmp_user_function_c MPI_User_function_c;

/* ---- OSU micro-benchmark support: names, windows and one-sided, topologies, neighbourhood ---
 * (What the OSU micro-benchmarks' shared utility code refers to, so that their programs build
 * unchanged with rmpcc/rmpicxx.) */
#define MPI_MAX_OBJECT_NAME RMP_MAX_OBJECT_NAME

/* Windows (MPI-3.1 ch. 11): creation and free are collectives (every rank's base, size and
 * displacement unit are exchanged; MPI_Win_allocate allocates, MPI_Win_free waits for all
 * ranks and frees). info: hints, kept (MPI_Win_get_info). Creation errors are raised on the
 * communicator's handler, the others on the window's once the program set one
 * (MPI_Win_set_errhandler), else (and for an invalid window) on MPI_COMM_WORLD's. */
typedef rmp_win_t MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)RMP_WIN_NULL)

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

/* Process topologies (MPI_Comm_dup copies them). reorder is ignored (ranks keep their
 * order); MPI_Cart_create gives MPI_COMM_NULL to the ranks past the grid; MPI_Cart_rank wraps
 * periodic dimensions and raises MPI_ERR_RANK off a non-periodic one. */
#define MPI_CART RMP_CART
#define MPI_DIST_GRAPH RMP_DIST_GRAPH
#define MPI_UNWEIGHTED RMP_UNWEIGHTED
#define MPI_WEIGHTS_EMPTY RMP_WEIGHTS_EMPTY

/* ---- Intercommunicators ------------------------------------------------------------------ */
#define MPI_ROOT RMP_ROOT

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

/* User error classes, codes and strings (MPI-3.1 8.5): new classes and codes are numbered
 * from MPI_ERR_LASTCODE + 1 up (MPI_LASTUSEDCODE tells the last); MPI_Error_class and
 * MPI_Error_string know them (a code or class with no string added has the string "").
 * Strings may be added only to user codes and classes (else MPI_ERR_ARG), and must be
 * shorter than MPI_MAX_ERROR_STRING. */
#define MPI_ERR_LASTCODE 127

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

#define MPI_TYPECLASS_INTEGER RMP_TYPECLASS_INTEGER
#define MPI_TYPECLASS_REAL RMP_TYPECLASS_REAL
#define MPI_TYPECLASS_COMPLEX RMP_TYPECLASS_COMPLEX

/* ---- Groups, topologies, requests -------------------------------------------------------- */

/* Graph topologies (MPI_Topo_test: MPI_GRAPH; the neighbourhood collectives exchange with
 * MPI_Graph_neighbors' list, in its order), the mapping queries (ranks are not reordered: my
 * rank if it is in the topology, else MPI_UNDEFINED), MPI_Cart_sub (keeping no dimension:
 * rank 0 gets a 0-dimensional grid of itself, the others MPI_COMM_NULL, as MPICH) and the general
 * MPI_Dist_graph_create (neighbours listed by the rank that gave the edge, then in the order
 * it gave them). */
#define MPI_GRAPH RMP_GRAPH

typedef int MPI_Grequest_query_function(void *extra_state, MPI_Status *status);
typedef int MPI_Grequest_free_function(void *extra_state);
typedef int MPI_Grequest_cancel_function(void *extra_state, int complete);

/* ---- MPI-4: persistent collectives, Isendrecv, large counts ------------------------------ */

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

/* ---- MPI-4.0 and 4.1 calls (mpi/mpi41.c, mpi/buffers.c, mpi/errclass.c) --------------- */

/* Buffered sends (MPI-4.1 3.6): a communicator's own buffer serves the bsends on it, the
 * process's (MPI_Buffer_attach) the others. MPI_BUFFER_AUTOMATIC as the address: rmp
 * allocates each message's space as needed (size ignored; detach returns it and 0). Flush
 * waits until the messages buffered before the call were sent (the buffer stays attached);
 * iflush returns a request that completes then. Detach waits the same and detaches; freeing a
 * communicator detaches its buffer. A session's buffer: MPI_Session_attach_buffer (api/mpi.api). */
#define MPI_BUFFER_AUTOMATIC RMP_BUFFER_AUTOMATIC

/* ---- Handle conversion for Fortran (MPI-3.1 17.2.4) ----------------------------------------- */
/* rmp has no Fortran bindings, but C code that hands handles to Fortran, or keeps them as
 * integers, converts them: a communicator, datatype, group, info, op, errhandler or window is
 * an int already (c2f and f2c are the identity); a request or message (a pointer here) gets
 * a small integer of its own, the same one each time (0 for the null handle), held until
 * the program ends. A status is MPI_STATUS_SIZE integers. */
#define MPI_STATUS_SIZE ((int)(sizeof(MPI_Status) / sizeof(MPI_Fint)))
/* mpif.h's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are these COMMON blocks (mpi/fsentinel.c):
 * C code handed a Fortran status knows them by their addresses. */
extern MPI_Fint rmpi_status_ignore_[];
extern MPI_Fint rmpi_statuses_ignore_[];
#define MPI_F_STATUS_IGNORE (rmpi_status_ignore_)
#define MPI_F_STATUSES_IGNORE (rmpi_statuses_ignore_)

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

/* ---- The calls (include/rmp/mpi_proto.h, generated from api/mpi.api) ----------------------
 * Every MPI_ function rmp implements is one entry of api/mpi.api (its arguments' kinds,
 * directions, its large-count twin); tools/gen-api writes their prototypes into
 * mpi_proto.h, included here, after every type they use. */
/* MPI-4.0 large counts: the _c forms take MPI_Count counts (and MPI_Aint displacements in the
 * v-forms). A count up to INT_MAX goes straight to the int form; a larger one WORKS: it becomes
 * one element of a derived type (point-to-point, bcast, gather, scatter, allgather, alltoall;
 * one message), reductions go in pieces, and the v-forms whose counts or displacements pass
 * int run as an alltoallw with a type per peer (after one small allreduce by which the ranks
 * agree to: the one extra cost of the v-forms). MPI_ERR_COUNT only for MPI_Alltoallv_c in place
 * with such counts. Test knob: RMPI_BIGCOUNT_LIMIT=<n> lowers INT_MAX to n in these calls. */
#include "mpi_dynamic.h" /* issue 37: ports, accept/connect, join: constants */
#include "mpi_fortran.h" /* MPI_F08_status and its IGNORE sentinels */
#include "mpi_io.h"      /* MPI-IO: MPI_File, modes, datarep callbacks */
#include "mpi_proto.h"

/* ---- The profiling interface (PMPI_) ----------------------------------------------------- */
/* MPI-3.1 14.2: every MPI_ call above is also declared, defined and exported as PMPI_ (same
 * arguments). pmpi.h is generated from this header (tools/gen-pmpi; make regenerates it), so
 * a call added anywhere above has its PMPI_ form with nothing else to write. Included last:
 * its prototypes may use any type declared above. */
#ifndef RMP_PMPI_GENERATING
#include "pmpi.h"
#endif

#ifdef __cplusplus
}
#endif
#endif /* RMP_MPI_H */
