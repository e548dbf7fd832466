/* rmp/mpi_types.h — the datatypes' side of the MPI binding's constants: constructors, decoding,
 * packing, predefined types and ops, groups, topologies, requests, MPI-4's additions.
 * Part of mpi.h, which includes it after the handle types, constants and error classes
 * (never on its own). */
#ifndef RMP_MPI_TYPES_H
#define RMP_MPI_TYPES_H

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

#endif
