/* mpi_icreate_threads.c — MPI_Intercomm_create from several threads at once
 * (MPI_THREAD_MULTIPLE), each on communicators of its own, interleaved with other threads'
 * MPI_Comm_dup over members of both groups: the case collectives/ctxid.c names, where an
 * intercommunicator's creation ranks by each group's own parent (here the two groups' local
 * communicators have different context ids: the odd ranks' is a dup of the split) while a dup
 * ranks by one id on every member, so the two sides could prefer different creations. Every
 * creation must end (the watchdog kills a livelock), and each result is checked exactly:
 * the remote group's size and an allreduce over the intercommunicator. */
#include <pthread.h>

#include "mpicheck.h"
#include "mcthreads.h"

#define THREADS 4
#define ITERS 16

static int rank, size;
static MPI_Comm peers[THREADS], locals[THREADS], dups[THREADS];

/* The even world ranks' group against the odd ones': an even rank's remote group is the odd
 * ranks (size / 2 of them), and an allreduce over the intercommunicator gives the remote
 * group's sum of world ranks. */
static void intercomm_once(int t, int it)
{
    MPI_Comm ic;
    int remote_leader = rank % 2 ? 0 : 1; /* world ranks 0 and 1, in the peer communicator */
    TCHECK(MPI_Intercomm_create(locals[t], 0, peers[t], remote_leader, 100 + t, &ic));
    int rsize = -1, nodd = size / 2, neven = size - nodd, v = rank, s = -1;
    TCHECK(MPI_Comm_remote_size(ic, &rsize));
    TEXPECT(rsize == (rank % 2 ? neven : nodd), "thread %d iteration %d: remote size %d", t, it,
            rsize);
    TCHECK(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, ic)); /* the remote group's sum */
    int want = 0;
    for (int r = rank % 2 ? 0 : 1; r < size; r += 2)
        want += r;
    TEXPECT(s == want, "thread %d iteration %d: intercomm sum %d, expected %d", t, it, s, want);
    TCHECK(MPI_Comm_free(&ic));
}

static void dup_once(int t, int it)
{
    MPI_Comm d;
    int v = rank, s = -1;
    TCHECK(MPI_Comm_dup(dups[t], &d));
    TCHECK(MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, d));
    TEXPECT(s == size * (size - 1) / 2, "thread %d iteration %d: dup sum %d", t, it, s);
    TCHECK(MPI_Comm_free(&d));
}

/* Thread t alternates, shifted by t, so that at any time some threads create
 * intercommunicators while others dup. */
static void *worker(void *arg)
{
    int t = *(int *)arg;
    for (int it = 0; it < ITERS; it++) {
        if ((it + t) % 2)
            dup_once(t, it);
        else
            intercomm_once(t, it);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    mc_watchdog(100);
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS)
        return 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mc_rank = rank;
    EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
    if (size < 2) { /* an intercommunicator needs two groups */
        MPI_Finalize();
        return mc_done("mpi_icreate_threads");
    }
    for (int t = 0; t < THREADS; t++) {
        MPI_Comm half;
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &peers[t]));
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dups[t]));
        CHECK(MPI_Comm_split(peers[t], rank % 2, rank, &half));
        if (rank % 2) { /* another context id than the even ranks' half */
            CHECK(MPI_Comm_dup(half, &locals[t]));
            CHECK(MPI_Comm_free(&half));
        } else {
            locals[t] = half;
        }
    }
    pthread_t tid[THREADS];
    int ids[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ids[t] = t;
        if (pthread_create(&tid[t], NULL, worker, &ids[t]) != 0)
            FAIL("pthread_create");
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < THREADS; t++) {
        CHECK(MPI_Comm_free(&peers[t]));
        CHECK(MPI_Comm_free(&dups[t]));
        CHECK(MPI_Comm_free(&locals[t]));
    }
    MPI_Finalize();
    return mc_done("mpi_icreate_threads");
}
