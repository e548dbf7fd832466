/* mpi_t_event.c — MPI_T events carry what happened. Each event type's info and index agree; a
 * restricted callback on rmp_unexpected_msg hears exactly the one message rank 0 sends rank 1
 * before rank 1 receives it (source, tag, bytes, queue length, a timestamp between two reads of
 * the source's clock), and rmp_rndv_start exactly the 1 MiB send (destination, tag, bytes); a
 * MPI_T_CB_REQUIRE_NONE callback runs outside the runtime and may call MPI; freeing calls the
 * free callback and stops the callbacks. "threads": rank 1's four threads each receive
 * unexpected messages while the callback counts them (n = 2, run under TSan). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "mpicheck.h"

#define BIG (1 << 20)
#define NTHR 4
/* tags no collective uses (the callbacks hear the collectives' own messages too) */
enum { T_UNEXP = 4007, T_POSTED, T_BIG, T_NONE };
#define PER_THR 50

static int n, me;
static int ev_unexp, ev_rndv;
static MPI_Count t_before;

typedef struct heard {
    atomic_int count;
    long long data[5];
    MPI_Count ts;
    int safety, called_mpi;
} heard_t;
static heard_t unexp_heard, rndv_heard, none_heard;
static atomic_int free_called;

/* Records the instance if its tag (element 1) is the one wanted (other traffic: the
 * collectives' own messages, on other contexts, are not counted). */
static void record(MPI_T_event_instance inst, heard_t *h, long long tag, MPI_T_cb_safety s)
{
    long long d[5] = {0}, elem1;
    if (MPI_T_event_copy(inst, d) != MPI_SUCCESS || MPI_T_event_read(inst, 1, &elem1))
        return;
    if (d[1] != tag || elem1 != tag)
        return;
    if (atomic_fetch_add(&h->count, 1) == 0) {
        memcpy(h->data, d, sizeof d);
        MPI_T_event_get_timestamp(inst, &h->ts);
        h->safety = s;
    }
}

static void on_unexp(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety s,
                     void *ud)
{
    record(inst, &unexp_heard, T_UNEXP, s);
}

static void on_rndv(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety s,
                    void *ud)
{
    record(inst, &rndv_heard, T_BIG, s);
}

/* A callback of no requirement: it may call MPI (the runtime's lock is not held). */
static void on_unexp_none(MPI_T_event_instance inst, MPI_T_event_registration reg,
                          MPI_T_cb_safety s, void *ud)
{
    int r = -1;
    if (MPI_Comm_rank(MPI_COMM_WORLD, &r) == MPI_SUCCESS && r == me)
        none_heard.called_mpi = 1;
    record(inst, &none_heard, T_NONE, s);
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety s, void *ud)
{
    if (ud == &free_called)
        atomic_fetch_add(&free_called, 1);
}

static void test_info(void)
{
    int nev;
    CHECK(MPI_T_event_get_num(&nev));
    for (int i = 0; i < nev; i++) {
        char name[64], desc[256];
        int nl = sizeof name, dl = sizeof desc, verb, nel = 5, bind, idx;
        MPI_Datatype types[5];
        MPI_Aint disp[5];
        MPI_T_enum en;
        MPI_Info info;
        CHECK(MPI_T_event_get_info(i, name, &nl, &verb, types, disp, &nel, &en, &info, desc, &dl,
                                   &bind));
        CHECK(MPI_Info_free(&info));
        if (nel < 1 || nel > 5 || bind != MPI_T_BIND_NO_OBJECT || en != MPI_T_ENUM_NULL)
            FAIL("event %d (%s): %d elements, bind %d", i, name, nel, bind);
        for (int k = 0; k < nel && k < 5; k++)
            if (types[k] != MPI_LONG_LONG || disp[k] != (MPI_Aint)(k * sizeof(long long)))
                FAIL("event %s element %d: not a long long at %d", name, k, (int)disp[k]);
        CHECK(MPI_T_event_get_index(name, &idx));
        EXPECT_INT(idx, i);
    }
    CHECK(MPI_T_event_get_index("rmp_unexpected_msg", &ev_unexp));
    CHECK(MPI_T_event_get_index("rmp_rndv_start", &ev_rndv));
}

