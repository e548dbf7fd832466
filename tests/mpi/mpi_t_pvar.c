/* mpi_t_pvar.c — MPI_T's performance variables count exactly: 10 eager messages of 8 bytes
 * to a peer are +10 messages and +80 bytes at both ends (to itself at n = 1), a synchronous
 * send is a rendezvous, 5 messages that wait unreceived make the unexpected queue 5 long and
 * its high-water mark at least 5 (a handle's mark starting at the level at its start or
 * reset); a handle counts only while started, reset and write set its count; levels cannot be
 * started or written; every invalid session and handle gets its
 * MPI_T_ERR_*. The counters are the process's, whatever the communicator: ranks beyond 2 wait
 * in a receive meanwhile, so that no message of theirs reaches ranks 0 and 1 while they count.
 * With the argument "threads": MPI_THREAD_MULTIPLE, and a second thread reads every pvar
 * through a session of its own all along (a counter never goes back), changing no count. */
#include <pthread.h>
#include <stdatomic.h>

#include "mpicheck.h"

#define EXPECT_RC(call, want) EXPECT_INT(call, want)

static int rank, size;

static int pvar(const char *name, int cls)
{
    int i = -1;
    CHECK(MPI_T_pvar_get_index(name, cls, &i));
    return i;
}

static MPI_T_pvar_handle handle(MPI_T_pvar_session s, const char *name, int cls)
{
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    int count = 0;
    CHECK(MPI_T_pvar_handle_alloc(s, pvar(name, cls), NULL, &h, &count));
    EXPECT_INT(count, 1);
    return h;
}

static unsigned long long rd(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    unsigned long long v = 0;
    CHECK(MPI_T_pvar_read(s, h, &v));
    return v;
}

/* The sums over the three transports of one direction: handles for msgs and bytes. */
typedef struct {
    MPI_T_pvar_handle msgs[3], bytes[3];
} dir_t;

static dir_t dir_handles(MPI_T_pvar_session s, const char *dir)
{
    static const char *const tp[] = {"self", "shm", "verbs"};
    dir_t d;
    char n[64];
    for (int t = 0; t < 3; t++) {
        snprintf(n, sizeof n, "%s_msgs_%s", tp[t], dir);
        d.msgs[t] = handle(s, n, MPI_T_PVAR_CLASS_COUNTER);
        snprintf(n, sizeof n, "%s_bytes_%s", tp[t], dir);
        d.bytes[t] = handle(s, n, MPI_T_PVAR_CLASS_COUNTER);
    }
    return d;
}

static void dir_read(MPI_T_pvar_session s, const dir_t *d, unsigned long long *msgs,
                     unsigned long long *bytes)
{
    *msgs = *bytes = 0;
    for (int t = 0; t < 3; t++) {
        *msgs += rd(s, d->msgs[t]);
        *bytes += rd(s, d->bytes[t]);
    }
}

/* Every pvar: a name unique in its class, found again; counters startable, levels not. */
static void test_every_pvar(void)
{
    int n;
    CHECK(MPI_T_pvar_get_num(&n));
    if (n < 20)
        FAIL("only %d pvars", n);
    static char names[64][64];
    for (int i = 0; i < n && i < 64; i++) {
        char name[64], desc[256];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, atomic, back;
        MPI_Datatype dt;
        MPI_T_enum et;
        CHECK(MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro,
                                  &cont, &atomic));
        snprintf(names[i], sizeof names[i], "%s", name);
        for (int j = 0; j < i; j++)
            if (!strcmp(names[j], name))
                FAIL("pvars %d and %d are both %s", j, i, name);
        CHECK(MPI_T_pvar_get_index(name, cls, &back));
        EXPECT_INT(back, i);
        int other = cls == MPI_T_PVAR_CLASS_COUNTER ? MPI_T_PVAR_CLASS_LEVEL
                                                    : MPI_T_PVAR_CLASS_COUNTER;
        EXPECT_RC(MPI_T_pvar_get_index(name, other, &back), MPI_T_ERR_INVALID_NAME);
        EXPECT_INT(dt, MPI_UNSIGNED_LONG_LONG);
        EXPECT_INT(bind, strncmp(name, "comm_", 5) ? MPI_T_BIND_NO_OBJECT : MPI_T_BIND_MPI_COMM);
        EXPECT_INT(et, MPI_T_ENUM_NULL);
        int counts = cls != MPI_T_PVAR_CLASS_LEVEL; /* per handle: all but levels */
        if (counts == (cont != 0) || counts == (ro != 0))
            FAIL("%s: class %d, continuous %d, readonly %d", name, cls, cont, ro);
    }
}

