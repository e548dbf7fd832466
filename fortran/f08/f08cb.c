/* f08cb.c — the mpi_f08 procedures tools/gen-f08 leaves to hand: those taking Fortran
 * callbacks whose arguments C passes differently (attribute copy/delete, generalized
 * requests: C trampolines call the Fortran procedure), attribute values read as integers, the
 * status conversions and MPI_F_sync_reg. A communicator, datatype and window are all an int
 * in C and an INTEGER in Fortran, so one pair of attribute trampolines serves the three. */
#include <stdlib.h>

#include "f08rt.h"

typedef void f08_copy_fn(const int *old, const int *keyval, MPI_Aint *extra, MPI_Aint *in,
                         MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror);
typedef void f08_delete_fn(const int *obj, const int *keyval, MPI_Aint *val, MPI_Aint *extra,
                           MPI_Fint *ierror);

/* A keyval's Fortran side: C's extra_state points here (kept until the program ends: C has
 * no hook when the keyval is freed and its last attribute goes). */
typedef struct f08_keyval {
    f08_copy_fn *copy;
    f08_delete_fn *del;
    MPI_Aint extra;
} f08_keyval_t;

static int attr_copy(int old, int keyval, void *extra, void *in, void *out, int *flag)
{
    f08_keyval_t *k = extra;
    MPI_Aint fin = (MPI_Aint)in, fout = 0;
    MPI_Fint fflag = 0, ierr = MPI_SUCCESS;
    k->copy(&old, &keyval, &k->extra, &fin, &fout, &fflag, &ierr);
    *flag = fflag != 0;
    if (*flag)
        *(void **)out = (void *)fout;
    return ierr;
}

static int attr_delete(int obj, int keyval, void *val, void *extra)
{
    f08_keyval_t *k = extra;
    MPI_Aint fval = (MPI_Aint)val;
    MPI_Fint ierr = MPI_SUCCESS;
    k->del(&obj, &keyval, &fval, &k->extra, &ierr);
    return ierr;
}

static f08_keyval_t *keyval_new(f08_copy_fn *copy, f08_delete_fn *del, const MPI_Aint *extra)
{
    f08_keyval_t *k = malloc(sizeof *k);
    if (k)
        *k = (f08_keyval_t){.copy = copy, .del = del, .extra = *extra};
    return k;
}

static void done(MPI_Fint *ierror, int rc)
{
    if (ierror)
        *ierror = rc;
}

void MPI_Comm_create_keyval_f08(f08_copy_fn *copy, f08_delete_fn *del, int *keyval,
                                const MPI_Aint *extra, MPI_Fint *ierror)
{
    f08_keyval_t *k = keyval_new(copy, del, extra);
    done(ierror, k ? MPI_Comm_create_keyval(attr_copy, attr_delete, keyval, k)
                   : f08_fail_comm(MPI_COMM_NULL, MPI_ERR_NO_MEM));
}

void MPI_Type_create_keyval_f08(f08_copy_fn *copy, f08_delete_fn *del, int *keyval,
                                const MPI_Aint *extra, MPI_Fint *ierror)
{
    f08_keyval_t *k = keyval_new(copy, del, extra);
    done(ierror, k ? MPI_Type_create_keyval(attr_copy, attr_delete, keyval, k)
                   : f08_fail_comm(MPI_COMM_NULL, MPI_ERR_NO_MEM));
}

void MPI_Win_create_keyval_f08(f08_copy_fn *copy, f08_delete_fn *del, int *keyval,
                               const MPI_Aint *extra, MPI_Fint *ierror)
{
    f08_keyval_t *k = keyval_new(copy, del, extra);
    done(ierror, k ? MPI_Win_create_keyval(attr_copy, attr_delete, keyval, k)
                   : f08_fail_comm(MPI_COMM_NULL, MPI_ERR_NO_MEM));
}

/* C gives a predefined attribute as a pointer to its value (MPI_WIN_BASE: the base itself),
 * Fortran as the value; a program's attribute is the integer Fortran stored. */
