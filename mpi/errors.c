/* errors.c — MPI's error model over rmp's codes: the error codes and classes, the strings,
 * and the error handler of each communicator and window (MPI_ERRORS_ARE_FATAL unless the
 * program chose MPI_ERRORS_RETURN or a handler of its own). User classes and codes are in
 * errclass.c; the MPI calls on error handlers in errhandler.c. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rmpi.h"

/* Codes for rmp errors that have no MPI class of their own: RMPI_CODE_BASE - rmp_err, above
 * MPI_ERR_LASTCLASS, so that MPI_Error_string keeps rmp's precise description. */
enum { RMPI_CODE_BASE = 80 };
/* The I/O errors (RMP_ERR_FILE on) all have classes of their own, so need no extra code. */
_Static_assert(RMPI_CODE_BASE - (RMP_ERR_FILE + 1) <= MPI_ERR_LASTCODE,
               "rmp's extra codes are predefined codes: MPI_ERR_LASTCODE must cover them");

/* The MPI class of each rmp error, indexed by -rmp_err. MPI_ERR_OTHER: no class of its own. */
static const int rmpi_class_of[-RMP_ERR_LAST] = {
    [0] = MPI_SUCCESS,
    [-RMP_ERR_ARG] = MPI_ERR_ARG,
    [-RMP_ERR_COMM] = MPI_ERR_COMM,
    [-RMP_ERR_RANK] = MPI_ERR_RANK,
    [-RMP_ERR_TAG] = MPI_ERR_TAG,
    [-RMP_ERR_COUNT] = MPI_ERR_COUNT,
    [-RMP_ERR_TYPE] = MPI_ERR_TYPE,
    [-RMP_ERR_OP] = MPI_ERR_OP,
    [-RMP_ERR_BUFFER] = MPI_ERR_BUFFER,
    [-RMP_ERR_TRUNCATE] = MPI_ERR_TRUNCATE,
    [-RMP_ERR_REQUEST] = MPI_ERR_REQUEST,
    [-RMP_ERR_ROOT] = MPI_ERR_ROOT,
    [-RMP_ERR_NOT_INITIALIZED] = MPI_ERR_OTHER,
    [-RMP_ERR_INITIALIZED] = MPI_ERR_OTHER,
    [-RMP_ERR_NO_MEM] = MPI_ERR_NO_MEM,
    [-RMP_ERR_TRANSPORT] = MPI_ERR_OTHER,
    [-RMP_ERR_PEER] = MPI_ERR_PROC_ABORTED,
    [-RMP_ERR_IN_STATUS] = MPI_ERR_IN_STATUS,
    [-RMP_ERR_THREAD] = MPI_ERR_OTHER,
    [-RMP_ERR_BOOTSTRAP] = MPI_ERR_OTHER,
    [-RMP_ERR_NOT_SUPPORTED] = MPI_ERR_UNSUPPORTED_OPERATION,
    [-RMP_ERR_INTERNAL] = MPI_ERR_INTERN,
    [-RMP_ERR_GROUP] = MPI_ERR_GROUP,
    [-RMP_ERR_TOPOLOGY] = MPI_ERR_TOPOLOGY,
    [-RMP_ERR_DIMS] = MPI_ERR_DIMS,
    [-RMP_ERR_WIN] = MPI_ERR_WIN,
    [-RMP_ERR_KEYVAL] = MPI_ERR_KEYVAL,
    [-RMP_ERR_INFO] = MPI_ERR_INFO,
    [-RMP_ERR_INFO_KEY] = MPI_ERR_INFO_KEY,
    [-RMP_ERR_INFO_VALUE] = MPI_ERR_INFO_VALUE,
    [-RMP_ERR_INFO_NOKEY] = MPI_ERR_INFO_NOKEY,
    [-RMP_ERR_PENDING] = MPI_ERR_PENDING,
    [-RMP_ERR_RMA_RANGE] = MPI_ERR_RMA_RANGE,
    [-RMP_ERR_RMA_SYNC] = MPI_ERR_RMA_SYNC,
    [-RMP_ERR_RMA_FLAVOR] = MPI_ERR_RMA_FLAVOR,
    [-RMP_ERR_RMA_ATTACH] = MPI_ERR_RMA_ATTACH,
    [-RMP_ERR_RMA_SHARED] = MPI_ERR_RMA_SHARED,
    [-RMP_ERR_PORT] = MPI_ERR_PORT,
    [-RMP_ERR_SPAWN] = MPI_ERR_SPAWN,
    [-RMP_ERR_NAME] = MPI_ERR_NAME,
    [-RMP_ERR_SERVICE] = MPI_ERR_SERVICE,
    [-RMP_ERR_FILE] = MPI_ERR_FILE,
    [-RMP_ERR_NO_SUCH_FILE] = MPI_ERR_NO_SUCH_FILE,
    [-RMP_ERR_FILE_EXISTS] = MPI_ERR_FILE_EXISTS,
    [-RMP_ERR_ACCESS] = MPI_ERR_ACCESS,
    [-RMP_ERR_NO_SPACE] = MPI_ERR_NO_SPACE,
    [-RMP_ERR_QUOTA] = MPI_ERR_QUOTA,
    [-RMP_ERR_READ_ONLY] = MPI_ERR_READ_ONLY,
    [-RMP_ERR_FILE_IN_USE] = MPI_ERR_FILE_IN_USE,
    [-RMP_ERR_AMODE] = MPI_ERR_AMODE,
    [-RMP_ERR_BAD_FILE] = MPI_ERR_BAD_FILE,
    [-RMP_ERR_DUP_DATAREP] = MPI_ERR_DUP_DATAREP,
    [-RMP_ERR_UNSUPPORTED_DATAREP] = MPI_ERR_UNSUPPORTED_DATAREP,
    [-RMP_ERR_CONVERSION] = MPI_ERR_CONVERSION,
    [-RMP_ERR_IO] = MPI_ERR_IO,
    [-RMP_ERR_SESSION] = MPI_ERR_SESSION,
    [-RMP_ERR_VALUE_TOO_LARGE] = MPI_ERR_VALUE_TOO_LARGE,
};