/* 10 eager messages of 8 bytes from rank 0 to rank 1 (to itself at n = 1): exactly +10 and
 * +80 sent and received, all eager. The receiver starts counting before it lets the sender
 * go, so that no message of the ten can arrive uncounted. */
static void test_exchange(MPI_T_pvar_session s)
{
    int peer = size > 1 ? 1 : 0;
    if (rank > 1)
        return;
    dir_t sent = dir_handles(s, "sent"), recvd = dir_handles(s, "recvd");
    MPI_T_pvar_handle eager = handle(s, "eager_sent", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle rndv = handle(s, "rndv_sent", MPI_T_PVAR_CLASS_COUNTER);
    long long data[10];
    MPI_Request rq[10];
    if (rank == 1)
        CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    if (size > 1 && rank == 1)
        CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, 5, MPI_COMM_WORLD)); /* go */
    if (size > 1 && rank == 0)
        CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (rank == 0) {
        CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
        for (int i = 0; i < 10; i++) {
            data[i] = i;
            CHECK(MPI_Isend(&data[i], 1, MPI_LONG_LONG, peer, 6, MPI_COMM_WORLD, &rq[i]));
        }
        if (size > 1)
            CHECK(MPI_Waitall(10, rq, MPI_STATUSES_IGNORE));
    }
    if (rank == peer) {
        for (int i = 0; i < 10; i++) {
            long long x = -1;
            CHECK(MPI_Recv(&x, 1, MPI_LONG_LONG, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            EXPECT_INT(x, i);
        }
        if (size == 1)
            CHECK(MPI_Waitall(10, rq, MPI_STATUSES_IGNORE));
    }
    CHECK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    unsigned long long m, b;
    dir_read(s, &sent, &m, &b);
    EXPECT_INT(m, rank == 0 ? 10 : 1); /* rank 1: the go */
    EXPECT_INT(b, rank == 0 ? 80 : 0);
    EXPECT_INT(rd(s, eager), rank == 0 ? 10 : 1);
    EXPECT_INT(rd(s, rndv), 0);
    dir_read(s, &recvd, &m, &b);
    EXPECT_INT(m, rank == peer ? 10 : 0);
    EXPECT_INT(b, rank == peer ? 80 : 0);
    /* stopped: what follows is not counted (rank 0 sends once rank 1 stopped too) */
    if (size > 1 && rank == 1)
        CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, 5, MPI_COMM_WORLD));
    if (size > 1 && rank == 0)
        CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (rank == 0) {
        CHECK(MPI_Isend(data, 1, MPI_LONG_LONG, peer, 7, MPI_COMM_WORLD, &rq[0]));
        if (peer == 0)
            CHECK(MPI_Recv(data, 1, MPI_LONG_LONG, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
    } else
        CHECK(MPI_Recv(data, 1, MPI_LONG_LONG, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    dir_read(s, &sent, &m, &b);
    EXPECT_INT(m, rank == 0 ? 10 : 1);
    /* a synchronous send goes by rendezvous, whatever its size */
    CHECK(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    CHECK(MPI_T_pvar_start(s, rndv));
    if (rank == 0 && peer == 1)
        CHECK(MPI_Ssend(data, 1, MPI_LONG_LONG, 1, 8, MPI_COMM_WORLD));
    if (rank == 1)
        CHECK(MPI_Recv(data, 1, MPI_LONG_LONG, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_T_pvar_stop(s, rndv));
    EXPECT_INT(rd(s, rndv), rank == 0 && peer == 1 ? 1 : 0);
    EXPECT_INT(rd(s, eager), 0); /* reset, and not started since */
}

/* 5 messages wait unreceived: the queue is 5 long, its high-water mark at least 5; then 0. */
static void test_unexpected(MPI_T_pvar_session s)
{
    int peer = size > 1 ? 1 : 0;
    if (rank > 1)
        return;
    MPI_T_pvar_handle len = handle(s, "unexpected_queue", MPI_T_PVAR_CLASS_LEVEL);
    MPI_T_pvar_handle hwm = handle(s, "unexpected_queue_hwm", MPI_T_PVAR_CLASS_HIGHWATERMARK);
    MPI_T_pvar_handle unexp = handle(s, "unexpected_msgs", MPI_T_PVAR_CLASS_COUNTER);
    if (rank == peer) {
        CHECK(MPI_T_pvar_start(s, unexp));
        CHECK(MPI_T_pvar_start(s, hwm));
    }
    if (size > 1 && rank == 1) /* counting: go */
        CHECK(MPI_Send(NULL, 0, MPI_BYTE, 0, 19, MPI_COMM_WORLD));
    if (size > 1 && rank == 0)
        CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 1, 19, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    int x[6] = {0, 1, 2, 3, 4, 5};
    MPI_Request rq[6];
    if (rank == 0)
        for (int i = 0; i < 6; i++) /* 5 with tag 20, then the one received first */
            CHECK(MPI_Isend(&x[i], 1, MPI_INT, peer, i < 5 ? 20 : 21, MPI_COMM_WORLD, &rq[i]));
    if (rank == peer) {
        int y;
        CHECK(MPI_Recv(&y, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        EXPECT_INT(y, 5);
        EXPECT_INT(rd(s, len), 5); /* in order: the five came first and wait */
        if (rd(s, hwm) < 5)
            FAIL("unexpected_queue_hwm %llu < 5", rd(s, hwm));
        if (rd(s, unexp) < 5)
            FAIL("unexpected_msgs %llu < 5", rd(s, unexp));
        for (int i = 0; i < 5; i++) {
            CHECK(MPI_Recv(&y, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            EXPECT_INT(y, i);
        }
        EXPECT_INT(rd(s, len), 0);
        /* the handle's mark: kept by the drain, back to the level (0) by a reset; a handle
         * made now starts at the level, whatever the queue's longest since MPI_Init */
        if (rd(s, hwm) < 5)
            FAIL("unexpected_queue_hwm after the drain: %llu < 5", rd(s, hwm));
        MPI_T_pvar_handle late = handle(s, "unexpected_queue_hwm",
                                        MPI_T_PVAR_CLASS_HIGHWATERMARK);
        EXPECT_INT(rd(s, late), 0);
        CHECK(MPI_T_pvar_handle_free(s, &late));
        CHECK(MPI_T_pvar_reset(s, hwm));
        EXPECT_INT(rd(s, hwm), 0);
        unsigned long long w = 7;
        CHECK(MPI_T_pvar_write(s, hwm, &w));
        CHECK(MPI_T_pvar_stop(s, hwm));
        EXPECT_INT(rd(s, hwm), 7);
    }
    if (rank == 0)
        CHECK(MPI_Waitall(6, rq, MPI_STATUSES_IGNORE));
    /* levels are continuous and read-only */
    unsigned long long v = 3;
    EXPECT_RC(MPI_T_pvar_start(s, len), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT_RC(MPI_T_pvar_stop(s, len), MPI_T_ERR_PVAR_NO_STARTSTOP);
    EXPECT_RC(MPI_T_pvar_write(s, len, &v), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT_RC(MPI_T_pvar_reset(s, len), MPI_T_ERR_PVAR_NO_WRITE);
    EXPECT_RC(MPI_T_pvar_readreset(s, len, &v), MPI_T_ERR_PVAR_NO_WRITE);
    /* a counter's handle: write and readreset set its count */
    v = 1000;
    CHECK(MPI_T_pvar_stop(s, unexp)); /* (rank 0: a stop before any start does nothing) */
    CHECK(MPI_T_pvar_write(s, unexp, &v));
    CHECK(MPI_T_pvar_readreset(s, unexp, &v));
    EXPECT_INT(v, 1000);
    EXPECT_INT(rd(s, unexp), 0);
}

/* Bound to a communicator: 3 messages of 4 ints on a dup of MPI_COMM_WORLD are +3 and +48
 * there, +0 on MPI_COMM_WORLD; the handle of a freed communicator is invalid. */
static void test_per_comm(MPI_T_pvar_session s)
{
    MPI_Comm dup, world = MPI_COMM_WORLD;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    int msgs = pvar("comm_msgs_sent", MPI_T_PVAR_CLASS_COUNTER);
    int bytes = pvar("comm_bytes_sent", MPI_T_PVAR_CLASS_COUNTER);
    MPI_T_pvar_handle hm, hb, hw, bad;
    int count;
    CHECK(MPI_T_pvar_handle_alloc(s, msgs, &dup, &hm, &count));
    CHECK(MPI_T_pvar_handle_alloc(s, bytes, &dup, &hb, &count));
    CHECK(MPI_T_pvar_handle_alloc(s, msgs, &world, &hw, &count));
    EXPECT_RC(MPI_T_pvar_handle_alloc(s, msgs, NULL, &bad, &count), MPI_T_ERR_INVALID_HANDLE);
    MPI_Comm null = MPI_COMM_NULL;
    EXPECT_RC(MPI_T_pvar_handle_alloc(s, msgs, &null, &bad, &count), MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    int peer = (rank + 1) % size, from = (rank + size - 1) % size, buf[3][4] = {{0}}, in[4];
    MPI_Request rq[3];
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Isend(buf[i], 4, MPI_INT, peer, i, dup, &rq[i]));
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Recv(in, 4, MPI_INT, from, i, dup, MPI_STATUS_IGNORE));
    CHECK(MPI_Waitall(3, rq, MPI_STATUSES_IGNORE));
    CHECK(MPI_T_pvar_stop(s, MPI_T_PVAR_ALL_HANDLES));
    EXPECT_INT(rd(s, hm), 3);
    EXPECT_INT(rd(s, hb), 48);
    EXPECT_INT(rd(s, hw), 0);
    CHECK(MPI_Comm_free(&dup));
    unsigned long long v;
    EXPECT_RC(MPI_T_pvar_read(s, hm, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK(MPI_T_pvar_handle_free(s, &hm));
    CHECK(MPI_T_pvar_handle_free(s, &hb));
    CHECK(MPI_T_pvar_handle_free(s, &hw));
}

/* Each invalid session and handle. */
static void test_invalid(void)
{
    MPI_T_pvar_session s1, s2, gone;
    CHECK(MPI_T_pvar_session_create(&s1));
    CHECK(MPI_T_pvar_session_create(&s2));
    CHECK(MPI_T_pvar_session_create(&gone));
    CHECK(MPI_T_pvar_session_free(&gone));
    EXPECT_INT(gone, MPI_T_PVAR_SESSION_NULL);
    int n, count;
    unsigned long long v;
    CHECK(MPI_T_pvar_get_num(&n));
    MPI_T_pvar_handle h, other = handle(s2, "eager_sent", MPI_T_PVAR_CLASS_COUNTER);
    EXPECT_RC(MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                  NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_pvar_get_index("no_such", MPI_T_PVAR_CLASS_COUNTER, &n),
              MPI_T_ERR_INVALID_NAME);
    EXPECT_RC(MPI_T_pvar_handle_alloc(s1, -1, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_pvar_handle_alloc(12345, 0, NULL, &h, &count), MPI_T_ERR_INVALID_SESSION);
    EXPECT_RC(MPI_T_pvar_read(s1, other, &v), MPI_T_ERR_INVALID_HANDLE); /* s2's */
    EXPECT_RC(MPI_T_pvar_read(s1, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_pvar_write(s2, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_pvar_start(s1, 9999), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_pvar_stop(12345, other), MPI_T_ERR_INVALID_SESSION);
    EXPECT_RC(MPI_T_pvar_reset(s1, MPI_T_PVAR_HANDLE_NULL), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_pvar_handle_free(s1, &other), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_pvar_session_free(&gone), MPI_T_ERR_INVALID_SESSION);
    /* freeing the session frees its handles */
    MPI_T_pvar_session keep = s2;
    CHECK(MPI_T_pvar_session_free(&s2));
    EXPECT_RC(MPI_T_pvar_read(keep, other, &v), MPI_T_ERR_INVALID_SESSION);
    h = handle(s1, "wait_time", MPI_T_PVAR_CLASS_TIMER);
    CHECK(MPI_T_pvar_handle_free(s1, &h));
    EXPECT_INT(h, MPI_T_PVAR_HANDLE_NULL);
    CHECK(MPI_T_pvar_session_free(&s1));
}

static atomic_int reader_stop;

/* The second thread: every process-wide pvar read again and again while the main thread
 * communicates; a started counter never decreases. */
static void *reader(void *arg)
{
    MPI_T_pvar_session s;
    MPI_T_pvar_handle h[64];
    unsigned long long prev[64] = {0}, v;
    int n, provided, bind, cont[64], count;
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    CHECK(MPI_T_pvar_get_num(&n));
    n = n < 64 ? n : 64;
    CHECK(MPI_T_pvar_session_create(&s));
    for (int i = 0; i < n; i++) {
        CHECK(MPI_T_pvar_get_info(i, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, &bind,
                                  NULL, &cont[i], NULL));
        h[i] = MPI_T_PVAR_HANDLE_NULL;
        if (bind == MPI_T_BIND_NO_OBJECT)
            CHECK(MPI_T_pvar_handle_alloc(s, i, NULL, &h[i], &count));
    }
    CHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    for (long rounds = 0; !atomic_load(&reader_stop) || rounds < 10; rounds++)
        for (int i = 0; i < n; i++) {
            if (h[i] == MPI_T_PVAR_HANDLE_NULL)
                continue;
            CHECK(MPI_T_pvar_read(s, h[i], &v));
            if (!cont[i] && v < prev[i])
                FAIL("pvar %d went back from %llu to %llu", i, prev[i], v);
            prev[i] = v;
        }
    CHECK(MPI_T_pvar_session_free(&s));
    CHECK(MPI_T_finalize());
    return arg;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 && !strcmp(argv[1], "threads"), provided;
    mc_watchdog(60);
    MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank = mc_rank;
    MPI_T_pvar_session s;
    pthread_t tid;
    CHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    if (threads && pthread_create(&tid, NULL, reader, NULL))
        FAIL("pthread_create failed");
    test_every_pvar();
    CHECK(MPI_T_pvar_session_create(&s));
    MPI_Barrier(MPI_COMM_WORLD); /* whoever leaves it has received all of its messages */
    test_exchange(s);
    test_unexpected(s);
    for (int r = 2; r < size && rank == 0; r++)
        CHECK(MPI_Send(NULL, 0, MPI_BYTE, r, 99, MPI_COMM_WORLD)); /* done counting */
    if (rank > 1)
        CHECK(MPI_Recv(NULL, 0, MPI_BYTE, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    test_per_comm(s);
    atomic_store(&reader_stop, 1);
    if (threads)
        pthread_join(tid, NULL);
    CHECK(MPI_T_pvar_session_free(&s));
    test_invalid();
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_T_finalize());
    MPI_Finalize();
    return mc_done("mpi_t_pvar");
}