static void attr_value(int keyval, void *v, MPI_Aint *out)
{
    if (keyval == MPI_WIN_SIZE)
        *out = *(MPI_Aint *)v;
    else if (keyval >= MPI_TAG_UB && keyval <= MPI_WIN_MODEL && keyval != MPI_WIN_BASE)
        *out = *(int *)v;
    else
        *out = (MPI_Aint)v;
}

void MPI_Comm_get_attr_f08(const MPI_Comm *comm, const int *keyval, MPI_Aint *val, int *flag,
                           MPI_Fint *ierror)
{
    void *v = NULL;
    int rc = MPI_Comm_get_attr(*comm, *keyval, &v, flag);
    if (rc == MPI_SUCCESS && *flag)
        attr_value(*keyval, v, val);
    done(ierror, rc);
}

void MPI_Type_get_attr_f08(const MPI_Datatype *type, const int *keyval, MPI_Aint *val,
                           int *flag, MPI_Fint *ierror)
{
    void *v = NULL;
    int rc = MPI_Type_get_attr(*type, *keyval, &v, flag);
    if (rc == MPI_SUCCESS && *flag)
        *val = (MPI_Aint)v; /* no predefined datatype attributes */
    done(ierror, rc);
}

void MPI_Win_get_attr_f08(const MPI_Win *win, const int *keyval, MPI_Aint *val, int *flag,
                          MPI_Fint *ierror)
{
    void *v = NULL;
    int rc = MPI_Win_get_attr(*win, *keyval, &v, flag);
    if (rc == MPI_SUCCESS && *flag)
        attr_value(*keyval, v, val);
    done(ierror, rc);
}

/* Generalized requests: the Fortran callbacks and their extra_state. */
typedef void f08_query_fn(MPI_Aint *extra, MPI_Status *status, MPI_Fint *ierror);
typedef void f08_free_fn(MPI_Aint *extra, MPI_Fint *ierror);
typedef void f08_cancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierror);
typedef struct f08_greq {
    f08_query_fn *query;
    f08_free_fn *free;
    f08_cancel_fn *cancel;
    MPI_Aint extra;
} f08_greq_t;

static int greq_query(void *extra, MPI_Status *status)
{
    f08_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->query(&g->extra, status, &ierr);
    return ierr;
}

/* The last call on the request: its record goes with it. */
static int greq_free(void *extra)
{
    f08_greq_t *g = extra;
    MPI_Fint ierr = MPI_SUCCESS;
    g->free(&g->extra, &ierr);
    free(g);
    return ierr;
}

static int greq_cancel(void *extra, int complete)
{
    f08_greq_t *g = extra;
    MPI_Fint fcomplete = complete != 0, ierr = MPI_SUCCESS;
    g->cancel(&g->extra, &fcomplete, &ierr);
    return ierr;
}

void MPI_Grequest_start_f08(f08_query_fn *query, f08_free_fn *free_fn, f08_cancel_fn *cancel,
                            const MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierror)
{
    f08_greq_t *g = malloc(sizeof *g);
    MPI_Request r = MPI_REQUEST_NULL;
    int rc = MPI_ERR_NO_MEM;
    if (g) {
        *g = (f08_greq_t){.query = query, .free = free_fn, .cancel = cancel, .extra = *extra};
        rc = MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, &r);
        if (rc != MPI_SUCCESS)
            free(g);
    } else {
        rc = f08_fail_comm(MPI_COMM_NULL, rc);
    }
    *request = MPI_Request_c2f(r);
    done(ierror, rc);
}

void MPI_Status_f082f_f08(const MPI_F08_status *f08, MPI_Fint *f, MPI_Fint *ierror)
{
    done(ierror, MPI_Status_f082f(f08, f));
}

void MPI_Status_f2f08_f08(const MPI_Fint *f, MPI_F08_status *f08, MPI_Fint *ierror)
{
    done(ierror, MPI_Status_f2f08(f, f08));
}

void MPI_F_sync_reg_f08(CFI_cdesc_t *buf)
{
    (void)buf;
}
