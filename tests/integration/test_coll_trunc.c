/* test_coll_trunc.c — collectives where one rank's block is longer than the receivers' slots
 * (tests/progs/coll_trunc.c checks the codes on every rank, the data, and the next
 * collective): for each algorithm of gather, scatter, allgather, alltoall and bcast, at
 * n = 2..8. Nobody may hang: each job has a time limit well below the test's. */
#include "run.h"

typedef struct trunc_param {
    int n, set;
} trunc_param_t;

/* Four sets cover every algorithm of the five collectives (bcast's pipelined ones excepted:
 * their segment count follows the count, which must then be the same on every rank). */
#define NSETS 4
static const char *const algsets[NSETS][6] = {
    {"RMP_COLL_GATHER=binomial", "RMP_COLL_SCATTER=binomial",
     "RMP_COLL_ALLGATHER=recursive_doubling", "RMP_COLL_ALLTOALL=bruck",
     "RMP_COLL_BCAST=binomial", NULL},
    {"RMP_COLL_GATHER=linear", "RMP_COLL_SCATTER=linear", "RMP_COLL_ALLGATHER=bruck",
     "RMP_COLL_ALLTOALL=linear", "RMP_COLL_BCAST=scatter_allgather", NULL},
    {"RMP_COLL_GATHER=binomial", "RMP_COLL_SCATTER=linear", "RMP_COLL_ALLGATHER=ring",
     "RMP_COLL_ALLTOALL=pairwise", "RMP_COLL_BCAST=binomial", NULL},
    {"RMP_COLL_GATHER=linear", "RMP_COLL_SCATTER=binomial", "RMP_COLL_ALLGATHER=direct",
     "RMP_COLL_ALLTOALL=linear", "RMP_COLL_BCAST=direct", NULL},
};

ParameterizedTestParameters(coll_trunc, every_algorithm_n2_to_8)
{
    static trunc_param_t p[7 * NSETS];
    for (int n = 2; n <= 8; n++)
        for (int set = 0; set < NSETS; set++)
            p[(n - 2) * NSETS + set] = (trunc_param_t){n, set};
    return cr_make_param_array(trunc_param_t, p, sizeof p / sizeof p[0]);
}

ParameterizedTest(trunc_param_t *p, coll_trunc, every_algorithm_n2_to_8, .timeout = 90)
{
    run_opts_t o = {.limit = 60, .env = algsets[p->set]};
    run_result_t r = run_mrun(&o, p->n, PROG("coll_trunc"), NULL);
    expect_success(r);
    expect_like(r, out, "coll_trunc: OK", "", 1);
    run_free(&r);
}
