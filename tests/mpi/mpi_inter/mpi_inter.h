/* mpi_inter.h — what the files of the mpi_inter program share: the intercommunicator under
 * test, the collectives' form (blocking or not: COLL), the error-class expectation
 * (mpi_inter.c), and each file's cases, called from main. */
#ifndef RMP_TEST_MPI_INTER_H
#define RMP_TEST_MPI_INTER_H

#include <stdbool.h>

#include "../mpicheck.h"

#define MAXN 8

extern int nb; /* the collectives' nonblocking forms */

#define COLL(B, I, ...) MC_COLL(nb, MPI_##B, MPI_##I, __VA_ARGS__)

/* One intercommunicator over world and what the test knows about it. */
typedef struct ic {
    MPI_Comm comm, local;
    int color;            /* my group: 0 or 1 */
    int lw[MAXN], ln;     /* world ranks of my group, by local rank */
    int rw[MAXN], rn;     /* of the other group */
    int me;               /* my local rank */
} ic_t;

void expect_class(const char *what, int rc, int cls);

void t_rooted(const ic_t *ic, int rcol, int ri); /* coll.c */
void t_all(const ic_t *ic);
void t_build(const ic_t *ic, int rank, int size); /* build.c */
void t_more(const ic_t *ic);
void t_errors(const ic_t *ic);
void t_oneway(const ic_t *ic);
void t_idup_disconnect(const ic_t *ic);

#endif
