/* rmp/rmp_datatype.h — datatypes and reduction ops: sizes, constructors, decoding, packing, the predefined
 * types and ops, user-defined reductions.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_DATATYPE_H
#define RMP_API_DATATYPE_H

/* ---- Datatypes -------------------------------------------------------------------------- */
/* Bytes of data in one element (derived types: data only, no gaps). */
int rmp_type_size(rmp_datatype_t type, size_t *size);
/* Span of one element in memory, gaps included. */
int rmp_type_extent(rmp_datatype_t type, size_t *extent);
/* `count` consecutive elements of `old`. */
int rmp_type_contiguous(int count, rmp_datatype_t old, rmp_datatype_t *newtype);
/* `count` blocks of `blocklen` elements of `old`, block starts `stride` elements apart (a
 * negative stride: the blocks go backwards from the origin). */
int rmp_type_vector(int count, int blocklen, int stride, rmp_datatype_t old,
                    rmp_datatype_t *newtype);
/* count blocks: blocklens[i] elements of old at displs[i] extents of old (indexed) or bytes
 * (hindexed) from the origin; displacements may be negative and in any order. */
int rmp_type_indexed(int count, const int blocklens[], const int displs[], rmp_datatype_t old,
                     rmp_datatype_t *newtype);
int rmp_type_create_hindexed(int count, const int blocklens[], const ptrdiff_t displs[],
                             rmp_datatype_t old, rmp_datatype_t *newtype);
/* The same with a type per block (a C struct: offsetof gives the displacements). The extent
 * is padded up to the strictest alignment of the member types, as C pads a struct ({int,
 * char}: 8), unless a member was resized (its bounds are the user's: no padding). */
int rmp_type_create_struct(int count, const int blocklens[], const ptrdiff_t displs[],
                           const rmp_datatype_t types[], rmp_datatype_t *newtype);
/* old with its lower bound and extent set (extent >= 0): element i starts i * extent bytes
 * after element 0. */
int rmp_type_create_resized(rmp_datatype_t old, ptrdiff_t lb, ptrdiff_t extent,
                            rmp_datatype_t *newtype);
/* Lower bound and extent in bytes (derived types may start before their origin). */
int rmp_type_get_extent(rmp_datatype_t type, ptrdiff_t *lb, ptrdiff_t *extent);
/* A derived type must be committed before use in communication. */
int rmp_type_commit(rmp_datatype_t *type);
/* Free a derived type (*type becomes RMP_DATATYPE_NULL); builtins give RMP_ERR_TYPE. */
int rmp_type_free(rmp_datatype_t *type);
/* Number of whole elements of `type` in a status (RMP_UNDEFINED if not a whole number). */
int rmp_get_count(const rmp_status_t *status, rmp_datatype_t type, int *count);
/* Number of basic elements (int, double, ...; a pair counts two) in a status: also for a
 * message that ends inside an element of type (RMP_UNDEFINED inside a basic one). */
int rmp_get_elements(const rmp_status_t *status, rmp_datatype_t type, int *count);

/* User-defined reductions, as MPI defines them: fn computes inoutvec[i] = invec[i] op
 * inoutvec[i] for *len elements of *datatype (in the type's memory layout). commute = 0 makes
 * the collectives combine in rank order (slower algorithms); fn must not call rmp. */
typedef void rmp_user_function(void *invec, void *inoutvec, int *len, rmp_datatype_t *datatype);
int rmp_op_create(rmp_user_function *fn, int commute, rmp_op_t *op);
/* The same with a long long len (MPI-4's MPI_Op_create_c): fn is called once over any number
 * of contiguous elements. */
typedef void rmp_user_function_c(void *invec, void *inoutvec, long long *len,
                                 rmp_datatype_t *datatype);
int rmp_op_create_c(rmp_user_function_c *fn, int commute, rmp_op_t *op);
/* *op becomes RMP_OP_NULL; builtin ops give RMP_ERR_OP. */
int rmp_op_free(rmp_op_t *op);

#define RMP_MAX_OBJECT_NAME 64 /* names fit in this many bytes, the NUL included */
/* The type's name: "RMP_INT8" ... for the builtins, "" for a derived type. Thread-safe;
 * *resultlen (may be NULL) gets strlen(name). name must hold RMP_MAX_OBJECT_NAME bytes. */
