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
/* MPI-4.0 and 4.1's: an invalid or finalized session handle; a peer process gone (it ended,
 * was killed or aborted: rmp's RMP_ERR_PEER); an output value an int cannot hold
 * (MPI_Pack_size of more than INT_MAX bytes); an error handler that is not one (never made, or
 * freed: MPI_ERRHANDLER_NULL stays MPI_ERR_ARG, as MPICH and Open MPI say, and a live handler
 * of another kind of object too). */
#define MPI_ERR_SESSION 76
#define MPI_ERR_PROC_ABORTED 77
#define MPI_ERR_VALUE_TOO_LARGE 78
#define MPI_ERR_ERRHANDLER 79
#define MPI_ERR_LASTCLASS 79

#include "mpi_comm.h"  /* reductions, windows, communicators, info, attributes */
#include "mpi_types.h" /* datatypes, groups, topologies, requests, MPI-4 */
#include "mpi_tool.h"  /* Fortran handle conversion, MPI_T */

/* ---- The calls (mpi_proto.h, generated from api/mpi.api by make, never committed) -------
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
