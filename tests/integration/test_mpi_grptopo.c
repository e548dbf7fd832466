/* test_mpi_grptopo.c — issue 20's groups, topologies and requests through mpi.h: the MPI
 * programs of tests/mpi (mpi_grp_ops, mpi_topo_graph, mpi_topo_cart, mpi_topo_dgraph,
 * mpi_req_greq, mpi_req_cancel) under mrun at MPI_SIZES (run.h), each checking exact values against
 * serial answers and the error classes of bad arguments itself ("FAIL" lines, "<prog>: rank R
 * OK" at the end). */
#include "run.h"

/* Every rank printed "<prog>: rank R OK" and nothing failed. */
static void grptopo_run_ok(int n, const char *prog, const char *const *env)
{
    run_mpi_ok(n, prog, NULL, NULL, env, 0);
}

#define GRPTOPO_TEST(name)                                                                     \
    RUN_SIZES(mpi_grptopo, name, MPI_SIZES)                                                    \
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
