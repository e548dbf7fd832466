/* attr.c — attributes from Fortran: keyvals whose copy and delete callbacks are Fortran
 * procedures (called through C trampolines with Fortran's conventions: every argument by
 * reference, INTEGER(KIND=MPI_ADDRESS_KIND) values, or INTEGER ones for the MPI-1 calls), the
 * attribute values as Fortran integers, and the predefined callbacks as Fortran procedures.
 * Hand-written: the generator cannot know a C callback from a Fortran one. */
#include <pthread.h>

#include "rmpif.h"

typedef void rmpif_copy_fn(MPI_Fint *old, MPI_Fint *keyval, void *extra, void *in, void *out,
                           MPI_Fint *flag, MPI_Fint *ierr);
typedef void rmpif_delete_fn(MPI_Fint *obj, MPI_Fint *keyval, void *val, void *extra,
                             MPI_Fint *ierr);

/* One keyval's Fortran callbacks, passed to C as its extra_state. mpi1: MPI_Keyval_create's
 * INTEGER values. Kept for the life of the process (an attribute may outlive its keyval's
 * free), on a list so that they stay reachable. */
typedef struct rmpif_keyval {
    rmpif_copy_fn *copy;
    rmpif_delete_fn *del;
    MPI_Aint extra;
    int mpi1;
    struct rmpif_keyval *next;
} rmpif_keyval_t;

static struct {
    pthread_mutex_t lock;
    rmpif_keyval_t *head;
} keyvals = {.lock = PTHREAD_MUTEX_INITIALIZER};

static rmpif_keyval_t *keyval_new(void (*copy)(void), void (*del)(void), MPI_Aint extra, int mpi1)
{
    rmpif_keyval_t *k = malloc(sizeof(*k));
    if (!k)
        return NULL;
    *k = (rmpif_keyval_t){(rmpif_copy_fn *)copy, (rmpif_delete_fn *)del, extra, mpi1, NULL};
    pthread_mutex_lock(&keyvals.lock);
    k->next = keyvals.head;
    keyvals.head = k;
    pthread_mutex_unlock(&keyvals.lock);
    return k;
}

/* Comm, type and win handles are all ints in rmp: one pair of trampolines serves the three.
 * The Fortran callback's ierror is the C callback's result (MPI: it propagates). */
static int copy_tramp(int old, int keyval, void *extra, void *in, void *out, int *flag)
{
    rmpif_keyval_t *k = extra;
    MPI_Fint fold = old, fkey = keyval, fflag = RMPIF_FALSE, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fin = (MPI_Fint)(intptr_t)in, fout = 0;
        k->copy(&fold, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)fout;
    } else {
        MPI_Aint ain = (MPI_Aint)(intptr_t)in, aout = 0;
        k->copy(&fold, &fkey, &k->extra, &ain, &aout, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)aout;
    }
    *flag = fflag != RMPIF_FALSE;
    return ierr;
}

static int delete_tramp(int obj, int keyval, void *val, void *extra)
{
    rmpif_keyval_t *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fval = (MPI_Fint)(intptr_t)val;
        k->del(&fobj, &fkey, &fval, &fextra, &ierr);
    } else {
        MPI_Aint aval = (MPI_Aint)(intptr_t)val;
        k->del(&fobj, &fkey, &aval, &k->extra, &ierr);
    }
    return ierr;
}

RMPIF_API void pmpi_comm_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                        MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Comm_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void pmpi_type_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                        MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Type_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void pmpi_win_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                       MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Win_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void pmpi_keyval_create_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                   MPI_Fint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 1);
    *ierr = k ? MPI_Keyval_create(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

/* An attribute's value as Fortran reads it. The predefined attributes C gives as a pointer
 * (MPI-4.0 7.1, 12.2.6) are their values: a pointer to an int (MPI_TAG_UB ..., MPI_WIN_DISP_UNIT
 * ...), MPI_WIN_SIZE a pointer to an MPI_Aint, MPI_WIN_BASE the address itself. Values set from
 * Fortran are the integers themselves. */
static MPI_Aint attr_value(char obj, int k, void *v)
{
    if (obj == 't') /* no predefined type attributes */
        return (MPI_Aint)(intptr_t)v;
    int win = obj == 'w';
    int int_ptr = win ? k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR || k == MPI_WIN_MODEL
                      : k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO ||
                            k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
                            k == MPI_APPNUM || k == MPI_LASTUSEDCODE;
    if (int_ptr)
        return *(int *)v;
    if (win && k == MPI_WIN_SIZE)
        return *(MPI_Aint *)v;
    return (MPI_Aint)(intptr_t)v;
}

/* Comm, type and win getters share one shape (their handles are ints); obj ('c', 't', 'w')
 * says which predefined keyvals apply. */
typedef int attr_get_fn(int obj, int keyval, void *val, int *flag);

static int attr_get(attr_get_fn *get, char what, MPI_Fint obj, MPI_Fint keyval, MPI_Aint *val,
                    MPI_Fint *flag)
{
    void *v = NULL;
    int f = 0;
    int rc = get(obj, keyval, &v, &f);
    if (rc == MPI_SUCCESS && f)
        *val = attr_value(what, keyval, v);
    *flag = f ? RMPIF_TRUE : RMPIF_FALSE;
    return rc;
}

RMPIF_API void pmpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                   MPI_Fint *ierr)
{
    *ierr = attr_get(MPI_Comm_get_attr, 'c', *comm, *keyval, val, flag);
}

