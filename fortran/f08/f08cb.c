/* f08cb.c — the mpi_f08 procedures tools/gen-f08 leaves to hand: those taking Fortran
 * callbacks whose arguments C passes differently (attribute copy/delete, generalized
 * requests, datarep conversions: through fortran/attr.c's, greq.c's and datarep.c's
 * trampolines), attribute values read as integers, the status conversions and MPI_F_sync_reg. */
#include <stdlib.h>

#include "f08rt.h"

/* fortran/attr.c's (mpif.h and `use mpi`): its trampolines call a Fortran callback with every
 * argument by reference, as an mpi_f08 callback takes them too (TYPE(MPI_Comm) is BIND(C),
 * one INTEGER); they only need an ierror, which mpi_f08 makes optional. */
void mpi_comm_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                             MPI_Aint *extra, MPI_Fint *ierr);
void mpi_type_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                             MPI_Aint *extra, MPI_Fint *ierr);
void mpi_win_create_keyval_(void (*copy)(void), void (*del)(void), MPI_Fint *keyval,
                            MPI_Aint *extra, MPI_Fint *ierr);
void mpi_comm_set_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr);
void mpi_type_set_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr);
void mpi_win_set_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierr);
void mpi_comm_get_attr_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                        MPI_Fint *ierr);
void mpi_type_get_attr_(MPI_Fint *type, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                        MPI_Fint *ierr);
void mpi_win_get_attr_(MPI_Fint *win, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag,
                       MPI_Fint *ierr);

static void done(MPI_Fint *ierror, int rc)
{
    if (ierror)
        *ierror = rc;
}

#define F08_CREATE_KEYVAL(name, f77)                                                               \
    void name(void (*copy)(void), void (*del)(void), MPI_Fint *keyval, MPI_Aint *extra,            \
              MPI_Fint *ierror)                                                                    \
    {                                                                                              \
        MPI_Fint rc;                                                                               \
        f77(copy, del, keyval, extra, &rc);                                                        \
        done(ierror, rc);                                                                          \
    }
F08_CREATE_KEYVAL(rmpf08_MPI_Comm_create_keyval_f08, mpi_comm_create_keyval_)
F08_CREATE_KEYVAL(rmpf08_MPI_Type_create_keyval_f08, mpi_type_create_keyval_)
F08_CREATE_KEYVAL(rmpf08_MPI_Win_create_keyval_f08, mpi_win_create_keyval_)

#define F08_GET_ATTR(name, f77)                                                                    \
    void name(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror)    \
    {                                                                                              \
        MPI_Fint rc;                                                                               \
        f77(obj, keyval, val, flag, &rc);                                                          \
        done(ierror, rc);                                                                          \
    }
F08_GET_ATTR(rmpf08_MPI_Comm_get_attr_f08, mpi_comm_get_attr_)
F08_GET_ATTR(rmpf08_MPI_Type_get_attr_f08, mpi_type_get_attr_)
F08_GET_ATTR(rmpf08_MPI_Win_get_attr_f08, mpi_win_get_attr_)

/* Values set from Fortran go into fortran/attr.c's cells (C reads a pointer to them). */
#define F08_SET_ATTR(name, f77)                                                                    \
    void name(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *ierror)                    \
    {                                                                                              \
        MPI_Fint rc;                                                                               \
        f77(obj, keyval, val, &rc);                                                                \
        done(ierror, rc);                                                                          \
    }
F08_SET_ATTR(rmpf08_MPI_Comm_set_attr_f08, mpi_comm_set_attr_)
F08_SET_ATTR(rmpf08_MPI_Type_set_attr_f08, mpi_type_set_attr_)
F08_SET_ATTR(rmpf08_MPI_Win_set_attr_f08, mpi_win_set_attr_)

/* Generalized requests: fortran/greq.c's trampolines (the callbacks get the program's own
 * extra_state variable, as MPICH's greqf08 checks). */
void pmpi_grequest_start_(void (*query)(void), void (*freefn)(void), void (*cancel)(void),
                          MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierr);

void rmpf08_MPI_Grequest_start_f08(void (*query)(void), void (*freefn)(void), void (*cancel)(void),
                                   MPI_Aint *extra, MPI_Fint *request, MPI_Fint *ierror)
{
    MPI_Fint rc;
    pmpi_grequest_start_(query, freefn, cancel, extra, request, &rc);
    done(ierror, rc);
}

/* MPI-4.0 10.2: Fortran's buflen is the value's length, C's counts its NUL too; with buflen
 * 0 nothing is written, and the value's length comes back. */
void rmpf08_MPI_Info_get_string_f08(const MPI_Info *info, CFI_cdesc_t *key, MPI_Fint *buflen,
                                    CFI_cdesc_t *value, MPI_Fint *flag, MPI_Fint *ierror)
{
    char *k = f08_str_in(key, 1), *v = f08_str_room(value);
    int n = *buflen > 0 ? *buflen + 1 : 0, rc = MPI_ERR_NO_MEM;
    if (k && v)
        rc = MPI_Info_get_string(*info, k, &n, v, flag);
    else
        rc = f08_fail_comm(MPI_COMM_NULL, rc);
    if (rc == MPI_SUCCESS && *flag)
        *buflen = n - 1;
    if (rc == MPI_SUCCESS && v)
        f08_str_out(value, v);
    else
        free(v);
    free(k);
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

/* Conversion functions in Fortran: fortran/datarep.c's trampolines (mpi_f08's TYPE(C_PTR),
 * VALUE buffers are the addresses mpif.h's USERBUF(*) are). */
void pmpi_register_datarep_(const char *datarep, void (*readfn)(void), void (*writefn)(void),
                            void (*extentfn)(void), MPI_Aint *extra, MPI_Fint *ierr,
                            size_t datarep_len);

void rmpf08_MPI_Register_datarep_f08(CFI_cdesc_t *datarep, void (*readfn)(void),
                                     void (*writefn)(void), void (*extentfn)(void),
                                     MPI_Aint *extra, MPI_Fint *ierror)
{
    MPI_Fint rc;
    pmpi_register_datarep_(datarep->base_addr, readfn, writefn, extentfn, extra, &rc,
                           datarep->elem_len);
    done(ierror, rc);
}