int rmp_type_get_name(rmp_datatype_t type, char *name, int *resultlen);

/* ---- Datatypes: constructors, decoding, packing; predefined types and ops ---------------- */
/* -- type constructors, decoding, packing -- */
/* The bytes of a packed buffer (rmp_pack): size and extent 1. Sending with it moves bytes. */
#define RMP_PACKED ((rmp_datatype_t)27)
/* The buffer argument for a type whose displacements are absolute addresses
 * (rmp_get_address): point-to-point calls and rmp_pack/rmp_unpack accept it. */
#define RMP_BOTTOM ((void *)0)
/* The address of location, for absolute displacements (RMP_BOTTOM). */
int rmp_get_address(const void *location, ptrdiff_t *address);

/* count blocks of blocklen old elements, block i at i*stride BYTES (any sign). */
int rmp_type_create_hvector(int count, int blocklen, ptrdiff_t stride, rmp_datatype_t old,
                            rmp_datatype_t *newtype);
/* count blocks of the same length blocklen at displs[i] old extents (indexed_block) or
 * bytes (hindexed_block). */
int rmp_type_create_indexed_block(int count, int blocklen, const int displs[],
                                  rmp_datatype_t old, rmp_datatype_t *newtype);
int rmp_type_create_hindexed_block(int count, int blocklen, const ptrdiff_t displs[],
                                   rmp_datatype_t old, rmp_datatype_t *newtype);
#define RMP_ORDER_C 56       /* row-major: the last dimension varies fastest */
#define RMP_ORDER_FORTRAN 57 /* column-major: the first one does */
/* The subarray subsizes[] at starts[] of an ndims-dimensional array sizes[] of old: lower
 * bound 0, extent the whole array. RMP_ERR_ARG for ndims < 1, sizes < 1, subsizes < 0, a
 * subarray not inside the array or another order. */
int rmp_type_create_subarray(int ndims, const int sizes[], const int subsizes[],
                             const int starts[], int order, rmp_datatype_t old,
                             rmp_datatype_t *newtype);
#define RMP_DISTRIBUTE_BLOCK 121
#define RMP_DISTRIBUTE_CYCLIC 122
#define RMP_DISTRIBUTE_NONE 123
#define RMP_DISTRIBUTE_DFLT_DARG (-49767)
/* Process rank's part of the array gsizes[] distributed over the process grid psizes[]
 * (size processes, numbered row-major), as MPI_Type_create_darray: per dimension BLOCK
 * (block darg, default ceil(gsize/psize)), CYCLIC (cyclic(darg), default 1) or NONE (psize 1).
 * Lower bound 0, extent the whole array. RMP_ERR_ARG for an invalid argument. */
int rmp_type_create_darray(int size, int rank, int ndims, const int gsizes[],
                           const int distribs[], const int dargs[], const int psizes[],
                           int order, rmp_datatype_t old, rmp_datatype_t *newtype);
/* The same type under a new handle (committed if old is). */
int rmp_type_dup(rmp_datatype_t old, rmp_datatype_t *newtype);
/* Where the data of one element really lies: from true_lb, true_extent bytes. */
int rmp_type_get_true_extent(rmp_datatype_t type, ptrdiff_t *true_lb, ptrdiff_t *true_extent);
/* rmp_get_elements without the int limit. */
int rmp_get_elements_x(const rmp_status_t *status, rmp_datatype_t type, long long *count);

/* How a type was built (MPI's values). */
enum {
    RMP_COMBINER_NAMED = 1, RMP_COMBINER_DUP, RMP_COMBINER_CONTIGUOUS, RMP_COMBINER_VECTOR,
    RMP_COMBINER_HVECTOR_INTEGER, RMP_COMBINER_HVECTOR, RMP_COMBINER_INDEXED,
    RMP_COMBINER_HINDEXED_INTEGER, RMP_COMBINER_HINDEXED, RMP_COMBINER_INDEXED_BLOCK,
    RMP_COMBINER_STRUCT_INTEGER, RMP_COMBINER_STRUCT, RMP_COMBINER_SUBARRAY,
    RMP_COMBINER_DARRAY, RMP_COMBINER_F90_REAL, RMP_COMBINER_F90_COMPLEX,
    RMP_COMBINER_F90_INTEGER, RMP_COMBINER_RESIZED, RMP_COMBINER_HINDEXED_BLOCK
};
/* The combiner and how many integer, address and datatype arguments it took (builtins:
 * RMP_COMBINER_NAMED and 0, 0, 0). */
