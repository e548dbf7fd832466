/* bigcount_v.h — what the large-count v- and w-forms (bigcount_v.c, bigcount_w.c) share: int
 * copies of their count and displacement arrays, and how many entries those have. */
#ifndef RMPI_BIGCOUNT_V_H
#define RMPI_BIGCOUNT_V_H

#include "bigcount.h"

/* Up to two (counts, displacements) pairs of int arrays and one scalar side. */
typedef struct rmpi_iv {
    int *c[2], *d[2];
    rmpi_bc_t s;
} rmpi_iv_t;

/* n entries of a into a new int array (*out NULL when a is NULL or n is 0: the int form
 * judges that): RMP_ERR_COUNT for a count past the limit or a displacement past int. */
int rmpi_iv_counts(const MPI_Count *a, int n, int **out);
int rmpi_iv_displs(const MPI_Aint *a, int n, int **out);
void rmpi_iv_free(rmpi_iv_t *v);
int rmpi_iv_fail(rmpi_iv_t *v, MPI_Comm comm, int rc, const char *call);

/* The entries of an array that addresses comm's group (the remote group of an
 * intercommunicator), or its topology's in- and out-neighbours. */
int rmpi_iv_peers(MPI_Comm comm, int *n);
int rmpi_iv_degrees(MPI_Comm comm, int *in, int *out);

#endif
