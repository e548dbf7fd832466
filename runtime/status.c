/* status.c — what a program may read and set in a status itself (MPI_Test_cancelled,
 * MPI_Status_set_cancelled, MPI_Status_set_elements[_x]): mostly for generalized requests,
 * whose query callback fills the status (greq.c). A status counts bytes (rmp_status_t.count):
 * setting it in elements of a type stores the bytes that rmp_get_elements maps back to them. */
#include <limits.h>

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

/* Basic elements in the first `bytes` bytes of elements of type (rmp_get_elements' count),
 * -1 when they end inside a basic element (or are too many for an int). */
static long long elems_in(rmp_datatype_t type, size_t bytes)
{
    rmp_status_t st = {.count = bytes};
    int n;
    if (rmp_get_elements(&st, type, &n) || n == RMP_UNDEFINED)
        return -1;
    return n;
}

int rmp_status_set_elements(rmp_status_t *status, rmp_datatype_t type, long long count)
{
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    if (!status)
        return RMP_ERR_ARG;
    if (count < 0)
        return RMP_ERR_COUNT;
    long long per = t->size ? elems_in(type, t->size) : 0; /* in one whole element */
    if (per <= 0) { /* a type without data holds no element */
        if (count)
            return RMP_ERR_COUNT;
        status->count = 0;
        return RMP_SUCCESS;
    }
    size_t whole = (size_t)(count / per), rest = (size_t)(count % per), bytes;
    if (__builtin_mul_overflow(whole, t->size, &bytes) || bytes > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    /* the partial element: the fewest bytes that hold `rest` basic elements. The count is
     * monotone over the byte counts that end between basic elements (a basic element is at
     * most 16 bytes: a bound ending inside one steps back to the boundary before it), so a
     * bisection over one element's size finds them. */
    size_t lo = 0, hi = t->size;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2, m = mid;
        long long n;
        while ((n = elems_in(type, m)) < 0 && m > 0)
            m--;
        if (n >= (long long)rest)
            hi = m;
        else
            lo = mid + 1;
    }
    status->count = bytes + lo;
    return RMP_SUCCESS;
}
