/* p2p.c — the documented behaviour of the point-to-point calls beyond plain send/recv:
 * truncation (RMP_ERR_TRUNCATE, data up to the buffer delivered, nothing written past it),
 * cancel (of a posted receive, a matched one, a send), probe/iprobe, waitany/testall/waitall
 * with RMP_ERR_IN_STATUS, sendrecv, RMP_PROC_NULL, and derived datatypes (vector, contiguous)
 * in both directions and above the eager limit. Each rank works with its ring neighbours
 * (n=1: with itself); sections are separated by barriers. Rank 0 prints "p2p: OK n=N". */
#include "progs.h"

#define GUARD 32

static int rank, n, left, right;
static const rmp_comm_t W = RMP_COMM_WORLD;

static void sync_all(const char *next)
{
    phase("barrier", 30);
    CHECK(rmp_barrier(W));
    phase(next, 30);
}

/* ---- truncation ---- */

/* Right neighbour sends `len` bytes; I receive into `cap` bytes (+ guard), three ways. */
static void truncate_case(size_t len, size_t cap)
{
    unsigned char *sbuf = malloc(len), *rbuf = malloc(cap + GUARD);
    uint64_t seed = mix64(len * 31 + (uint64_t)left);
    fill(sbuf, len, mix64(len * 31 + (uint64_t)rank));
    for (int how = 0; how < 3; how++) {
        rmp_request_t sreq, rreq[2];
        rmp_status_t st, sts[2];
        int rc;
        memset(rbuf, 0, cap);
        memset(rbuf + cap, 0xa5, GUARD);
        CHECK(rmp_isend(sbuf, (int)len, RMP_BYTE, right, 20 + how, W, &sreq));
        if (how == 0) {
            rc = rmp_recv(rbuf, (int)cap, RMP_BYTE, left, 20, W, &st);
        } else if (how == 1) {
            CHECK(rmp_irecv(rbuf, (int)cap, RMP_BYTE, left, 21, W, &rreq[0]));
            rc = rmp_wait(&rreq[0], &st);
        } else { /* waitall: the truncated one reports through its status */
            CHECK(rmp_irecv(rbuf, (int)cap, RMP_BYTE, left, 22, W, &rreq[0]));
            rreq[1] = RMP_REQUEST_NULL;
            rc = rmp_waitall(2, rreq, sts);
            EXPECT(rc == RMP_ERR_IN_STATUS, "waitall with a truncated receive returned %d, "
                   "expected RMP_ERR_IN_STATUS", rc);
            EXPECT(sts[1].error == RMP_SUCCESS, "waitall: the NULL request's error is %d",
                   sts[1].error);
            rc = sts[0].error;
            st = sts[0];
        }
        EXPECT(rc == RMP_ERR_TRUNCATE, "%zu bytes into %zu (way %d): returned %d, expected "
               "RMP_ERR_TRUNCATE", len, cap, how, rc);
        EXPECT(st.error == RMP_ERR_TRUNCATE && st.source == left && st.tag == 20 + how &&
                   st.count == cap,
               "%zu bytes into %zu (way %d): status error=%d source=%d tag=%d count=%zu", len,
               cap, how, st.error, st.source, st.tag, st.count);
        size_t bad = first_mismatch(rbuf, cap, seed);
        EXPECT(bad == cap, "%zu bytes into %zu (way %d): delivered data wrong at byte %zu", len,
               cap, how, bad);
        for (size_t i = 0; i < GUARD; i++)
            if (rbuf[cap + i] != 0xa5) {
                FAIL("%zu bytes into %zu (way %d): byte %zu past the buffer overwritten", len,
                     cap, how, i);
                break;
            }
        int src = rmp_wait(&sreq, RMP_STATUS_IGNORE);
        EXPECT(src == RMP_SUCCESS, "the sender of a truncated message got %d", src);
    }
    free(sbuf);
    free(rbuf);
}

