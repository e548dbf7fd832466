/* mpi_mpi4.h — what the files of the mpi_mpi4 program share: the world's size and ring
 * neighbours, the info expectations (mpi_mpi4.c), the buffer pattern (buffers.c), and each
 * file's cases, called from main. */
#ifndef RMP_TEST_MPI_MPI4_H
#define RMP_TEST_MPI_MPI4_H

#include "../mpicheck.h"

/* ints: past any eager limit, so that a bsend's send waits for its receiver */
#define BIG (256 * 1024)

extern int size, left, right;

void expect_info(MPI_Info info, const char *key, const char *want);
void expect_info_int(MPI_Info info, const char *key, long want);

void fill(int *b, int n, int rank, int tag); /* buffers.c */
void expect_fill(const int *b, int n, int rank, int tag, const char *what);
void test_process_buffer(int *out, int *in);
void test_comm_buffer(int *out, int *in);
void test_automatic(int *out, int *in);
void test_status_fields(void); /* status.c */
void test_get_status_arrays(void);
void test_remove_error(void);
void test_value_index(void);
void test_hw_and_abi(void);

#endif
