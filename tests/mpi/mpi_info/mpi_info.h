/* mpi_info.h — what the files of the mpi_info program share: the error-class and info-content
 * expectations (mpi_info.c) and the names-and-hints cases (names.c), called from main. */
#ifndef RMP_TEST_MPI_INFO_H
#define RMP_TEST_MPI_INFO_H

#include "../mpicheck.h"

void expect_class(const char *what, int rc, int cls);
void expect_info(const char *what, MPI_Info info, int n, const char *const *keys,
                 const char *const *vals);

void t_names(int rank); /* names.c */
void t_hints(int rank, int size);

#endif