static const char *const rmpi_class_name[MPI_ERR_LASTCLASS + 1] = {
    "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG",
    "MPI_ERR_COMM", "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP",
    "MPI_ERR_OP", "MPI_ERR_TOPOLOGY", "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN",
    "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN", "MPI_ERR_IN_STATUS",
    "MPI_ERR_PENDING", "MPI_ERR_KEYVAL", "MPI_ERR_NO_MEM", "MPI_ERR_BASE", "MPI_ERR_INFO_KEY",
    "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO_NOKEY", "MPI_ERR_SPAWN", "MPI_ERR_PORT",
    "MPI_ERR_SERVICE", "MPI_ERR_NAME", "MPI_ERR_WIN", "MPI_ERR_SIZE", "MPI_ERR_DISP",
    "MPI_ERR_INFO", "MPI_ERR_LOCKTYPE", "MPI_ERR_ASSERT", "MPI_ERR_RMA_CONFLICT",
    "MPI_ERR_RMA_SYNC", "MPI_ERR_FILE", "MPI_ERR_NOT_SAME", "MPI_ERR_AMODE",
    "MPI_ERR_UNSUPPORTED_DATAREP", "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_NO_SUCH_FILE",
    "MPI_ERR_FILE_EXISTS", "MPI_ERR_BAD_FILE", "MPI_ERR_ACCESS", "MPI_ERR_NO_SPACE",
    "MPI_ERR_QUOTA", "MPI_ERR_READ_ONLY", "MPI_ERR_FILE_IN_USE", "MPI_ERR_DUP_DATAREP",
    "MPI_ERR_CONVERSION", "MPI_ERR_IO", "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_ATTACH",
    "MPI_ERR_RMA_SHARED", "MPI_ERR_RMA_FLAVOR", "MPI_T_ERR_MEMORY",
    "MPI_T_ERR_NOT_INITIALIZED", "MPI_T_ERR_CANNOT_INIT", "MPI_T_ERR_INVALID_INDEX",
    "MPI_T_ERR_INVALID_ITEM", "MPI_T_ERR_INVALID_HANDLE", "MPI_T_ERR_OUT_OF_HANDLES",
    "MPI_T_ERR_OUT_OF_SESSIONS", "MPI_T_ERR_INVALID_SESSION", "MPI_T_ERR_CVAR_SET_NOT_NOW",
    "MPI_T_ERR_CVAR_SET_NEVER", "MPI_T_ERR_PVAR_NO_STARTSTOP", "MPI_T_ERR_PVAR_NO_WRITE",
    "MPI_T_ERR_PVAR_NO_ATOMIC", "MPI_T_ERR_INVALID_NAME", "MPI_T_ERR_INVALID",
    "MPI_T_ERR_NOT_ACCESSIBLE", "MPI_T_ERR_NOT_SUPPORTED", "MPI_ERR_SESSION",
    "MPI_ERR_PROC_ABORTED", "MPI_ERR_VALUE_TOO_LARGE", "MPI_ERR_ERRHANDLER",
};

