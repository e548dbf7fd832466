/* rmp.h — the public API of rmp, a small message-passing runtime (an MPI subset).
 * This is the only header a program includes. Every function returns RMP_SUCCESS (0) or a
 * negative RMP_ERR_* code; rmp_strerror() turns a code into a sentence. */
#ifndef RMP_H
#define RMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RMP_VERSION_MAJOR 0
#define RMP_VERSION_MINOR 1
#define RMP_VERSION_PATCH 0
#define RMP_VERSION_STRING "0.1.0"

/* ---- Error codes ------------------------------------------------------------------------ */
enum {
    RMP_SUCCESS = 0,
    RMP_ERR_ARG = -1,             /* an invalid argument (NULL pointer where one is needed...) */
    RMP_ERR_COMM = -2,            /* invalid or freed communicator */
    RMP_ERR_RANK = -3,            /* rank out of range for the communicator */
    RMP_ERR_TAG = -4,             /* tag negative (other than RMP_ANY_TAG) or > RMP_TAG_UB */
    RMP_ERR_COUNT = -5,           /* negative count, or count elements of the type would take
                                     more than PTRDIFF_MAX bytes of data or of memory span */
    RMP_ERR_TYPE = -6,            /* invalid, freed or uncommitted datatype */
    RMP_ERR_OP = -7,              /* invalid reduction op, or op not defined for the type */
    RMP_ERR_BUFFER = -8,          /* NULL buffer with a non-zero count; bsend: the attached
                                     buffer has no room for the message */
    RMP_ERR_TRUNCATE = -9,        /* message longer than the receive buffer (data cut, safe) */
    RMP_ERR_REQUEST = -10,        /* not a live request: never returned by rmp, already
                                     completed and freed (a stale copy), or listed twice */
    RMP_ERR_ROOT = -11,           /* invalid root of a collective */
    RMP_ERR_NOT_INITIALIZED = -12,/* called before rmp_init, after rmp_finalize, or in a child
                                   * forked after rmp_init (rmp belongs to the rank) */
    RMP_ERR_INITIALIZED = -13,    /* rmp_init called twice */
    RMP_ERR_NO_MEM = -14,         /* out of memory */
    RMP_ERR_TRANSPORT = -15,      /* a transport failed (details printed on stderr) */
    RMP_ERR_PEER = -16,           /* the peer process is gone or unreachable */
    RMP_ERR_IN_STATUS = -17,      /* waitall/testall: see each status' error field */
    RMP_ERR_THREAD = -18,         /* call not allowed at the thread level provided */
    RMP_ERR_BOOTSTRAP = -19,      /* PMIx failed */
    RMP_ERR_NOT_SUPPORTED = -20,  /* not supported by this build or device */
    RMP_ERR_INTERNAL = -21,       /* a bug in rmp: please report */
    RMP_ERR_GROUP = -22,          /* invalid or freed group */
    RMP_ERR_TOPOLOGY = -23,       /* the communicator has no topology of the kind needed */
    RMP_ERR_DIMS = -24,           /* invalid dimensions (negative, or not the product asked) */
    RMP_ERR_WIN = -25,            /* invalid or freed window */
    RMP_ERR_KEYVAL = -26,         /* invalid or freed attribute key, or one for another kind
                                     of object */
    RMP_ERR_INFO = -27,           /* invalid or freed info object */
    RMP_ERR_INFO_KEY = -28,       /* info key empty or longer than RMP_MAX_INFO_KEY */
    RMP_ERR_INFO_VALUE = -29,     /* info value longer than RMP_MAX_INFO_VAL */
    RMP_ERR_INFO_NOKEY = -30,     /* info key not set */
    RMP_ERR_PENDING = -31,        /* waitall/testall: a request in the list has not completed */
    RMP_ERR_RMA_RANGE = -32,      /* one-sided: the access lies outside the target's window */
    RMP_ERR_RMA_SYNC = -33,       /* one-sided: no epoch allows this call now (an operation
                                     outside an access epoch, a double lock, unlock without
                                     lock, a window freed with an epoch open) */
    RMP_ERR_RMA_FLAVOR = -34,     /* one-sided: the window's flavor cannot do this call */
    RMP_ERR_RMA_ATTACH = -35,     /* dynamic window: attach overlaps an attached region */
    RMP_ERR_RMA_SHARED = -36,     /* allocate_shared: the ranks do not share memory */
    RMP_ERR_PORT = -37,           /* dynamic processes: a port name that is garbage, closed or
                                   * another user's, or nobody answered there in time */
    RMP_ERR_SPAWN = -38,          /* rmp_comm_spawn: the children could not be started (bad
                                   * command, directory or info value; they died or never
                                   * connected): one line on stderr says which */
    RMP_ERR_NAME = -39,           /* rmp_lookup_name: no port published under that service */
    RMP_ERR_SERVICE = -40,        /* rmp_unpublish_name: the service is not published */
    /* I/O (include/rmp/io.h): the file system's failures, each with its MPI class */
    RMP_ERR_FILE = -41,           /* invalid or closed file handle */
    RMP_ERR_NO_SUCH_FILE = -42,   /* the file does not exist (open without create, delete) */
    RMP_ERR_FILE_EXISTS = -43,    /* open with RMP_FMODE_EXCL of an existing file */
    RMP_ERR_ACCESS = -44,         /* permission denied */
    RMP_ERR_NO_SPACE = -45,       /* no space left on the device */
    RMP_ERR_QUOTA = -46,          /* quota exceeded */
    RMP_ERR_READ_ONLY = -47,      /* a write to a file opened (or a file system mounted) read-only */
    RMP_ERR_FILE_IN_USE = -48,    /* the file is open (delete, or a unique open) */
    RMP_ERR_AMODE = -49,          /* an invalid access mode, or a call the mode forbids */
    RMP_ERR_BAD_FILE = -50,       /* an invalid file name */
    RMP_ERR_DUP_DATAREP = -51,    /* a data representation registered twice */
    RMP_ERR_UNSUPPORTED_DATAREP = -52, /* an unknown data representation */
    RMP_ERR_CONVERSION = -53,     /* a user conversion function failed */
    RMP_ERR_IO = -54,             /* any other I/O failure (details: rmp_file_error_detail) */
    RMP_ERR_LAST = -55
};

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

