/* test_mpi_grptopo.c — issue 20's groups, topologies and requests through mpi.h: the MPI
 * programs of tests/mpi (mpi_grp_ops, mpi_topo_graph, mpi_topo_cart, mpi_topo_dgraph,
 * mpi_req_greq, mpi_req_cancel) under mrun at n = 1..8, each checking exact values against
 * serial answers and the error classes of bad arguments itself ("FAIL" lines, "<prog>: rank R
 * OK" at the end). */
#include "run.h"

#ifndef RMP_TEST_MPIPROGS
#error "build with -DRMP_TEST_MPIPROGS=<dir of the tests/mpi programs> (the Makefile does)"
#endif

/* Every rank printed "<prog>: rank R OK" and nothing failed. */
static void grptopo_run_ok(int n, const char *prog, const char *const *env)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", RMP_TEST_MPIPROGS, prog);
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, n, path, NULL, NULL);
    expect_ranks_ok(r, prog, n);
    run_free(&r);
}

#define GRPTOPO_TEST(name)                                                                     \
    ParameterizedTestParameters(mpi_grptopo, name)                                             \
    {                                                                                          \
        static int ns[] = {1, 2, 3, 4, 5, 6, 7, 8};                                            \
        return cr_make_param_array(int, ns, sizeof ns / sizeof ns[0]);                         \
    }                                                                                          \
    ParameterizedTest(int *n, mpi_grptopo, name, .timeout = 100)                               \
    {                                                                                          \
        grptopo_run_ok(*n, "mpi_" #name, NULL);                                                \
    }

GRPTOPO_TEST(grp_ops)
GRPTOPO_TEST(topo_graph)
GRPTOPO_TEST(topo_cart)
GRPTOPO_TEST(topo_dgraph)
GRPTOPO_TEST(req_greq)
GRPTOPO_TEST(req_cancel)

/* The cancels again with every message above the eager limit and streamed (no CMA get): the
 * RTS / CTS / DATA path verbs takes when it cannot read the sender's memory. */
Test(mpi_grptopo, req_cancel_streamed, .timeout = 100)
{
    static const char *const env[] = {"RMP_EAGER_LIMIT=64", "RMP_CMA=0", NULL};
    grptopo_run_ok(3, "mpi_req_cancel", env);
}
