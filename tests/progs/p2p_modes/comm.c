/* comm.c — p2p_modes's comm_split_type by the job's virtual nodes and the error codes of
 * bad arguments. */
#include "p2p_modes.h"

/* ---- split_type ---- */

/* The node of world rank w: mrun fills nodes in blocks, the first np % nnodes get one more. */
static int node_of(int w)
{
    int q = np / nnodes, r = np % nnodes, big = r * (q + 1);
    return w < big ? w / (q + 1) : r + (w - big) / q;
}

void t_split_type(void)
{
    rmp_comm_t node;
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, -me, &node));
    int want[64], nw = 0; /* my node's ranks, by key -rank: in reversed order */
    for (int w = np - 1; w >= 0; w--)
        if (node_of(w) == node_of(me))
            want[nw++] = w;
    int ns = -1, nr = -1, wr = -1;
    CHECK(rmp_comm_size(node, &ns));
    CHECK(rmp_comm_rank(node, &nr));
    for (int i = 0; i < nw; i++)
        if (want[i] == me)
            wr = i;
    EXPECT(ns == nw && nr == wr, "split_type shared (%d nodes): size %d rank %d, expected %d %d",
           nnodes, ns, nr, nw, wr);
    int32_t mine = me, all[64];
    CHECK(rmp_allgather(&mine, 1, RMP_INT32, all, 1, RMP_INT32, node));
    for (int i = 0; i < ns && i < nw; i++)
        EXPECT(all[i] == want[i], "split_type shared: member %d is world %d, expected %d", i,
               all[i], want[i]);
    MUST(rmp_comm_free(&node));
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_UNDEFINED, 0, &node));
    EXPECT(node == RMP_COMM_NULL, "split_type undefined: %d", node);
}

/* ---- bad arguments ---- */

void t_errors(void)
{
    int32_t x = 0;
    rmp_request_t rq = RMP_REQUEST_NULL;
    rmp_message_t m = RMP_MESSAGE_NULL;
    int flag, out;
    EXPECT_RC(RMP_ERR_RANK, rmp_issend(&x, 1, RMP_INT32, np, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_TAG, rmp_ssend(&x, 1, RMP_INT32, me, -5, RMP_COMM_WORLD));
    EXPECT_RC(RMP_ERR_ARG, rmp_irsend(&x, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, NULL));
    EXPECT_RC(RMP_ERR_COMM, rmp_bsend(&x, 1, RMP_INT32, me, 0, 77));
    EXPECT_RC(RMP_ERR_COUNT, rmp_send_init(&x, -1, RMP_INT32, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_TYPE, rmp_recv_init(&x, 1, 999, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_ssend_init(NULL, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_ARG, rmp_bsend_init(&x, 1, RMP_INT32, me, 0, RMP_COMM_WORLD, NULL));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&rq)); /* RMP_REQUEST_NULL */
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(NULL));
    CHECK(rmp_isend(&x, 1, RMP_INT32, me, 80, RMP_COMM_WORLD, &rq));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_start(&rq)); /* not persistent */
    rmp_request_t two[2] = {rq, rq};
    EXPECT_RC(RMP_ERR_REQUEST, rmp_startall(2, two));
    CHECK(rmp_recv(&x, 1, RMP_INT32, me, 80, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    MUST(rmp_send_init(&x, 1, RMP_INT32, me, 81, RMP_COMM_WORLD, &two[0]));
    two[1] = two[0];
    EXPECT_RC(RMP_ERR_REQUEST, rmp_startall(2, two)); /* listed twice: nothing started */
    CHECK(rmp_iprobe(me, 81, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 0, "startall with a duplicate started a send");
    EXPECT_RC(RMP_ERR_COUNT, rmp_startall(-1, two));
    CHECK(rmp_request_free(&two[0]));
    EXPECT_RC(RMP_ERR_ARG, rmp_waitsome(1, &rq, &out, NULL, RMP_STATUSES_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_mprobe(me, 0, RMP_COMM_WORLD, NULL, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_improbe(me, 0, RMP_COMM_WORLD, NULL, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_RANK, rmp_improbe(np, 0, RMP_COMM_WORLD, &flag, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_mrecv(&x, 1, RMP_INT32, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_mrecv(&x, 1, RMP_INT32, NULL, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_ARG, rmp_imrecv(&x, 1, RMP_INT32, &m, NULL));
    /* a message handle is not a request, and the reverse */
    CHECK(rmp_send(&x, 1, RMP_INT32, me, 82, RMP_COMM_WORLD));
    CHECK(rmp_mprobe(me, 82, RMP_COMM_WORLD, &m, RMP_STATUS_IGNORE));
    rmp_request_t as_req = (rmp_request_t)m;
    EXPECT_RC(RMP_ERR_REQUEST, rmp_wait(&as_req, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_REQUEST, rmp_request_free(&as_req));
    EXPECT_RC(RMP_ERR_TYPE, rmp_mrecv(&x, 1, 999, &m, RMP_STATUS_IGNORE)); /* m stays */
    CHECK(rmp_mrecv(&x, 1, RMP_INT32, &m, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_TYPE, rmp_sendrecv_replace(&x, 1, 999, me, 0, me, 0, RMP_COMM_WORLD,
                                                 RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_RANK, rmp_sendrecv_replace(&x, 1, RMP_INT32, np, 0, me, 0,
                                                 RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    EXPECT_RC(RMP_ERR_COUNT, rmp_buffer_attach(&x, -1));
    EXPECT_RC(RMP_ERR_BUFFER, rmp_buffer_attach(NULL, 100));
    EXPECT_RC(RMP_ERR_ARG, rmp_buffer_detach(NULL, &out));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_split_type(RMP_COMM_WORLD, 7, 0, &out));
    EXPECT_RC(RMP_ERR_COMM, rmp_comm_split_type(77, RMP_COMM_TYPE_SHARED, 0, &out));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, 0, NULL));
}

/* A buffer still attached at rmp_finalize, with a rendezvous-sized buffered send in flight:
 * the message is delivered (the right neighbour receives it before its own finalize) and
 * finalize releases the runtime's hold on the buffer (ASan: nothing leaked). */
