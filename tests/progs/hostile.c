/* hostile.c — rank 1 sends rank 0 a packet no rmp rank sends, straight through its transport
 * (argv[1]: eager-len, fin-cookie, data-cookie, seq; rma-len, rma-cas, rma-answer: one-sided
 * active messages, PKT_RMA, to a rank that has no window at all); rank 0, waiting in a receive from rank 1,
 * must see that receive fail with RMP_ERR_TRANSPORT (rank 1 failed: corrupt packet) and exits
 * 3, which ends the job. With "impostor" (verbs, 3 ranks), rank 1 sends a well-formed message
 * that claims to come from rank 2 (the verbs immediate data carries the sender's rank): rank 0
 * must fail rank 1, whose QP it came on. With a second argument "late", rank 0 polls for 1.5 s
 * before it posts its receive: a receive from a peer already failed must fail at once. Ranks above 1 wait to be ended. Uses the runtime's
 * internal headers: it plays a broken peer. */
#include "progs.h"
#include "protocol.h"

static void send_bad(const char *mode)
{
    tp_t *tp = rmp_ctx.peers[0].tp;
    union {
        pkt_match_t m;
        pkt_ctl_t ctl;
        pkt_data_t data;
        pkt_rma_t rma;
        char bytes[64];
    } p;
    memset(&p, 0, sizeof(p));
    size_t len;
    if (!strcmp(mode, "eager-len")) { /* claims 1 MiB, carries 8 bytes */
        p.m = (pkt_match_t){.type = PKT_EAGER, .seq = rmp_ctx.peers[0].send_seq, .len = 1 << 20};
        len = sizeof(p.m) + 8;
    } else if (!strcmp(mode, "fin-cookie")) { /* a FIN for a request rank 0 never made */
        p.ctl = (pkt_ctl_t){.type = PKT_FIN, .sreq = 0x4141414141414141ull};
        len = sizeof(p.ctl);
    } else if (!strcmp(mode, "data-cookie")) { /* DATA at an offset that wraps */
        p.data = (pkt_data_t){.type = PKT_DATA, .rreq = 0x10, .off = UINT64_MAX - 7};
        len = sizeof(p.data) + 16;
    } else if (!strcmp(mode, "rma-len")) { /* a put claiming 2^40 bytes, carrying 8 */
        p.rma = (pkt_rma_t){.type = PKT_RMA, .kind = PKT_RMA_PUT, .len = 1ull << 40};
        len = sizeof(p.rma) + 8;
    } else if (!strcmp(mode, "rma-cas")) { /* a compare-and-swap with no comparand */
        p.rma = (pkt_rma_t){.type = PKT_RMA, .kind = PKT_RMA_CAS, .base = DT_INT32, .len = 4};
        len = sizeof(p.rma) + 4;
    } else if (!strcmp(mode, "rma-answer")) { /* an acknowledgement of nothing ever sent */
        p.rma = (pkt_rma_t){.type = PKT_RMA, .kind = PKT_RMA_ACK, .id = 0x4141414141414141ull};
        len = sizeof(p.rma);
    } else if (!strcmp(mode, "impostor")) { /* a good message, sent as if by rank 2 */
        p.m = (pkt_match_t){.type = PKT_EAGER, .seq = rmp_ctx.peers[0].send_seq};
        len = sizeof(p.m);
        rmp_ctx.rank = 2;
        /* the transport's own copy (its tp_env_t, which the core owns) names the sender */
        rmp_ctx.tp_env[tp->env - rmp_ctx.tp_env].rank = 2;
    } else { /* seq: a message that skips five sequence numbers */
        p.m = (pkt_match_t){.type = PKT_EAGER, .seq = rmp_ctx.peers[0].send_seq + 5};
        len = sizeof(p.m);
    }
    int rc;
    while ((rc = tp->ops->send(tp, 0, p.bytes, len, NULL, 0)) == RMP_AGAIN)
        progress_poll(&rmp_ctx);
    if (rc != RMP_SUCCESS)
        FAIL("%s send of the bad packet: %d", tp->ops->name, rc);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    int x = 0;
    if (prog_rank > 1) {
        phase("ranks above 1 wait to be ended", 60);
        rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        FAIL("rank %d's receive returned", prog_rank);
        return 1;
    }
    const char *mode = argc > 1 ? argv[1] : "seq";
    if (!strcmp(mode, "impostor")) { /* verbs connects lazily: one real message first */
        if (prog_rank == 1)
            MUST(rmp_send(&x, 1, RMP_INT, 0, 5, RMP_COMM_WORLD));
        else
            MUST(rmp_recv(&x, 1, RMP_INT, 1, 5, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    }
    if (prog_rank == 1) {
        send_bad(mode);
        phase("rank 1 waits to be ended (rank 0 should have exited 3)", 60);
        rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
        FAIL("rank 1's receive returned");
        return 1;
    }
    phase("rank 0 waits for rank 1's bad packet", 60);
    if (argc > 2 && !strcmp(argv[2], "late")) { /* take the bad packet before receiving */
        double t0 = rmp_wtime();
        int flag = 0;
        while (rmp_wtime() - t0 < 1.5)
            rmp_iprobe(RMP_ANY_SOURCE, 99, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE);
        printf("rank 0: probe of rank 1: %s\n",
               rmp_strerror(rmp_probe(1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE)));
    }
    int rc = rmp_recv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    printf("rank 0: receive from rank 1: %s\n", rmp_strerror(rc));
    fflush(stdout);
    exit(3);
}