/* Error handlers: MPI_ERRHANDLER_NULL (0), MPI_ERRORS_ARE_FATAL (1) and MPI_ERRORS_RETURN (2)
 * are builtin; user handlers get the handles 3 and up, refcounted (the program's reference
 * until MPI_Errhandler_free, plus one per communicator or window using it), and their slot
 * is reused once no reference is left. Per communicator and per window handle: the handle of
 * its handler, 0 for none set (the default: see errh_of). Everything under one lock,
 * never held while a user handler runs: communicators may be made by several threads. */
enum { EH_FIRST_USER = 4, EH_COMM = RMPI_EH_COMM, EH_WIN = RMPI_EH_WIN,
       EH_SESSION = RMPI_EH_SESSION, EH_FILE = RMPI_EH_FILE }; /* 3: MPI_ERRORS_ABORT */

typedef struct errh {
    int kind; /* EH_COMM, EH_WIN, EH_SESSION or EH_FILE */
    int refs; /* 0: a free slot */
    void (*fn)(void);
} errh_t;

static struct {
    pthread_mutex_t lock;
    errh_t *eh; /* eh[h - EH_FIRST_USER] */
    int neh;
    int *of[4]; /* per kind of object, indexed by its handle */
    size_t n[4];
} rmpi_errh = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The user handler of handle h, or NULL (lock held). */
static errh_t *errh_user(MPI_Errhandler h)
{
    if (h < EH_FIRST_USER || h - EH_FIRST_USER >= rmpi_errh.neh)
        return NULL;
    errh_t *e = &rmpi_errh.eh[h - EH_FIRST_USER];
    return e->refs > 0 ? e : NULL;
}

static void errh_ref(MPI_Errhandler h, int d)
{
    errh_t *e = errh_user(h);
    if (e)
        e->refs += d;
}

/* Object h's own handler, 0 when none was set on it or inherited (lock held). */
static MPI_Errhandler errh_slot(int kind, int h)
{
    return h >= 0 && (size_t)h < rmpi_errh.n[kind] ? rmpi_errh.of[kind][h] : 0;
}

/* The handler of object h of the kind, MPI_ERRORS_ARE_FATAL by default (lock held). */
static MPI_Errhandler errh_of(int kind, int h)
{
    int eh = errh_slot(kind, h);
    if (!eh && kind == EH_FILE) /* a file's is MPI_FILE_NULL's, MPI_ERRORS_RETURN at first */
        eh = errh_slot(EH_FILE, MPI_FILE_NULL);
    if (!eh && kind == EH_FILE)
        return MPI_ERRORS_RETURN;
    return eh ? eh : MPI_ERRORS_ARE_FATAL;
}

