/* buffers.c — mpi_mpi4's buffered-send buffers of MPI-4.1: the process's and a communicator's,
 * flushed blocking and not, and automatic buffers. */
#include "mpi_mpi4.h"

/* Fill n ints with a pattern of (rank, tag), and check one received from rank src. */
void fill(int *b, int n, int rank, int tag)
{
    for (int i = 0; i < n; i++)
        b[i] = rank * 1000003 + tag * 7919 + i;
}

void expect_fill(const int *b, int n, int rank, int tag, const char *what)
{
    for (int i = 0; i < n; i++)
        if (b[i] != rank * 1000003 + tag * 7919 + i) {
            FAIL("%s: element %d is %d, expected %d", what, i, b[i],
                 rank * 1000003 + tag * 7919 + i);
            return;
        }
}

/* A rendezvous-sized bsend from comm's buffer (attached by the caller) to the right, flushed
 * by flush() (blocking or through a request), then a second one that fits only if the flush
 * gave the first one's space back. */
static void bsend_flushed(MPI_Comm comm, int *out, int *in, int tag, int (*flush)(MPI_Comm),
                          const char *what)
{
    MPI_Request rq;
    CHECK(MPI_Irecv(in, BIG, MPI_INT, left, tag, comm, &rq));
    fill(out, BIG, mc_rank, tag);
    CHECK(MPI_Bsend(out, BIG, MPI_INT, right, tag, comm));
    CHECK(flush(comm));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_fill(in, BIG, left, tag, what);
    CHECK(MPI_Irecv(in, BIG, MPI_INT, left, tag + 1, comm, &rq));
    fill(out, BIG, mc_rank, tag + 1);
    CHECK(MPI_Bsend(out, BIG, MPI_INT, right, tag + 1, comm)); /* the space is free again */
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    expect_fill(in, BIG, left, tag + 1, what);
    CHECK(flush(comm));
}

static int flush_process(MPI_Comm comm)
{
    return MPI_Buffer_flush();
}

