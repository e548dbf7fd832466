/* misuse.c — hostile arguments that once did damage: rmp_sendrecv refused for a bad send half
 * must leave a waiting message in the queue; counts whose byte size wraps (a 2^62-byte type,
 * count 4) must give RMP_ERR_COUNT with nothing sent; wild, freed and stale request handles
 * (a copy whose slot now belongs to a new request) must give RMP_ERR_REQUEST and leave the new
 * owner's request working. Rank 0 prints "misuse: OK n=N" (and "misuse: K checks"). */
#include <limits.h>

#include "progs.h"

static int rank, n, next, prev;
static long checks; /* counted by progs.h's RC and IS */

/* huge committed types (no memory behind them: only their sizes are used) */
static rmp_datatype_t t32;  /* 2^32 bytes, contiguous */
static rmp_datatype_t t62;  /* 2^62 bytes, contiguous */
static rmp_datatype_t vec;  /* 2 blocks of 2^61 bytes, 2^62 apart: size 2^62, extent 3*2^61 */
static rmp_datatype_t gap;  /* 2 blocks of 2^32 bytes, 2^62 apart: size 2^33, extent ~2^62 */
static rmp_datatype_t uncommitted;

static void make_types(void)
{
    rmp_datatype_t t61;
    size_t sz, ext;
    MUST(rmp_type_contiguous(1 << 30, RMP_INT32, &t32));
    MUST(rmp_type_contiguous(1 << 30, t32, &t62));
    MUST(rmp_type_contiguous(1 << 29, t32, &t61));
    MUST(rmp_type_vector(2, 1, 2, t61, &vec));
    MUST(rmp_type_vector(2, 1, 1 << 30, t32, &gap));
    MUST(rmp_type_vector(2, 1, 2, RMP_INT, &uncommitted));
    MUST(rmp_type_commit(&t32));
    MUST(rmp_type_commit(&t62));
    MUST(rmp_type_commit(&vec));
    MUST(rmp_type_commit(&gap));
    RC(RMP_SUCCESS, rmp_type_size(t62, &sz));
    IS(sz == (size_t)1 << 62, "t62 size %zu", sz);
    RC(RMP_SUCCESS, rmp_type_size(vec, &sz));
    RC(RMP_SUCCESS, rmp_type_extent(vec, &ext));
    IS(sz == (size_t)1 << 62 && ext == (size_t)3 << 61, "vec size %zu extent %zu", sz, ext);
    RC(RMP_SUCCESS, rmp_type_size(gap, &sz));
    RC(RMP_SUCCESS, rmp_type_extent(gap, &ext));
    IS(sz == (size_t)1 << 33 && ext == (((size_t)1 << 30) + 1) << 32, "gap size %zu extent %zu",
       sz, ext);
}

/* ---- sendrecv: a refused call must not consume the waiting message ---- */

/* Send v to myself and wait until it sits in the unexpected queue (iprobe sees it), so a
 * receive posted now would match it at once. */
static void park_message(int v, int tag)
{
    int flag = 0;
    rmp_status_t st;
    CHECK(rmp_send(&v, 1, RMP_INT, rank, tag, RMP_COMM_WORLD));
    while (!flag)
        MUST(rmp_iprobe(rank, tag, RMP_COMM_WORLD, &flag, &st));
}

typedef struct bad_send {
    const char *what;
    const void *buf;
    int count;
    rmp_datatype_t type;
    int dest, tag, want;
} bad_send_t;