int rmp_type_get_envelope(rmp_datatype_t type, int *num_integers, int *num_addresses,
                          int *num_datatypes, int *combiner);
/* Those arguments, as MPI_Type_get_contents lists them per combiner. A derived datatype
 * returned is a new handle for the same type (free it); builtins are returned as they are.
 * RMP_ERR_TYPE for a builtin type, RMP_ERR_ARG if an array is too short. */
int rmp_type_get_contents(rmp_datatype_t type, int max_integers, int max_addresses,
                          int max_datatypes, int integers[], ptrdiff_t addresses[],
                          rmp_datatype_t datatypes[]);

/* Pack incount elements of type at inbuf into outbuf[*position..outsize), advancing
 * *position; rmp_unpack the reverse. The bytes are the elements' data in typemap order;
 * RMP_ERR_TRUNCATE when they do not fit in (are not all in) the buffer. */
int rmp_pack(const void *inbuf, int incount, rmp_datatype_t type, void *outbuf, size_t outsize,
             size_t *position);
int rmp_unpack(const void *inbuf, size_t insize, size_t *position, void *outbuf, int outcount,
               rmp_datatype_t type);
/* An upper bound of the bytes rmp_pack writes for incount elements of type. */
int rmp_pack_size(int incount, rmp_datatype_t type, size_t *size);
/* The same in a portable representation: datarep "external32" (big-endian, IEEE floats;
 * rmp's sizes); another datarep gives RMP_ERR_ARG. */
int rmp_pack_external(const char *datarep, const void *inbuf, int incount, rmp_datatype_t type,
                      void *outbuf, size_t outsize, size_t *position);
int rmp_unpack_external(const char *datarep, const void *inbuf, size_t insize, size_t *position,
                        void *outbuf, int outcount, rmp_datatype_t type);
int rmp_pack_external_size(const char *datarep, int incount, rmp_datatype_t type, size_t *size);


/* -- predefined types and ops -- */
/* More builtin types (handles below DT_FIRST_DERIVED; each its own reduction kernels). */
#define RMP_LONG_DOUBLE ((rmp_datatype_t)17)      /* long double (x86-64: 16 bytes) */
#define RMP_WCHAR ((rmp_datatype_t)18)            /* wchar_t: no reduction op */
#define RMP_C_BOOL ((rmp_datatype_t)19)           /* _Bool: logical ops only */
#define RMP_C_FLOAT_COMPLEX ((rmp_datatype_t)20)  /* float _Complex: sum and product */
#define RMP_C_DOUBLE_COMPLEX ((rmp_datatype_t)21) /* double _Complex */
#define RMP_C_LONG_DOUBLE_COMPLEX ((rmp_datatype_t)22) /* long double _Complex */
#define RMP_LONG_DOUBLE_INT ((rmp_datatype_t)23)  /* {long double value; int index;} */
#define RMP_LOGICAL ((rmp_datatype_t)24)          /* Fortran LOGICAL (4 bytes, 0 false):
                                                   * logical ops only, results 0 or 1 */
#define RMP_2REAL ((rmp_datatype_t)25)            /* Fortran pairs: {float v, i} and */
#define RMP_2DOUBLE_PRECISION ((rmp_datatype_t)26) /* {double v, i}, index of the value's type */

/* Named synonyms: handles of their own for the named types of a binding (MPI's MPI_INT32_T
 * beside MPI_INT, MPI_INTEGER, MPI_CXX_BOOL...), each with the memory layout, the reduction
 * ops and the message bytes of the builtin in its comment, so the two interoperate (a send of
 * one is received as the other). They differ in their names (rmp_type_get_name) and in
 * external32, where a type's size is the standard's for its name (RMP_LONG takes 4 bytes
 * there, RMP_INT64_T 8). rmp_type_free refuses them, like every builtin. */