/* ---- Initialization --------------------------------------------------------------------- */
enum {
    RMP_THREAD_SINGLE = 0,     /* one thread only */
    RMP_THREAD_FUNNELED = 1,   /* many threads, only the one that called init calls rmp */
    RMP_THREAD_SERIALIZED = 2, /* many threads call rmp, never two at once */
    RMP_THREAD_MULTIPLE = 3    /* any thread calls anything at any time */
};

/* Start the runtime. argc/argv may be NULL. Under a PMIx launcher (mrun, srun --mpi=pmix,
 * mpirun) the job's ranks connect; with no launcher the program is a singleton of size 1. */
int rmp_init(int *argc, char ***argv);
/* As rmp_init, asking for a thread level; *provided receives the level granted (always the
 * one required: rmp supports all four). */
int rmp_init_thread(int *argc, char ***argv, int required, int *provided);
/* Complete outstanding communication and shut down. Collective over RMP_COMM_WORLD. */
int rmp_finalize(void);
/* *flag = 1 between rmp_init and rmp_finalize. Callable at any time. */
int rmp_initialized(int *flag);
/* *flag = 1 after rmp_finalize. Callable at any time. */
int rmp_finalized(int *flag);
/* Thread level granted by rmp_init_thread. */
int rmp_query_thread(int *provided);
/* End the whole job (all ranks, through the launcher). Never returns. The job's exit status
 * is code & 255, except that an abort never reports success: a code whose low 8 bits are 0
 * gives 1 (-1 -> 255, 300 -> 44, 0 -> 1, 256 -> 1, 7 -> 7). The launcher is asked to end the
 * job with that status and the rank exits with it itself (some launchers' abort returns). */
int rmp_abort(rmp_comm_t comm, int code);
/* Seconds since an arbitrary point in the past (monotonic clock). */
double rmp_wtime(void);
/* The resolution of rmp_wtime, in seconds. */
double rmp_wtick(void);
/* The version of the library the program runs with (which may differ from the
 * RMP_VERSION_* of the header it was built with): "0.1.0"; major/minor/patch may be NULL. */
const char *rmp_get_version(int *major, int *minor, int *patch);
/* A static, human-readable description of an error code. */
const char *rmp_strerror(int err);

/* ---- Communicators ---------------------------------------------------------------------- */
int rmp_comm_rank(rmp_comm_t comm, int *rank);
int rmp_comm_size(rmp_comm_t comm, int *size);
/* New communicator with the same group and its own matching context. Collective. */
int rmp_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm);
/* Split by color (ranks ordered by key, then by old rank); RMP_UNDEFINED gives
 * RMP_COMM_NULL. Collective. */
int rmp_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm);
/* Free a communicator made by dup/split/create; *comm becomes RMP_COMM_NULL. */
int rmp_comm_free(rmp_comm_t *comm);
/* As rmp_comm_free, once every member got here (collective: a barrier first, so that the
 * communication of all of them on comm has completed, MPI_Comm_disconnect's meaning on a
 * communicator of one job). RMP_ERR_COMM for RMP_COMM_WORLD, RMP_COMM_SELF or an invalid
 * one, before any communication. */
int rmp_comm_disconnect(rmp_comm_t *comm);
/* RMP_IDENT (the same communicator or group), RMP_CONGRUENT (communicators: the same members in
 * the same order, another context), RMP_SIMILAR (the same members in another order) or
 * RMP_UNEQUAL. */
#define RMP_IDENT 0
#define RMP_CONGRUENT 1
#define RMP_SIMILAR 2
#define RMP_UNEQUAL 3
int rmp_comm_compare(rmp_comm_t comm1, rmp_comm_t comm2, int *result);
/* Split by a property of the ranks instead of a color: RMP_COMM_TYPE_SHARED groups the ranks
 * that share a node (the launcher's node map: with `mrun --nodes K`, a virtual node), ordered
 * by key, then by old rank; split_type RMP_UNDEFINED gives RMP_COMM_NULL, any other value
 * RMP_ERR_ARG. Collective (every rank must call, whatever its split_type). */
#define RMP_COMM_TYPE_SHARED 1
int rmp_comm_split_type(rmp_comm_t comm, int split_type, int key, rmp_comm_t *newcomm);

/* ---- Groups: ordered sets of processes, local objects (no communication) ----------------- */
typedef int rmp_group_t;
#define RMP_GROUP_NULL ((rmp_group_t)0x08000000) /* not negative: see RMP_COMM_NULL */
#define RMP_GROUP_EMPTY ((rmp_group_t)0)   /* builtin: never freed */
/* The members of comm, in comm rank order (free it with rmp_group_free). */
int rmp_comm_group(rmp_comm_t comm, rmp_group_t *group);
int rmp_group_size(rmp_group_t group, int *size);
/* My rank in group, RMP_UNDEFINED if I am not a member. */
int rmp_group_rank(rmp_group_t group, int *rank);
/* The n members ranks[0..n-1] of group, in that order (incl), or group without them (excl).
 * A rank out of range or listed twice gives RMP_ERR_RANK; n = 0 gives RMP_GROUP_EMPTY (incl). */
int rmp_group_incl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup);
int rmp_group_excl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup);
/* ranks2[i]: the rank in group2 of the process of rank ranks1[i] in group1 (RMP_UNDEFINED if
 * it is not in group2; RMP_PROC_NULL stays RMP_PROC_NULL, as MPI-2.2 says). */
int rmp_group_translate_ranks(rmp_group_t group1, int n, const int ranks1[], rmp_group_t group2,
                              int ranks2[]);
/* RMP_IDENT (same members, same order), RMP_SIMILAR or RMP_UNEQUAL. */
int rmp_group_compare(rmp_group_t group1, rmp_group_t group2, int *result);
/* *group becomes RMP_GROUP_NULL; RMP_GROUP_EMPTY gives RMP_ERR_GROUP. */
int rmp_group_free(rmp_group_t *group);
/* A communicator of group's members, ordered as in group (collective over comm: every rank of
 * comm passes the same group, which must be a subset of comm, else RMP_ERR_GROUP); the ranks of
 * comm outside group get RMP_COMM_NULL. */
int rmp_comm_create(rmp_comm_t comm, rmp_group_t group, rmp_comm_t *newcomm);

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

/* ---- Point-to-point --------------------------------------------------------------------- */
/* Messages from one sender on one communicator match in the order they were sent. A count of
 * 0 may come with RMP_DATATYPE_NULL (an empty message, as MPICH allows). */
int rmp_send(const void *buf, int count, rmp_datatype_t type, int dest, int tag, rmp_comm_t comm);
int rmp_recv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
             rmp_status_t *status);
