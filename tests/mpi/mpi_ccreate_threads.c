/* mpi_ccreate_threads.c — at MPI_THREAD_MULTIPLE, THREADS threads per rank at once (as MPICH's
 * comm_create_group_threads and comm_idup threaded tests): each on its own parent (a dup made
 * before), making communicators with MPI_Comm_create_group (the parent's group, then the idup's
 * in reverse order), MPI_Comm_idup and MPI_Comm_dup_with_info, checking each with an exact
 * allreduce, while using info objects and naming its communicators. Every thread also creates
 * groups on MPI_COMM_WORLD itself with its own tag, concurrently with the others (tags tell
 * them apart), and (n >= 2) idups its own intercommunicator (even against odd world ranks)
 * while the others run, checked with an intercommunicator allreduce. Before that, as MPICH's
 * comm_dup_deadlock: one thread per rank starts late, and creates on MPI_COMM_SELF (under a
 * lock of its process) while the others' creations on their parents wait for the late threads
 * of the other ranks (collectives/ctxid.c says why that must not hang). */
#include <pthread.h>

#include "mpicheck.h"
#include "mcthreads.h"

#define THREADS 4
#define ITERS 30
#define LATE_ITERS 3
#define LATE_US 200000

static int rank, size, nthreads;
static MPI_Comm parents[THREADS], iparents[THREADS], ilocals[THREADS];
static pthread_mutex_t self_mu = PTHREAD_MUTEX_INITIALIZER; /* the program's own lock */


static void check_sum(int t, MPI_Comm c, int members_sum, const char *what, int it)
{
    int v = rank, s = -1;
    TCHECK(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, c));
    TEXPECT(s == members_sum, "thread %d iteration %d %s: sum %d, expected %d", t, it, what, s,
            members_sum);
}

/* Thread rank % nthreads comes late: meanwhile each rank's other threads have started their
 * dups, whose peers include the late threads of the other ranks. A creation on a communicator
 * of one process (MPI_COMM_SELF) must finish although those dups hold the free-id masks of
 * their processes, waiting for peers that are in it. */
static void late_self_then_parent(int t)
{
    MPI_Group selfg;
    TCHECK(MPI_Comm_group(MPI_COMM_SELF, &selfg));
    for (int it = 0; it < LATE_ITERS; it++) {
        MPI_Comm s = MPI_COMM_NULL, g = MPI_COMM_NULL, d = MPI_COMM_NULL;
        if (t == rank % nthreads)
            usleep(LATE_US);
        pthread_mutex_lock(&self_mu);
        TCHECK(MPI_Comm_dup(MPI_COMM_SELF, &s));
        TCHECK(MPI_Comm_create_group(MPI_COMM_SELF, selfg, t, &g));
        pthread_mutex_unlock(&self_mu);
        check_sum(t, s, rank, "dup of MPI_COMM_SELF", it);
        check_sum(t, g, rank, "create_group on MPI_COMM_SELF", it);
        TCHECK(MPI_Comm_dup(parents[t], &d));
        check_sum(t, d, size * (size - 1) / 2, "dup after MPI_COMM_SELF's", it);
        TCHECK(MPI_Comm_free(&s));
        TCHECK(MPI_Comm_free(&g));
        TCHECK(MPI_Comm_free(&d));
    }
    TCHECK(MPI_Group_free(&selfg));
}