/* The handler an error on object h goes to (lock held). A communicator with none of its own
 * (set on it or on the one it came from) reports MPI_ERRORS_ARE_FATAL, but its errors go to
 * MPI_COMM_WORLD's handler, as in MPICH (whose tests rely on it): a communicator duplicated
 * before the program chose MPI_ERRORS_RETURN on MPI_COMM_WORLD returns errors too. */
static MPI_Errhandler errh_raised(int kind, int h)
{
    int eh = errh_slot(kind, h);
    if (!eh && kind == EH_COMM)
        eh = errh_slot(EH_COMM, MPI_COMM_WORLD);
    if (kind == EH_FILE)
        return errh_of(kind, h);
    return eh ? eh : MPI_ERRORS_ARE_FATAL;
}

/* Object h's handler becomes eh (0: the default), the reference moving (lock held); false
 * when out of memory. */
static bool errh_put(int kind, int h, MPI_Errhandler eh)
{
    if (h < 0)
        return true;
    if ((size_t)h >= rmpi_errh.n[kind]) {
        if (!eh)
            return true;
        size_t n = (size_t)h + 16;
        int *p = realloc(rmpi_errh.of[kind], n * sizeof *p);
        if (!p)
            return false;
        memset(p + rmpi_errh.n[kind], 0, (n - rmpi_errh.n[kind]) * sizeof *p);
        rmpi_errh.of[kind] = p;
        rmpi_errh.n[kind] = n;
    }
    errh_ref(eh, 1);
    errh_ref(rmpi_errh.of[kind][h], -1);
    rmpi_errh.of[kind][h] = eh;
    return true;
}

/* A valid communicator, else MPI_COMM_WORLD (whose handler takes errors of invalid ones). */
static MPI_Comm rmpi_errh_comm(MPI_Comm comm)
{
    int size;
    if (comm != MPI_COMM_WORLD && rmp_comm_size(comm, &size) != RMP_SUCCESS)
        comm = MPI_COMM_WORLD;
    return comm;
}

bool rmpi_win_valid(MPI_Win win)
{
    intptr_t base;
    ptrdiff_t size;
    int du;
    return rmp_win_get_peer(win, 0, &base, &size, &du) == RMP_SUCCESS;
}

int rmpi_code(int rmp_err)
{
    if (rmp_err >= 0)
        return MPI_SUCCESS;
    if (rmp_err < RMPI_FOREIGN_BASE)
        return RMPI_FOREIGN_BASE - rmp_err; /* an MPI code carried through rmp (rmpi_foreign) */
    if (rmp_err <= RMP_ERR_LAST)
        return MPI_ERR_INTERN; /* not an rmp code: a bug somewhere, never silently success */
    int cls = rmpi_class_of[-rmp_err];
    return cls == MPI_ERR_OTHER ? RMPI_CODE_BASE - rmp_err : cls;
}

/* The rmp error an extra code stands for, or 0 when code is not one. */
static int rmpi_extra_err(int code)
{
    int e = RMPI_CODE_BASE - code;
    if (code <= RMPI_CODE_BASE || e <= RMP_ERR_LAST || rmpi_class_of[-e] != MPI_ERR_OTHER)
        return 0;
    return e;
}

/* The rmp error a class is raised for, or 0 when rmp never raises it. */
static int rmpi_err_of_class(int cls)
{
    if (cls == MPI_ERR_OTHER)
        return 0; /* rmp errors of that class have codes of their own */
    for (int e = -1; e > RMP_ERR_LAST; e--)
        if (rmpi_class_of[-e] == cls)
            return e;
    return 0;
}

void rmpi_errh_inherit(MPI_Comm parent, MPI_Comm child)
{
    if (child < 0)
        return;
    parent = rmpi_errh_comm(parent);
    pthread_mutex_lock(&rmpi_errh.lock);
    /* the parent's own (0: none, the child follows MPI_COMM_WORLD's too); on no memory the
     * child keeps none */
    (void)errh_put(EH_COMM, child, errh_slot(EH_COMM, parent));
    pthread_mutex_unlock(&rmpi_errh.lock);
}

void rmpi_errh_forget(MPI_Comm comm)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    (void)errh_put(EH_COMM, comm, 0);
    pthread_mutex_unlock(&rmpi_errh.lock);
}