int rmp_isend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm, rmp_request_t *req);
int rmp_irecv(void *buf, int count, rmp_datatype_t type, int source, int tag, rmp_comm_t comm,
              rmp_request_t *req);
/* Both halves are checked before anything is posted: an invalid argument leaves every queue
 * as it was. */
int rmp_sendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                 int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype, int source,
                 int recvtag, rmp_comm_t comm, rmp_status_t *status);
/* Wait for / test a request; a completed request is freed and *req set to RMP_REQUEST_NULL
 * (a persistent one only becomes inactive: see rmp_send_init). A NULL request completes at
 * once with an empty status. The return value is the request's
 * error (e.g. RMP_ERR_TRUNCATE), also stored in status->error. */
int rmp_wait(rmp_request_t *req, rmp_status_t *status);
int rmp_test(rmp_request_t *req, int *flag, rmp_status_t *status);
/* statuses may be RMP_STATUSES_IGNORE; on RMP_ERR_IN_STATUS each status holds its error. */
int rmp_waitall(int count, rmp_request_t reqs[], rmp_status_t statuses[]);
int rmp_testall(int count, rmp_request_t reqs[], int *flag, rmp_status_t statuses[]);
/* *index = the completed request's index, or RMP_UNDEFINED if all are NULL. */
int rmp_waitany(int count, rmp_request_t reqs[], int *index, rmp_status_t *status);
/* Block until a matching message can be received; it is not received. A probe naming a
 * source that failed, with nothing of it left to receive, returns the failure (RMP_ERR_PEER or
 * RMP_ERR_TRANSPORT) instead of waiting. */
int rmp_probe(int source, int tag, rmp_comm_t comm, rmp_status_t *status);
int rmp_iprobe(int source, int tag, rmp_comm_t comm, int *flag, rmp_status_t *status);
/* Cancel a posted receive that has not matched yet, or a send, in any mode, whose message no
 * receive has matched yet (even an eager or buffered send that is complete already: its
 * message may wait unmatched at the receiver). The receiver is asked, so the wait that follows
 * needs it to make progress (any rmp call there, or its rmp_finalize, answers); rmp_cancel
 * itself returns at once. Still wait on (or free) the request afterwards: its status says
 * whether it was cancelled (rmp_test_cancelled), never both cancelled and received.
 * Otherwise the operation completes as usual. */
int rmp_cancel(rmp_request_t *req);

/* Send modes. Synchronous (ssend): completes only once the receiver has matched the message
 * (whatever its size, the data waits at the sender until a receive takes it). Ready (rsend):
 * the receive must be posted already; rmp does not check it and sends as rmp_send does, which
 * is correct for every ready send. Buffered (bsend): the data is copied into the buffer given
 * to rmp_buffer_attach and the call returns at once (an ibsend's request is complete when it
 * returns); a message needs its packed size + RMP_BSEND_OVERHEAD bytes of that buffer while it
 * is in flight, and one that does not fit, even after up to 2 s of progress for earlier ones
 * to give their space back, gives RMP_ERR_BUFFER with nothing sent (as does a bsend with no
 * buffer attached). */
int rmp_ssend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_issend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
int rmp_rsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_irsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
int rmp_bsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
              rmp_comm_t comm);
int rmp_ibsend(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
               rmp_comm_t comm, rmp_request_t *req);
#define RMP_BSEND_OVERHEAD 64
/* One buffer per process, and one per communicator (MPI-4.1 3.6): a bsend on a communicator
 * uses its own buffer when it has one, else the process's. Attaching a second one to the same
 * owner gives RMP_ERR_BUFFER (detach first). RMP_BUFFER_AUTOMATIC as buf (size ignored): rmp
 * allocates each message's space as needed. Detach waits until every buffered message has left
 * the buffer (its receiver matched it, or it was pushed eagerly) and returns the buffer's
 * address and size (NULL and 0 if none was attached; RMP_BUFFER_AUTOMATIC and 0). Flush waits
 * until the messages buffered before the call left (none attached: returns at once); iflush
 * does it as a request. Freeing a communicator detaches its buffer (its messages still go). */
#define RMP_BUFFER_AUTOMATIC ((void *)2)
int rmp_buffer_attach(void *buf, int size);
int rmp_buffer_detach(void **buf, int *size);
int rmp_buffer_flush(void);
int rmp_buffer_iflush(rmp_request_t *req);
int rmp_comm_attach_buffer(rmp_comm_t comm, void *buf, int size);
int rmp_comm_detach_buffer(rmp_comm_t comm, void **buf, int *size);
int rmp_comm_flush_buffer(rmp_comm_t comm);
int rmp_comm_iflush_buffer(rmp_comm_t comm, rmp_request_t *req);

/* Persistent requests: the arguments are checked, the datatype resolved and the peer looked up
 * once; rmp_start (or rmp_startall) then runs the operation, as often as wanted. A persistent
 * request is inactive when made and after each wait/test that completes it: the handle stays
 * valid (it is not set to RMP_REQUEST_NULL), and wait/test on an inactive one return at once
 * with an empty status. rmp_request_free frees it. Starting an active one gives
 * RMP_ERR_REQUEST. */
int rmp_send_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                  rmp_comm_t comm, rmp_request_t *req);
int rmp_ssend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_bsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_rsend_init(const void *buf, int count, rmp_datatype_t type, int dest, int tag,
                   rmp_comm_t comm, rmp_request_t *req);
int rmp_recv_init(void *buf, int count, rmp_datatype_t type, int source, int tag,
                  rmp_comm_t comm, rmp_request_t *req);
int rmp_start(rmp_request_t *req);
/* Every request is checked (persistent, inactive, listed once) before any is started. */
int rmp_startall(int count, rmp_request_t reqs[]);

/* Free a request without waiting for it; *req becomes RMP_REQUEST_NULL. An active request
 * completes in the background (its data is sent or received as usual, its status lost) and is
 * then freed; an inactive persistent one is freed at once. A nonblocking collective's request
 * gives RMP_ERR_REQUEST (complete it with a wait or test). */
int rmp_request_free(rmp_request_t *req);

/* Wait until at least one active request completes (waitsome), or take those that completed
 * already (testsome): *outcount of them, their indices in indices[] and statuses in
 * statuses[] (which may be RMP_STATUSES_IGNORE), in index order; each is freed and reset as by
 * rmp_wait. *outcount = RMP_UNDEFINED when no request is active (all RMP_REQUEST_NULL or
 * inactive persistent). When one of them failed: RMP_ERR_IN_STATUS if statuses were given
 * (each holds its error), else the first error. */
