/* test_coll_algos.c — every collective algorithm, forced by name (RMP_COLL_<NAME>=<algorithm>),
 * against tests/progs/coll's serial references for every op and type, in place and not, at
 * n = 1, 2, 3, 4, 5 and 7; and the automatic choice with every size threshold moved to 28 bytes, so the
 * counts the program uses (0, 1, 7, 1000, ... elements of 1..8 bytes) land on both sides of
 * it and on it (7 int32). */
#include "run.h"

typedef struct forced {
    const char *env;         /* RMP_COLL_<NAME>=<algorithm> */
    const char *sections[3]; /* the program's sections that exercise it */
} forced_t;

static const forced_t forced[] = {
    {"RMP_COLL_BARRIER=dissemination", {"barrier"}},
    {"RMP_COLL_BCAST=binomial", {"bcast", "derived"}},
    {"RMP_COLL_BCAST=scatter_allgather", {"bcast", "derived"}},
    {"RMP_COLL_BCAST=pipelined_chain", {"bcast", "derived"}},
    {"RMP_COLL_BCAST=pipelined_tree", {"bcast", "derived"}},
    {"RMP_COLL_BCAST=direct", {"bcast", "derived"}},
    {"RMP_COLL_REDUCE=binomial", {"reduce"}},
    {"RMP_COLL_REDUCE=rabenseifner", {"reduce"}},
    {"RMP_COLL_ALLREDUCE=recursive_doubling", {"allreduce", "derived"}},
    {"RMP_COLL_ALLREDUCE=rabenseifner", {"allreduce", "derived"}},
    {"RMP_COLL_ALLREDUCE=ring", {"allreduce", "derived"}},
    {"RMP_COLL_ALLREDUCE=pipelined_ring", {"allreduce", "derived"}},
    {"RMP_COLL_ALLREDUCE=direct", {"allreduce", "derived"}},
    {"RMP_COLL_GATHER=binomial", {"gather", "derived"}},
    {"RMP_COLL_GATHER=linear", {"gather", "derived"}},
    {"RMP_COLL_SCATTER=binomial", {"scatter", "derived"}},
    {"RMP_COLL_SCATTER=linear", {"scatter", "derived"}},
    {"RMP_COLL_ALLGATHER=recursive_doubling", {"allgather", "derived"}},
    {"RMP_COLL_ALLGATHER=bruck", {"allgather", "derived"}},
    {"RMP_COLL_ALLGATHER=ring", {"allgather", "derived"}},
    {"RMP_COLL_ALLGATHER=direct", {"allgather", "derived"}},
    {"RMP_COLL_ALLTOALL=bruck", {"alltoall", "derived"}},
    {"RMP_COLL_ALLTOALL=linear", {"alltoall", "derived"}},
    {"RMP_COLL_ALLTOALL=pairwise", {"alltoall", "derived"}},
    {"RMP_COLL_REDUCE_SCATTER=recursive_halving", {"reduce_scatter"}},
    {"RMP_COLL_REDUCE_SCATTER=ring", {"reduce_scatter"}},
};
#define NFORCED (int)(sizeof(forced) / sizeof(forced[0]))

RUN_INDICES(coll_algo, forced_n1_to_7, NFORCED)

/* Each algorithm at n = 1 and 2 (degenerate), 4 (a power of two), 3 and 5 (one rank beyond
 * a power of two: folded in, or a ring part left empty) and 7 (three beyond, and trees three
 * levels deep). 6, 8 and 9 are shapes those already have, and they took 60 % of the test's
 * time (more ranks than the 2 cores: 8 and 9 ranks cost 51 and 60 of its 262 s); the default
 * algorithms run at every n from 1 to 9 (coll::n1_to_9), and every size 1..9 remains for a
 * run that wants it: RMP_TEST_ALGO_NS. */
ParameterizedTest(int *k, coll_algo, forced_n1_to_7, .timeout = 600)
{
    const forced_t *f = &forced[*k];
    const char *env[] = {f->env, NULL};
    /* RMP_TEST_ALGO_NS lists other sizes, from 1 to 9 (make check-asan runs "5": the
     * sanitizer run checks memory safety, which one folding size covers) */
    int ns[9], nn = 0;
    const char *list = getenv("RMP_TEST_ALGO_NS");
    for (char *end; list && *list && nn < 9; list = end) {
        long v = strtol(list, &end, 10);
        if (end == list)
            break;
        if (v >= 1 && v <= 9)
            ns[nn++] = (int)v;
    }
    static const int shapes[] = {1, 2, 3, 4, 5, 7};
    for (int i = 0; nn == 0 && i < (int)(sizeof(shapes) / sizeof(shapes[0])); i++)
        ns[i] = shapes[i];
    nn = nn ? nn : (int)(sizeof(shapes) / sizeof(shapes[0]));
    for (int i = 0; i < nn; i++) {
        int n = ns[i];
        run_opts_t o = {.limit = 120, .env = env};
        run_result_t r = run_mrun(&o, n, PROG("coll"), f->sections[0], f->sections[1],
                                  f->sections[2], NULL);
        cr_log_info("%s n=%d: %.1f s", f->env, n, r.elapsed);
        expect_success(r);
        expect_like(r, out, "coll: OK", "", 1);
        run_free(&r);
    }
}

/* Every threshold at 28 bytes: the automatic choice switches algorithms inside one run. */
static void thresholds(int n)
{
    const char *env[] = {"RMP_COLL_BCAST_LARGE=28",     "RMP_COLL_REDUCE_LARGE=28",
                         "RMP_COLL_ALLREDUCE_LARGE=28", "RMP_COLL_GATHER_LARGE=28",
                         "RMP_COLL_SCATTER_LARGE=28",   "RMP_COLL_ALLGATHER_LARGE=28",
                         "RMP_COLL_ALLTOALL_SMALL=28",  "RMP_COLL_ALLTOALL_LARGE=56",
                         "RMP_COLL_REDUCE_SCATTER_LARGE=28", NULL};
    run_opts_t o = {.limit = 200, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("coll"), NULL);
    expect_success(r);
    expect_like(r, out, "coll: OK", "", 1);
    run_free(&r);
}

Test(coll_algo, thresholds_at_28_bytes_n3, .timeout = 300)
{
    thresholds(3);
}

Test(coll_algo, thresholds_at_28_bytes_n4, .timeout = 300)
{
    thresholds(4);
}

Test(coll_algo, thresholds_at_28_bytes_n6, .timeout = 300)
{
    thresholds(6);
}

/* An unknown algorithm name is refused by rmp_init (RMP_ERR_ARG) with one line naming the
 * choices (the example then exits with status 1). */
Test(coll_algo, unknown_algorithm_is_refused, .timeout = 60)
{
    char path[512];
    const char *slash = strrchr(RMP_TEST_MRUN, '/');
    snprintf(path, sizeof path, "%.*s/examples/allreduce", (int)(slash - RMP_TEST_MRUN),
             RMP_TEST_MRUN);
    const char *env[] = {"RMP_COLL_ALLREDUCE=fastest", NULL};
    run_opts_t o = {.limit = 30, .env = env};
    run_result_t r = run_mrun(&o, 3, path, NULL);
    expect_exit(r, 1);
    expect_line(r, err, "rmp: RMP_COLL_ALLREDUCE=fastest is not valid: expected one of: auto, "
                        "recursive_doubling, rabenseifner, ring, pipelined_ring, direct", 1);
    cr_assert(strstr(r.err, "allreduce: rmp_init failed: invalid argument") != NULL,
              "--- stderr:\n%s", tail(r.err));
    run_free(&r);
}