static void truncation(void)
{
    truncate_case(100, 60);          /* eager */
    truncate_case(100, 0);           /* into an empty buffer */
    truncate_case(20000, 16000);     /* rendezvous, buffer below the eager limit */
    truncate_case(200000, 100001);   /* rendezvous, both large */
    /* typed: 15 ints into room for 10 */
    int32_t s[15], r[10 + 4];
    for (int i = 0; i < 15; i++)
        s[i] = rank * 100 + i;
    for (int i = 0; i < 14; i++)
        r[i] = -1;
    rmp_request_t req;
    rmp_status_t st;
    CHECK(rmp_isend(s, 15, RMP_INT32, right, 30, W, &req));
    EXPECT_RC(RMP_ERR_TRUNCATE, rmp_recv(r, 10, RMP_INT32, left, 30, W, &st));
    int count = -1;
    CHECK(rmp_get_count(&st, RMP_INT32, &count));
    EXPECT(count == 10, "get_count after truncation: %d, expected 10", count);
    for (int i = 0; i < 14; i++)
        EXPECT(r[i] == (i < 10 ? left * 100 + i : -1), "typed truncation: r[%d] = %d", i, r[i]);
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
}

/* ---- cancel ---- */

static void cancel(void)
{
    /* a receive nothing matches */
    int x = -1, y = 0;
    rmp_request_t req;
    rmp_status_t st;
    CHECK(rmp_irecv(&x, 1, RMP_INT, left, 40, W, &req));
    CHECK(rmp_cancel(&req));
    memset(&st, 0, sizeof st);
    CHECK(rmp_wait(&req, &st));
    EXPECT(st.cancelled == 1 && req == RMP_REQUEST_NULL && x == -1,
           "cancelled receive: cancelled=%d handle %s, buffer %d", st.cancelled,
           req ? "not reset" : "reset", x);
    /* the cancelled receive must not take a later message */
    sync_all("cancel: message after a cancelled receive");
    CHECK(rmp_isend(&rank, 1, RMP_INT, right, 40, W, &req));
    CHECK(rmp_recv(&y, 1, RMP_INT, left, 40, W, &st));
    EXPECT(y == left && st.cancelled == 0, "receive after a cancel got %d (cancelled=%d)", y,
           st.cancelled);
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));

    /* a receive already matched: cancel has no effect */
    sync_all("cancel: a matched receive");
    rmp_request_t sreq[2];
    int marker = 0;
    x = -1;
    CHECK(rmp_irecv(&x, 1, RMP_INT, left, 41, W, &req));
    CHECK(rmp_isend(&rank, 1, RMP_INT, right, 41, W, &sreq[0]));
    CHECK(rmp_isend(&rank, 1, RMP_INT, right, 42, W, &sreq[1]));
    /* tag 42 was sent after tag 41 by the same sender: once it is here, 41 has matched */
    CHECK(rmp_recv(&marker, 1, RMP_INT, left, 42, W, RMP_STATUS_IGNORE));
    CHECK(rmp_cancel(&req));
    CHECK(rmp_wait(&req, &st));
    EXPECT(st.cancelled == 0 && x == left && st.source == left && st.tag == 41,
           "cancel of a matched receive: cancelled=%d value %d source %d tag %d", st.cancelled,
           x, st.source, st.tag);
    CHECK(rmp_waitall(2, sreq, RMP_STATUSES_IGNORE));

    /* a send: cancelled if the receiver had not matched its message yet (it races with the
     * receive posted below), else it arrives; never both, and a later message of the tag
     * comes next */
    sync_all("cancel: a send");
    CHECK(rmp_isend(&rank, 1, RMP_INT, right, 43, W, &req));
    CHECK(rmp_cancel(&req));
    CHECK(rmp_wait(&req, &st));
    int mine = st.cancelled, theirs = -1, later = rank + 1000;
    CHECK(rmp_sendrecv(&mine, 1, RMP_INT, right, 44, &theirs, 1, RMP_INT, left, 44, W,
                       RMP_STATUS_IGNORE));
    CHECK(rmp_isend(&later, 1, RMP_INT, right, 43, W, &req));
    y = -1;
    CHECK(rmp_recv(&y, 1, RMP_INT, left, 43, W, &st));
    if (!theirs) {
        EXPECT(y == left, "message of a send not cancelled: got %d, expected %d", y, left);
        CHECK(rmp_recv(&y, 1, RMP_INT, left, 43, W, &st));
    }
    EXPECT(y == left + 1000, "after a send %scancelled: got %d, expected %d",
           theirs ? "" : "not ", y, left + 1000);
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
}