int rmp_waitsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[]);
int rmp_testsome(int incount, rmp_request_t reqs[], int *outcount, int indices[],
                 rmp_status_t statuses[]);

/* Matched probe: like probe, but the message found is taken out of matching and handed back
 * as *msg, so that no other receive (another thread's) can take it; only rmp_mrecv or
 * rmp_imrecv on *msg receive it (they reset *msg to RMP_MESSAGE_NULL). A probe of
 * RMP_PROC_NULL gives RMP_MESSAGE_NO_PROC, whose receive completes at once with an empty
 * status. improbe: *flag = 0 and *msg = RMP_MESSAGE_NULL when nothing matches. */
typedef struct rmp_message *rmp_message_t;
#define RMP_MESSAGE_NULL ((rmp_message_t)0)
#define RMP_MESSAGE_NO_PROC ((rmp_message_t)2)
int rmp_mprobe(int source, int tag, rmp_comm_t comm, rmp_message_t *msg, rmp_status_t *status);
int rmp_improbe(int source, int tag, rmp_comm_t comm, int *flag, rmp_message_t *msg,
                rmp_status_t *status);
int rmp_mrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
              rmp_status_t *status);
int rmp_imrecv(void *buf, int count, rmp_datatype_t type, rmp_message_t *msg,
               rmp_request_t *req);

/* Send count elements of buf to dest and receive into the same buffer (count elements of the
 * same type) from source; any size (the outgoing data is copied first). */
int rmp_sendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                         int source, int recvtag, rmp_comm_t comm, rmp_status_t *status);

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

/* ---- Object names, windows, process topologies, neighborhood collectives ----------------- */
#define RMP_MAX_OBJECT_NAME 64 /* names fit in this many bytes, the NUL included */
/* The type's name: "RMP_INT8" ... for the builtins, "" for a derived type. Thread-safe;
 * *resultlen (may be NULL) gets strlen(name). name must hold RMP_MAX_OBJECT_NAME bytes. */
int rmp_type_get_name(rmp_datatype_t type, char *name, int *resultlen);

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

/* ---- Intercommunicators ------------------------------------------------------------------ */
/* An intercommunicator joins two disjoint groups: rmp_comm_rank/size/group give the LOCAL
 * group, point-to-point ranks (dest, source, status.source) name ranks of the REMOTE group.
 * rmp_intercomm_create is collective over local_comm (an intracommunicator: RMP_ERR_COMM
 * otherwise) and, through the two leaders, over the other group: local_leader is a rank of
 * local_comm (RMP_ERR_RANK otherwise), remote_leader the other group's leader as a rank of
 * peer_comm, tag the tag of the leaders' messages on peer_comm (peer_comm, remote_leader and
 * tag matter at the leader only: an invalid one gives its group RMP_ERR_COMM, RMP_ERR_RANK, a
 * leader of peer_comm that belongs to the local group RMP_ERR_RANK, RMP_ERR_TAG). */
int rmp_intercomm_create(rmp_comm_t local_comm, int local_leader, rmp_comm_t peer_comm,
                         int remote_leader, int tag, rmp_comm_t *newintercomm);
/* An intracommunicator over both groups: the group passing high = 0 first (the same value on
 * both sides: an order both agree on). */
int rmp_intercomm_merge(rmp_comm_t intercomm, int high, rmp_comm_t *newintracomm);
/* *flag: 1 for an intercommunicator, else 0. */
int rmp_comm_test_inter(rmp_comm_t comm, int *flag);
/* The remote group's size and group: RMP_ERR_COMM on an intracommunicator. */
int rmp_comm_remote_size(rmp_comm_t comm, int *size);
int rmp_comm_remote_group(rmp_comm_t comm, rmp_group_t *group);
/* Collectives on an intercommunicator (bcast, gather(v), scatter(v), reduce, allgather(v),
 * alltoall(v,w), allreduce, reduce_scatter(_block), barrier, blocking and nonblocking): each
 * group gets the OTHER group's data. A rooted one's root: RMP_ROOT at the root, RMP_PROC_NULL
 * at the other members of its group, the root's rank in its group at the members of the other
 * group (else RMP_ERR_ROOT). RMP_IN_PLACE: RMP_ERR_BUFFER. Scan, exscan, neighborhood
 * collectives, topologies and split_type on an intercommunicator: RMP_ERR_COMM. dup, split,
 * comm_create (each group passes a subgroup of its own group: RMP_ERR_GROUP otherwise),
 * comm_compare and comm_free work on intercommunicators. */
#define RMP_ROOT (-3)



/* ---- Communicator creation, names, info objects, attributes, error classes --------------- */

/* -- info objects, names, communicator creation -- */
/* Info objects (MPI-3.1 ch. 9): ordered (key, value) string pairs carrying hints; local
 * objects, thread-safe, usable before rmp_init. Keys are 1..RMP_MAX_INFO_KEY characters
 * (else RMP_ERR_INFO_KEY), values 1..RMP_MAX_INFO_VAL (else RMP_ERR_INFO_VALUE), both compared
 * exactly; setting a key again replaces its value and keeps its place in the order of
 * rmp_info_get_nthkey (the order keys were first set). An invalid or freed handle (and
 * RMP_INFO_NULL) gives RMP_ERR_INFO. RMP_INFO_ENV is read-only (set, delete and free give
 * RMP_ERR_INFO; it needs rmp_init): "command" (argv[0]), "argv" (the other arguments,
 * space-separated, when there are some), "maxprocs" (the world size), "host", "arch",
 * "wdir" and "thread_level" ("MPI_THREAD_SINGLE" ...). */
typedef int rmp_info_t;
#define RMP_INFO_NULL ((rmp_info_t)0)
#define RMP_INFO_ENV ((rmp_info_t)1)
#define RMP_MAX_INFO_KEY 255
#define RMP_MAX_INFO_VAL 1024
int rmp_info_create(rmp_info_t *info);
int rmp_info_set(rmp_info_t info, const char *key, const char *value);
/* *flag = 1 if key is set: value gets at most valuelen characters of its value and a NUL
 * (value holds valuelen + 1 bytes); *flag = 0 leaves value untouched. */