void rmpi_file_errh_forget(MPI_File fh)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    (void)errh_put(EH_FILE, fh, 0);
    pthread_mutex_unlock(&rmpi_errh.lock);
}

void rmpi_win_errh_forget(MPI_Win win)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    (void)errh_put(EH_WIN, win, 0);
    pthread_mutex_unlock(&rmpi_errh.lock);
}

/* MPI_ERRORS_ARE_FATAL and MPI_ERRORS_ABORT (both end the job: rmp ends every process of it):
 * one line naming the call, the rank and the error, then the end. */
static _Noreturn void rmpi_fatal(int code, const char *call, MPI_Errhandler eh)
{
    /* The layer's calls are compiled as PMPI_X (the Makefile's profiling interface), so
     * __func__ says "PMPI_Send": the user called MPI_Send, the name the message gives. */
    if (strncmp(call, "PMPI_", 5) == 0)
        call++;
    char text[MPI_MAX_ERROR_STRING];
    int len, cls = MPI_ERR_INTERN, rank = -1;
    if (MPI_Error_string(code, text, &len) != MPI_SUCCESS)
        snprintf(text, sizeof text, "error code %d", code);
    if (MPI_Error_class(code, &cls) != MPI_SUCCESS || cls > 255)
        cls = MPI_ERR_OTHER; /* an exit status */
    int up = 0;
    if (rmp_initialized(&up) != RMP_SUCCESS || !up || rmp_comm_rank(RMP_COMM_WORLD, &rank) != 0)
        rank = -1;
    if (rank >= 0)
        fprintf(stderr, "rmp: %s on rank %d: %s\n", call, rank, text);
    else
        fprintf(stderr, "rmp: %s: %s\n", call, text);
    fprintf(stderr, "rmp: %s ends the job; after MPI_Comm_set_errhandler(comm, "
                    "MPI_ERRORS_RETURN) %s returns %d instead\n",
            eh == MPI_ERRORS_ABORT ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL", call, code);
    fflush(stderr);
    rmp_abort(RMP_COMM_WORLD, cls);
    abort(); /* rmp_abort never returns */
}

/* Raises code on object h of the kind (valid: the caller checked), returning the code. */
int rmpi_raise_on(int kind, int h, int code, const char *call)
{
    if (code == MPI_SUCCESS)
        return code;
    pthread_mutex_lock(&rmpi_errh.lock);
    MPI_Errhandler eh = errh_raised(kind, h);
    errh_t *e = errh_user(eh);
    void (*fn)(void) = e ? e->fn : NULL;
    errh_ref(eh, 1); /* kept while it runs, even if the handler is changed meanwhile */
    pthread_mutex_unlock(&rmpi_errh.lock);
    if (fn) {
        int c = code;
        if (kind == EH_COMM) {
            MPI_Comm comm = h;
            ((MPI_Comm_errhandler_function *)fn)(&comm, &c);
        } else if (kind == EH_WIN) {
            MPI_Win win = h;
            ((MPI_Win_errhandler_function *)fn)(&win, &c);
        } else if (kind == EH_FILE) {
            MPI_File file = h;
            ((MPI_File_errhandler_function *)fn)(&file, &c);
        } else {
            MPI_Session session = h;
            ((MPI_Session_errhandler_function *)fn)(&session, &c);
        }
    }
    pthread_mutex_lock(&rmpi_errh.lock);
    errh_ref(eh, -1);
    pthread_mutex_unlock(&rmpi_errh.lock);
    if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_ABORT)
        rmpi_fatal(code, call, eh);
    return code;
}

int rmpi_raise_code(MPI_Comm comm, int code, const char *call)
{
    if (code == MPI_SUCCESS)
        return code;
    return rmpi_raise_on(EH_COMM, rmpi_errh_comm(comm), code, call);
}

/* Has window win a handler set by the program? Until it has, its errors go to
 * MPI_COMM_WORLD's handler, as they always did here (and as in MPICH). */