/* ---- probe ---- */

static void probe(void)
{
    char msg[123];
    memset(msg, rank, sizeof msg);
    rmp_request_t req;
    rmp_status_t st;
    int flag = 0;
    CHECK(rmp_isend(msg, 123, RMP_CHAR, right, 77, W, &req));
    CHECK(rmp_probe(left, 77, W, &st));
    EXPECT(st.source == left && st.tag == 77 && st.count == 123,
           "probe: source %d tag %d count %zu", st.source, st.tag, st.count);
    memset(&st, 0, sizeof st);
    CHECK(rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, W, &flag, &st)); /* still there */
    EXPECT(flag == 1 && st.source == left && st.tag == 77 && st.count == 123,
           "iprobe after probe: flag %d source %d tag %d count %zu", flag, st.source, st.tag,
           st.count);
    CHECK(rmp_probe(RMP_ANY_SOURCE, 77, W, RMP_STATUS_IGNORE));
    char got[200];
    CHECK(rmp_recv(got, 200, RMP_CHAR, left, 77, W, &st));
    EXPECT(st.count == 123 && got[0] == (char)left && got[122] == (char)left,
           "receive after probe: count %zu", st.count);
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    flag = 1;
    CHECK(rmp_iprobe(left, 77, W, &flag, &st));
    EXPECT(flag == 0, "iprobe found a message that was already received");
    /* a message on another tag is not seen */
    flag = 1;
    CHECK(rmp_iprobe(RMP_ANY_SOURCE, 78, W, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 0, "iprobe for tag 78 found a message");
}

/* ---- waitany / testall ---- */

static void completion(void)
{
    int vals[3] = {-1, -1, -1}, dummy;
    rmp_request_t reqs[4];
    rmp_status_t sts[4], st;
    int flag = 1;
    for (int i = 0; i < 3; i++)
        CHECK(rmp_irecv(&vals[i], 1, RMP_INT, left, 50 + i, W, &reqs[i]));
    CHECK(rmp_irecv(&dummy, 1, RMP_INT, RMP_PROC_NULL, 0, W, &reqs[3])); /* done at once */
    CHECK(rmp_testall(4, reqs, &flag, sts));
    EXPECT(flag == 0, "testall with nothing sent yet: flag %d", flag);
    EXPECT(reqs[3] != RMP_REQUEST_NULL, "testall with flag 0 freed a completed request");
    sync_all("completion: sends");
    int send_vals[3] = {rank + 1000, rank + 2000, rank + 3000};
    rmp_request_t sreq[3];
    for (int i = 2; i >= 0; i--) /* in reverse tag order */
        CHECK(rmp_isend(&send_vals[i], 1, RMP_INT, right, 50 + i, W, &sreq[2 - i]));
    int seen = 0, idx;
    for (int k = 0; k < 4; k++) {
        CHECK(rmp_waitany(4, reqs, &idx, &st));
        if (idx < 0 || idx > 3 || (seen & (1 << idx))) {
            FAIL("waitany returned index %d (seen mask 0x%x)", idx, seen);
            break;
        }
        seen |= 1 << idx;
        if (idx < 3)
            EXPECT(st.tag == 50 + idx && st.source == left &&
                       vals[idx] == left + 1000 * (idx + 1),
                   "waitany index %d: tag %d source %d value %d", idx, st.tag, st.source,
                   vals[idx]);
        else
            EXPECT(st.source == RMP_PROC_NULL, "waitany: PROC_NULL request source %d",
                   st.source);
    }
    CHECK(rmp_waitany(4, reqs, &idx, &st));
    EXPECT(idx == RMP_UNDEFINED, "waitany with all done: index %d", idx);
    flag = 0;
    while (!flag)
        CHECK(rmp_testall(3, sreq, &flag, RMP_STATUSES_IGNORE));
    for (int i = 0; i < 3; i++)
        EXPECT(sreq[i] == RMP_REQUEST_NULL, "testall left request %d set", i);
}

