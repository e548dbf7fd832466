/* mpi_dtype.h — what the files of the mpi_dtype program share: the index array whose packing
 * lists a typemap, the expectations on ints, bounds and envelopes (mpi_dtype.c), and each
 * file's cases, called from main. */
#ifndef RMP_TEST_MPI_DTYPE_H
#define RMP_TEST_MPI_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "../mpicheck.h"

enum { BIG = 4096 };
extern int idx[BIG];

int pack_idx(MPI_Datatype t, int count, const int *base, int *out, int max);
void expect_ints(const char *what, const int *got, int n, const int *want, int nwant);
void expect_bounds(const char *what, MPI_Datatype t, MPI_Aint lb, MPI_Aint ext, MPI_Aint tlb,
                   MPI_Aint text, int size);
void expect_envelope(const char *what, MPI_Datatype t, int comb, int ni, int na, int nd);

void t_subarray(int rank, int size); /* layout.c */
void t_darray(int rank, int size);
void t_contents(void); /* decode.c */
void t_bounds(void);   /* bounds.c */
void t_elements(void);
void t_errors(void);
void t_negative_extent(void);

#endif
