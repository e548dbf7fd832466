/* datarep.c — MPI_Register_datarep from Fortran (mpif.h, `use mpi`; mpi_f08 through
 * fortran/f08/f08cb.c): conversion and extent functions written in Fortran take their scalars
 * by reference and give their error in ierror; the buffers are addresses in all three bindings
 * (mpif.h's USERBUF(*), mpi_f08's TYPE(C_PTR), VALUE). C calls the trampolines here, the
 * datarep's extra state naming the Fortran procedures and the program's extra_state value. */
#include "rmpif.h"

typedef void rmpif_conv_fn(void *userbuf, MPI_Fint *datatype, MPI_Fint *count, void *filebuf,
                           MPI_Offset *position, MPI_Aint *extra, MPI_Fint *ierr);
typedef void rmpif_extent_fn(MPI_Fint *datatype, MPI_Aint *extent, MPI_Aint *extra,
                             MPI_Fint *ierr);

/* One datarep's procedures: the C datarep's extra state, which lives as long as the process
 * (a datarep is never unregistered; io/datarep.c keeps it). */
typedef struct rmpif_datarep {
    rmpif_conv_fn *read, *write;
    rmpif_extent_fn *extent;
    MPI_Aint extra;
} rmpif_datarep_t;

/* Fortran's MPI_CONVERSION_FN_NULL: a procedure (Fortran passes procedures, not null
 * pointers) that the registration below turns into C's MPI_CONVERSION_FN_NULL, so C never
 * calls it. */
RMPIF_API void mpi_conversion_fn_null_(void *userbuf, MPI_Fint *datatype, MPI_Fint *count,
                                       void *filebuf, MPI_Offset *position, MPI_Aint *extra,
                                       MPI_Fint *ierr)
{
    (void)userbuf, (void)datatype, (void)count, (void)filebuf, (void)position, (void)extra;
    *ierr = MPI_ERR_UNSUPPORTED_DATAREP;
}

static int convert(rmpif_conv_fn *fn, void *userbuf, MPI_Datatype type, int count,
                   void *filebuf, MPI_Offset position, rmpif_datarep_t *d)
{
    MPI_Fint ftype = MPI_Type_c2f(type), fcount = count, ierr = MPI_SUCCESS;
    fn(userbuf, &ftype, &fcount, filebuf, &position, &d->extra, &ierr);
    return ierr;
}

static int read_conv(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                     MPI_Offset position, void *extra)
{
    rmpif_datarep_t *d = extra;
    return convert(d->read, userbuf, type, count, filebuf, position, d);
}

static int write_conv(void *userbuf, MPI_Datatype type, int count, void *filebuf,
                      MPI_Offset position, void *extra)
{
    rmpif_datarep_t *d = extra;
    return convert(d->write, userbuf, type, count, filebuf, position, d);
}

static int file_extent(MPI_Datatype type, MPI_Aint *extent, void *extra)
{
    rmpif_datarep_t *d = extra;
    MPI_Fint ftype = MPI_Type_c2f(type), ierr = MPI_SUCCESS;
    d->extent(&ftype, extent, &d->extra, &ierr);
    return ierr;
}

static MPI_Datarep_conversion_function *trampoline(void (*fn)(void),
                                                   MPI_Datarep_conversion_function *t)
{
    return fn == (void (*)(void))mpi_conversion_fn_null_ ? MPI_CONVERSION_FN_NULL : t;
}

RMPIF_API void pmpi_register_datarep_(const char *datarep, void (*readfn)(void),
                                      void (*writefn)(void), void (*extentfn)(void),
                                      MPI_Aint *extra, MPI_Fint *ierr, size_t datarep_len)
{
    char *name = rmpif_str_in(datarep, datarep_len);
    rmpif_datarep_t *d = malloc(sizeof(*d));
    if (!name || !d) {
        free(name);
        free(d);
        *ierr = MPI_ERR_NO_MEM;
        return;
    }
    *d = (rmpif_datarep_t){(rmpif_conv_fn *)readfn, (rmpif_conv_fn *)writefn,
                           (rmpif_extent_fn *)extentfn, *extra};
    *ierr = MPI_Register_datarep(name, trampoline(readfn, read_conv),
                                 trampoline(writefn, write_conv), file_extent, d);
    free(name);
    if (*ierr != MPI_SUCCESS)
        free(d);
}

/* The MPI_ names, weak: a Fortran profiling tool defines its own and calls the PMPI_ ones. */
RMPIF_MPI_ALIAS(mpi_register_datarep_);