/* ---- sendrecv and RMP_PROC_NULL ---- */

static void sendrecv_procnull(void)
{
    double out[3] = {rank, rank * 2.0, -1}, in[3] = {0};
    rmp_status_t st;
    CHECK(rmp_sendrecv(out, 3, RMP_DOUBLE, right, 60, in, 3, RMP_DOUBLE, left, 60, W, &st));
    EXPECT(st.source == left && st.tag == 60 && st.count == 24 && in[0] == left &&
               in[1] == left * 2.0 && in[2] == -1,
           "sendrecv: source %d tag %d count %zu values %g %g %g", st.source, st.tag, st.count,
           in[0], in[1], in[2]);
    /* with a wildcard source and both directions at once */
    CHECK(rmp_sendrecv(out, 1, RMP_DOUBLE, left, 61, in, 1, RMP_DOUBLE, RMP_ANY_SOURCE,
                       RMP_ANY_TAG, W, &st));
    EXPECT(st.source == right && st.tag == 61 && in[0] == right,
           "sendrecv with wildcards: source %d tag %d value %g", st.source, st.tag, in[0]);

    int x = 7, flag = 0;
    rmp_request_t req;
    CHECK(rmp_send(&x, 1, RMP_INT, RMP_PROC_NULL, 0, W));
    CHECK(rmp_recv(&x, 1, RMP_INT, RMP_PROC_NULL, 5, W, &st));
    EXPECT(x == 7 && st.source == RMP_PROC_NULL && st.tag == RMP_ANY_TAG && st.count == 0,
           "recv from RMP_PROC_NULL: value %d, status source %d tag %d count %zu", x, st.source,
           st.tag, st.count);
    CHECK(rmp_irecv(&x, 1, RMP_INT, RMP_PROC_NULL, 5, W, &req));
    CHECK(rmp_test(&req, &flag, &st));
    EXPECT(flag == 1 && st.source == RMP_PROC_NULL, "irecv from RMP_PROC_NULL not done at once");
    CHECK(rmp_isend(&x, 1, RMP_INT, RMP_PROC_NULL, 5, W, &req));
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    CHECK(rmp_sendrecv(&x, 1, RMP_INT, RMP_PROC_NULL, 0, in, 1, RMP_DOUBLE, RMP_PROC_NULL, 0, W,
                       &st));
    EXPECT(st.source == RMP_PROC_NULL && st.count == 0, "sendrecv with RMP_PROC_NULL: %d %zu",
           st.source, st.count);
    CHECK(rmp_probe(RMP_PROC_NULL, 0, W, &st));
    EXPECT(st.source == RMP_PROC_NULL, "probe of RMP_PROC_NULL: source %d", st.source);
    flag = 0;
    CHECK(rmp_iprobe(RMP_PROC_NULL, 0, W, &flag, &st));
    EXPECT(flag == 1 && st.source == RMP_PROC_NULL, "iprobe of RMP_PROC_NULL: flag %d", flag);
}

/* ---- derived datatypes ---- */

