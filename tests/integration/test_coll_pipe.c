/* test_coll_pipe.c — the pipelined collectives (bcast's pipelined_chain and pipelined_tree,
 * allreduce's pipelined_ring) and the direct ones of bcast, allreduce and allgather, forced,
 * at n = 1..8 with a small segment (so that short messages cross many segment edges), with a
 * segment that is not a multiple of the element size, with the default segments at full
 * size, and chosen automatically: tests/progs/coll_pipe checks every result exactly. */
#include "run.h"

typedef struct pcase {
    const char *bcast; /* RMP_COLL_BCAST=... */
    const char *allreduce; /* RMP_COLL_ALLREDUCE=... (NULL: pipelined_ring) */
    const char *seg;   /* RMP_COLL_SEGMENT=... or NULL (the defaults) */
    const char *bseg, *aseg; /* the segments coll_pipe chooses its sizes around */
} pcase_t;

static void run_case(const pcase_t *c, int n, bool forced)
{
    const char *env[] = {forced ? c->bcast : "RMP_COLL_BCAST=auto",
                         !forced         ? "RMP_COLL_ALLREDUCE=auto"
                         : c->allreduce ? c->allreduce
                                        : "RMP_COLL_ALLREDUCE=pipelined_ring",
                         forced ? "RMP_COLL_ALLGATHER=direct" : "RMP_COLL_ALLGATHER=auto",
                         c->seg, NULL};
    run_opts_t o = {.limit = 240, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("coll_pipe"), c->bseg, c->aseg, NULL);
    cr_log_info("%s %s n=%d: %.1f s", env[0], c->seg ? c->seg : "default segments", n,
                r.elapsed);
    expect_success(r);
    char ok[64];
    snprintf(ok, sizeof ok, "coll_pipe: OK n=%d", n);
    expect_like(r, out, ok, "", 1);
    run_free(&r);
}

static const pcase_t small_chain = {"RMP_COLL_BCAST=pipelined_chain", NULL,
                                    "RMP_COLL_SEGMENT=24", "24", "24"};
static const pcase_t small_tree = {"RMP_COLL_BCAST=pipelined_tree", NULL, "RMP_COLL_SEGMENT=24",
                                   "24", "24"};

/* n = 1 and 2 are degenerate (no hop, one hop); 3, 5, 6, 7 leave the tree unbalanced and
 * the ring's parts unequal. */
Test(coll_pipe, chain_and_ring_small_segments_n1_to_8, .timeout = 900)
{
    for (int n = 1; n <= 8; n++)
        run_case(&small_chain, n, true);
}

Test(coll_pipe, tree_small_segments_n1_to_8, .timeout = 900)
{
    for (int n = 1; n <= 8; n++)
        run_case(&small_tree, n, true);
}

/* The direct algorithms of bcast, allreduce and allgather (no segments: the sizes around 24
 * bytes still cover empty, short and uneven parts). */
Test(coll_pipe, direct_n1_to_8, .timeout = 900)
{
    static const pcase_t c = {"RMP_COLL_BCAST=direct", "RMP_COLL_ALLREDUCE=direct", NULL, "24",
                              "24"};
    for (int n = 1; n <= 8; n++)
        run_case(&c, n, true);
}

/* 1001 bytes: segments end inside an element (the ring rounds them to whole elements). */
Test(coll_pipe, odd_segment_n3_n7, .timeout = 600)
{
    static const pcase_t c = {"RMP_COLL_BCAST=pipelined_tree", NULL, "RMP_COLL_SEGMENT=1001",
                              "1001", "1001"};
    run_case(&c, 3, true);
    run_case(&c, 7, true);
}

/* The default segments (collectives/bcast.c, allreduce.c): messages of up to 5 segments. */
Test(coll_pipe, default_segments_n3_n4, .timeout = 600)
{
    static const pcase_t c = {"RMP_COLL_BCAST=pipelined_chain", NULL, NULL, "131072", "65536"};
    run_case(&c, 3, true);
    run_case(&c, 4, true);
}

/* The automatic choice at the same sizes: it switches algorithms inside the run. */
Test(coll_pipe, automatic_choice_n4_n6, .timeout = 600)
{
    static const pcase_t c = {NULL, NULL, NULL, "131072", "65536"};
    run_case(&c, 4, false);
    run_case(&c, 6, false);
}
