/* mpi_predef.h — what the files of the mpi_predef program share: the error-class expectation
 * (mpi_predef.c) and each file's cases, called from main. */
#ifndef RMP_TEST_MPI_PREDEF_H
#define RMP_TEST_MPI_PREDEF_H

#include <float.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "../mpicheck.h"

struct ldi { long double v; int i; };
struct li { long v; int i; };
struct fi { float v; int i; };
struct di { double v; int i; };
struct si { short v; int i; };

void expect_class(const char *what, int rc, int cls);

void t_match_size(void); /* sizes.c */
void t_f90(void);
void t_op_commutative(void); /* ops.c */
void t_reduce_local(void);
void t_elements(void);

#endif
