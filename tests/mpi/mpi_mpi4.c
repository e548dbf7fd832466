/* mpi_mpi4.c — the MPI-4.0/4.1/5.0 calls of issue 33, each with exact results and each invalid
 * argument's class: Comm_idup_with_info, Info_create_env, Info_get_string, MPI_ERRORS_ABORT,
 * the buffered-send buffers (flush, iflush, communicators' own, MPI_BUFFER_AUTOMATIC), the
 * status accessors, Request_get_status_all/any/some, Remove_error_*, Type_get_value_index,
 * Get_hw_resource_info and the ABI queries. Run at n = 1, 2, 4 (a ring: data to the right).
 * `mpi_mpi4 abort` ends the job through MPI_ERRORS_ABORT (an MPI_Send to an invalid rank). */
#include "mpicheck.h"

static int size, left, right;

/* ints: past any eager limit, so that a bsend's send waits for its receiver */
#define BIG (256 * 1024)

/* info's key has exactly the value want (NULL: the key is not set). */
static void expect_info(MPI_Info info, const char *key, const char *want)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = -1;
    CHECK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag));
    if (!want && flag)
        FAIL("info key %s is \"%s\", expected unset", key, v);
    else if (want && !flag)
        FAIL("info key %s unset, expected \"%s\"", key, want);
    else if (want && strcmp(v, want) != 0)
        FAIL("info key %s is \"%s\", expected \"%s\"", key, v, want);
}

static void expect_info_int(MPI_Info info, const char *key, long want)
{
    char w[32];
    snprintf(w, sizeof w, "%ld", want);
    expect_info(info, key, w);
}

static void test_idup_with_info(void)
{
    MPI_Comm parent, c;
    MPI_Info hints, got;
    MPI_Request rq;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_exact_length", "true"));
    CHECK(MPI_Comm_set_info(parent, hints));
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
    CHECK(MPI_Comm_idup_with_info(parent, hints, &c, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_get_info(c, &got));
    expect_info(got, "mpi_assert_no_any_tag", "true");
    expect_info(got, "mpi_assert_exact_length", NULL); /* the parent's hints stay behind */
    CHECK(MPI_Info_free(&got));
    int sum = -1, me = mc_rank;
    CHECK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c));
    EXPECT_INT(sum, size * (size - 1) / 2);
    int cmp;
    CHECK(MPI_Comm_compare(parent, c, &cmp));
    EXPECT_INT(cmp, MPI_CONGRUENT);
    /* MPI_INFO_NULL: no hints at all */
    MPI_Comm c2;
    CHECK(MPI_Comm_idup_with_info(parent, MPI_INFO_NULL, &c2, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_get_info(c2, &got));
    expect_info(got, "mpi_assert_exact_length", NULL);
    CHECK(MPI_Info_free(&got));
    /* invalid arguments */
    EXPECT_INT(MPI_Comm_idup_with_info(MPI_COMM_NULL, hints, &c2, &rq), MPI_ERR_COMM);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, (MPI_Info)12345, &c2, &rq), MPI_ERR_INFO);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, hints, &c2, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Comm_idup_with_info(parent, hints, NULL, &rq), MPI_ERR_ARG);
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Comm_free(&c2));
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&parent));
}

/* Made before MPI_Init (main): the same keys and values as one made now. */
/* An intercommunicator's idup_with_info (n >= 2): the lower and upper halves of the world;
 * the copy reaches the other group (a sum over it) and has info's hints. */