static void *worker(void *arg)
{
    int t = *(int *)arg;
    late_self_then_parent(t);
    MPI_Comm p = parents[t], ip = iparents[t];
    int rsum = 0; /* the other group's world ranks */
    for (int r = 0; r < size; r++)
        rsum += r % 2 != rank % 2 ? r : 0;
    MPI_Group pg, rev, wg;
    TCHECK(MPI_Comm_group(p, &pg));
    TCHECK(MPI_Comm_group(MPI_COMM_WORLD, &wg));
    int order[64];
    for (int i = 0; i < size; i++)
        order[i] = size - 1 - i;
    TCHECK(MPI_Group_incl(pg, size, order, &rev));
    for (int it = 0; it < ITERS; it++) {
        MPI_Comm a, b, c, d, w;
        MPI_Request req;
        MPI_Info info;
        char name[MPI_MAX_OBJECT_NAME], val[32], want[32];
        int len, flag = 0;
        TCHECK(MPI_Info_create(&info));
        snprintf(want, sizeof want, "t%d-i%d", t, it);
        TCHECK(MPI_Info_set(info, "mpi_assert_no_any_tag", want));

        MPI_Comm e = MPI_COMM_NULL;
        MPI_Request ireq = MPI_REQUEST_NULL;
        if (ip != MPI_COMM_NULL)
            TCHECK(MPI_Comm_idup(ip, &e, &ireq));
        TCHECK(MPI_Comm_idup(p, &a, &req));
        TCHECK(MPI_Comm_create_group(p, pg, it, &b));
        TCHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
        TCHECK(MPI_Wait(&ireq, MPI_STATUS_IGNORE));
        if (e != MPI_COMM_NULL) {
            check_sum(t, e, rsum, "idup of an intercommunicator", it);
            TCHECK(MPI_Comm_free(&e));
        }
        TCHECK(MPI_Comm_dup_with_info(b, info, &c));
        /* the world, shared by every thread: each thread's own tag */
        TCHECK(MPI_Comm_create_group(MPI_COMM_WORLD, wg, t * 1000 + it, &w));
        check_sum(t, a, size * (size - 1) / 2, "idup", it);
        check_sum(t, b, size * (size - 1) / 2, "create_group", it);
        check_sum(t, c, size * (size - 1) / 2, "dup_with_info", it);
        check_sum(t, w, size * (size - 1) / 2, "create_group on the world", it);
        TCHECK(MPI_Comm_create_group(a, rev, it, &d)); /* the ranks in reverse order */
        int x = -1;
        TCHECK(MPI_Comm_rank(d, &x));
        TEXPECT(x == size - 1 - rank, "thread %d: reversed rank %d, expected %d", t, x,
                size - 1 - rank);
        check_sum(t, d, size * (size - 1) / 2, "create_group reversed", it);
        TCHECK(MPI_Comm_free(&d));
        MPI_Info got;
        TCHECK(MPI_Comm_get_info(c, &got));
        TCHECK(MPI_Info_get(got, "mpi_assert_no_any_tag", 31, val, &flag));
        TEXPECT(flag && strcmp(val, want) == 0, "thread %d: hint '%s', expected '%s'", t, val,
                want);
        TCHECK(MPI_Info_free(&got));
        TCHECK(MPI_Comm_set_name(c, want));
        TCHECK(MPI_Comm_get_name(c, name, &len));
        TEXPECT(strcmp(name, want) == 0, "thread %d: name '%s', expected '%s'", t, name, want);
        TCHECK(MPI_Info_free(&info));
        TCHECK(MPI_Comm_free(&a));
        TCHECK(MPI_Comm_free(&b));
        TCHECK(MPI_Comm_free(&c));
        TCHECK(MPI_Comm_free(&w));
    }
    TCHECK(MPI_Group_free(&rev));
    TCHECK(MPI_Group_free(&pg));
    TCHECK(MPI_Group_free(&wg));
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    mc_watchdog(150);
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
    nthreads = argc > 1 ? atoi(argv[1]) : THREADS;
    if (nthreads < 1 || nthreads > THREADS)
        nthreads = THREADS;
    for (int t = 0; t < nthreads; t++) {
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &parents[t]));
        iparents[t] = ilocals[t] = MPI_COMM_NULL;
        if (size < 2)
            continue;
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &ilocals[t]));
        CHECK(MPI_Intercomm_create(ilocals[t], 0, MPI_COMM_WORLD, 1 - rank % 2, 500 + t,
                                   &iparents[t]));
        CHECK(MPI_Comm_set_errhandler(iparents[t], MPI_ERRORS_RETURN));
    }
    pthread_t tid[THREADS];
    int ids[THREADS];
    for (int t = 0; t < nthreads; t++) {
        ids[t] = t;
        if (pthread_create(&tid[t], NULL, worker, &ids[t]) != 0)
            FAIL("pthread_create");
    }
    for (int t = 0; t < nthreads; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < nthreads; t++) {
        CHECK(MPI_Comm_free(&parents[t]));
        if (iparents[t] != MPI_COMM_NULL) {
            CHECK(MPI_Comm_free(&iparents[t]));
            CHECK(MPI_Comm_free(&ilocals[t]));
        }
    }
    MPI_Finalize();
    return mc_done("mpi_ccreate_threads");
}