static void sendrecv_keeps_waiting_message(void)
{
    int x = 5;
    const bad_send_t bad[] = {
        {"dest = size", &x, 1, RMP_INT, n, 1, RMP_ERR_RANK},
        {"dest = -3", &x, 1, RMP_INT, -3, 1, RMP_ERR_RANK},
        {"dest = RMP_ANY_SOURCE", &x, 1, RMP_INT, RMP_ANY_SOURCE, 1, RMP_ERR_RANK},
        {"tag = -5", &x, 1, RMP_INT, 0, -5, RMP_ERR_TAG},
        {"tag = RMP_ANY_TAG", &x, 1, RMP_INT, 0, RMP_ANY_TAG, RMP_ERR_TAG},
        {"tag = RMP_TAG_UB + 1", &x, 1, RMP_INT, 0, RMP_TAG_UB + 1, RMP_ERR_TAG},
        {"count = -1", &x, -1, RMP_INT, 0, 1, RMP_ERR_COUNT},
        {"type = 999", &x, 1, 999, 0, 1, RMP_ERR_TYPE},
        {"type = RMP_DATATYPE_NULL", &x, 1, RMP_DATATYPE_NULL, 0, 1, RMP_ERR_TYPE},
        {"uncommitted type", &x, 1, uncommitted, 0, 1, RMP_ERR_TYPE},
        {"NULL buffer", NULL, 1, RMP_INT, 0, 1, RMP_ERR_BUFFER},
        {"4 x 2^62 bytes", &x, 4, t62, 0, 1, RMP_ERR_COUNT},
        {"4 x vector of 2^62 bytes", &x, 4, vec, 0, 1, RMP_ERR_COUNT},
    };
    const int tag = 77;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const bad_send_t *b = &bad[k];
        int v = 1000 + (int)k, got = -1, flag = 0;
        rmp_status_t st;
        park_message(v, tag);
        RC(b->want, rmp_sendrecv(b->buf, b->count, b->type, b->dest, b->tag, &got, 1, RMP_INT,
                                 rank, tag, RMP_COMM_WORLD, &st));
        IS(got == -1, "sendrecv with %s wrote %d into the receive buffer", b->what, got);
        RC(RMP_SUCCESS, rmp_iprobe(rank, tag, RMP_COMM_WORLD, &flag, &st));
        IS(flag == 1, "sendrecv with %s consumed the waiting message", b->what);
        RC(RMP_SUCCESS, rmp_recv(&got, 1, RMP_INT, rank, tag, RMP_COMM_WORLD, &st));
        IS(got == v && st.count == sizeof(int), "after sendrecv with %s: got %d (%zu bytes), "
           "expected %d", b->what, got, st.count, v);
    }
    /* a bad receive half, too */
    int v = 99, got = -1, flag = 0;
    rmp_status_t st;
    park_message(v, tag);
    RC(RMP_ERR_COUNT, rmp_sendrecv(&x, 1, RMP_INT, rank, tag + 1, &got, 4, t62, rank, tag,
                                   RMP_COMM_WORLD, &st));
    RC(RMP_SUCCESS, rmp_iprobe(rank, tag + 1, RMP_COMM_WORLD, &flag, &st));
    IS(flag == 0, "a refused sendrecv sent its send half");
    RC(RMP_SUCCESS, rmp_recv(&got, 1, RMP_INT, rank, tag, RMP_COMM_WORLD, &st));
    IS(got == 99, "after a bad receive half: got %d", got);
}

/* ---- count * size must not wrap ---- */

typedef struct huge {
    const char *what;
    rmp_datatype_t *type;
    int count;
} huge_t;