static int iflush_process(MPI_Comm comm)
{
    MPI_Request rq = MPI_REQUEST_NULL;
    int rc = MPI_Buffer_iflush(&rq);
    return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

static int flush_comm(MPI_Comm comm)
{
    return MPI_Comm_flush_buffer(comm);
}

static int iflush_comm(MPI_Comm comm)
{
    MPI_Request rq = MPI_REQUEST_NULL;
    int rc = MPI_Comm_iflush_buffer(comm, &rq);
    return rc ? rc : MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

void test_process_buffer(int *out, int *in)
{
    int bsize = BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD; /* room for one message */
    char *buf = malloc((size_t)bsize);
    CHECK(MPI_Buffer_attach(buf, bsize));
    bsend_flushed(MPI_COMM_WORLD, out, in, 10, flush_process, "Buffer_flush");
    bsend_flushed(MPI_COMM_WORLD, out, in, 20, iflush_process, "Buffer_iflush");
    void *addr;
    int sz;
    CHECK(MPI_Buffer_detach(&addr, &sz));
    if (addr != buf || sz != bsize)
        FAIL("Buffer_detach gave %p and %d, expected %p and %d", addr, sz, (void *)buf, bsize);
    free(buf);
    CHECK(MPI_Buffer_flush()); /* no buffer: nothing to wait for */
    CHECK(iflush_process(MPI_COMM_WORLD));
    EXPECT_INT(MPI_Buffer_iflush(NULL), MPI_ERR_ARG);
}

/* A communicator's own buffer serves its bsends, and only its own: no process buffer, so a
 * bsend on another communicator fails; with a process buffer too small for the message, the
 * communicator's still takes it. */
void test_comm_buffer(int *out, int *in)
{
    MPI_Comm c;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK(MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN));
    int bsize = BIG * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *buf = malloc((size_t)bsize), small[64 + MPI_BSEND_OVERHEAD];
    CHECK(MPI_Comm_attach_buffer(c, buf, bsize));
    EXPECT_INT(MPI_Bsend(out, 4, MPI_INT, right, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    bsend_flushed(c, out, in, 30, flush_comm, "Comm_flush_buffer");
    CHECK(MPI_Buffer_attach(small, (int)sizeof small));
    bsend_flushed(c, out, in, 40, iflush_comm, "Comm_iflush_buffer");
    EXPECT_INT(MPI_Bsend(out, BIG, MPI_INT, right, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_INT(MPI_Comm_attach_buffer(c, buf, bsize), MPI_ERR_BUFFER); /* one per comm */
    void *addr;
    int sz;
    CHECK(MPI_Comm_detach_buffer(c, &addr, &sz));
    if (addr != buf || sz != bsize)
        FAIL("Comm_detach_buffer gave %p and %d, expected %p and %d", addr, sz, (void *)buf, bsize);
    CHECK(MPI_Comm_detach_buffer(c, &addr, &sz)); /* none left */
    if (addr != NULL || sz != 0)
        FAIL("Comm_detach_buffer of none gave %p and %d", addr, sz);
    /* now c's bsends use the process's (small) buffer */
    EXPECT_INT(MPI_Bsend(out, BIG, MPI_INT, right, 1, c), MPI_ERR_BUFFER);
    CHECK(MPI_Buffer_detach(&addr, &sz));
    EXPECT_INT(sz, (int)sizeof small);
    free(buf);
    /* invalid arguments */
    EXPECT_INT(MPI_Comm_attach_buffer(MPI_COMM_NULL, small, 8), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_attach_buffer(c, small, -1), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Comm_attach_buffer(c, NULL, 8), MPI_ERR_BUFFER);
    EXPECT_INT(MPI_Comm_detach_buffer(MPI_COMM_NULL, &addr, &sz), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_detach_buffer(c, &addr, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Comm_detach_buffer(c, NULL, &sz), MPI_ERR_ARG);
    EXPECT_INT(MPI_Comm_flush_buffer(MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_iflush_buffer(MPI_COMM_NULL, &(MPI_Request){0}), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_iflush_buffer(c, NULL), MPI_ERR_ARG);
    CHECK(MPI_Comm_free(&c));
}

/* MPI_BUFFER_AUTOMATIC: no size to outgrow (several rendezvous-sized messages at once), for
 * the process and for a communicator; a communicator freed with its messages in flight
 * still delivers them. */
void test_automatic(int *out, int *in)
{
    enum { K = 3 };
    MPI_Request rq[K];
    CHECK(MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    for (int k = 0; k < K; k++)
        CHECK(
            MPI_Irecv(in + k * (BIG / K), BIG / K, MPI_INT, left, 50 + k, MPI_COMM_WORLD, &rq[k]));
    for (int k = 0; k < K; k++) {
        fill(out, BIG / K, mc_rank, 50 + k);
        CHECK(MPI_Bsend(out, BIG / K, MPI_INT, right, 50 + k, MPI_COMM_WORLD));
    }
    CHECK(MPI_Waitall(K, rq, MPI_STATUSES_IGNORE));
    for (int k = 0; k < K; k++)
        expect_fill(in + k * (BIG / K), BIG / K, left, 50 + k, "automatic buffer");
    void *addr;
    int sz = -1;
    CHECK(MPI_Buffer_detach(&addr, &sz));
    if (addr != MPI_BUFFER_AUTOMATIC || sz != 0)
        FAIL("Buffer_detach of MPI_BUFFER_AUTOMATIC gave %p and %d", addr, sz);
    MPI_Comm c;
    MPI_Request r;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK(MPI_Comm_attach_buffer(c, MPI_BUFFER_AUTOMATIC, 0));
    CHECK(MPI_Irecv(in, BIG, MPI_INT, left, 60, c, &r));
    fill(out, BIG, mc_rank, 60);
    CHECK(MPI_Bsend(out, BIG, MPI_INT, right, 60, c));
    memset(out, 0, sizeof(int) * BIG); /* the message was copied at the call */
    CHECK(MPI_Comm_free(&c));          /* detaches the buffer; the message still goes */
    CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    expect_fill(in, BIG, left, 60, "freed communicator's automatic buffer");
}
