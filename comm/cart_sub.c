/* cart_sub.c — MPI_Cart_sub (MPI-3.1 7.5.7): a Cartesian grid cut into the sub-grids that
 * keep some of its dimensions. The ranks sharing the coordinates of the dropped dimensions
 * split off together (ordered by their rank in the grid, which is the row-major order of the
 * kept coordinates), and rmp_cart_create puts the kept dimensions on that communicator.
 * With no dimension kept only the grid's rank 0 gets one (size 1, 0-dimensional). */
#include <stdlib.h>

#include "comm_coll.h"

int rmp_cart_sub(rmp_comm_t comm, const int remain_dims[], rmp_comm_t *newcomm)
{
    int ndims, err = rmp_cartdim_get(comm, &ndims);
    if (err)
        return err;
    if (!newcomm || (ndims > 0 && !remain_dims))
        return RMP_ERR_ARG;
    size_t k = (size_t)(ndims ? ndims : 1);
    int *dims = malloc(sizeof(int) * k), *periods = malloc(sizeof(int) * k);
    int *coords = malloc(sizeof(int) * k), *sdims = malloc(sizeof(int) * k);
    int *speriods = malloc(sizeof(int) * k);
    int rank, nkept = 0, color = 0;
    if (!dims || !periods || !coords || !sdims || !speriods)
        err = RMP_ERR_NO_MEM; /* the others fail or hang in the split, as with any
                               * collective one rank leaves */
    if (!err)
        err = rmp_cart_get(comm, ndims, dims, periods, coords);
    if (!err)
        err = rmp_comm_rank(comm, &rank);
    for (int i = 0; !err && i < ndims; i++) {
        if (remain_dims[i]) {
            sdims[nkept] = dims[i];
            speriods[nkept++] = periods[i];
        } else {
            color = color * dims[i] + coords[i]; /* < the grid's size: no overflow */
        }
    }
    /* None kept: as MPICH, only rank 0 of the grid gets a (0-dimensional) communicator, the
     * others RMP_COMM_NULL (MPICH's cartsuball checks it). */
    if (nkept == 0 && rank != 0)
        color = RMP_UNDEFINED;
    rmp_comm_t part = RMP_COMM_NULL;
    if (!err)
        err = rmp_comm_split(comm, color, rank, &part);
    if (!err && part == RMP_COMM_NULL)
        *newcomm = RMP_COMM_NULL;
    else if (!err) {
        err = rmp_cart_create(part, nkept, sdims, speriods, 0, newcomm);
        int e2 = rmp_comm_free(&part);
        if (!err && e2) {
            rmp_comm_free(newcomm);
            err = e2;
        }
    }
    free(dims), free(periods), free(coords), free(sdims), free(speriods);
    return err;
}