int rmp_info_get(rmp_info_t info, const char *key, int valuelen, char *value, int *flag);
/* *valuelen = strlen of key's value, when *flag = 1. */
int rmp_info_get_valuelen(rmp_info_t info, const char *key, int *valuelen, int *flag);
int rmp_info_get_nkeys(rmp_info_t info, int *nkeys);
/* The n-th key (0 <= n < nkeys, else RMP_ERR_ARG); key holds RMP_MAX_INFO_KEY + 1 bytes. */
int rmp_info_get_nthkey(rmp_info_t info, int n, char *key);
int rmp_info_delete(rmp_info_t info, const char *key); /* RMP_ERR_INFO_NOKEY: not set */
int rmp_info_dup(rmp_info_t info, rmp_info_t *newinfo);
int rmp_info_free(rmp_info_t *info); /* *info becomes RMP_INFO_NULL */
/* A new info with the keys of RMP_INFO_ENV that do not depend on rmp_init, so that it is the
 * same before, during and after (MPICH's infocreateenv checks it): command and argv, taken
 * from argv's first argc words when given (argc > 0, argv non-NULL), else from the process's
 * command line; host, arch, wdir. (maxprocs and thread_level: RMP_INFO_ENV.) */
int rmp_info_create_env(int argc, char *argv[], rmp_info_t *info);

/* Names of communicators, datatypes and windows, cut to RMP_MAX_OBJECT_NAME - 1 characters.
 * Unnamed: "RMP_COMM_WORLD", "RMP_COMM_SELF", "" for other communicators and windows (and
 * rmp_type_get_name's names for types); a builtin type keeps its name until renamed. A name
 * goes with its object (a freed handle reused starts unnamed). name: RMP_MAX_OBJECT_NAME
 * bytes; *resultlen (may be NULL) gets its length. Local calls. */
int rmp_comm_set_name(rmp_comm_t comm, const char *name);
int rmp_comm_get_name(rmp_comm_t comm, char *name, int *resultlen);
int rmp_type_set_name(rmp_datatype_t type, const char *name);
int rmp_win_set_name(rmp_win_t win, const char *name);
int rmp_win_get_name(rmp_win_t win, char *name, int *resultlen);

/* Hints of a communicator or window: set_info updates the hints info names and leaves the
 * others (RMP_INFO_NULL: none changes); get_info returns a NEW info object (the caller frees
 * it) with the hints kept: a communicator keeps MPI-4's assertions (keys "mpi_assert_...")
 * and drops others, as hints nobody uses (MPI-3.1 6.4.4); a window keeps every hint. rmp is
 * not changed by any. rmp_comm_dup copies them. Local calls here (MPI makes set_info collective: every rank must pass the same). */
int rmp_comm_set_info(rmp_comm_t comm, rmp_info_t info);
int rmp_comm_get_info(rmp_comm_t comm, rmp_info_t *info);
int rmp_win_set_info(rmp_win_t win, rmp_info_t info);
int rmp_win_get_info(rmp_win_t win, rmp_info_t *info);

/* rmp_comm_dup with info's hints instead of comm's (RMP_INFO_NULL: none). Collective. */
int rmp_comm_dup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm);
/* Nonblocking rmp_comm_dup: *newcomm is set at once, usable (and the dup complete) when req
 * completes; meanwhile comm may be used for other communication and collectives, and other
 * communicators may be created, the dup calls being made in the same order on every rank of
 * comm. */
int rmp_comm_idup(rmp_comm_t comm, rmp_comm_t *newcomm, rmp_request_t *req);
/* rmp_comm_idup with info's hints instead of comm's (RMP_INFO_NULL: none). */
int rmp_comm_idup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm,
                            rmp_request_t *req);
/* A communicator of group's members (a subset of comm, else RMP_ERR_GROUP), ordered as in
 * group: collective over the members of group ONLY (the other ranks of comm need not call,
 * and are not waited for). Concurrent calls on one comm with intersecting groups use distinct
 * tags (0..RMP_TAG_UB, else RMP_ERR_TAG). A caller outside group gets RMP_COMM_NULL at once.
 * Threads creating communicators at once follow rmp_comm_dup's rule (collectives/comm_ops.c):
 * on every member, the same creations in each thread, in the same order. */
int rmp_comm_create_group(rmp_comm_t comm, rmp_group_t group, int tag, rmp_comm_t *newcomm);



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


/* ---- Groups, topologies, requests -------------------------------------------------------- */
/* Groups (local): the ranks first, first+stride, ..., up to last of each triplet
 * ranges[i] = {first, last, stride}, in triplet order (range_incl), or the group without them
 * (range_excl). first and last must be ranks of group (RMP_ERR_RANK); stride != 0 and moving
 * from first towards last (RMP_ERR_ARG); a rank named twice gives RMP_ERR_RANK. */
int rmp_group_range_incl(rmp_group_t group, int n, const int ranges[][3],
                         rmp_group_t *newgroup);
int rmp_group_range_excl(rmp_group_t group, int n, const int ranges[][3],
                         rmp_group_t *newgroup);
/* Union: group1's members, then group2's not in group1 (group2's order); intersection:
 * group1's members also in group2; difference: group1's members not in group2 (both in
 * group1's order). An empty result is RMP_GROUP_EMPTY. */
int rmp_group_union(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);
int rmp_group_intersection(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);
int rmp_group_difference(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);

/* Graph topologies (MPI-3.1 7.5.3): node i's neighbours are edges[index[i-1] .. index[i]-1]
 * (index[-1] = 0), nodes 0..nnodes-1 being the first nnodes ranks of comm, whose other ranks
 * get RMP_COMM_NULL (all of them when nnodes is 0). Self-loops and repeated edges are allowed.
 * RMP_ERR_ARG: nnodes < 0 or > size of comm, index decreasing or negative; RMP_ERR_RANK: an
 * edge outside 0..nnodes-1. Collective; reorder is ignored. rmp_topo_test gives RMP_GRAPH.
 * The neighbourhood collectives on it exchange with the node's neighbours in this order,
 * sending and receiving alike. */
#define RMP_GRAPH 1
int rmp_graph_create(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                     int reorder, rmp_comm_t *newcomm);
int rmp_graphdims_get(rmp_comm_t comm, int *nnodes, int *nedges);
/* The first maxindex entries of index and maxedges of edges. */
int rmp_graph_get(rmp_comm_t comm, int maxindex, int maxedges, int index[], int edges[]);
int rmp_graph_neighbors_count(rmp_comm_t comm, int rank, int *nneighbors);
/* The first maxneighbors neighbours of rank. */
int rmp_graph_neighbors(rmp_comm_t comm, int rank, int maxneighbors, int neighbors[]);
/* What rank I would have in rmp_graph_create / rmp_cart_create over comm (ranks are not
 * reordered): my rank if it is below nnodes (the grid's size), else RMP_UNDEFINED. */
