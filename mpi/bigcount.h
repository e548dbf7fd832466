/* bigcount.h — the large-count (_c) forms' shared means (bigcount_core.c): a count the int
 * path takes goes straight to it; a larger one becomes one element of a derived type that
 * holds count elements (rmpi_big_type), which the int path then carries. */
#ifndef RMPI_BIGCOUNT_H
#define RMPI_BIGCOUNT_H

#include <stdbool.h>

#include "rmp/mpi.h"

/* The largest count passed to an int-count call: INT_MAX, or RMPI_BIGCOUNT_LIMIT=<n>
 * (2 <= n < INT_MAX; an MPI-layer test knob) so that tests reach the big paths. */
MPI_Count rmpi_bc_limit(void);

/* One committed element of a new type holding count (> 0) elements of type laid out as
 * count consecutive elements (extent: count extents of type). rmp error code. */
int rmpi_big_type(MPI_Count count, MPI_Datatype type, MPI_Datatype *big);

/* A (count, type) pair the int path takes: the same pair, or (1, a big type of our own). */
typedef struct rmpi_bc {
    int count;
    MPI_Datatype type;
    bool own;
} rmpi_bc_t;

/* v = (count, type) when count is within the limit (a negative count stays negative: the int
 * path refuses it), else (1, a big type of our own) when big_ok, else RMP_ERR_COUNT (a call
 * whose count cannot travel as a derived type: a persistent request, which must keep its
 * types alive past the call, or a user op, which must see the program's own type). */
int rmpi_bc_make(MPI_Count count, MPI_Datatype type, bool big_ok, rmpi_bc_t *v);
void rmpi_bc_free(rmpi_bc_t *v);

/* A builtin reduction (a user op must see the program's datatype, never a big type). */
static inline bool rmpi_op_builtin(MPI_Op op)
{
    return op >= MPI_SUM && op <= MPI_NO_OP;
}

/* A count within int (the int path takes it as it is); -1 (refused there) when it is not. */
static inline int rmpi_int_count(MPI_Count count)
{
    return count >= -1 && count <= rmpi_bc_limit() ? (int)count : -1;
}

/* My rank in comm; -1 if comm is not valid (the call that follows reports it). */
static inline int rmpi_rank_of(MPI_Comm comm)
{
    int r = -1;
    rmp_comm_rank(comm, &r);
    return r;
}

#endif