static void test_idup_with_info_inter(void)
{
    if (size < 2)
        return;
    int low = mc_rank < size / 2, nremote, sum = -1, me = mc_rank;
    MPI_Comm half, inter, c;
    MPI_Info hints, got;
    MPI_Request rq;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, low, mc_rank, &half));
    CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 5, &inter));
    CHECK(MPI_Info_create(&hints));
    CHECK(MPI_Info_set(hints, "mpi_assert_allow_overtaking", "true"));
    CHECK(MPI_Comm_idup_with_info(inter, hints, &c, &rq));
    CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
    CHECK(MPI_Comm_remote_size(c, &nremote));
    EXPECT_INT(nremote, low ? size - size / 2 : size / 2);
    CHECK(MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, c)); /* the remote group's sum */
    int lo_sum = (size / 2) * (size / 2 - 1) / 2, all = size * (size - 1) / 2;
    EXPECT_INT(sum, low ? all - lo_sum : lo_sum);
    CHECK(MPI_Comm_get_info(c, &got));
    expect_info(got, "mpi_assert_allow_overtaking", "true");
    CHECK(MPI_Info_free(&got));
    CHECK(MPI_Info_free(&hints));
    CHECK(MPI_Comm_free(&c));
    CHECK(MPI_Comm_free(&inter));
    CHECK(MPI_Comm_free(&half));
}

static void test_info_create_env(MPI_Info before, int argc, char **argv)
{
    static const char *const keys[] = {"command", "argv", "host", "arch", "wdir"};
    MPI_Info now;
    CHECK(MPI_Info_create_env(argc, argv, &now));
    int n1 = -1, n2 = -2;
    CHECK(MPI_Info_get_nkeys(before, &n1));
    CHECK(MPI_Info_get_nkeys(now, &n2));
    EXPECT_INT(n1, n2);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char v[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        CHECK(MPI_Info_get(now, keys[i], MPI_MAX_INFO_VAL, v, &flag));
        expect_info(before, keys[i], flag ? v : NULL);
    }
    CHECK(MPI_Info_free(&now));
    CHECK(MPI_Info_free(&before));

    char a0[] = "prog", a1[] = "a", a2[] = "b c", *av[] = {a0, a1, a2, NULL};
    MPI_Info info;
    CHECK(MPI_Info_create_env(3, av, &info));
    expect_info(info, "command", "prog");
    expect_info(info, "argv", "a b c");
    expect_info(info, "maxprocs", NULL);     /* not known before MPI_Init: never, so that it is */
    expect_info(info, "thread_level", NULL); /* the same object before, during and after */
    char host[MPI_MAX_PROCESSOR_NAME], cwd[4096];
    int len;
    CHECK(MPI_Get_processor_name(host, &len));
    expect_info(info, "host", host);
    if (getcwd(cwd, sizeof cwd))
        expect_info(info, "wdir", cwd);
    /* a new object the program owns: it may set and free it (MPI_INFO_ENV is read-only) */
    CHECK(MPI_Info_set(info, "command", "other"));
    CHECK(MPI_Info_free(&info));
    /* only argv[0]: no argv key */
    CHECK(MPI_Info_create_env(1, av, &info));
    expect_info(info, "command", "prog");
    expect_info(info, "argv", NULL);
    CHECK(MPI_Info_free(&info));
    /* no argv: the process's own command line, as MPI_INFO_ENV has it */
    char want[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    CHECK(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, want, &flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Info_create_env(0, NULL, &info));
    expect_info(info, "command", want);
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Info_create_env(0, NULL, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_create_env(-1, av, &info), MPI_ERR_ARG);
}

static void test_info_get_string(void)
{
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Info_set(info, "k", "hello"));
    char v[16];
    int buflen = 0, flag = -1;
    memset(v, 'x', sizeof v);
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag)); /* length only */
    EXPECT_INT(flag, 1);
    EXPECT_INT(buflen, 6);
    EXPECT_INT(v[0], 'x');
    buflen = 3; /* truncated: 2 characters and the NUL */
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    EXPECT_INT(buflen, 6);
    if (memcmp(v, "he\0x", 4) != 0)
        FAIL("Info_get_string(buflen 3) gave \"%.4s\"", v);
    buflen = 16;
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    EXPECT_INT(buflen, 6);
    if (strcmp(v, "hello") != 0)
        FAIL("Info_get_string gave \"%s\"", v);
    buflen = 6; /* exactly the value and its NUL */
    CHECK(MPI_Info_get_string(info, "k", &buflen, v, &flag));
    if (strcmp(v, "hello") != 0)
        FAIL("Info_get_string(buflen 6) gave \"%s\"", v);
    buflen = 9;
    strcpy(v, "same");
    CHECK(MPI_Info_get_string(info, "nokey", &buflen, v, &flag)); /* untouched when unset */
    EXPECT_INT(flag, 0);
    EXPECT_INT(buflen, 9);
    if (strcmp(v, "same") != 0)
        FAIL("Info_get_string of a missing key wrote \"%s\"", v);
    EXPECT_INT(MPI_Info_get_string(info, "k", NULL, v, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, v, NULL), MPI_ERR_ARG);
    buflen = -1;
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, v, &flag), MPI_ERR_ARG);
    buflen = 4;
    EXPECT_INT(MPI_Info_get_string(info, "k", &buflen, NULL, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, NULL, &buflen, v, &flag), MPI_ERR_ARG);
    EXPECT_INT(MPI_Info_get_string(info, "", &buflen, v, &flag), MPI_ERR_INFO_KEY);
    EXPECT_INT(MPI_Info_get_string((MPI_Info)12345, "k", &buflen, v, &flag), MPI_ERR_INFO);
    EXPECT_INT(MPI_Info_get_string(MPI_INFO_NULL, "k", &buflen, v, &flag), MPI_ERR_INFO);
    CHECK(MPI_Info_free(&info));
}