int rmp_graph_map(rmp_comm_t comm, int nnodes, const int index[], const int edges[],
                  int *newrank);
int rmp_cart_map(rmp_comm_t comm, int ndims, const int dims[], const int periods[],
                 int *newrank);
/* The sub-grids keeping the dimensions i with remain_dims[i] != 0 (in their order, with their
 * periodicity): each a new Cartesian communicator of the ranks that share the coordinates of
 * the dropped dimensions, ranked as in comm. None kept (as MPICH does): rank 0 of the grid
 * gets a 0-dimensional Cartesian communicator of itself (size 1, rmp_cartdim_get 0), every
 * other rank RMP_COMM_NULL. */
int rmp_cart_sub(rmp_comm_t comm, const int remain_dims[], rmp_comm_t *newcomm);
/* A distributed graph whose edges any rank may give: rank r gives, for i < n, the edges
 * sources[i] -> destinations[k] for the degrees[i] next entries of destinations (weights
 * alike, unless RMP_UNWEIGHTED). The edges are exchanged so that every rank learns its in-
 * and out-neighbours, listed by the rank that gave the edge, then in the order it gave them.
 * RMP_ERR_ARG: n < 0, a negative degree or weight; RMP_ERR_RANK: a rank outside comm.
 * Collective; reorder is ignored. */
int rmp_dist_graph_create(rmp_comm_t comm, int n, const int sources[], const int degrees[],
                          const int destinations[], const int weights[], int reorder,
                          rmp_comm_t *newcomm);

/* Requests. testany: *flag = 1 with *index and *status of a completed request (reaped as by
 * rmp_test), or with *index = RMP_UNDEFINED when no request is active; else *flag = 0. */
int rmp_testany(int count, rmp_request_t reqs[], int *index, int *flag, rmp_status_t *status);
/* As rmp_test without completing: *flag = 1 and *status when the request is complete (or
 * RMP_REQUEST_NULL, or an inactive persistent request: an empty status), but the request stays
 * live and *req unchanged; a later wait, test or request_free completes it. A generalized
 * request's query callback makes the status each time. */
int rmp_request_get_status(rmp_request_t req, int *flag, rmp_status_t *status);
/* The same over arrays (MPI-4.1), every request left live: all: *flag = 1 and every status
 * when each request is complete (RMP_REQUEST_NULL and inactive persistent ones count as such),
 * else *flag = 0 and no status written; any: *flag = 1 with *index and *status of the first
 * active complete one, or with *index = RMP_UNDEFINED and an empty status when none is active,
 * else *flag = 0 and *index = RMP_UNDEFINED; some: the active complete ones' indices and
 * statuses (*outcount = RMP_UNDEFINED when none is active). A failed operation's error:
 * RMP_ERR_IN_STATUS with the statuses (all, some; its own error when they are ignored). */
int rmp_request_get_status_all(int count, rmp_request_t reqs[], int *flag,
                               rmp_status_t statuses[]);
int rmp_request_get_status_any(int count, rmp_request_t reqs[], int *index, int *flag,
                               rmp_status_t *status);
int rmp_request_get_status_some(int incount, rmp_request_t reqs[], int *outcount,
                                int indices[], rmp_status_t statuses[]);
/* Statuses: whether the operation was cancelled (also settable, for generalized requests), and
 * setting its size as count whole elements of type (count * size bytes, as MPICH and Open MPI
 * do: rmp_get_count then reports count). */
int rmp_test_cancelled(const rmp_status_t *status, int *flag);
int rmp_status_set_cancelled(rmp_status_t *status, int flag);
int rmp_status_set_elements(rmp_status_t *status, rmp_datatype_t type, long long count);
/* Generalized requests (MPI-3.1 12.2): an operation the program carries out itself, which rmp's
 * completion calls wait for like any other. query fills the status when a wait or test
 * completes the request (its return value is that call's error); free runs after query when
 * the request is freed (by that wait/test, or by rmp_request_free: then at completion);
 * cancel(extra_state, complete) runs at rmp_cancel. The callbacks run without rmp's lock held
 * (they may call rmp) and return RMP_SUCCESS or an RMP_ERR_* code. rmp_grequest_complete tells
 * rmp the operation is done (from any thread, once). */
typedef int rmp_grequest_query_fn(void *extra_state, rmp_status_t *status);
typedef int rmp_grequest_free_fn(void *extra_state);
typedef int rmp_grequest_cancel_fn(void *extra_state, int complete);
int rmp_grequest_start(rmp_grequest_query_fn *query_fn, rmp_grequest_free_fn *free_fn,
                       rmp_grequest_cancel_fn *cancel_fn, void *extra_state,
                       rmp_request_t *req);
int rmp_grequest_complete(rmp_request_t req);



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

/* A send and a receive started together (MPI-4.0 MPI_Isendrecv), completed by one request
 * whose status is the receive's (its error: the receive's, else the send's). The arguments are
 * checked as rmp_sendrecv's. rmp_request_free may free it while it runs, as a point-to-point
 * request (it completes in the background). */
int rmp_isendrecv(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, rmp_datatype_t recvtype,
                  int source, int recvtag, rmp_comm_t comm, rmp_request_t *req);
/* The same with one buffer: the data to send is copied at the call (the buffer may be
 * received into at once); the buffer is not to be touched until completion. */
int rmp_isendrecv_replace(void *buf, int count, rmp_datatype_t type, int dest, int sendtag,
                          int source, int recvtag, rmp_comm_t comm, rmp_request_t *req);


/* ---- MPI-4: partitioned communication (MPI-4.0 ch. 4) ------------------------------------- */
/* A persistent send (receive) of `partitions` partitions of count elements of type each, the
 * i-th at buf + i * count * extent. The k-th psend init of (comm, dest, tag) matches the k-th
 * precv init of (comm, source, tag), whatever the order of the starts; the two sides may cut
 * the message into different numbers of partitions, only the total bytes must match (else
 * every round of both ends with RMP_ERR_TRUNCATE). No wildcards: RMP_ANY_SOURCE gives
 * RMP_ERR_RANK, RMP_ANY_TAG RMP_ERR_TAG; partitions < 0 RMP_ERR_ARG. rmp_start begins a round
 * (both sides start each request as often); wait/test complete it as a persistent request's
 * (the receive's status: source, tag, the total bytes); rmp_request_free frees an inactive
 * one (an active one: RMP_ERR_REQUEST); rmp_cancel does nothing to it. Each send partition
 * moves as soon as it is ready and the receiver has started the round (above 262143
 * partitions, groups of consecutive ones move together), straight into the receive buffer. */
