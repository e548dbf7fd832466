/* mpi_persist.h — what the files of the mpi_persist program share: the world's rank and size,
 * the values each rank contributes, the start-and-wait of a persistent request, the error-class
 * expectation (mpi_persist.c), and each file's cases, called from main. */
#ifndef RMP_TEST_MPI_PERSIST_H
#define RMP_TEST_MPI_PERSIST_H

#include <pthread.h>
#include <stdbool.h>

#include "../mpicheck.h"

#define ROUNDS 6
#define CNT    5 /* elements per block */

extern int rank, size;

int val(int r, int i, int k);
void expect_class(const char *what, int rc, int cls);
void run(MPI_Request *req);

void t_reductions(void); /* coll_more.c */
void t_neighbor(void);
void t_mixed(void);
void t_errors(void);
void t_isendrecv(void); /* isendrecv.c */
void t_threads(void);

#endif
