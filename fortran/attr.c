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

RMPIF_API void mpi_comm_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                       MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Comm_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void mpi_type_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                       MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Type_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void mpi_win_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                      MPI_Aint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 0);
    *ierr = k ? MPI_Win_create_keyval(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

RMPIF_API void mpi_keyval_create_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                                  MPI_Fint *extra, MPI_Fint *ierr)
{
    rmpif_keyval_t *k = keyval_new(copy, del, *extra, 1);
    *ierr = k ? MPI_Keyval_create(copy_tramp, delete_tramp, keyval, k) : MPI_ERR_NO_MEM;
}

/* The predefined attributes C gives as a pointer to an int (MPI-4.0 7.1): Fortran gets the
 * int. Values set from Fortran are the integers themselves. */
static MPI_Aint comm_attr_value(int keyval, void *v)
{
    if (keyval == MPI_TAG_UB || keyval == MPI_HOST || keyval == MPI_IO ||
        keyval == MPI_WTIME_IS_GLOBAL || keyval == MPI_UNIVERSE_SIZE || keyval == MPI_APPNUM ||
        keyval == MPI_LASTUSEDCODE)
        return *(int *)v;
    return (MPI_Aint)(intptr_t)v;
}

RMPIF_API void mpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                  MPI_Fint *ierr)
{
    void *v = NULL;
    int f = 0;
    *ierr = MPI_Comm_get_attr((MPI_Comm)*comm, *keyval, &v, &f);
    if (*ierr == MPI_SUCCESS && f)
        *val = comm_attr_value(*keyval, v);
    *flag = f ? RMPIF_TRUE : RMPIF_FALSE;
}

RMPIF_API void mpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag,
                             MPI_Fint *ierr)
{
    void *v = NULL;
    int f = 0;
    *ierr = MPI_Attr_get((MPI_Comm)*comm, *keyval, &v, &f);
    if (*ierr == MPI_SUCCESS && f)
        *val = (MPI_Fint)comm_attr_value(*keyval, v);
    *flag = f ? RMPIF_TRUE : RMPIF_FALSE;
}

RMPIF_API void mpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr)
{
    *ierr = MPI_Attr_put((MPI_Comm)*comm, *keyval, (void *)(intptr_t)*val);
}

RMPIF_API void mpi_type_get_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                  MPI_Fint *ierr)
{
    void *v = NULL;
    int f = 0;
    *ierr = MPI_Type_get_attr((MPI_Datatype)*type, *keyval, &v, &f);
    if (*ierr == MPI_SUCCESS && f)
        *val = (MPI_Aint)(intptr_t)v;
    *flag = f ? RMPIF_TRUE : RMPIF_FALSE;
}

/* Window attributes: MPI_WIN_BASE is the address itself, MPI_WIN_SIZE a pointer to an
 * MPI_Aint, the others pointers to ints. */
RMPIF_API void mpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                                 MPI_Fint *ierr)
{
    void *v = NULL;
    int f = 0, k = *keyval;
    *ierr = MPI_Win_get_attr((MPI_Win)*win, k, &v, &f);
    if (*ierr == MPI_SUCCESS && f)
        *val = k == MPI_WIN_SIZE ? *(MPI_Aint *)v
               : k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR || k == MPI_WIN_MODEL
                   ? *(int *)v
                   : (MPI_Aint)(intptr_t)v;
    *flag = f ? RMPIF_TRUE : RMPIF_FALSE;
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
