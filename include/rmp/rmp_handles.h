/* rmp/rmp_handles.h — the handle types every area shares (communicators, datatypes, ops, requests) and the
 * status of a completed operation.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_HANDLES_H
#define RMP_API_HANDLES_H

/* ---- Handles ---------------------------------------------------------------------------- */
typedef int rmp_comm_t;                    /* communicator handle */
#define RMP_COMM_WORLD ((rmp_comm_t)0)
#define RMP_COMM_SELF ((rmp_comm_t)1)
/* Never negative, no handle of an int kind is (as in MPICH): a binding that reads a handle's
 * bytes as an unsigned integer (mpi4py) then finds the same value as a cast to uintptr_t. */
#define RMP_COMM_NULL ((rmp_comm_t)0x04000000)

typedef int rmp_datatype_t;                /* datatype handle */
#define RMP_DATATYPE_NULL ((rmp_datatype_t)0)
#define RMP_INT8 ((rmp_datatype_t)1)
#define RMP_INT16 ((rmp_datatype_t)2)
#define RMP_INT32 ((rmp_datatype_t)3)
#define RMP_INT64 ((rmp_datatype_t)4)
#define RMP_UINT8 ((rmp_datatype_t)5)
#define RMP_UINT16 ((rmp_datatype_t)6)
#define RMP_UINT32 ((rmp_datatype_t)7)
#define RMP_UINT64 ((rmp_datatype_t)8)
#define RMP_FLOAT ((rmp_datatype_t)9)
#define RMP_DOUBLE ((rmp_datatype_t)10)
#define RMP_BYTE ((rmp_datatype_t)11)
/* Pairs for RMP_MINLOC / RMP_MAXLOC, laid out as the C structs {T value; int index;}: int,
 * float, double, long and short values (int, float and double also as RMP_2INT etc.). */
#define RMP_2INT ((rmp_datatype_t)12)
#define RMP_FLOAT_INT ((rmp_datatype_t)13)
#define RMP_DOUBLE_INT ((rmp_datatype_t)14)
#define RMP_LONG_INT ((rmp_datatype_t)15)
#define RMP_SHORT_INT ((rmp_datatype_t)16)
#define RMP_INT RMP_INT32
#define RMP_CHAR RMP_INT8

typedef int rmp_op_t;                      /* reduction operation */
#define RMP_OP_NULL ((rmp_op_t)0)
#define RMP_SUM ((rmp_op_t)1)
#define RMP_PROD ((rmp_op_t)2)
#define RMP_MIN ((rmp_op_t)3)
#define RMP_MAX ((rmp_op_t)4)
#define RMP_BAND ((rmp_op_t)5)              /* bitwise ops: integer types and RMP_BYTE */
#define RMP_BOR ((rmp_op_t)6)
#define RMP_BXOR ((rmp_op_t)7)
#define RMP_LAND ((rmp_op_t)8)              /* logical ops: integer and floating types */
#define RMP_LOR ((rmp_op_t)9)
/* On the pair types only: the smallest (largest) value and its index; on ties, the smallest
 * index. */
#define RMP_MINLOC ((rmp_op_t)10)
#define RMP_MAXLOC ((rmp_op_t)11)

/* Nonblocking operation handle. Opaque: not the address of anything, only compared and
 * passed back to rmp. Once its request is freed (by a successful wait/test), every copy of
 * the handle is refused with RMP_ERR_REQUEST, even after rmp reuses the request's storage. */
typedef struct rmp_request *rmp_request_t;
#define RMP_REQUEST_NULL ((rmp_request_t)0)

/* Wildcards and limits */
#define RMP_ANY_SOURCE (-1)
#define RMP_ANY_TAG (-1)
#define RMP_PROC_NULL (-2)                  /* send/recv to it completes at once, moves nothing */
#define RMP_TAG_UB 0x3fffffff               /* the largest valid user tag */
#define RMP_UNDEFINED (-32766)              /* color for rmp_comm_split: not in any new comm */
#define RMP_IN_PLACE ((void *)1)            /* collectives: operate on the receive buffer */

/* Status of a completed receive (and of sends, where only error is meaningful). */
typedef struct rmp_status {
    int source;      /* rank of the sender in the communicator */
    int tag;         /* tag of the message */
    int error;       /* RMP_SUCCESS, RMP_ERR_TRUNCATE, ... */
    int cancelled;   /* 1 if the receive was cancelled */
    size_t count;    /* bytes received */
} rmp_status_t;
#define RMP_STATUS_IGNORE ((rmp_status_t *)0)
#define RMP_STATUSES_IGNORE ((rmp_status_t *)0)

#endif
