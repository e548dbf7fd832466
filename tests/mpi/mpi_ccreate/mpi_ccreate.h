/* mpi_ccreate.h — what the files of the mpi_ccreate program share: the error-class and
 * membership expectations (mpi_ccreate.c) and the intercommunicator idup cases (inter.c),
 * called from main. */
#ifndef RMP_TEST_MPI_CCREATE_H
#define RMP_TEST_MPI_CCREATE_H

#include "../mpicheck.h"

void expect_class(const char *what, int rc, int cls);
void expect_comm(const char *what, MPI_Comm comm, const int *members, int n, int rank);

void t_idup_inter(int rank, int size); /* inter.c */

#endif
