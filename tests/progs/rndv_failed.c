/* rndv_failed.c — a rendezvous message whose sender failed after its RTS arrived: rank 1
 * sends rank 0 two 1 MiB messages (their RTS wait at rank 0, unexpected), a small marker,
 * then a packet no rmp rank sends, which fails it at rank 0. Rank 0 took the first message
 * with rmp_mprobe before the failure; its rmp_mrecv, and a plain receive of the second, must
 * return RMP_ERR_TRANSPORT (the data is still at the failed sender) instead of waiting for
 * ever for a stream that will not come (RMP_CMA=0) or reading a failed peer's memory. Rank 0
 * prints what each returned and exits 3, which ends the job. Links the internal archive: it
 * plays a broken peer, as hostile.c does. */
#include "progs.h"
#include "protocol.h"

enum { BIG = 1 << 20 };

/* A FIN for a request rank 0 never made: rank 0 fails rank 1 as garbled. */
static void send_bad(void)
{
    tp_t *tp = rmp_ctx.peers[0].tp;
    pkt_ctl_t p = {.type = PKT_FIN, .sreq = 0x4141414141414141ull};
    int rc;
    while ((rc = tp->ops->send(tp, 0, &p, sizeof(p), NULL, 0)) == RMP_AGAIN)
        progress_poll(&rmp_ctx);
    if (rc != RMP_SUCCESS)
        FAIL("%s send of the bad packet: %d", tp->ops->name, rc);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    char *buf = calloc(1, BIG);
    int x = 0;
    rmp_request_t rq[2];
    if (prog_rank == 1) {
        MUST(rmp_isend(buf, BIG, RMP_BYTE, 0, 1, RMP_COMM_WORLD, &rq[0]));
        MUST(rmp_isend(buf, BIG, RMP_BYTE, 0, 4, RMP_COMM_WORLD, &rq[1]));
        MUST(rmp_send(&x, 1, RMP_INT, 0, 2, RMP_COMM_WORLD));
        send_bad();
        phase("rank 1 waits to be ended (rank 0 should have exited 3)", 60);
        rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        FAIL("rank 1's receive returned");
        return 1;
    }
    if (prog_rank > 1) {
        phase("ranks above 1 wait to be ended", 60);
        rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        FAIL("rank %d's receive returned", prog_rank);
        return 1;
    }
    phase("rank 0 takes the first message and waits for rank 1's failure", 20);
    MUST(rmp_recv(&x, 1, RMP_INT, 1, 2, RMP_COMM_WORLD, RMP_STATUS_IGNORE)); /* RTS are in */
    rmp_message_t m;
    rmp_status_t st;
    MUST(rmp_mprobe(1, 1, RMP_COMM_WORLD, &m, &st));
    EXPECT(st.count == BIG, "mprobe: %zu bytes", st.count);
    int rc = rmp_recv(&x, 1, RMP_INT, 1, 3, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    printf("rank 0: receive of nothing from rank 1: %s\n", rmp_strerror(rc));
    phase("rank 0 receives the rendezvous messages of the failed rank 1", 20);
    rc = rmp_mrecv(buf, BIG, RMP_BYTE, &m, RMP_STATUS_IGNORE);
    printf("rank 0: mrecv from rank 1: %s\n", rmp_strerror(rc));
    rc = rmp_recv(buf, BIG, RMP_BYTE, 1, 4, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    printf("rank 0: receive of a waiting RTS from rank 1: %s\n", rmp_strerror(rc));
    fflush(stdout);
    exit(prog_failures ? 1 : 3);
}
