/* hello.c — the smallest rmp program: every rank says who it is.
 *   mrun -n 4 bin/examples/hello */
#include <stdio.h>

#include "rmp.h"

int main(int argc, char **argv)
{
    int rank, size;
    int err = rmp_init(&argc, &argv);
    if (err != RMP_SUCCESS) {
        fprintf(stderr, "hello: rmp_init failed: %s\n", rmp_strerror(err));
        return 1;
    }
    rmp_comm_rank(RMP_COMM_WORLD, &rank);
    rmp_comm_size(RMP_COMM_WORLD, &size);
    printf("hello from rank %d of %d\n", rank, size);
    rmp_finalize();
    return 0;
}
