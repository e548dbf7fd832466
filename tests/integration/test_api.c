/* test_api.c — the public API's documented behaviour: invalid arguments to every call give the
 * documented error code (tests/progs/api), and truncation, cancel, probe, waitany/testall,
 * sendrecv, RMP_PROC_NULL and derived datatypes behave as rmp.h says (tests/progs/p2p); also
 * without a launcher, where a program is a singleton of size 1; hostile arguments that once
 * lost messages or corrupted requests (tests/progs/misuse); and a child forked by a rank
 * (tests/progs/fork_child). */
#include "run.h"

static void expect_ok(const char *prog, int n, const char *okfmt)
{
    run_opts_t o = {.limit = 40};
    run_result_t r;
    if (n > 0) {
        r = run_mrun(&o, n, prog, NULL);
    } else { /* no launcher at all */
        const char *argv[] = {prog, NULL};
        r = run_cmd(&o, argv);
    }
    expect_success(r);
    char line[64];
    snprintf(line, sizeof line, okfmt, n > 0 ? n : 1);
    expect_line(r, out, line, 1);
    run_free(&r);
}

/* A child forked after rmp_init is not the rank (tests/progs/fork_child). */
Test(api, forked_child_is_not_the_rank_n1, .timeout = 60)
{
    expect_ok(PROG("fork_child"), 1, "fork_child: OK n=%d");
}

Test(api, forked_child_is_not_the_rank_n3, .timeout = 60)
{
    expect_ok(PROG("fork_child"), 3, "fork_child: OK n=%d");
}

Test(api, invalid_arguments_n1, .timeout = 60)
{
    expect_ok(PROG("api"), 1, "api: OK n=%d");
}

Test(api, invalid_arguments_n2, .timeout = 60)
{
    expect_ok(PROG("api"), 2, "api: OK n=%d");
}

Test(api, invalid_arguments_n3, .timeout = 60)
{
    expect_ok(PROG("api"), 3, "api: OK n=%d");
}

Test(api, invalid_arguments_singleton_without_mrun, .timeout = 60)
{
    expect_ok(PROG("api"), 0, "api: OK n=%d");
}

Test(api, p2p_semantics_n1_self, .timeout = 60)
{
    expect_ok(PROG("p2p"), 1, "p2p: OK n=%d");
}

Test(api, p2p_semantics_n2, .timeout = 60)
{
    expect_ok(PROG("p2p"), 2, "p2p: OK n=%d");
}

Test(api, p2p_semantics_n3, .timeout = 60)
{
    expect_ok(PROG("p2p"), 3, "p2p: OK n=%d");
}

Test(api, p2p_semantics_n4_cma_off, .timeout = 60)
{
    const char *env[] = {"RMP_CMA=0", NULL};
    run_opts_t o = {.limit = 40, .env = env};
    run_result_t r = run_mrun(&o, 4, PROG("p2p"), NULL);
    expect_success(r);
    expect_line(r, out, "p2p: OK n=4", 1);
    run_free(&r);
}

Test(api, p2p_semantics_singleton_without_mrun, .timeout = 60)
{
    expect_ok(PROG("p2p"), 0, "p2p: OK n=%d");
}

/* Hostile arguments (tests/progs/misuse): sendrecv refused for a bad send half keeps the
 * waiting message; byte sizes that wrap give RMP_ERR_COUNT with nothing sent; wild, freed and
 * stale request handles give RMP_ERR_REQUEST and leave the new owner's request working. */
Test(api, misuse_n1, .timeout = 60)
{
    expect_ok(PROG("misuse"), 1, "misuse: OK n=%d");
}

Test(api, misuse_n2, .timeout = 60)
{
    expect_ok(PROG("misuse"), 2, "misuse: OK n=%d");
}

Test(api, misuse_n3, .timeout = 60)
{
    expect_ok(PROG("misuse"), 3, "misuse: OK n=%d");
}

Test(api, misuse_singleton_without_mrun, .timeout = 60)
{
    expect_ok(PROG("misuse"), 0, "misuse: OK n=%d");
}
