/* rmp/rmp_errors.h — error codes: RMP_SUCCESS and the negative RMP_ERR_* every call returns.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_ERRORS_H
#define RMP_API_ERRORS_H

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
    /* I/O (include/rmp/rmp_io.h): the file system's failures, each with its MPI class */
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
    RMP_ERR_SESSION = -55,        /* invalid or finalized session handle (rmp_session.h) */
    RMP_ERR_VALUE_TOO_LARGE = -56,/* a result does not fit the argument that would hold it (an
                                     int-sized output of a value past INT_MAX) */
    RMP_ERR_LAST = -57
};

#endif