RMPIF_API void pmpi_type_get_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                   MPI_Fint *ierr)
{
    *ierr = attr_get(MPI_Type_get_attr, 't', *type, *keyval, val, flag);
}

RMPIF_API void pmpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                  MPI_Fint *ierr)
{
    *ierr = attr_get(MPI_Win_get_attr, 'w', *win, *keyval, val, flag);
}

/* MPI-1's: INTEGER values. */
RMPIF_API void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag,
                              MPI_Fint *ierr)
{
    MPI_Aint v = 0;
    *ierr = attr_get(MPI_Attr_get, 'c', *comm, *keyval, &v, flag);
    if (*ierr == MPI_SUCCESS && *flag)
        *val = (MPI_Fint)v;
}

RMPIF_API void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr)
{
    *ierr = MPI_Attr_put((MPI_Comm)*comm, *keyval, (void *)(intptr_t)*val);
}

/* The predefined callbacks, as Fortran calls them (MPI-4.0 7.7.2). */
#define RMPIF_NULL_COPY(name, T)                                                               \
    RMPIF_API void name(MPI_Fint *old, MPI_Fint *key, T *extra, T *in, T *out, MPI_Fint *flag, \
                        MPI_Fint *ierr)                                                        \
    {                                                                                          \
        *flag = RMPIF_FALSE;                                                                   \
        *ierr = MPI_SUCCESS;                                                                   \
    }
#define RMPIF_DUP(name, T)                                                                     \
    RMPIF_API void name(MPI_Fint *old, MPI_Fint *key, T *extra, T *in, T *out, MPI_Fint *flag, \
                        MPI_Fint *ierr)                                                        \
    {                                                                                          \
        *out = *in;                                                                            \
        *flag = RMPIF_TRUE;                                                                    \
        *ierr = MPI_SUCCESS;                                                                   \
    }
#define RMPIF_NULL_DELETE(name, T)                                                             \
    RMPIF_API void name(MPI_Fint *obj, MPI_Fint *key, T *val, T *extra, MPI_Fint *ierr)        \
    {                                                                                          \
        *ierr = MPI_SUCCESS;                                                                   \
    }
RMPIF_NULL_COPY(mpi_comm_null_copy_fn_, MPI_Aint)
RMPIF_NULL_COPY(mpi_type_null_copy_fn_, MPI_Aint)
RMPIF_NULL_COPY(mpi_win_null_copy_fn_, MPI_Aint)
RMPIF_NULL_COPY(mpi_null_copy_fn_, MPI_Fint)
RMPIF_DUP(mpi_comm_dup_fn_, MPI_Aint)
RMPIF_DUP(mpi_type_dup_fn_, MPI_Aint)
RMPIF_DUP(mpi_win_dup_fn_, MPI_Aint)
RMPIF_DUP(mpi_dup_fn_, MPI_Fint)
RMPIF_NULL_DELETE(mpi_comm_null_delete_fn_, MPI_Aint)
RMPIF_NULL_DELETE(mpi_type_null_delete_fn_, MPI_Aint)
RMPIF_NULL_DELETE(mpi_win_null_delete_fn_, MPI_Aint)
RMPIF_NULL_DELETE(mpi_null_delete_fn_, MPI_Fint)

/* The MPI_ names, weak: a Fortran profiling tool defines its own and calls the PMPI_ ones. */
RMPIF_MPI_ALIAS(mpi_comm_create_keyval_);
RMPIF_MPI_ALIAS(mpi_type_create_keyval_);
RMPIF_MPI_ALIAS(mpi_win_create_keyval_);
RMPIF_MPI_ALIAS(mpi_keyval_create_);
RMPIF_MPI_ALIAS(mpi_comm_get_attr_);
RMPIF_MPI_ALIAS(mpi_type_get_attr_);
RMPIF_MPI_ALIAS(mpi_win_get_attr_);
RMPIF_MPI_ALIAS(mpi_attr_get_);
RMPIF_MPI_ALIAS(mpi_attr_put_);