bool rmpi_win_has_errh(MPI_Win win)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    bool own = win >= 0 && (size_t)win < rmpi_errh.n[EH_WIN] && rmpi_errh.of[EH_WIN][win];
    pthread_mutex_unlock(&rmpi_errh.lock);
    return own;
}

int rmpi_raise_win_code(MPI_Win win, int code, const char *call)
{
    if (code == MPI_SUCCESS)
        return code;
    if (!rmpi_win_valid(win) || !rmpi_win_has_errh(win))
        return rmpi_raise_code(MPI_COMM_WORLD, code, call);
    return rmpi_raise_on(EH_WIN, win, code, call);
}

int rmpi_raise_win(MPI_Win win, int rmp_err, const char *call)
{
    return rmpi_raise_win_code(win, rmpi_code(rmp_err), call);
}

int rmpi_raise(MPI_Comm comm, int rmp_err, const char *call)
{
    return rmpi_raise_code(comm, rmpi_code(rmp_err), call);
}

void rmpi_status_prep(rmpi_stsave_t *sv, MPI_Status *s, int n)
{
    sv->saved = NULL;
    if (!s || n <= 0)
        return;
    sv->saved = n <= (int)(sizeof sv->local / sizeof sv->local[0])
                    ? sv->local
                    : malloc(sizeof(int) * (size_t)n); /* NULL: the fields become MPI codes */
    for (int i = 0; i < n; i++) {
        if (sv->saved)
            sv->saved[i] = s[i].MPI_ERROR;
        s[i].rmp_status_.error = RMP_SUCCESS;
    }
}

/* An empty status (a null or inactive request: source MPI_ANY_SOURCE, tag MPI_ANY_TAG) has
 * MPI_ERROR = MPI_SUCCESS by definition (MPI-3.1 3.7.3); no completed message has that source. */
static bool status_empty(const MPI_Status *s)
{
    return s->MPI_SOURCE == MPI_ANY_SOURCE && s->MPI_TAG == MPI_ANY_TAG;
}

void rmpi_status_fix(rmpi_stsave_t *sv, MPI_Status *s, int n, int rc)
{
    for (int i = 0; s && i < n; i++)
        s[i].MPI_ERROR = rc == RMP_ERR_IN_STATUS || !sv->saved ? rmpi_code(s[i].rmp_status_.error)
                         : status_empty(&s[i])                 ? MPI_SUCCESS
                                                               : sv->saved[i];
    if (sv->saved && sv->saved != sv->local)
        free(sv->saved);
}

/* Why objects of the kind may not use eh (MPI_SUCCESS: they may: a builtin or a live one of
 * the kind): MPI_ERR_ERRHANDLER for a value that is no handler (never made, or freed);
 * MPI_ERR_ARG for MPI_ERRHANDLER_NULL (what MPICH and Open MPI say, and mpi4py 3.1 expects)
 * and for a live handler of another kind of object (lock held). */
static int errh_unfit(int kind, MPI_Errhandler eh)
{
    if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN || eh == MPI_ERRORS_ABORT)
        return MPI_SUCCESS;
    if (eh == MPI_ERRHANDLER_NULL)
        return MPI_ERR_ARG;
    errh_t *e = errh_user(eh);
    return !e ? MPI_ERR_ERRHANDLER : e->kind != kind ? MPI_ERR_ARG : MPI_SUCCESS;
}

int rmpi_errh_set(int kind, int h, MPI_Errhandler eh)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    int code = errh_unfit(kind, eh);
    if (!code && !errh_put(kind, h, eh))
        code = MPI_ERR_NO_MEM;
    pthread_mutex_unlock(&rmpi_errh.lock);
    return code;
}

/* A new reference to the handler (the program frees it with MPI_Errhandler_free). */
MPI_Errhandler rmpi_errh_get(int kind, int h)
{
    pthread_mutex_lock(&rmpi_errh.lock);
    MPI_Errhandler eh = errh_of(kind, h);
    errh_ref(eh, 1);
    pthread_mutex_unlock(&rmpi_errh.lock);
    return eh;
}

