/* test_mpi_osu.c — what the OSU micro-benchmarks need of the MPI layer (issue 12), through
 * programs of tests/mpi built with rmpcc: topologies and neighbourhood collectives
 * (mpi_neighbor.c) at n = 1..8, blocking and nonblocking, against serial references. */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name

/* Every rank printed "<prog>: rank R OK", nothing failed, nothing left behind. */
static void run_ok(int n, const char *prog, const char *label, const char *arg)
{
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, n, prog, arg, NULL);
    expect_success(r);
    for (int i = 0; i < n; i++) {
        char line[128];
        snprintf(line, sizeof line, "%s: rank %d OK", label, i);
        expect_line(r, out, line, 1);
    }
    run_free(&r);
}

ParameterizedTestParameters(mpi_osu, neighbor)
{
    static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};
    return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);
}

/* A ring and an irregular graph, periodic and open 2-D grids: every neighbourhood collective,
 * the topology queries and their error codes. */
ParameterizedTest(int *n, mpi_osu, neighbor, .timeout = 200)
{
    run_ok(*n, MPIPROG("mpi_neighbor"), "mpi_neighbor blocking", "blocking");
    run_ok(*n, MPIPROG("mpi_neighbor"), "mpi_neighbor nonblocking", "nonblocking");
}
