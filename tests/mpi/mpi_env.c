/* mpi_env.c — the environment calls through mpi.h: init with a thread level, version and
 * names, clocks, initialized/finalized, memory, and communicators (dup, split, free) with
 * exact ranks and sizes. argv[1] is the thread level asked for (0..3). */
#include <pthread.h>

#include "mpicheck.h"

static void *other_thread(void *arg)
{
    int flag = -1;
    MPI_Is_thread_main(&flag);
    *(int *)arg = flag;
    return NULL;
}

static void check_before_init(void)
{
    int flag = -1, v = 0, sv = 0;
    CHECK(MPI_Initialized(&flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Finalized(&flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Get_version(&v, &sv)); /* allowed before MPI_Init */
    EXPECT_INT(v, 3);
    EXPECT_INT(sv, 1);
}

static void check_names(int required, int provided)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], host[MPI_MAX_PROCESSOR_NAME], want[256];
    int len = -1, flag = -1, level = -1;
    EXPECT_INT(provided, required);
    CHECK(MPI_Query_thread(&level));
    EXPECT_INT(level, required);
    CHECK(MPI_Is_thread_main(&flag));
    EXPECT_INT(flag, 1);
    pthread_t t;
    int other = -1;
    if (pthread_create(&t, NULL, other_thread, &other) != 0 || pthread_join(t, NULL) != 0)
        FAIL("pthread_create/join failed");
    EXPECT_INT(other, 0);
    CHECK(MPI_Get_library_version(lib, &len));
    snprintf(want, sizeof want, "rmp %s (MPI 3.1 subset through rmp/mpi.h)", RMP_VERSION_STRING);
    if (strcmp(lib, want) != 0 || len != (int)strlen(want))
        FAIL("MPI_Get_library_version gave '%s' (%d), expected '%s'", lib, len, want);
    CHECK(MPI_Get_processor_name(host, &len));
    char real[MPI_MAX_PROCESSOR_NAME];
    if (gethostname(real, sizeof real) != 0 || strcmp(real, host) != 0 ||
        len != (int)strlen(host))
        FAIL("MPI_Get_processor_name gave '%s' (%d)", host, len);
}

static void check_clocks(void)
{
    double tick = MPI_Wtick(), t0 = MPI_Wtime();
    if (!(tick > 0 && tick <= 1e-3))
        FAIL("MPI_Wtick is %g, expected a resolution in (0, 1 ms]", tick);
    usleep(20000);
    double dt = MPI_Wtime() - t0;
    if (!(dt >= 0.019 && dt < 30))
        FAIL("MPI_Wtime advanced %g s over a 20 ms sleep", dt);
}

static void check_comms(int rank, int size)
{
    MPI_Comm dup, half, none;
    int r = -1, s = -1;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK(MPI_Comm_rank(dup, &r));
    CHECK(MPI_Comm_size(dup, &s));
    EXPECT_INT(r, rank);
    EXPECT_INT(s, size);
    /* Odd and even ranks, ordered backwards by key. */
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half));
    CHECK(MPI_Comm_rank(half, &r));
    CHECK(MPI_Comm_size(half, &s));
    int mine = (size - rank % 2 + 1) / 2; /* ranks of my parity */
    EXPECT_INT(s, mine);
    EXPECT_INT(r, mine - 1 - rank / 2);
    int sum = -1;
    CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half));
    int want = 0;
    for (int i = rank % 2; i < size; i += 2)
        want += i;
    EXPECT_INT(sum, want);
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &none));
    if (rank == 0) {
        CHECK(MPI_Comm_size(none, &s));
        EXPECT_INT(s, 1);
        CHECK(MPI_Comm_free(&none));
    }
    EXPECT_INT(none, MPI_COMM_NULL);
    CHECK(MPI_Comm_free(&half));
    CHECK(MPI_Comm_free(&dup));
    EXPECT_INT(dup, MPI_COMM_NULL);
}

static void check_mem(void)
{
    double *p = NULL;
    CHECK(MPI_Alloc_mem(1000 * sizeof *p, MPI_INFO_NULL, &p));
    if (!p)
        FAIL("MPI_Alloc_mem gave NULL");
    else
        for (int i = 0; i < 1000; i++)
            p[i] = i;
    CHECK(MPI_Free_mem(p));
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int required = argc > 1 ? atoi(argv[1]) : MPI_THREAD_SINGLE, provided = -1, size = 0;
    check_before_init();
    CHECK(MPI_Init_thread(&argc, &argv, required, &provided));
    CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank));
    CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
    int flag = -1;
    CHECK(MPI_Initialized(&flag));
    EXPECT_INT(flag, 1);
    check_names(required, provided);
    check_clocks();
    check_comms(mc_rank, size);
    check_mem();
    CHECK(MPI_Finalize());
    CHECK(MPI_Finalized(&flag));
    EXPECT_INT(flag, 1);
    CHECK(MPI_Initialized(&flag));
    EXPECT_INT(flag, 0);
    return mc_done("mpi_env");
}
