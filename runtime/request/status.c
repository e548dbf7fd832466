/* status.c — what a program may read and set in a status itself (MPI_Test_cancelled,
 * MPI_Status_set_cancelled, MPI_Status_set_elements[_x]): mostly for generalized requests,
 * whose query callback fills the status (greq.c). A status counts bytes (rmp_status_t.count):
 * setting it in elements of a type stores their bytes. */
#include <limits.h>
#include <stddef.h>

#include "core.h"

int rmp_test_cancelled(const rmp_status_t *status, int *flag)
{
    if (!status || !flag)
        return RMP_ERR_ARG;
    *flag = status->cancelled != 0;
    return RMP_SUCCESS;
}

int rmp_status_set_cancelled(rmp_status_t *status, int flag)
{
    if (!status)
        return RMP_ERR_ARG;
    status->cancelled = flag != 0;
    return RMP_SUCCESS;
}

/* count elements of type, as MPICH and Open MPI read MPI_Status_set_elements: count whole
 * elements of the type, count * size bytes (for a contiguous(4, MPI_INT) type, count 1 gives
 * MPI_Get_count 1 and MPI_Get_elements 4). Any count whose bytes fit is accepted, in O(1). */
int rmp_status_set_elements(rmp_status_t *status, rmp_datatype_t type, long long count)
{
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    if (!status)
        return RMP_ERR_ARG;
    if (count < 0)
        return RMP_ERR_COUNT;
    size_t bytes;
    if (__builtin_mul_overflow((size_t)count, t->size, &bytes) || bytes > LLONG_MAX)
        return RMP_ERR_COUNT;
    status->count = bytes;
    return RMP_SUCCESS;
}
