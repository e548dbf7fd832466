/* rmpif.h — what the Fortran glue (the generated wrappers, fortran/ sources) shares: gfortran's
 * conventions (LOGICAL values, hidden string lengths), the sentinels' COMMON blocks and the
 * conversions of buffers, statuses, strings and pointer handles between Fortran and C. */
#ifndef RMPIF_H
#define RMPIF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi.h"

/* The Fortran entry points leave the library; the helpers below stay inside. */
#define RMPIF_API __attribute__((visibility("default")))

/* Each Fortran entry point is pmpi_x_, and mpi_x_ a weak alias of it (MPI-4.0 15.2): a Fortran
 * profiling tool defines its own mpi_x_ and calls pmpi_x_. */
#define RMPIF_MPI_ALIAS(name)                                                                  \
    RMPIF_API extern __typeof__(p##name) name __attribute__((weak, alias("p" #name)))

/* gfortran's .TRUE. and .FALSE. (any nonzero value reads as true). */
#define RMPIF_TRUE 1
#define RMPIF_FALSE 0

/* The COMMON blocks of mpif.h's sentinels (fortran/mpif-sentinels.h): a Fortran program passes
 * one of these variables, the C side sees its address. */
extern MPI_Fint rmpi_bottom_, rmpi_in_place_;
extern MPI_Fint rmpi_errcodes_ignore_[]; /* the status ones: mpi.h's MPI_F_STATUS_IGNORE */
extern MPI_Fint rmpi_unweighted_[], rmpi_weights_empty_[];
extern char rmpi_argv_null_[], rmpi_argvs_null_[];

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE are the C sentinels, anything else itself. */
static inline void *rmpif_buf(void *buf)
{
    return buf == (void *)&rmpi_bottom_     ? MPI_BOTTOM
           : buf == (void *)&rmpi_in_place_ ? MPI_IN_PLACE
                                             : buf;
}

/* A Fortran status is the C status's memory (MPI_STATUS_SIZE integers). */
static inline MPI_Status *rmpif_status(MPI_Fint *s)
{
    return s == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : (MPI_Status *)(void *)s;
}
static inline MPI_Status *rmpif_statuses(MPI_Fint *s)
{
    return s == MPI_F_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (MPI_Status *)(void *)s;
}

/* Integer arrays that accept a sentinel: MPI_ERRCODES_IGNORE, MPI_UNWEIGHTED,
 * MPI_WEIGHTS_EMPTY. */
int *rmpif_ints(MPI_Fint *a);

/* Strings: a Fortran string of len characters, trailing blanks dropped, as a new C string
 * (NULL when out of memory); a C string into a Fortran one, blank-padded (cut at len). */
char *rmpif_str_in(const char *f, size_t len);
char *rmpif_str_in_info(const char *f, size_t len); /* leading blanks dropped too */
void rmpif_str_out(const char *c, char *f, size_t len);
/* argv: a Fortran array of strings ended by a blank one or after n (n < 0: no limit), or
 * MPI_ARGV_NULL, as a C argv (NULL-terminated; MPI_ARGV_NULL's C value for the sentinel);
 * argvs: count of them, one column each (MPI_ARGVS_NULL). Freed by rmpif_argv_free,
 * rmpif_argvs_free. mpi_f08's wrappers use them too (its sentinels are the same objects). */
void *rmpif_strs_in(const char *f, int n, size_t len);
void *rmpif_argvs_in(const char *f, int count, size_t len);
void rmpif_argv_free(void *argv);
void rmpif_argvs_free(void *argvs, int count);

/* C's 0-based indices (Waitany's index, Testsome's n indices) made Fortran's 1-based; a
 * negative value (MPI_UNDEFINED) stays. MPI-1's INTEGER displacements as MPI_Aint (a new
 * array, NULL when out of memory). */
void rmpif_index_out(MPI_Fint *idx, int n);
MPI_Aint *rmpif_aints_in(const MPI_Fint *f, int n);

/* Arrays of pointer handles: n Fortran integers as a new C array (NULL when out of memory: at
 * least one element is allocated), and back (when out is set) with the C array freed. */
MPI_Request *rmpif_request_in(const MPI_Fint *f, int n);
void rmpif_request_out(MPI_Request *c, MPI_Fint *f, int n, int out);
MPI_Message *rmpif_message_in(const MPI_Fint *f, int n);
void rmpif_message_out(MPI_Message *c, MPI_Fint *f, int n, int out);

#endif