static void huge_counts(void)
{
    char small[64] = {0}, out[64] = {0};
    const huge_t cases[] = {
        {"4 x 2^62 bytes (wraps to 0)", &t62, 4},
        {"2 x 2^62 bytes (2^63)", &t62, 2},
        {"INT_MAX x 2^62 bytes", &t62, INT_MAX},
        {"4 x vector of 2^62 bytes", &vec, 4},
        {"4 x vector spanning 2^62 bytes (extent wraps)", &gap, 4},
        {"3 x 2^62 bytes", &t62, 3},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        rmp_datatype_t t = *cases[k].type;
        int c = cases[k].count;
        rmp_request_t req = RMP_REQUEST_NULL;
        rmp_status_t st;
        RC(RMP_ERR_COUNT, rmp_isend(small, c, t, next, 3, RMP_COMM_WORLD, &req));
        IS(req == RMP_REQUEST_NULL, "refused isend (%s) set the handle", cases[k].what);
        RC(RMP_ERR_COUNT, rmp_irecv(small, c, t, prev, 3, RMP_COMM_WORLD, &req));
        IS(req == RMP_REQUEST_NULL, "refused irecv (%s) set the handle", cases[k].what);
        RC(RMP_ERR_COUNT, rmp_send(small, c, t, next, 3, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_recv(small, c, t, prev, 3, RMP_COMM_WORLD, &st));
        RC(RMP_ERR_COUNT, rmp_send(small, c, t, RMP_PROC_NULL, 3, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_sendrecv(small, c, t, next, 3, out, 1, RMP_INT, prev, 3,
                                       RMP_COMM_WORLD, &st));
        RC(RMP_ERR_COUNT, rmp_bcast(small, c, t, 0, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_ibcast(small, c, t, 0, RMP_COMM_WORLD, &req));
        IS(req == RMP_REQUEST_NULL, "refused ibcast (%s) set the handle", cases[k].what);
        RC(RMP_ERR_COUNT, rmp_gather(small, c, t, out, c, t, 0, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_scatter(small, c, t, out, c, t, 0, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_allgather(small, c, t, out, c, t, RMP_COMM_WORLD));
        RC(RMP_ERR_COUNT, rmp_alltoall(small, c, t, out, c, t, RMP_COMM_WORLD));
    }
    /* one element of a type the gather's receive side cannot hold size times */
    if (n > 1)
        RC(RMP_ERR_COUNT, rmp_allgather(small, 1, t62, out, 1, t62, RMP_COMM_WORLD));
    /* constructors refuse what they cannot describe */
    rmp_datatype_t t = RMP_DATATYPE_NULL;
    RC(RMP_ERR_COUNT, rmp_type_contiguous(2, t62, &t));
    RC(RMP_ERR_COUNT, rmp_type_contiguous(INT_MAX, t62, &t));
    RC(RMP_ERR_COUNT, rmp_type_vector(3, 1, 1, t62, &t));
    RC(RMP_ERR_COUNT, rmp_type_vector(2, 1, INT_MAX, t32, &t));
    RC(RMP_ERR_COUNT, rmp_type_vector(INT_MAX, INT_MAX, INT_MAX, t32, &t));
    IS(t == RMP_DATATYPE_NULL, "a refused constructor set the handle to %d", t);
    /* one block: the stride is meaningless and must not make the type unusable */
    RC(RMP_SUCCESS, rmp_type_vector(1, 1, INT_MAX, t62, &t));
    size_t ext = 0;
    RC(RMP_SUCCESS, rmp_type_extent(t, &ext));
    IS(ext == (size_t)1 << 62, "vector(1, 1, INT_MAX, 2^62 bytes): extent %zu", ext);
    RC(RMP_SUCCESS, rmp_type_free(&t));

    /* nothing was sent: the next message each rank gets is the one sent now */
    int v = 100 + rank, got = -1, flag = 1;
    rmp_status_t st;
    CHECK(rmp_sendrecv(&v, 1, RMP_INT, next, 9, &got, 1, RMP_INT, prev, RMP_ANY_TAG,
                       RMP_COMM_WORLD, &st));
    IS(got == 100 + prev && st.tag == 9 && st.count == sizeof(int),
       "after the refused calls: got %d tag %d (%zu bytes) from %d, expected %d tag 9", got,
       st.tag, st.count, st.source, 100 + prev);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &flag, &st));
    IS(flag == 0, "a message from rank %d tag %d (%zu bytes) arrived from a refused call",
       st.source, st.tag, st.count);
    /* and the collectives still agree (no rank took a collective turn the others did not) */
    long mine = rank, sum = -1;
    CHECK(rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    IS(sum == (long)n * (n - 1) / 2, "allreduce after refused collectives: %ld", sum);
}

/* ---- request handles ---- */

/* Every completion call refuses h with RMP_ERR_REQUEST and leaves it (and live) as they are. */
static void refused_everywhere(rmp_request_t h, rmp_request_t live, const char *what)
{
    rmp_request_t copy = h, arr[2] = {live, h};
    rmp_status_t st, sts[2];
    int flag = -1, idx = -5;
    RC(RMP_ERR_REQUEST, rmp_wait(&copy, &st));
    RC(RMP_ERR_REQUEST, rmp_test(&copy, &flag, &st));
    RC(RMP_ERR_REQUEST, rmp_cancel(&copy));
    IS(copy == h && flag == -1, "%s: a refused call changed the handle or the flag", what);
    RC(RMP_ERR_REQUEST, rmp_waitall(2, arr, sts));
    RC(RMP_ERR_REQUEST, rmp_testall(2, arr, &flag, sts));
    RC(RMP_ERR_REQUEST, rmp_waitany(2, arr, &idx, &st));
    IS(arr[0] == live && arr[1] == h && idx == -5 && flag == -1,
       "%s: a refused array call changed its arguments", what);
}

static void wild_handles(void)
{
    int on_stack;
    unsigned char *junk = malloc(512);
    if (!junk) {
        FAIL("out of memory");
        return;
    }
    memset(junk, 0xff, 512);
    const rmp_request_t wild[] = {
        (rmp_request_t)(uintptr_t)0x10, (rmp_request_t)(uintptr_t)0xdeadbeef,
        (rmp_request_t)(UINTPTR_MAX - 7), (rmp_request_t)UINTPTR_MAX,
        (rmp_request_t)(void *)&on_stack, (rmp_request_t)(void *)junk,
    };
    for (size_t i = 0; i < sizeof wild / sizeof wild[0]; i++)
        refused_everywhere(wild[i], RMP_REQUEST_NULL, "a wild handle");
    free(junk);
}

static void freed_and_stale_handles(void)
{
    rmp_status_t st;
    int v = 7, got = -1;

    /* a freed handle (the copy kept after rmp_wait reset the original) */
    rmp_request_t h, stale;
    CHECK(rmp_isend(&v, 1, RMP_INT, rank, 20, RMP_COMM_WORLD, &h));
    stale = h;
    RC(RMP_SUCCESS, rmp_wait(&h, &st));
    refused_everywhere(stale, RMP_REQUEST_NULL, "a freed send handle");
    CHECK(rmp_recv(&got, 1, RMP_INT, rank, 20, RMP_COMM_WORLD, &st));

    /* stale copy; its slot now holds a receive that has not matched yet */
    rmp_request_t a, b;
    CHECK(rmp_irecv(&got, 1, RMP_INT, rank, 21, RMP_COMM_WORLD, &a));
    stale = a;
    CHECK(rmp_send(&v, 1, RMP_INT, rank, 21, RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_wait(&a, &st));
    int got_b = -1, w = 4242;
    CHECK(rmp_irecv(&got_b, 1, RMP_INT, rank, 22, RMP_COMM_WORLD, &b));
    refused_everywhere(stale, b, "a stale handle (new owner pending)");
    CHECK(rmp_send(&w, 1, RMP_INT, rank, 22, RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_wait(&b, &st));
    IS(b == RMP_REQUEST_NULL && got_b == 4242 && st.tag == 22 && !st.cancelled &&
           st.count == sizeof(int),
       "the new owner's receive: got %d tag %d cancelled %d count %zu", got_b, st.tag,
       st.cancelled, st.count);

    /* stale copy; its slot now holds a send that completed already (it must not be reaped) */
    CHECK(rmp_irecv(&got, 1, RMP_INT, rank, 23, RMP_COMM_WORLD, &a));
    stale = a;
    CHECK(rmp_send(&v, 1, RMP_INT, rank, 23, RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_wait(&a, &st));
    w = 5151;
    CHECK(rmp_isend(&w, 1, RMP_INT, rank, 24, RMP_COMM_WORLD, &b));
    refused_everywhere(stale, b, "a stale handle (new owner done)");
    RC(RMP_SUCCESS, rmp_wait(&b, &st));
    IS(b == RMP_REQUEST_NULL, "the new owner's send handle was not reset");
    got_b = -1;
    CHECK(rmp_recv(&got_b, 1, RMP_INT, rank, 24, RMP_COMM_WORLD, &st));
    IS(got_b == 5151, "the new owner's send delivered %d", got_b);

    /* one request twice in an array: refused before anything completes */
    got_b = -1;
    CHECK(rmp_irecv(&got_b, 1, RMP_INT, rank, 25, RMP_COMM_WORLD, &b));
    rmp_request_t twice[3] = {b, RMP_REQUEST_NULL, b};
    int flag = -1, idx = -5;
    RC(RMP_ERR_REQUEST, rmp_waitall(3, twice, RMP_STATUSES_IGNORE));
    RC(RMP_ERR_REQUEST, rmp_testall(3, twice, &flag, RMP_STATUSES_IGNORE));
    RC(RMP_ERR_REQUEST, rmp_waitany(3, twice, &idx, &st));
    IS(twice[0] == b && twice[2] == b && flag == -1 && idx == -5,
       "a refused array call with a duplicate changed its arguments");
    w = 6161;
    CHECK(rmp_send(&w, 1, RMP_INT, rank, 25, RMP_COMM_WORLD));
    RC(RMP_SUCCESS, rmp_wait(&b, &st));
    IS(got_b == 6161, "the duplicated receive got %d", got_b);

    /* a collective's request, once completed */
    CHECK(rmp_ibarrier(RMP_COMM_WORLD, &h));
    stale = h;
    RC(RMP_SUCCESS, rmp_wait(&h, RMP_STATUS_IGNORE));
    refused_everywhere(stale, RMP_REQUEST_NULL, "a freed collective handle");
}

int main(int argc, char **argv)
{
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    next = (rank + 1) % n;
    prev = (rank + n - 1) % n;
    phase("huge types", 20);
    make_types();
    phase("sendrecv with a bad send half", 20);
    sendrecv_keeps_waiting_message();
    phase("huge counts", 20);
    huge_counts();
    phase("wild handles", 20);
    wild_handles();
    phase("freed and stale handles", 20);
    freed_and_stale_handles();

    phase("failure count", 20);
    long mine = prog_failures, all = 0;
    CHECK(rmp_allreduce(&mine, &all, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    if (rank == 0 && all == 0 && prog_failures == 0) {
        printf("misuse: OK n=%d\n", n);
        printf("misuse: %ld checks\n", checks);
    }
    return prog_exit();
}