#define RMP_SIGNED_CHAR ((rmp_datatype_t)28)     /* RMP_INT8 */
#define RMP_INT8_T ((rmp_datatype_t)29)          /* RMP_INT8 */
#define RMP_INT16_T ((rmp_datatype_t)30)         /* RMP_INT16 */
#define RMP_INT32_T ((rmp_datatype_t)31)         /* RMP_INT32 */
#define RMP_INT64_T ((rmp_datatype_t)32)         /* RMP_INT64 */
#define RMP_UINT8_T ((rmp_datatype_t)33)         /* RMP_UINT8 */
#define RMP_UINT16_T ((rmp_datatype_t)34)        /* RMP_UINT16 */
#define RMP_UINT32_T ((rmp_datatype_t)35)        /* RMP_UINT32 */
#define RMP_UINT64_T ((rmp_datatype_t)36)        /* RMP_UINT64 */
#define RMP_LONG ((rmp_datatype_t)37)            /* C long: RMP_INT64 (LP64) or RMP_INT32 */
#define RMP_UNSIGNED_LONG ((rmp_datatype_t)38)   /* unsigned long: RMP_UINT64 or RMP_UINT32 */
#define RMP_LONG_LONG ((rmp_datatype_t)39)       /* RMP_INT64 */
#define RMP_AINT ((rmp_datatype_t)40)            /* ptrdiff_t: RMP_INT64 (LP64) or RMP_INT32 */
#define RMP_OFFSET ((rmp_datatype_t)41)          /* RMP_INT64 */
#define RMP_COUNT ((rmp_datatype_t)42)           /* RMP_INT64 */
#define RMP_C_COMPLEX ((rmp_datatype_t)43)       /* RMP_C_FLOAT_COMPLEX */
#define RMP_CXX_BOOL ((rmp_datatype_t)44)        /* RMP_C_BOOL */
#define RMP_CXX_FLOAT_COMPLEX ((rmp_datatype_t)45)       /* RMP_C_FLOAT_COMPLEX */
#define RMP_CXX_DOUBLE_COMPLEX ((rmp_datatype_t)46)      /* RMP_C_DOUBLE_COMPLEX */
#define RMP_CXX_LONG_DOUBLE_COMPLEX ((rmp_datatype_t)47) /* RMP_C_LONG_DOUBLE_COMPLEX */
/* Fortran's, as gfortran lays them out */
#define RMP_INTEGER ((rmp_datatype_t)48)          /* RMP_INT32 */
#define RMP_REAL ((rmp_datatype_t)49)             /* RMP_FLOAT */
#define RMP_DOUBLE_PRECISION ((rmp_datatype_t)50) /* RMP_DOUBLE */
#define RMP_COMPLEX ((rmp_datatype_t)51)          /* RMP_C_FLOAT_COMPLEX */
#define RMP_DOUBLE_COMPLEX ((rmp_datatype_t)52)   /* RMP_C_DOUBLE_COMPLEX */
#define RMP_CHARACTER ((rmp_datatype_t)53)        /* RMP_INT8 */
#define RMP_INTEGER1 ((rmp_datatype_t)54)         /* RMP_INT8 */
#define RMP_INTEGER2 ((rmp_datatype_t)55)         /* RMP_INT16 */
#define RMP_INTEGER4 ((rmp_datatype_t)56)         /* RMP_INT32 */
#define RMP_INTEGER8 ((rmp_datatype_t)57)         /* RMP_INT64 */
#define RMP_REAL4 ((rmp_datatype_t)58)            /* RMP_FLOAT */
#define RMP_REAL8 ((rmp_datatype_t)59)            /* RMP_DOUBLE */
#define RMP_COMPLEX8 ((rmp_datatype_t)60)         /* RMP_C_FLOAT_COMPLEX */
#define RMP_COMPLEX16 ((rmp_datatype_t)61)        /* RMP_C_DOUBLE_COMPLEX */
#define RMP_2INTEGER ((rmp_datatype_t)62)         /* RMP_2INT */
/* Fortran's LOGICAL*n (nonzero true; logical ops give 1 or 0): LOGICAL4 is RMP_LOGICAL (logical
 * ops only), LOGICAL1 RMP_C_BOOL (logical ops only), LOGICAL2 and LOGICAL8 the integers of
 * their size (logical ops, and the integer ops as an extension) */