int rmpi_errh_create(int kind, void (*fn)(void), MPI_Errhandler *errhandler)
{
    if (!fn || !errhandler)
        return MPI_ERR_ARG;
    int code = MPI_SUCCESS, i = 0;
    pthread_mutex_lock(&rmpi_errh.lock);
    while (i < rmpi_errh.neh && rmpi_errh.eh[i].refs > 0)
        i++;
    if (i == rmpi_errh.neh) {
        int n = rmpi_errh.neh ? 2 * rmpi_errh.neh : 16;
        errh_t *p = realloc(rmpi_errh.eh, sizeof(*p) * (size_t)n);
        if (p) {
            memset(p + rmpi_errh.neh, 0, sizeof(*p) * (size_t)(n - rmpi_errh.neh));
            rmpi_errh.eh = p;
            rmpi_errh.neh = n;
        } else {
            code = MPI_ERR_NO_MEM;
        }
    }
    if (!code) {
        rmpi_errh.eh[i] = (errh_t){.kind = kind, .refs = 1, .fn = fn};
        *errhandler = EH_FIRST_USER + i;
    }
    pthread_mutex_unlock(&rmpi_errh.lock);
    return code;
}

/* A builtin handle only becomes MPI_ERRHANDLER_NULL; a user handler loses the program's
 * reference (the communicators and windows using it keep theirs). */
int MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    int code = MPI_SUCCESS;
    pthread_mutex_lock(&rmpi_errh.lock);
    if (!errhandler)
        code = MPI_ERR_ARG;
    else if (*errhandler == MPI_ERRORS_ARE_FATAL || *errhandler == MPI_ERRORS_RETURN ||
             *errhandler == MPI_ERRORS_ABORT)
        *errhandler = MPI_ERRHANDLER_NULL;
    else if (errh_user(*errhandler)) {
        errh_ref(*errhandler, -1);
        *errhandler = MPI_ERRHANDLER_NULL;
    } else
        code = *errhandler == MPI_ERRHANDLER_NULL ? MPI_ERR_ARG : MPI_ERR_ERRHANDLER;
    pthread_mutex_unlock(&rmpi_errh.lock);
    return rmpi_raise_code(MPI_COMM_WORLD, code, __func__);
}

int MPI_Error_class(int errorcode, int *errorclass)
{
    if (!errorclass)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        *errorclass = errorcode;
    else if (rmpi_extra_err(errorcode))
        *errorclass = MPI_ERR_OTHER;
    else if (!rmpi_user_code(errorcode, errorclass, NULL))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    return MPI_SUCCESS;
}

/* "MPI_ERR_RANK: invalid rank": the class name, then rmp's description of the error. */
int MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    int cls, e = rmpi_extra_err(errorcode);
    if (!string || !resultlen)
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    if (!e && rmpi_user_code(errorcode, &cls, string)) { /* the string added, else "" */
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    if (e)
        cls = MPI_ERR_OTHER;
    else if (errorcode >= MPI_SUCCESS && errorcode <= MPI_ERR_LASTCLASS)
        cls = errorcode, e = rmpi_err_of_class(cls);
    else
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    const char *text = cls == MPI_SUCCESS          ? "no error"
                       : e                         ? rmp_strerror(e)
                       : cls == MPI_ERR_OTHER      ? "other error"
                       : cls == MPI_ERR_ERRHANDLER ? "invalid error handler (never made, or freed)"
                                                   : "an error class rmp never raises";
    /* a file system's failure: the path and errno of this thread's last one (io/) */
    const char *io = e <= RMP_ERR_NO_SUCH_FILE && e >= RMP_ERR_IO ? rmp_file_error_detail() : "";
    int n = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s%s%s%s", rmpi_class_name[cls], text,
                     *io ? " (" : "", io, *io ? ")" : "");
    *resultlen = n < MPI_MAX_ERROR_STRING ? n : MPI_MAX_ERROR_STRING - 1;
    return MPI_SUCCESS;
}