static void vector_types(void)
{
    rmp_datatype_t vec, con;
    size_t size, extent;
    /* 4 blocks of 2 ints, blocks 3 ints apart */
    CHECK(rmp_type_vector(4, 2, 3, RMP_INT32, &vec));
    CHECK(rmp_type_commit(&vec));
    CHECK(rmp_type_size(vec, &size));
    CHECK(rmp_type_extent(vec, &extent));
    EXPECT(size == 32 && extent == 44, "vector(4,2,3,int32): size %zu extent %zu, expected 32 "
           "and 44", size, extent);
    CHECK(rmp_type_contiguous(5, RMP_INT64, &con));
    CHECK(rmp_type_commit(&con));
    CHECK(rmp_type_size(con, &size));
    CHECK(rmp_type_extent(con, &extent));
    EXPECT(size == 40 && extent == 40, "contiguous(5,int64): size %zu extent %zu", size, extent);

    /* sparse -> contiguous: two vector elements (the second starts one extent after) */
    int32_t sparse[22], dense[16 + 2];
    for (int i = 0; i < 22; i++)
        sparse[i] = rank * 1000 + i;
    for (int i = 0; i < 18; i++)
        dense[i] = -1;
    rmp_request_t req;
    rmp_status_t st;
    CHECK(rmp_isend(sparse, 2, vec, right, 70, W, &req));
    CHECK(rmp_recv(dense, 16, RMP_INT32, left, 70, W, &st));
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    int k = 0, count = -1;
    for (int e = 0; e < 2; e++)
        for (int b = 0; b < 4; b++)
            for (int j = 0; j < 2; j++, k++) {
                int32_t want = left * 1000 + e * 11 + b * 3 + j;
                EXPECT(dense[k] == want, "vector send: element %d is %d, expected %d", k,
                       dense[k], want);
            }
    EXPECT(dense[16] == -1 && dense[17] == -1, "vector send wrote past the receive buffer");
    CHECK(rmp_get_count(&st, vec, &count));
    EXPECT(count == 2, "get_count as the vector type: %d", count);

    /* contiguous -> sparse: the gaps keep their values */
    int32_t flat[16], holes[22];
    for (int i = 0; i < 16; i++)
        flat[i] = rank * 1000 + i;
    for (int i = 0; i < 22; i++)
        holes[i] = -7;
    CHECK(rmp_isend(flat, 16, RMP_INT32, right, 71, W, &req));
    CHECK(rmp_recv(holes, 2, vec, left, 71, W, &st));
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    k = 0;
    for (int i = 0; i < 22; i++) {
        int in_block = (i % 11) % 3 < 2; /* blocks at 0, 3, 6, 9 of each 11-int extent */
        int32_t want = in_block ? left * 1000 + k++ : -7;
        EXPECT(holes[i] == want, "vector receive: holes[%d] is %d, expected %d", i, holes[i],
               want);
    }

    /* above the eager limit, vector on both sides */
    rmp_datatype_t big;
    const int nb = 3000, bl = 3, stride = 5;
    CHECK(rmp_type_vector(nb, bl, stride, RMP_INT32, &big));
    CHECK(rmp_type_commit(&big));
    int32_t *src = malloc(sizeof(int32_t) * nb * stride);
    int32_t *dst = malloc(sizeof(int32_t) * nb * stride);
    for (int i = 0; i < nb * stride; i++)
        src[i] = rank * 100000 + i, dst[i] = -3;
    CHECK(rmp_isend(src, 1, big, right, 72, W, &req));
    CHECK(rmp_recv(dst, 1, big, left, 72, W, &st));
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    EXPECT(st.count == (size_t)nb * bl * 4, "large vector: %zu bytes", st.count);
    for (int i = 0; i < nb * stride - (stride - bl); i++) {
        int32_t want = (i % stride) < bl ? left * 100000 + i : -3;
        if (dst[i] != want) {
            FAIL("large vector: dst[%d] is %d, expected %d", i, dst[i], want);
            break;
        }
    }
    free(src);
    free(dst);
    CHECK(rmp_type_free(&big));
    CHECK(rmp_type_free(&vec));
    CHECK(rmp_type_free(&con));
}

int main(int argc, char **argv)
{
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(W, &rank));
    MUST(rmp_comm_size(W, &n));
    prog_rank = rank;
    right = (rank + 1) % n;
    left = (rank + n - 1) % n;

    phase("truncation", 30);
    truncation();
    sync_all("cancel");
    cancel();
    sync_all("probe");
    probe();
    sync_all("waitany/testall");
    completion();
    sync_all("sendrecv and RMP_PROC_NULL");
    sendrecv_procnull();
    sync_all("derived datatypes");
    vector_types();

    phase("failure count", 30);
    long mine = prog_failures, all = 0;
    CHECK(rmp_allreduce(&mine, &all, 1, RMP_INT64, RMP_SUM, W));
    if (rank == 0 && all == 0)
        printf("p2p: OK n=%d\n", n);
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    return prog_exit();
}