static void test_errors_abort_handle(void)
{
    if (MPI_ERRORS_ABORT == MPI_ERRORS_ARE_FATAL || MPI_ERRORS_ABORT == MPI_ERRORS_RETURN ||
        MPI_ERRORS_ABORT == MPI_ERRHANDLER_NULL)
        FAIL("MPI_ERRORS_ABORT is %d, not a handle of its own", (int)MPI_ERRORS_ABORT);
    MPI_Comm c;
    MPI_Errhandler eh;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &c));
    CHECK(MPI_Comm_set_errhandler(c, MPI_ERRORS_ABORT));
    CHECK(MPI_Comm_get_errhandler(c, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ABORT);
    CHECK(MPI_Errhandler_free(&eh));
    EXPECT_INT(eh, MPI_ERRHANDLER_NULL);
    MPI_Comm d; /* inherited by a dup */
    CHECK(MPI_Comm_dup(c, &d));
    CHECK(MPI_Comm_get_errhandler(d, &eh));
    EXPECT_INT(eh, MPI_ERRORS_ABORT);
    CHECK(MPI_Errhandler_free(&eh));
    CHECK(MPI_Comm_free(&d));
    CHECK(MPI_Comm_free(&c));
}

/* Fill n ints with a pattern of (rank, tag), and check one received from rank src. */
static void fill(int *b, int n, int rank, int tag)
{
    for (int i = 0; i < n; i++)
        b[i] = rank * 1000003 + tag * 7919 + i;
}

static void expect_fill(const int *b, int n, int rank, int tag, const char *what)
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

static void test_process_buffer(int *out, int *in)
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
static void test_comm_buffer(int *out, int *in)
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
static void test_automatic(int *out, int *in)
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

