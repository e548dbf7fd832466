/* api.c — every public call given invalid arguments returns the documented RMP_ERR_* code
 * (and never crashes or hangs): bad communicator, rank, tag, count, datatype, op, root, NULL
 * buffer, NULL or invalid request, calls before rmp_init and after rmp_finalize, plus the
 * init/finalize life cycle and rmp_strerror. Collective calls get the same bad argument on every
 * rank, so each fails locally. Rank 0 prints "api: OK n=N" (and "api: K checks"). */
#include "progs.h"

static int rank, n;
static long checks; /* counted by progs.h's RC and IS */

static const rmp_comm_t bad_comms[] = {RMP_COMM_NULL, -7, 77, 4095, 100000};
#define NBAD_COMMS (int)(sizeof bad_comms / sizeof bad_comms[0])

static void before_init(void)
{
    int flag = -1, x;
    rmp_status_t st;
    rmp_request_t req = RMP_REQUEST_NULL;
    rmp_datatype_t t;
    rmp_comm_t c;
    size_t sz;
    RC(RMP_SUCCESS, rmp_initialized(&flag));
    IS(flag == 0, "rmp_initialized before init: flag %d", flag);
    RC(RMP_SUCCESS, rmp_finalized(&flag));
    IS(flag == 0, "rmp_finalized before init: flag %d", flag);
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_rank(RMP_COMM_WORLD, &x));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_size(RMP_COMM_WORLD, &x));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_send(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_isend(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_irecv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_wait(&req, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_test(&req, &flag, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_waitall(1, &req, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_iprobe(0, 0, RMP_COMM_WORLD, &flag, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_probe(0, 0, RMP_COMM_WORLD, &st));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_barrier(RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_bcast(&x, 1, RMP_INT, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_allreduce(&x, &flag, 1, RMP_INT, RMP_SUM, RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_dup(RMP_COMM_WORLD, &c));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_split(RMP_COMM_WORLD, 0, 0, &c));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_type_contiguous(2, RMP_INT, &t));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_type_size(RMP_INT, &sz));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_query_thread(&x));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_finalize());
}

static void init_twice(int *argc, char ***argv)
{
    int flag = -1, provided;
    RC(RMP_ERR_INITIALIZED, rmp_init(argc, argv));
    RC(RMP_ERR_INITIALIZED, rmp_init(NULL, NULL));
    RC(RMP_ERR_INITIALIZED, rmp_init_thread(argc, argv, RMP_THREAD_SINGLE, &provided));
    RC(RMP_SUCCESS, rmp_initialized(&flag));
    IS(flag == 1, "rmp_initialized after init: flag %d", flag);
    RC(RMP_SUCCESS, rmp_finalized(&flag));
    IS(flag == 0, "rmp_finalized after init: flag %d", flag);
    RC(RMP_ERR_ARG, rmp_initialized(NULL));
    RC(RMP_ERR_ARG, rmp_finalized(NULL));
    RC(RMP_ERR_ARG, rmp_query_thread(NULL));
}

static void communicators(void)
{
    int x;
    rmp_comm_t c;
    for (int i = 0; i < NBAD_COMMS; i++) {
        rmp_comm_t b = bad_comms[i];
        RC(RMP_ERR_COMM, rmp_comm_rank(b, &x));
        RC(RMP_ERR_COMM, rmp_comm_size(b, &x));
        RC(RMP_ERR_COMM, rmp_comm_dup(b, &c));
        RC(RMP_ERR_COMM, rmp_comm_split(b, 0, 0, &c));
        c = b;
        RC(RMP_ERR_COMM, rmp_comm_free(&c));
    }
    RC(RMP_ERR_ARG, rmp_comm_rank(RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_ARG, rmp_comm_size(RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_ARG, rmp_comm_dup(RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_ARG, rmp_comm_split(RMP_COMM_WORLD, 0, 0, NULL));
    RC(RMP_ERR_ARG, rmp_comm_free(NULL));
    c = RMP_COMM_WORLD;
    RC(RMP_ERR_COMM, rmp_comm_free(&c));
    c = RMP_COMM_SELF;
    RC(RMP_ERR_COMM, rmp_comm_free(&c));
    IS(c == RMP_COMM_SELF, "a failed rmp_comm_free changed the handle to %d", c);
    RC(RMP_SUCCESS, rmp_comm_rank(RMP_COMM_SELF, &x));
    IS(x == 0, "rank in RMP_COMM_SELF is %d", x);
    RC(RMP_SUCCESS, rmp_comm_size(RMP_COMM_SELF, &x));
    IS(x == 1, "size of RMP_COMM_SELF is %d", x);
    /* a freed communicator is invalid */
    rmp_comm_t d;
    RC(RMP_SUCCESS, rmp_comm_dup(RMP_COMM_WORLD, &d));
    rmp_comm_t old = d;
    RC(RMP_SUCCESS, rmp_comm_free(&d));
    IS(d == RMP_COMM_NULL, "rmp_comm_free left the handle at %d", d);
    RC(RMP_ERR_COMM, rmp_comm_size(old, &x));
    RC(RMP_ERR_COMM, rmp_send(&x, 1, RMP_INT, 0, 0, old));
    RC(RMP_ERR_COMM, rmp_barrier(old));
    RC(RMP_ERR_COMM, rmp_comm_free(&old));
}

/* One bad argument at a time for send, isend, recv, irecv, sendrecv, probe, iprobe. */
static void point_to_point(void)
{
    int buf[4] = {0}, flag;
    rmp_request_t req;
    rmp_status_t st;
    const int bad_ranks[] = {n, n + 5, -3, -100};
    const int bad_tags[] = {-5, RMP_TAG_UB + 1, -100000};
    for (int i = 0; i < NBAD_COMMS; i++) {
        rmp_comm_t b = bad_comms[i];
        RC(RMP_ERR_COMM, rmp_send(buf, 1, RMP_INT, 0, 0, b));
        RC(RMP_ERR_COMM, rmp_isend(buf, 1, RMP_INT, 0, 0, b, &req));
        RC(RMP_ERR_COMM, rmp_recv(buf, 1, RMP_INT, 0, 0, b, &st));
        RC(RMP_ERR_COMM, rmp_irecv(buf, 1, RMP_INT, 0, 0, b, &req));
        RC(RMP_ERR_COMM, rmp_probe(0, 0, b, &st));
        RC(RMP_ERR_COMM, rmp_iprobe(0, 0, b, &flag, &st));
        RC(RMP_ERR_COMM, rmp_sendrecv(buf, 1, RMP_INT, 0, 0, buf + 1, 1, RMP_INT, 0, 0, b, &st));
    }
    for (int i = 0; i < 4; i++) {
        int r = bad_ranks[i];
        RC(RMP_ERR_RANK, rmp_send(buf, 1, RMP_INT, r, 0, RMP_COMM_WORLD));
        RC(RMP_ERR_RANK, rmp_isend(buf, 1, RMP_INT, r, 0, RMP_COMM_WORLD, &req));
        RC(RMP_ERR_RANK, rmp_recv(buf, 1, RMP_INT, r, 0, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_RANK, rmp_irecv(buf, 1, RMP_INT, r, 0, RMP_COMM_WORLD, &req));
        RC(RMP_ERR_RANK, rmp_probe(r, 0, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_RANK, rmp_iprobe(r, 0, RMP_COMM_WORLD, &flag, &st));
        RC(RMP_ERR_RANK, rmp_sendrecv(buf, 1, RMP_INT, r, 0, buf + 1, 1, RMP_INT, rank, 0,
                                      RMP_COMM_WORLD, &st));
        RC(RMP_ERR_RANK, rmp_sendrecv(buf, 1, RMP_INT, rank, 0, buf + 1, 1, RMP_INT, r, 0,
                                      RMP_COMM_WORLD, &st));
    }
    /* wildcards are for receiving only */
    RC(RMP_ERR_RANK, rmp_send(buf, 1, RMP_INT, RMP_ANY_SOURCE, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_RANK, rmp_isend(buf, 1, RMP_INT, RMP_ANY_SOURCE, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_TAG, rmp_send(buf, 1, RMP_INT, rank, RMP_ANY_TAG, RMP_COMM_WORLD));
    RC(RMP_ERR_TAG, rmp_isend(buf, 1, RMP_INT, rank, RMP_ANY_TAG, RMP_COMM_WORLD, &req));
    for (int i = 0; i < 3; i++) {
        int t = bad_tags[i];
        RC(RMP_ERR_TAG, rmp_send(buf, 1, RMP_INT, rank, t, RMP_COMM_WORLD));
        RC(RMP_ERR_TAG, rmp_isend(buf, 1, RMP_INT, rank, t, RMP_COMM_WORLD, &req));
        RC(RMP_ERR_TAG, rmp_recv(buf, 1, RMP_INT, rank, t, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_TAG, rmp_irecv(buf, 1, RMP_INT, rank, t, RMP_COMM_WORLD, &req));
        RC(RMP_ERR_TAG, rmp_probe(rank, t, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_TAG, rmp_iprobe(rank, t, RMP_COMM_WORLD, &flag, &st));
    }
    RC(RMP_ERR_COUNT, rmp_send(buf, -1, RMP_INT, rank, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_isend(buf, -1, RMP_INT, rank, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_COUNT, rmp_recv(buf, -1, RMP_INT, rank, 0, RMP_COMM_WORLD, &st));
    RC(RMP_ERR_COUNT, rmp_irecv(buf, -1, RMP_INT, rank, 0, RMP_COMM_WORLD, &req));
    const rmp_datatype_t bad_types[] = {RMP_DATATYPE_NULL, -1, 999, 100000};
    for (int i = 0; i < 4; i++) {
        rmp_datatype_t t = bad_types[i];
        RC(RMP_ERR_TYPE, rmp_send(buf, 1, t, rank, 0, RMP_COMM_WORLD));
        RC(RMP_ERR_TYPE, rmp_isend(buf, 1, t, rank, 0, RMP_COMM_WORLD, &req));
        RC(RMP_ERR_TYPE, rmp_recv(buf, 1, t, rank, 0, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_TYPE, rmp_irecv(buf, 1, t, rank, 0, RMP_COMM_WORLD, &req));
    }
    RC(RMP_ERR_BUFFER, rmp_send(NULL, 1, RMP_INT, rank, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_isend(NULL, 4, RMP_INT, rank, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_BUFFER, rmp_recv(NULL, 1, RMP_INT, rank, 0, RMP_COMM_WORLD, &st));
    RC(RMP_ERR_BUFFER, rmp_irecv(NULL, 4, RMP_INT, rank, 0, RMP_COMM_WORLD, &req));
    RC(RMP_ERR_BUFFER, rmp_sendrecv(NULL, 1, RMP_INT, rank, 0, buf, 1, RMP_INT, rank, 0,
                                    RMP_COMM_WORLD, &st));
    RC(RMP_ERR_ARG, rmp_isend(buf, 1, RMP_INT, rank, 0, RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_ARG, rmp_irecv(buf, 1, RMP_INT, rank, 0, RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_ARG, rmp_iprobe(rank, 0, RMP_COMM_WORLD, NULL, &st));

    /* The valid edges of each range: NULL with count 0, RMP_TAG_UB, the last rank. */
    int got = -1;
    req = RMP_REQUEST_NULL;
    RC(RMP_SUCCESS, rmp_isend(NULL, 0, RMP_INT, n - 1, RMP_TAG_UB, RMP_COMM_WORLD, &req));
    if (rank == n - 1)
        for (int r = 0; r < n; r++) {
            RC(RMP_SUCCESS, rmp_recv(NULL, 0, RMP_INT, r, RMP_TAG_UB, RMP_COMM_WORLD, &st));
            IS(st.source == r && st.tag == RMP_TAG_UB && st.count == 0,
               "empty message with RMP_TAG_UB: status %d/%d/%zu", st.source, st.tag, st.count);
        }
    RC(RMP_SUCCESS, rmp_wait(&req, &st));
    IS(req == RMP_REQUEST_NULL, "rmp_wait did not reset the request handle");
    RC(RMP_SUCCESS, rmp_sendrecv(&rank, 1, RMP_INT, rank, 3, &got, 1, RMP_INT, rank, 3,
                                 RMP_COMM_WORLD, &st));
    IS(got == rank, "sendrecv to myself: got %d", got);
}

/* A zeroed block is no live request. */
static uint64_t fake_req_storage[64];

static void requests(void)
{
    rmp_request_t fake = (rmp_request_t)(void *)fake_req_storage, null = RMP_REQUEST_NULL;
    rmp_request_t arr[2];
    rmp_status_t st, sts[2];
    int flag, idx;
    RC(RMP_ERR_ARG, rmp_wait(NULL, &st));
    RC(RMP_ERR_ARG, rmp_test(NULL, &flag, &st));
    RC(RMP_ERR_ARG, rmp_test(&null, NULL, &st));
    RC(RMP_ERR_REQUEST, rmp_wait(&fake, &st));
    RC(RMP_ERR_REQUEST, rmp_test(&fake, &flag, &st));
    RC(RMP_ERR_REQUEST, rmp_cancel(&fake));
    RC(RMP_ERR_REQUEST, rmp_cancel(NULL));
    RC(RMP_ERR_REQUEST, rmp_cancel(&null));
    arr[0] = RMP_REQUEST_NULL, arr[1] = fake;
    RC(RMP_ERR_REQUEST, rmp_waitall(2, arr, sts));
    RC(RMP_ERR_REQUEST, rmp_testall(2, arr, &flag, sts));
    RC(RMP_ERR_REQUEST, rmp_waitany(2, arr, &idx, &st));
    RC(RMP_ERR_COUNT, rmp_waitall(-1, arr, sts));
    RC(RMP_ERR_COUNT, rmp_testall(-1, arr, &flag, sts));
    RC(RMP_ERR_COUNT, rmp_waitany(-1, arr, &idx, &st));
    RC(RMP_ERR_ARG, rmp_waitall(2, NULL, sts));
    RC(RMP_ERR_ARG, rmp_testall(2, NULL, &flag, sts));
    RC(RMP_ERR_ARG, rmp_waitany(2, NULL, &idx, &st));
    arr[1] = RMP_REQUEST_NULL;
    RC(RMP_ERR_ARG, rmp_testall(2, arr, NULL, sts));
    RC(RMP_ERR_ARG, rmp_waitany(2, arr, NULL, &st));

    /* NULL requests complete at once with an empty status */
    memset(&st, 0x5a, sizeof st);
    RC(RMP_SUCCESS, rmp_wait(&null, &st));
    IS(st.count == 0 && st.error == 0 && st.cancelled == 0,
       "wait on RMP_REQUEST_NULL: status count=%zu error=%d cancelled=%d", st.count, st.error,
       st.cancelled);
    flag = 0;
    RC(RMP_SUCCESS, rmp_test(&null, &flag, RMP_STATUS_IGNORE));
    IS(flag == 1, "test on RMP_REQUEST_NULL: flag %d", flag);
    RC(RMP_SUCCESS, rmp_waitall(2, arr, sts));
    RC(RMP_SUCCESS, rmp_waitall(0, NULL, RMP_STATUSES_IGNORE));
    flag = 0;
    RC(RMP_SUCCESS, rmp_testall(2, arr, &flag, RMP_STATUSES_IGNORE));
    IS(flag == 1, "testall over NULL requests: flag %d", flag);
    idx = 0;
    RC(RMP_SUCCESS, rmp_waitany(2, arr, &idx, &st));
    IS(idx == RMP_UNDEFINED, "waitany over NULL requests: index %d", idx);
}

static void datatypes(void)
{
    rmp_datatype_t t = RMP_DATATYPE_NULL, v;
    size_t sz;
    int count, buf[8] = {0};
    rmp_status_t st = {.count = 10};
    RC(RMP_ERR_COUNT, rmp_type_contiguous(-1, RMP_INT, &t));
    RC(RMP_ERR_COUNT, rmp_type_vector(-1, 1, 1, RMP_INT, &t));
    RC(RMP_ERR_COUNT, rmp_type_vector(2, -1, 1, RMP_INT, &t));
    RC(RMP_ERR_TYPE, rmp_type_contiguous(2, 999, &t));
    RC(RMP_ERR_TYPE, rmp_type_vector(2, 1, 2, RMP_DATATYPE_NULL, &t));
    RC(RMP_ERR_ARG, rmp_type_contiguous(2, RMP_INT, NULL));
    RC(RMP_ERR_ARG, rmp_type_vector(2, 1, 2, RMP_INT, NULL));
    RC(RMP_ERR_ARG, rmp_type_commit(NULL));
    RC(RMP_ERR_ARG, rmp_type_free(NULL));
    t = 999;
    RC(RMP_ERR_TYPE, rmp_type_commit(&t));
    RC(RMP_ERR_TYPE, rmp_type_free(&t));
    t = RMP_INT;
    RC(RMP_ERR_TYPE, rmp_type_free(&t));
    IS(t == RMP_INT, "freeing a builtin type changed the handle to %d", t);
    RC(RMP_ERR_TYPE, rmp_type_size(999, &sz));
    RC(RMP_ERR_TYPE, rmp_type_extent(RMP_DATATYPE_NULL, &sz));
    RC(RMP_ERR_ARG, rmp_type_size(RMP_INT, NULL));
    RC(RMP_ERR_ARG, rmp_type_extent(RMP_INT, NULL));
    RC(RMP_ERR_ARG, rmp_get_count(NULL, RMP_INT, &count));
    RC(RMP_ERR_ARG, rmp_get_count(&st, RMP_INT, NULL));
    RC(RMP_ERR_TYPE, rmp_get_count(&st, 999, &count));
    RC(RMP_SUCCESS, rmp_get_count(&st, RMP_INT16, &count));
    IS(count == 5, "get_count of 10 bytes as int16: %d", count);
    RC(RMP_SUCCESS, rmp_get_count(&st, RMP_INT32, &count));
    IS(count == RMP_UNDEFINED, "get_count of 10 bytes as int32: %d, expected RMP_UNDEFINED",
       count);

    /* builtin sizes */
    const struct {
        rmp_datatype_t t;
        size_t size;
    } builtin[] = {{RMP_INT8, 1},   {RMP_INT16, 2},  {RMP_INT32, 4}, {RMP_INT64, 8},
                   {RMP_UINT8, 1},  {RMP_UINT16, 2}, {RMP_UINT32, 4}, {RMP_UINT64, 8},
                   {RMP_FLOAT, 4},  {RMP_DOUBLE, 8}, {RMP_BYTE, 1},  {RMP_CHAR, 1}};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        size_t ext = 0;
        sz = 0;
        RC(RMP_SUCCESS, rmp_type_size(builtin[i].t, &sz));
        RC(RMP_SUCCESS, rmp_type_extent(builtin[i].t, &ext));
        IS(sz == builtin[i].size && ext == sz, "type %d: size %zu extent %zu, expected %zu",
           builtin[i].t, sz, ext, builtin[i].size);
    }

    /* derived: uncommitted and freed types are refused in communication */
    RC(RMP_SUCCESS, rmp_type_vector(3, 1, 2, RMP_INT, &v));
    RC(RMP_ERR_TYPE, rmp_send(buf, 1, v, rank, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_bcast(buf, 1, v, 0, RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_type_commit(&v));
    rmp_datatype_t old = v;
    RC(RMP_SUCCESS, rmp_type_free(&v));
    IS(v == RMP_DATATYPE_NULL, "rmp_type_free left the handle at %d", v);
    RC(RMP_ERR_TYPE, rmp_send(buf, 1, old, rank, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_type_size(old, &sz));
    RC(RMP_ERR_TYPE, rmp_type_free(&old));
}

/* Collectives: one bad argument at a time, the same on every rank. */
static void collectives(void)
{
    double d[4] = {0}, e[4 * 64] = {0};
    float f[4] = {0};
    for (int i = 0; i < NBAD_COMMS; i++) {
        rmp_comm_t b = bad_comms[i];
        RC(RMP_ERR_COMM, rmp_barrier(b));
        RC(RMP_ERR_COMM, rmp_bcast(d, 1, RMP_DOUBLE, 0, b));
        RC(RMP_ERR_COMM, rmp_reduce(d, e, 1, RMP_DOUBLE, RMP_SUM, 0, b));
        RC(RMP_ERR_COMM, rmp_allreduce(d, e, 1, RMP_DOUBLE, RMP_SUM, b));
        RC(RMP_ERR_COMM, rmp_gather(d, 1, RMP_DOUBLE, e, 1, RMP_DOUBLE, 0, b));
        RC(RMP_ERR_COMM, rmp_scatter(e, 1, RMP_DOUBLE, d, 1, RMP_DOUBLE, 0, b));
        RC(RMP_ERR_COMM, rmp_allgather(d, 1, RMP_DOUBLE, e, 1, RMP_DOUBLE, b));
        RC(RMP_ERR_COMM, rmp_alltoall(e, 1, RMP_DOUBLE, d, 1, RMP_DOUBLE, b));
    }
    const int bad_roots[] = {-1, n, n + 10, RMP_PROC_NULL};
    for (int i = 0; i < 4; i++) {
        int r = bad_roots[i];
        RC(RMP_ERR_ROOT, rmp_bcast(d, 1, RMP_DOUBLE, r, RMP_COMM_WORLD));
        RC(RMP_ERR_ROOT, rmp_reduce(d, e, 1, RMP_DOUBLE, RMP_SUM, r, RMP_COMM_WORLD));
        RC(RMP_ERR_ROOT, rmp_gather(d, 1, RMP_DOUBLE, e, 1, RMP_DOUBLE, r, RMP_COMM_WORLD));
        RC(RMP_ERR_ROOT, rmp_scatter(e, 1, RMP_DOUBLE, d, 1, RMP_DOUBLE, r, RMP_COMM_WORLD));
    }
    RC(RMP_ERR_COUNT, rmp_bcast(d, -1, RMP_DOUBLE, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_reduce(d, e, -1, RMP_DOUBLE, RMP_SUM, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_allreduce(d, e, -1, RMP_DOUBLE, RMP_SUM, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_gather(d, -1, RMP_DOUBLE, e, -1, RMP_DOUBLE, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_scatter(e, -1, RMP_DOUBLE, d, -1, RMP_DOUBLE, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_allgather(d, -1, RMP_DOUBLE, e, -1, RMP_DOUBLE, RMP_COMM_WORLD));
    RC(RMP_ERR_COUNT, rmp_alltoall(e, -1, RMP_DOUBLE, d, -1, RMP_DOUBLE, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_bcast(d, 1, RMP_DATATYPE_NULL, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_reduce(d, e, 1, 999, RMP_SUM, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_allreduce(d, e, 1, 999, RMP_SUM, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_gather(d, 1, 999, e, 1, 999, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_allgather(d, 1, 999, e, 1, 999, RMP_COMM_WORLD));
    RC(RMP_ERR_TYPE, rmp_alltoall(e, 1, 999, d, 1, 999, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_bcast(NULL, 1, RMP_DOUBLE, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_allreduce(d, NULL, 1, RMP_DOUBLE, RMP_SUM, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_allreduce(NULL, e, 1, RMP_DOUBLE, RMP_SUM, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_allgather(d, 1, RMP_DOUBLE, NULL, 1, RMP_DOUBLE, RMP_COMM_WORLD));
    RC(RMP_ERR_BUFFER, rmp_alltoall(NULL, 1, RMP_DOUBLE, d, 1, RMP_DOUBLE, RMP_COMM_WORLD));
    /* ops: invalid, or not defined for the type */
    const rmp_op_t bad_ops[] = {RMP_OP_NULL, 10, 99, -1};
    for (int i = 0; i < 4; i++) {
        RC(RMP_ERR_OP, rmp_allreduce(d, e, 1, RMP_DOUBLE, bad_ops[i], RMP_COMM_WORLD));
        RC(RMP_ERR_OP, rmp_reduce(d, e, 1, RMP_DOUBLE, bad_ops[i], 0, RMP_COMM_WORLD));
    }
    const rmp_op_t bitwise[] = {RMP_BAND, RMP_BOR, RMP_BXOR};
    for (int i = 0; i < 3; i++) {
        RC(RMP_ERR_OP, rmp_allreduce(f, e, 1, RMP_FLOAT, bitwise[i], RMP_COMM_WORLD));
        RC(RMP_ERR_OP, rmp_allreduce(d, e, 1, RMP_DOUBLE, bitwise[i], RMP_COMM_WORLD));
        RC(RMP_ERR_OP, rmp_reduce(d, e, 1, RMP_DOUBLE, bitwise[i], 0, RMP_COMM_WORLD));
    }
    /* and the valid neighbours still work afterwards */
    double one = 1, sum = 0;
    RC(RMP_SUCCESS, rmp_allreduce(&one, &sum, 1, RMP_DOUBLE, RMP_SUM, RMP_COMM_WORLD));
    IS(sum == n, "allreduce after the errors: %g, expected %d", sum, n);
    RC(RMP_SUCCESS, rmp_allreduce(&one, &sum, 1, RMP_DOUBLE, RMP_LAND, RMP_COMM_WORLD));
    IS(sum == 1, "logical and of doubles: %g", sum);
    unsigned char byte = (unsigned char)(1u << (rank % 8)), bor = 0;
    RC(RMP_SUCCESS, rmp_allreduce(&byte, &bor, 1, RMP_BYTE, RMP_BOR, RMP_COMM_WORLD));
    IS(bor == (n >= 8 ? 0xff : (1u << n) - 1), "bitwise or of bytes: 0x%02x", bor);
    RC(RMP_SUCCESS, rmp_barrier(RMP_COMM_WORLD));
}

static void strerror_all(void)
{
    const char *seen[-RMP_ERR_LAST];
    for (int code = 0; code > RMP_ERR_LAST; code--) {
        const char *s = rmp_strerror(code);
        IS(s && *s, "rmp_strerror(%d) is empty", code);
        seen[-code] = s;
        for (int k = 0; s && k < -code; k++)
            IS(strcmp(seen[k], s) != 0, "rmp_strerror(%d) and (%d) are both \"%s\"", -k, code,
               s);
    }
    IS(rmp_strerror(12345) != NULL && rmp_strerror(-12345) != NULL,
       "rmp_strerror of an unknown code is NULL");
}

static void after_finalize(void)
{
    int flag = -1, x = 0;
    rmp_comm_t c;
    RC(RMP_SUCCESS, rmp_finalized(&flag));
    IS(flag == 1, "rmp_finalized after finalize: flag %d", flag);
    RC(RMP_SUCCESS, rmp_initialized(&flag));
    IS(flag == 0, "rmp_initialized after finalize: flag %d", flag);
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_rank(RMP_COMM_WORLD, &x));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_send(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_recv(&x, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, NULL));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_barrier(RMP_COMM_WORLD));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_dup(RMP_COMM_WORLD, &c));
    RC(RMP_ERR_NOT_INITIALIZED, rmp_finalize());
    RC(RMP_ERR_NOT_INITIALIZED, rmp_init(NULL, NULL));
}

int main(int argc, char **argv)
{
    phase("before rmp_init", 10);
    before_init();
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    phase("init twice", 10);
    init_twice(&argc, &argv);
    phase("communicator arguments", 20);
    communicators();
    phase("point-to-point arguments", 20);
    point_to_point();
    phase("request arguments", 20);
    requests();
    phase("datatype arguments", 20);
    datatypes();
    phase("collective arguments", 20);
    collectives();
    strerror_all();

    phase("failure count", 20);
    long mine = prog_failures, all = 0;
    CHECK(rmp_allreduce(&mine, &all, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    after_finalize();
    if (rank == 0 && all == 0 && prog_failures == 0) {
        printf("api: OK n=%d\n", n);
        printf("api: %ld checks\n", checks);
    }
    return prog_exit();
}
