/* clash.c — a program that also defines every internal name of librmp (clash_defs.c, generated
 * by gen-clash-defs.sh), then does a send/recv and an allreduce. With only the API exported the
 * library never reaches those definitions: each rank prints "clash: rank R OK". */
#include <stdio.h>
#include <unistd.h>

#include "rmp.h"

/* Called by every function of clash_defs.c: the library bound to the program's symbol. */
void clash_hit(const char *name);
void clash_hit(const char *name)
{
    fprintf(stderr, "clash: FAIL: the library called the program's %s()\n", name);
    fflush(stderr);
    _exit(3);
}

#define CHECK(call)                                                                            \
    do {                                                                                       \
        int err_ = (call);                                                                     \
        if (err_ != RMP_SUCCESS) {                                                             \
            fprintf(stderr, "clash: FAIL: %s: %s\n", #call, rmp_strerror(err_));               \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    int rank, size;
    CHECK(rmp_init(&argc, &argv));
    CHECK(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    CHECK(rmp_comm_size(RMP_COMM_WORLD, &size));
    if (size != 2) {
        fprintf(stderr, "clash: FAIL: run with 2 ranks, not %d\n", size);
        return 1;
    }
    int msg[4] = {0};
    if (rank == 0) {
        int out[4] = {11, 22, 33, 44};
        CHECK(rmp_send(out, 4, RMP_INT, 1, 7, RMP_COMM_WORLD));
    } else {
        CHECK(rmp_recv(msg, 4, RMP_INT, 0, 7, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        if (msg[0] != 11 || msg[1] != 22 || msg[2] != 33 || msg[3] != 44) {
            fprintf(stderr, "clash: FAIL: received %d %d %d %d\n", msg[0], msg[1], msg[2],
                    msg[3]);
            return 1;
        }
    }
    int mine = rank + 1, sum = 0;
    CHECK(rmp_allreduce(&mine, &sum, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
    if (sum != 3) {
        fprintf(stderr, "clash: FAIL: allreduce sum %d, expected 3\n", sum);
        return 1;
    }
    CHECK(rmp_finalize());
    printf("clash: rank %d OK\n", rank);
    return 0;
}