static void test_status_fields(void)
{
    MPI_Status st;
    memset(&st, 0, sizeof st);
    int v = -1;
    CHECK(MPI_Status_set_source(&st, 3));
    CHECK(MPI_Status_set_tag(&st, 77));
    CHECK(MPI_Status_set_error(&st, MPI_ERR_TAG));
    EXPECT_INT(st.MPI_SOURCE, 3);
    EXPECT_INT(st.MPI_TAG, 77);
    EXPECT_INT(st.MPI_ERROR, MPI_ERR_TAG);
    CHECK(MPI_Status_get_source(&st, &v));
    EXPECT_INT(v, 3);
    CHECK(MPI_Status_get_tag(&st, &v));
    EXPECT_INT(v, 77);
    CHECK(MPI_Status_get_error(&st, &v));
    EXPECT_INT(v, MPI_ERR_TAG);
    CHECK(PMPI_Status_get_tag(&st, &v)); /* the profiling twins exist */
    EXPECT_INT(v, 77);
    EXPECT_INT(MPI_Status_get_source(NULL, &v), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_get_tag(&st, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_get_error(&st, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_source(NULL, 1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_tag(NULL, 1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Status_set_error(NULL, 1), MPI_ERR_ARG);
}

static void expect_empty(const MPI_Status *s, const char *what)
{
    if (s->MPI_SOURCE != MPI_ANY_SOURCE || s->MPI_TAG != MPI_ANY_TAG || s->MPI_ERROR)
        FAIL("%s: status (%d, %d, %d) is not empty", what, s->MPI_SOURCE, s->MPI_TAG, s->MPI_ERROR);
}

/* The receive (request 0) beside a null request and an inactive persistent one: nothing is
 * complete until the left neighbour sends (after the barrier); then every call sees it, as
 * often as asked, and the request stays for MPI_Wait. */
static void test_get_status_arrays(void)
{
    int x = -1, y = 0, idx = -2, flag = -2, n = -2, ind[3];
    MPI_Request r[3];
    MPI_Status st[3], s1;
    CHECK(MPI_Irecv(&x, 1, MPI_INT, left, 11, MPI_COMM_WORLD, &r[0]));
    r[1] = MPI_REQUEST_NULL;
    CHECK(MPI_Recv_init(&y, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r[2]));
    CHECK(MPI_Request_get_status_all(3, r, &flag, st));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
    EXPECT_INT(flag, 0);
    EXPECT_INT(idx, MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
    EXPECT_INT(n, 0);
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int v = 1000 + mc_rank;
    CHECK(MPI_Send(&v, 1, MPI_INT, right, 11, MPI_COMM_WORLD));
    st[0].MPI_ERROR = -7; /* MPI-4.1 3.2.5: left alone unless MPI_ERR_IN_STATUS */
    do                    /* until the message is in (the watchdog ends a hang) */
        CHECK(MPI_Request_get_status_all(3, r, &flag, st));
    while (!flag);
    EXPECT_INT(st[0].MPI_SOURCE, left);
    EXPECT_INT(st[0].MPI_TAG, 11);
    EXPECT_INT(st[0].MPI_ERROR, -7);
    expect_empty(&st[1], "get_status_all, null request");
    expect_empty(&st[2], "get_status_all, inactive request");
    for (int rep = 0; rep < 2; rep++) { /* nothing is freed: the same answer again */
        CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
        EXPECT_INT(flag, 1);
        EXPECT_INT(idx, 0);
        EXPECT_INT(s1.MPI_SOURCE, left);
        CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
        EXPECT_INT(n, 1);
        EXPECT_INT(ind[0], 0);
        EXPECT_INT(st[0].MPI_TAG, 11);
    }
    if (r[0] == MPI_REQUEST_NULL)
        FAIL("Request_get_status_* freed the request");
    MPI_Request stale = r[0];
    CHECK(MPI_Wait(&r[0], &s1));
    EXPECT_INT(x, 1000 + left);
    EXPECT_INT(s1.MPI_SOURCE, left);
    /* only null and inactive requests left: the "none active" answers */
    CHECK(MPI_Request_get_status_any(3, r, &idx, &flag, &s1));
    EXPECT_INT(flag, 1);
    EXPECT_INT(idx, MPI_UNDEFINED);
    expect_empty(&s1, "get_status_any, none active");
    CHECK(MPI_Request_get_status_some(3, r, &n, ind, st));
    EXPECT_INT(n, MPI_UNDEFINED);
    CHECK(MPI_Request_get_status_all(0, NULL, &flag, MPI_STATUSES_IGNORE));
    EXPECT_INT(flag, 1);
    /* invalid arguments */
    EXPECT_INT(MPI_Request_get_status_all(-1, r, &flag, st), MPI_ERR_COUNT);
    EXPECT_INT(MPI_Request_get_status_all(3, r, NULL, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_all(1, NULL, &flag, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_any(3, r, NULL, &flag, &s1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_any(3, r, &idx, NULL, &s1), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(3, r, NULL, ind, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(3, r, &n, NULL, st), MPI_ERR_ARG);
    EXPECT_INT(MPI_Request_get_status_some(-1, r, &n, ind, st), MPI_ERR_COUNT);
    r[1] = stale; /* a completed and freed request's handle */
    EXPECT_INT(MPI_Request_get_status_all(3, r, &flag, st), MPI_ERR_REQUEST);
    EXPECT_INT(MPI_Request_get_status_any(3, r, &idx, &flag, &s1), MPI_ERR_REQUEST);
    EXPECT_INT(MPI_Request_get_status_some(3, r, &n, ind, st), MPI_ERR_REQUEST);
    CHECK(MPI_Request_free(&r[2]));
}

static void test_remove_error(void)
{
    int cls, code, got, len;
    char s[MPI_MAX_ERROR_STRING];
    CHECK(MPI_Add_error_class(&cls));
    CHECK(MPI_Add_error_code(cls, &code));
    CHECK(MPI_Add_error_string(code, "my code"));
    EXPECT_INT(MPI_Remove_error_class(cls), MPI_ERR_ARG);  /* a code is attached */
    EXPECT_INT(MPI_Remove_error_code(cls), MPI_ERR_ARG);   /* a class, not a code */
    EXPECT_INT(MPI_Remove_error_string(cls), MPI_ERR_ARG); /* it has no string */
    CHECK(MPI_Remove_error_string(code));
    CHECK(MPI_Error_string(code, s, &len));
    EXPECT_INT(len, 0);
    EXPECT_INT(MPI_Remove_error_string(code), MPI_ERR_ARG); /* gone already */
    CHECK(MPI_Remove_error_code(code));
    EXPECT_INT(MPI_Error_class(code, &got), MPI_ERR_ARG); /* no such code any more */
    EXPECT_INT(MPI_Remove_error_code(code), MPI_ERR_ARG);
    CHECK(MPI_Add_error_string(cls, "my class"));
    CHECK(MPI_Remove_error_class(cls)); /* its string goes with it */
    EXPECT_INT(MPI_Error_class(cls, &got), MPI_ERR_ARG);
    EXPECT_INT(MPI_Add_error_code(cls, &code), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_class(cls), MPI_ERR_ARG);
    /* predefined ones never go */
    EXPECT_INT(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_code(MPI_ERR_OTHER), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_string(MPI_ERR_OTHER), MPI_ERR_ARG);
    EXPECT_INT(MPI_Remove_error_class(MPI_SUCCESS), MPI_ERR_ARG);
    int next; /* a removed number is not given out again */
    CHECK(MPI_Add_error_class(&next));
    if (next == cls || next == code)
        FAIL("Add_error_class reused %d", next);
    CHECK(MPI_Remove_error_class(next));
}

static void test_value_index(void)
{
    static const MPI_Datatype t[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_FLOAT, MPI_LONG, MPI_DATATYPE_NULL},
        {MPI_INT, MPI_FLOAT, MPI_DATATYPE_NULL},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL},
        {MPI_INT32_T, MPI_INT, MPI_DATATYPE_NULL},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        MPI_Datatype p = (MPI_Datatype)-5;
        CHECK(MPI_Type_get_value_index(t[i][0], t[i][1], &p));
        if (p != t[i][2])
            FAIL("Type_get_value_index case %zu gave %d, expected %d", i, (int)p, (int)t[i][2]);
    }
    MPI_Datatype c, p;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &c));
    CHECK(MPI_Type_commit(&c));
    CHECK(MPI_Type_get_value_index(c, MPI_INT, &p));
    if (p != MPI_DATATYPE_NULL)
        FAIL("Type_get_value_index of a derived type gave %d", (int)p);
    CHECK(MPI_Type_free(&c));
    EXPECT_INT(MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &p), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_value_index(MPI_FLOAT, MPI_DATATYPE_NULL, &p), MPI_ERR_TYPE);
    EXPECT_INT(MPI_Type_get_value_index(MPI_FLOAT, MPI_INT, NULL), MPI_ERR_ARG);
}

static void test_hw_and_abi(void)
{
    MPI_Info info;
    char host[MPI_MAX_PROCESSOR_NAME];
    int len, maj = 0, min = 0;
    CHECK(MPI_Get_hw_resource_info(&info));
    expect_info(info, "mpi_hw_resource_type", "mpi_shared_memory");
    CHECK(MPI_Get_processor_name(host, &len));
    expect_info(info, "rmp_host", host);
    expect_info_int(info, "rmp_ncpus", sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Get_hw_resource_info(NULL), MPI_ERR_ARG);
    CHECK(MPI_Abi_get_version(&maj, &min)); /* not the standard ABI */
    EXPECT_INT(maj, -1);
    EXPECT_INT(min, -1);
    CHECK(MPI_Abi_get_info(&info));
    expect_info(info, "mpi_abi", "rmp");
    expect_info(info, "mpi_abi_standard", "false");
    expect_info_int(info, "mpi_aint_size", (long)sizeof(MPI_Aint));
    expect_info_int(info, "mpi_count_size", (long)sizeof(MPI_Count));
    expect_info_int(info, "mpi_offset_size", (long)sizeof(MPI_Offset));
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Abi_get_fortran_info(&info));
    expect_info(info, "mpi_fortran_bindings", "none");
    expect_info_int(info, "mpi_fint_size", (long)sizeof(MPI_Fint));
    CHECK(MPI_Info_free(&info));
    EXPECT_INT(MPI_Abi_get_version(NULL, &min), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_version(&maj, NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_info(NULL), MPI_ERR_ARG);
    EXPECT_INT(MPI_Abi_get_fortran_info(NULL), MPI_ERR_ARG);
}

/* MPI_ERRORS_ABORT on MPI_COMM_WORLD, then an error on rank size - 1: the job ends. */
static void abort_mode(void)
{
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT));
    if (mc_rank == size - 1) {
        int v = 0;
        MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
        printf("mpi_mpi4: rank %d survived MPI_ERRORS_ABORT\n", mc_rank);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* the others wait here for the end */
}

int main(int argc, char **argv)
{
    MPI_Info env_before = MPI_INFO_NULL;
    int env_rc = MPI_Info_create_env(argc, argv, &env_before);
    mc_init(&argc, &argv, 120);
    CHECK(env_rc);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (mc_rank + size - 1) % size;
    right = (mc_rank + 1) % size;
    if (argc > 1 && strcmp(argv[1], "abort") == 0) {
        abort_mode();
        MPI_Finalize();
        return 1;
    }
    int *out = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * BIG);
    test_idup_with_info();
    test_idup_with_info_inter();
    test_info_create_env(env_before, argc, argv);
    test_info_get_string();
    test_errors_abort_handle();
    test_process_buffer(out, in);
    test_comm_buffer(out, in);
    test_automatic(out, in);
    test_status_fields();
    test_get_status_arrays();
    test_remove_error();
    test_value_index();
    test_hw_and_abi();
    /* a buffer left attached to MPI_COMM_WORLD, a message in it: finalize sends it and frees
     * the buffer (the ASan run's leak check says whether it did) */
    CHECK(MPI_Comm_attach_buffer(MPI_COMM_WORLD, MPI_BUFFER_AUTOMATIC, 0));
    fill(out, 4, mc_rank, 70);
    CHECK(MPI_Bsend(out, 4, MPI_INT, right, 70, MPI_COMM_WORLD));
    CHECK(MPI_Recv(in, 4, MPI_INT, left, 70, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    expect_fill(in, 4, left, 70, "buffer left attached to MPI_COMM_WORLD");
    free(out);
    free(in);
    CHECK(MPI_Finalize());
    return mc_done("mpi_mpi4");
}
