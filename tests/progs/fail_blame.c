/* fail_blame.c — rank 1 posts a large send (rendezvous: its data stays in its memory) to every
 * other rank and exits 5 at once; the others receive once it has exited, so their single-copy
 * read of its memory fails with RMP_ERR_PEER, and they exit 3. The job's cause is rank 1's
 * exit 5, whichever rank mrun happens to reap first. */
#include "progs.h"

enum { LEN = 1 << 20 };

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    int n;
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    char *buf = calloc(LEN, 1);
    if (!buf)
        return 1;
    int pid1 = (int)getpid(); /* rank 1's, once broadcast */
    MUST(rmp_bcast(&pid1, 1, RMP_INT, 1, RMP_COMM_WORLD));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (prog_rank == 1) {
        for (int r = 0; r < n; r++) {
            rmp_request_t req;
            if (r != 1)
                MUST(rmp_isend(buf, LEN, RMP_BYTE, r, 7, RMP_COMM_WORLD, &req));
        }
        printf("rank 1: exiting with status 5\n");
        fflush(stdout);
        _exit(5);
    }
    if (!prog_await_exit(pid1, 10)) { /* mrun may end this rank first: that is fine */
        FAIL("rank 1 (pid %d) did not exit within 10 s", pid1);
        return 1;
    }
    int rc = rmp_recv(buf, LEN, RMP_BYTE, 1, 7, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    if (rc != RMP_ERR_PEER)
        FAIL("receive from the dead rank 1 returned %d (%s), expected RMP_ERR_PEER", rc,
             rmp_strerror(rc));
    return 3;
}