#define RMP_LOGICAL1 ((rmp_datatype_t)63)         /* RMP_C_BOOL */
#define RMP_LOGICAL2 ((rmp_datatype_t)64)         /* RMP_INT16 */
#define RMP_LOGICAL4 ((rmp_datatype_t)65)         /* RMP_LOGICAL */
#define RMP_LOGICAL8 ((rmp_datatype_t)66)         /* RMP_INT64 */

/* More ops: RMP_LXOR (logical exclusive or: integer, floating, bool and logical types) is a
 * reduction; RMP_REPLACE and RMP_NO_OP exist for one-sided accumulates and are refused by every
 * reduction (RMP_ERR_OP). Which (op, type) pairs reduce: RMP_SUM and RMP_PROD on integer,
 * floating (long double too) and complex types; RMP_MIN and RMP_MAX on integer and floating;
 * RMP_LAND, RMP_LOR and RMP_LXOR on integer, floating (long double too: nonzero is true, the
 * result 1 or 0 of the type, an extension MPICH has too), RMP_C_BOOL and RMP_LOGICAL;
 * RMP_BAND, RMP_BOR, RMP_BXOR on integer types and RMP_BYTE; RMP_MINLOC and RMP_MAXLOC on the
 * pair types; any other pair is RMP_ERR_OP. */
#define RMP_LXOR ((rmp_op_t)12)
#define RMP_REPLACE ((rmp_op_t)13)
#define RMP_NO_OP ((rmp_op_t)14)

/* inoutbuf[i] = inbuf[i] op inoutbuf[i] for count elements of type, locally (no
 * communication): a builtin op on a type made of one builtin (RMP_ERR_OP otherwise, or for a
 * pair the op does not reduce), or a user op on any committed type. Buffers are in the type's
 * memory layout and must not overlap. */
int rmp_reduce_local(const void *inbuf, void *inoutbuf, int count, rmp_datatype_t type,
                     rmp_op_t op);
/* *commute = 1 for the builtin ops and commutative user ops, 0 otherwise; RMP_ERR_OP for an
 * invalid (or freed) op. */
int rmp_op_commutative(rmp_op_t op, int *commute);

/* Type classes of rmp_type_match_size. */
#define RMP_TYPECLASS_INTEGER 1
#define RMP_TYPECLASS_REAL 2
#define RMP_TYPECLASS_COMPLEX 3
/* The builtin type of a class with the given size in bytes: integer 1, 2, 4, 8 (RMP_INTEGER1
 * ... RMP_INTEGER8); real 4, 8, sizeof(long double) (RMP_REAL4, RMP_REAL8, RMP_LONG_DOUBLE);
 * complex twice those (RMP_COMPLEX8, RMP_COMPLEX16, RMP_C_LONG_DOUBLE_COMPLEX). RMP_ERR_ARG for
 * another class or a size no type has. */
int rmp_type_match_size(int typeclass, int size, rmp_datatype_t *type);
/* The smallest builtin type with at least the decimal exponent range r (integers: |x| <
 * 10^r) and precision p (decimal digits), as Fortran's selected_int_kind and
 * selected_real_kind choose: integers as RMP_INTEGER1 (range 2), INTEGER2 (4), INTEGER4 (9),
 * INTEGER8 (18); reals as RMP_REAL4, REAL8, LONG_DOUBLE (their <float.h> digits and ranges);
 * complex types the
 * same over the complex types. RMP_UNDEFINED for p or r leaves it free (not both: RMP_ERR_ARG);
 * RMP_ERR_ARG when no type is large enough. */
int rmp_type_create_f90_integer(int r, rmp_datatype_t *type);
int rmp_type_create_f90_real(int p, int r, rmp_datatype_t *type);
int rmp_type_create_f90_complex(int p, int r, rmp_datatype_t *type);

#endif