int rmp_psend_init(const void *buf, int partitions, long long count, rmp_datatype_t type,
                   int dest, int tag, rmp_comm_t comm, rmp_request_t *req);
int rmp_precv_init(void *buf, int partitions, long long count, rmp_datatype_t type, int source,
                   int tag, rmp_comm_t comm, rmp_request_t *req);
/* Send partition(s) ready, from any thread (RMP_THREAD_MULTIPLE), in any order: partition,
 * lo..hi, or the n listed. RMP_ERR_REQUEST: not an active partitioned send; RMP_ERR_ARG: a
 * partition out of range (range, list: none is marked), lo > hi, or one already ready in this
 * round (those before it are marked). */
int rmp_pready(int partition, rmp_request_t req);
int rmp_pready_range(int lo, int hi, rmp_request_t req);
int rmp_pready_list(int n, const int partitions[], rmp_request_t req);
/* *flag = 1 when every byte of receive partition `partition` is in the buffer (or the
 * request is inactive), else 0 after one pass of progress. RMP_ERR_REQUEST: not a
 * partitioned receive; RMP_ERR_ARG: partition out of range, flag NULL. */
int rmp_parrived(rmp_request_t req, int partition, int *flag);

/* ---- MPI-4: sessions (MPI-4.0 ch. 11) ---------------------------------------------------- */
/* A session holds the runtime as rmp_init does: the first of rmp_init and the sessions starts
 * it, the last of rmp_finalize and rmp_session_finalize ends it (then collective over the job,
 * as rmp_finalize); sessions and the world model may overlap in any order, and rmp_initialized
 * reports the world model only. A runtime started already keeps its thread level (*provided).
 * Once it has ended, a new session gets RMP_ERR_NOT_INITIALIZED. At most 64 live sessions.
 * An invalid or finalized session handle gives RMP_ERR_ARG. */
typedef int rmp_session_t;
#define RMP_SESSION_NULL ((rmp_session_t)0)
int rmp_session_init(int required, int *provided, rmp_session_t *session);
/* *session becomes RMP_SESSION_NULL. */
int rmp_session_finalize(rmp_session_t *session);
/* The process sets: "mpi://WORLD", "mpi://SELF", "rmp://node" (the ranks of this node in local
 * rank order; mrun --nodes K: a virtual node), named in any case. get_nth_pset: with *len 0,
 * *len becomes the name's length + 1; else the name, cut to *len - 1 characters. pset_size:
 * its member count. An unknown name or n out of range: RMP_ERR_ARG. */
int rmp_session_get_num_psets(rmp_session_t session, int *n);
int rmp_session_get_nth_pset(rmp_session_t session, int n, int *len, char *name);
int rmp_session_pset_size(rmp_session_t session, const char *name, int *size);
int rmp_group_from_session_pset(rmp_session_t session, const char *name, rmp_group_t *group);
/* A communicator of group's members (collective over them only; a caller outside group gets
 * RMP_ERR_GROUP): the calls of the members with the same group and the same string tag make
 * one communicator (as rmp_comm_create_group over the world with a tag hashed from the
 * string: concurrent calls over overlapping groups need different strings). */
int rmp_comm_create_from_group(rmp_group_t group, const char *stringtag, rmp_comm_t *newcomm);
/* An intercommunicator between two disjoint groups, collective over both (each member names
 * its own group first, the leaders as ranks of each group), matched by the string tag as
 * rmp_comm_create_from_group; RMP_ERR_GROUP for a caller outside local_group, RMP_ERR_RANK for
 * a leader outside its group. */
int rmp_intercomm_create_from_groups(rmp_group_t local_group, int local_leader,
                                     rmp_group_t remote_group, int remote_leader,
                                     const char *stringtag, rmp_comm_t *newinter);
/* A session's buffer for buffered sends (MPI-4.1 3.6), as rmp_comm_attach_buffer's: a bsend
 * on a communicator that derives from the session (made by rmp_comm_create_from_group, or
 * from such a communicator, or of a group made of its psets' groups) uses the communicator's
 * own buffer, else the session's, else the process's. Finalizing the session detaches it. */
int rmp_session_attach_buffer(rmp_session_t session, void *buf, int size);
int rmp_session_detach_buffer(rmp_session_t session, void **buf, int *size);
int rmp_session_flush_buffer(rmp_session_t session);
int rmp_session_iflush_buffer(rmp_session_t session, rmp_request_t *req);
/* ---- Tools: control variables and performance counters (runtime/cvar.c, runtime/stats.c) --
 * What MPI_T shows a tool, for programs without MPI too. The control variables are the RMP_*
 * knobs (README.md's table); the counters are kept per process by the runtime. */
enum { RMP_CVAR_BOOL, RMP_CVAR_INT, RMP_CVAR_SIZE, RMP_CVAR_ENUM, RMP_CVAR_STRING };
typedef struct rmp_cvar_info {
    const char *name;            /* "RMP_EAGER_LIMIT" */
    const char *desc;            /* one line */
    int type;                    /* RMP_CVAR_* */
    long long min, max;          /* INT, SIZE: the accepted range */
    const char *const *choices;  /* ENUM: the accepted values, NULL-terminated */
    int writable;                /* 1: rmp_cvar_write may change it after rmp_init (the
                                  * runtime reads it at each use); 0: fixed at rmp_init */
    int same_everywhere;         /* 1: must be equal on every rank of the job */
} rmp_cvar_info_t;
/* How many there are; the description of number `index` (RMP_ERR_ARG out of range). */
int rmp_cvar_count(void);
int rmp_cvar_info(int index, rmp_cvar_info_t *info);
/* The value in effect: as a number (BOOL, INT, SIZE: the value, -1 for "the runtime decides";
 * ENUM: the index in choices; STRING: 0) and as text ("" for unset; text may be NULL).
 * Before rmp_init: what rmp_init would take from the environment. */
int rmp_cvar_read(int index, long long *num, char *text, size_t len);
/* Sets a writable one from text, checked as its RMP_* variable would be: RMP_ERR_ARG for a
 * refused value or a knob fixed at rmp_init, RMP_ERR_NOT_INITIALIZED outside rmp_init ..
 * rmp_finalize. Changes this process only. */