static MPI_T_event_registration alloc_cb(int ev, MPI_T_cb_safety s, MPI_T_event_cb_function *f)
{
    MPI_T_event_registration reg = MPI_T_EVENT_REGISTRATION_NULL;
    CHECK(MPI_T_event_handle_alloc(ev, NULL, MPI_INFO_NULL, &reg));
    CHECK(MPI_T_event_register_callback(reg, s, MPI_INFO_NULL, NULL, f));
    return reg;
}

/* Rank 0 sends T_UNEXP (100 B) then T_POSTED to rank 1, which pre-posted T_POSTED only:
 * T_UNEXP is the one unexpected message; then 1 MiB by rendezvous (T_BIG), and T_NONE heard
 * by a NONE callback. */
static void test_callbacks(void)
{
    MPI_T_event_registration ru = alloc_cb(ev_unexp, MPI_T_CB_REQUIRE_MPI_RESTRICTED, on_unexp);
    MPI_T_event_registration rr = alloc_cb(ev_rndv, MPI_T_CB_REQUIRE_THREAD_SAFE, on_rndv);
    MPI_T_event_registration rn = alloc_cb(ev_unexp, MPI_T_CB_REQUIRE_NONE, on_unexp_none);
    static char small[100], big[BIG];
    MPI_Request rq = MPI_REQUEST_NULL;
    if (me == 1)
        CHECK(MPI_Irecv(small, 1, MPI_BYTE, 0, T_POSTED, MPI_COMM_WORLD, &rq));
    CHECK(MPI_T_source_get_timestamp(0, &t_before));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
        CHECK(MPI_Send(small, 100, MPI_BYTE, 1, T_UNEXP, MPI_COMM_WORLD));
        CHECK(MPI_Send(small, 1, MPI_BYTE, 1, T_POSTED, MPI_COMM_WORLD));
        CHECK(MPI_Send(big, BIG, MPI_BYTE, 1, T_BIG, MPI_COMM_WORLD));
        CHECK(MPI_Send(small, 3, MPI_BYTE, 1, T_NONE, MPI_COMM_WORLD));
    } else if (me == 1) {
        CHECK(MPI_Wait(&rq, MPI_STATUS_IGNORE));
        CHECK(MPI_Recv(small, 100, MPI_BYTE, 0, T_UNEXP, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(MPI_Recv(big, BIG, MPI_BYTE, 0, T_BIG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MPI_Probe(0, T_NONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* queued: heard on leaving */
        CHECK(MPI_Recv(small, 3, MPI_BYTE, 0, T_NONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    MPI_Count t_after;
    CHECK(MPI_T_source_get_timestamp(0, &t_after));
    CHECK(MPI_T_event_handle_free(ru, &free_called, on_free));
    CHECK(MPI_T_event_handle_free(rr, NULL, NULL));
    CHECK(MPI_T_event_handle_free(rn, &free_called, on_free));
    /* after the frees: rank 0's next T_UNEXP (test_freed_silent) must not reach a live
     * handle (it did when the barrier came first: rank 1 heard it while leaving it) */
    MPI_Barrier(MPI_COMM_WORLD);
    EXPECT_INT(atomic_load(&free_called), 2);
    EXPECT_INT(MPI_T_event_handle_free(ru, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    int unexp = atomic_load(&unexp_heard.count), rndv = atomic_load(&rndv_heard.count);
    EXPECT_INT(unexp, me == 1);
    EXPECT_INT(rndv, me == 0);
    EXPECT_INT(atomic_load(&none_heard.count), me == 1);
    if (me == 1) {
        long long *d = unexp_heard.data;
        if (d[0] != 0 || d[3] != 100 || d[4] != 1)
            FAIL("unexpected_msg: source %lld, bytes %lld, queue %lld (want 0, 100, 1)", d[0],
                 d[3], d[4]);
        EXPECT_INT(unexp_heard.safety, MPI_T_CB_REQUIRE_MPI_RESTRICTED);
        if (unexp_heard.ts < t_before || unexp_heard.ts > t_after)
            FAIL("timestamp %lld outside [%lld, %lld]", (long long)unexp_heard.ts,
                 (long long)t_before, (long long)t_after);
        EXPECT_INT(none_heard.safety, MPI_T_CB_REQUIRE_NONE);
        EXPECT_INT(none_heard.called_mpi, 1);
        EXPECT_INT(none_heard.data[3], 3);
    }
    if (me == 0 && (rndv_heard.data[0] != 1 || rndv_heard.data[3] != BIG))
        FAIL("rndv_start: dest %lld, bytes %lld (want 1, %d)", rndv_heard.data[0],
             rndv_heard.data[3], BIG);
}

/* After MPI_T_event_handle_free no callback: the same traffic is not heard. */
static void test_freed_silent(void)
{
    int before = atomic_load(&unexp_heard.count);
    char b[100];
    if (me == 0)
        CHECK(MPI_Send(b, 100, MPI_BYTE, 1, T_UNEXP, MPI_COMM_WORLD));
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1)
        CHECK(MPI_Recv(b, 100, MPI_BYTE, 0, T_UNEXP, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    EXPECT_INT(atomic_load(&unexp_heard.count), before);
}

static atomic_int thr_heard;
static pthread_barrier_t thr_go; /* the threads receive once tag 4099 is in */
static void on_thr(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety s,
                   void *ud)
{
    long long d[5];
    if (MPI_T_event_copy(inst, d) == MPI_SUCCESS && d[1] >= 4100 && d[1] < 4100 + NTHR &&
        d[3] == 8)
        atomic_fetch_add(&thr_heard, 1);
}

static void on_nothing(MPI_T_event_instance inst, MPI_T_event_registration reg,
                       MPI_T_cb_safety s, void *ud)
{
    long long d[5];
    MPI_T_event_copy(inst, d);
}

/* Registrations come and go while the main thread's receive raises events; then the thread
 * receives its own messages. */
static void *thr_recv(void *arg)
{
    int t = (int)(intptr_t)arg;
    long long v;
    for (int i = 0; i < 50; i++) {
        MPI_T_event_registration r = alloc_cb(ev_unexp, (MPI_T_cb_safety)(i % 4), on_nothing);
        CHECK(MPI_T_event_handle_free(r, NULL, NULL));
    }
    pthread_barrier_wait(&thr_go);
    for (int i = 0; i < PER_THR; i++)
        CHECK(MPI_Recv(&v, 1, MPI_LONG_LONG, 0, 4100 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    return NULL;
}

/* Rank 0 sends every message before rank 1's threads receive: each is heard once, and the
 * callback runs while other threads are in MPI. */
static void test_threads(void)
{
    MPI_T_event_registration r = alloc_cb(ev_unexp, MPI_T_CB_REQUIRE_THREAD_SAFE, on_thr);
    long long v = 0;
    if (me == 0) {
        for (int i = 0; i < PER_THR; i++)
            for (int t = 0; t < NTHR; t++)
                CHECK(MPI_Send(&v, 1, MPI_LONG_LONG, 1, 4100 + t, MPI_COMM_WORLD));
        CHECK(MPI_Send(&v, 1, MPI_LONG_LONG, 1, 4099, MPI_COMM_WORLD));
    }
    if (me == 1) {
        /* tag 4099 comes last on the ordered channel: all the others are queued by then (a
         * barrier would not do: the shm collectives do not travel that channel) */
        pthread_t th[NTHR];
        pthread_barrier_init(&thr_go, NULL, NTHR + 1);
        for (int t = 0; t < NTHR; t++)
            pthread_create(&th[t], NULL, thr_recv, (void *)(intptr_t)t);
        CHECK(MPI_Recv(&v, 1, MPI_LONG_LONG, 0, 4099, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        pthread_barrier_wait(&thr_go);
        for (int t = 0; t < NTHR; t++)
            pthread_join(th[t], NULL);
        pthread_barrier_destroy(&thr_go);
        EXPECT_INT(atomic_load(&thr_heard), NTHR * PER_THR);
    }
    CHECK(MPI_T_event_handle_free(r, NULL, NULL));
}

int main(int argc, char **argv)
{
    int provided;
    bool threads = argc > 1 && !strcmp(argv[1], "threads");
    mc_watchdog(120);
    MPI_Init_thread(&argc, &argv, threads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    me = mc_rank;
    CHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    test_info();
    if (n >= 2 && threads)
        test_threads();
    else if (n >= 2) {
        test_callbacks();
        test_freed_silent();
    }
    CHECK(MPI_T_finalize());
    MPI_Finalize();
    return mc_done("mpi_t_event");
}
