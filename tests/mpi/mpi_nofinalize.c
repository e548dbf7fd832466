/* mpi_nofinalize.c — MPI programs that leave main without MPI_Finalize, as osu_latency_mt
 * does (argv[1]): "return" returns 0 after a barrier (the job must succeed: librmp-mpi
 * finalizes on exit 0), "threads" does it at MPI_THREAD_MULTIPLE after joining two threads
 * that exchanged messages, "exit3" calls exit(3) (the job must fail with status 3, as any
 * failed rank's), "fork" first forks a helper child that ends with exit(0) (the child is not
 * the rank: its exit must not finalize, which used to hang it in the job's fence). */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpicheck.h"

static int size;

/* Each thread swaps its id with the same thread of the next and previous ranks. */
static void *pass(void *arg)
{
    int id = (int)(size_t)arg, got = -1, next = (mc_rank + 1) % size,
        prev = (mc_rank - 1 + size) % size;
    int mine = mc_rank * 10 + id;
    CHECK(MPI_Sendrecv(&mine, 1, MPI_INT, next, id, &got, 1, MPI_INT, prev, id, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    EXPECT_INT(got, prev * 10 + id);
    return NULL;
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    const char *mode = argc > 1 ? argv[1] : "return";
    int provided = -1;
    CHECK(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided));
    EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    if (strcmp(mode, "fork") == 0) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            exit(0); /* a helper's ordinary end, exit handlers and all */
        int ws = -1;
        if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
            FAIL("the forked helper did not exit 0 (wait status %d)", ws);
    }
    if (strcmp(mode, "threads") == 0) {
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            if (pthread_create(&t[i], NULL, pass, (void *)(size_t)i) != 0)
                FAIL("pthread_create failed");
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int fin = -1;
    CHECK(MPI_Finalized(&fin));
    EXPECT_INT(fin, 0);
    mc_done("mpi_nofinalize");
    if (strcmp(mode, "exit3") == 0)
        exit(3);
    return mc_failures ? 1 : 0; /* no MPI_Finalize: on purpose */
}
