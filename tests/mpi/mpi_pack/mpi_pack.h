/* mpi_pack.h — what the files of the mpi_pack program share: the byte-exact expectation
 * (mpi_pack.c), the record struct of the struct-pack cases, and each file's cases, called
 * from main. */
#ifndef RMP_TEST_MPI_PACK_H
#define RMP_TEST_MPI_PACK_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

#include "../mpicheck.h"

void expect_bytes(const char *what, const unsigned char *got, const unsigned char *want, int n);

/* MPICH struct-pack and pairtype-pack: a struct array (resized to sizeof) and MPI_FLOAT_INT */
typedef struct rec {
    char c;
    double x;
    short s[3];
} rec_t;

void t_external(void); /* external.c */
void t_external_sizes(void);
void t_bottom(int rank, int size); /* bottom.c */
void t_errors(void);

#endif