int rmp_cvar_write(int index, const char *text);

/* Counters: COUNTER only grows, LEVEL goes up and down, HIGHWATERMARK is a LEVEL's largest
 * value since rmp_init, TIMER is nanoseconds. Every value is an unsigned long long. */
enum { RMP_STAT_COUNTER, RMP_STAT_LEVEL, RMP_STAT_HIGHWATERMARK, RMP_STAT_TIMER };
typedef struct rmp_stat_info {
    const char *name;            /* "shm_bytes_sent" */
    const char *desc;            /* one line */
    int cls;                     /* RMP_STAT_* */
} rmp_stat_info_t;
int rmp_stats_count(void);
int rmp_stats_info(int index, rmp_stat_info_t *info);
/* A high-water mark of the caller's own over the HIGHWATERMARK counter `index`, for a tool
 * that measures a phase: it starts at the level now and follows the level up; set puts it at
 * value, or at the level now if that is higher (0: the level). At most 32 at once
 * (RMP_ERR_NO_MEM beyond); RMP_ERR_ARG for another counter or an invalid watch; only between
 * rmp_init and rmp_finalize. */
int rmp_stats_watch(int index, int *watch);
int rmp_stats_watch_set(int watch, unsigned long long value);
int rmp_stats_watch_read(int watch, unsigned long long *value);
int rmp_stats_unwatch(int watch);
/* The messages and bytes sent on comm since it was made (its collectives' messages too; an
 * intercommunicator's collectives count on its hidden bridge). RMP_ERR_COMM for an invalid one. */
int rmp_comm_stats(rmp_comm_t comm, unsigned long long *msgs_sent,
                   unsigned long long *bytes_sent);
/* values[i] for the first n counters (n <= rmp_stats_count()), all read at one instant.
 * Zeros before rmp_init; after rmp_finalize the final values. */
int rmp_stats_get(unsigned long long *values, int n);

/* ---- Dynamic processes (issue 37): ports, connect/accept, join ----
 * A port is a listening socket in the user's private directory ($TMPDIR or /tmp, rmp-<uid>,
 * mode 0700); its name, "rmp-port:unix:<socket path>", is how another job of the same user on
 * this machine reaches it (both ends check the other's user: another user cannot connect). The
 * intercommunicator's traffic goes over such sockets between the processes. */
#define RMP_MAX_PORT_NAME 256
/* A new port; port_name gets its name (RMP_MAX_PORT_NAME bytes). info: hints, none read. */
int rmp_open_port(rmp_info_t info, char *port_name);
/* RMP_ERR_PORT when port_name is not a port this process opened (or is closed already). */
int rmp_close_port(const char *port_name);
/* Collective over the intracommunicator comm; port_name is read at root only. An
 * intercommunicator to the group that called rmp_comm_connect on that port, or RMP_ERR_PORT
 * on every rank of comm (not my port, nobody came within the timeout: info key "timeout" in
 * seconds, else RMP_PORT_TIMEOUT). */
int rmp_comm_accept(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                    rmp_comm_t *newcomm);
/* The other side: RMP_ERR_PORT on every rank of comm when the name is not a port name, the
 * port is closed or another user's, or nobody accepted in time. */
int rmp_comm_connect(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                     rmp_comm_t *newcomm);
/* An intercommunicator between this process and the one at the other end of the connected
 * stream socket fd (each calls it): the two swap port names over fd, the lower accepts. */
int rmp_comm_join(int fd, rmp_comm_t *intercomm);
/* Starts maxprocs copies of command (argv: its arguments, NULL-terminated, or NULL) as a new
 * job of their own (a child mrun, in the process group of the root: a parent that ends takes
 * its children with it), and returns the intercommunicator to them. Collective over comm;
 * command, argv, maxprocs and info are read at root only. info keys: "wdir" (the children's
 * directory), "path" (':'-separated directories searched for command before $PATH), "host"
 * (only this machine: "localhost" or its name), "soft" (accepted: rmp starts maxprocs or fails),
 * "timeout" (seconds the children may take to connect, else RMP_PORT_TIMEOUT) and
 * "rmp_env" ("VAR=VALUE" entries separated by newlines, set in the children's environment);
 * any other key, or "file", gives RMP_ERR_SPAWN. errcodes (maxprocs entries, or NULL): each
 * child's outcome. RMP_ERR_SPAWN on every rank of comm when the children cannot be started,
 * with one line naming the command. The launcher is $RMP_MRUN, else the mrun that started
 * this job, else mrun on $PATH, else the one installed beside librmp. */
int rmp_comm_spawn(const char *command, char *const argv[], int maxprocs, rmp_info_t info,
                   int root, rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[]);
/* Names for ports, shared by every job of this user on this machine (also jobs under separate
 * mruns, or none): a file per service under the private directory of ports, names/<service>,
 * holding the port name. Publishing a service published already replaces it; a process's
 * names are unpublished at its rmp_finalize. service: 1..RMP_MAX_INFO_VAL bytes, no '/'
 * (RMP_ERR_ARG). Lookup of an unknown service: RMP_ERR_NAME; unpublish: RMP_ERR_SERVICE. */
int rmp_publish_name(const char *service, rmp_info_t info, const char *port_name);
int rmp_unpublish_name(const char *service, rmp_info_t info, const char *port_name);
int rmp_lookup_name(const char *service, rmp_info_t info, char *port_name);
/* rmp_comm_spawn of count apps at once, all children in one world (app i's ranks after app
 * i-1's; each child's app number in RMP_APPNUM, MPI_APPNUM's value). argvs and infos may be
 * NULL; errcodes has one entry per child of all apps. */
int rmp_comm_spawn_multiple(int count, char *const commands[], char *const *const argvs[],
                            const int maxprocs[], const rmp_info_t infos[], int root,
                            rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[]);
/* In a spawned job, the intercommunicator to the parents (its first call is collective over
 * RMP_COMM_WORLD: MPI_Init makes it); elsewhere RMP_COMM_NULL. */
int rmp_comm_get_parent(rmp_comm_t *parent);
#include "rmp/dynamic.h"
#include "rmp/comm_hw.h" /* split by hardware resource (needs rmp_info_t) */
/* ---- Parallel I/O (MPI-IO over POSIX files) --------------------------------------------- */
#include "rmp/io.h"


/* RMP_PROFILE's hooks for the layers above (rmp/prof.h). */
#include "rmp/prof.h"

#ifdef __cplusplus
}
#endif
#endif /* RMP_H */
