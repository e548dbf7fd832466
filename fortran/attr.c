/* attr.c — attributes from Fortran: keyvals whose copy and delete callbacks are Fortran
 * procedures (called through C trampolines with Fortran's conventions: every argument by
 * reference, INTEGER(KIND=MPI_ADDRESS_KIND) values, or INTEGER ones for the MPI-1 calls), the
 * attribute values as Fortran integers, and the predefined callbacks as Fortran procedures.
 * Hand-written: the generator cannot know a C callback from a Fortran one.
 *
 * Values between the languages (MPI-4.0 19.3.7, as MPICH's f77/f90 attr tests check): a value
 * Fortran sets (MPI_COMM_SET_ATTR's address-sized integer, MPI_ATTR_PUT's INTEGER) is stored
 * in a cell of ours, and C reads the cell's address: a pointer to the integer. Fortran reads a
 * cell as its integer and any other value (set from C) as the pointer's address. */
#include <pthread.h>
#include <stdint.h>

#include "rmpif.h"

/* ---- Cells: the values set from Fortran ------------------------------------------------ */
/* A cell is found by its address in a hash of chains (the address C hands back is never
 * dereferenced before it is known to be a cell: C may store any pointer, or none). */
typedef struct cell {
    MPI_Aint v; /* first: C's pointer to the value is the cell's address */
    struct cell *next;
} cell_t;

#define NCHAIN 1024
static struct {
    pthread_mutex_t lock;
    cell_t *chain[NCHAIN];
} cells = {.lock = PTHREAD_MUTEX_INITIALIZER};

static cell_t **chain_of(const void *p)
{
    return &cells.chain[((uintptr_t)p >> 4) % NCHAIN];
}

static cell_t *cell_new(MPI_Aint v)
{
    cell_t *c = malloc(sizeof(*c));
    if (!c)
        return NULL;
    c->v = v;
    pthread_mutex_lock(&cells.lock);
    cell_t **ch = chain_of(c);
    c->next = *ch;
    *ch = c;
    pthread_mutex_unlock(&cells.lock);
    return c;
}

/* The attribute value p as Fortran sees it: a cell's integer, else the pointer's address. */
static MPI_Aint cell_value(const void *p)
{
    MPI_Aint v = (MPI_Aint)(intptr_t)p;
    pthread_mutex_lock(&cells.lock);
    for (cell_t *c = *chain_of(p); c; c = c->next)
        if (c == p) {
            v = c->v;
            break;
        }
    pthread_mutex_unlock(&cells.lock);
    return v;
}

/* p's cell freed, when p is one (its attribute is gone). */
static void cell_free(void *p)
{
    pthread_mutex_lock(&cells.lock);
    cell_t **pp = chain_of(p);
    while (*pp && *pp != p)
        pp = &(*pp)->next;
    cell_t *c = *pp;
    if (c)
        *pp = c->next;
    pthread_mutex_unlock(&cells.lock);
    free(c);
}

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
    MPI_Aint ain = cell_value(in), aout = 0;
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fin = (MPI_Fint)ain, fout = 0;
        k->copy(&fold, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
        aout = fout;
    } else {
        k->copy(&fold, &fkey, &k->extra, &ain, &aout, &fflag, &ierr);
    }
    *flag = fflag != RMPIF_FALSE;
    cell_t *c = ierr == MPI_SUCCESS && *flag ? cell_new(aout) : NULL;
    if (ierr == MPI_SUCCESS && *flag && !c)
        ierr = MPI_ERR_NO_MEM;
    *(void **)out = c;
    return ierr;
}

static int delete_tramp(int obj, int keyval, void *val, void *extra)
{
    rmpif_keyval_t *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    MPI_Aint aval = cell_value(val);
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fval = (MPI_Fint)aval;
        k->del(&fobj, &fkey, &fval, &fextra, &ierr);
    } else {
        k->del(&fobj, &fkey, &aval, &k->extra, &ierr);
    }
    if (ierr == MPI_SUCCESS) /* refused: the attribute, and its cell, stay */
        cell_free(val);
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
        return cell_value(v);
    int win = obj == 'w';
    int int_ptr = win ? k == MPI_WIN_DISP_UNIT || k == MPI_WIN_CREATE_FLAVOR || k == MPI_WIN_MODEL
                      : k == MPI_TAG_UB || k == MPI_HOST || k == MPI_IO ||
                            k == MPI_WTIME_IS_GLOBAL || k == MPI_UNIVERSE_SIZE ||
                            k == MPI_APPNUM || k == MPI_LASTUSEDCODE;
    if (int_ptr)
        return *(int *)v;
    if (win && k == MPI_WIN_SIZE)
        return *(MPI_Aint *)v;
    return cell_value(v);
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

/* Setting from Fortran: the value into a new cell (freed again when the call fails). */
typedef int attr_set_fn(int obj, int keyval, void *val);

static int attr_set(attr_set_fn *set, MPI_Fint obj, MPI_Fint keyval, MPI_Aint val)
{
    cell_t *c = cell_new(val);
    int rc = c ? set(obj, keyval, c) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS)
        cell_free(c);
    return rc;
}

RMPIF_API void pmpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr)
{
    *ierr = attr_set(MPI_Comm_set_attr, *comm, *keyval, *val);
}

RMPIF_API void pmpi_type_set_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr)
{
    *ierr = attr_set(MPI_Type_set_attr, *type, *keyval, *val);
}

RMPIF_API void pmpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr)
{
    *ierr = attr_set(MPI_Win_set_attr, *win, *keyval, *val);
}

RMPIF_API void pmpi_attr_put_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierr)
{
    *ierr = attr_set(MPI_Attr_put, *comm, *keyval, *val);
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
RMPIF_MPI_ALIAS(mpi_comm_set_attr_);
RMPIF_MPI_ALIAS(mpi_type_set_attr_);
RMPIF_MPI_ALIAS(mpi_win_set_attr_);
