/* test_env.c — the RMP_* environment variables: RMP_VERBOSE explains the choices on stderr,
 * invalid values are refused by rmp_init with a message naming the variable (and the job fails
 * cleanly), valid ones leave the program's results unchanged. */
#include "run.h"

Test(env, verbose_prints_rank_prefixed_lines, .timeout = 30)
{
    const char *env[] = {"RMP_VERBOSE=1", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("env"), NULL);
    expect_success(r);
    cr_assert_gt(count_prefix(r.err, "rmp[0]: "), 0, "no verbose lines from rank 0:\n%s",
                 tail(r.err));
    cr_assert_gt(count_prefix(r.err, "rmp[1]: "), 0, "no verbose lines from rank 1:\n%s",
                 tail(r.err));
    run_free(&r);
}

Test(env, quiet_by_default, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 2, PROG("env"), NULL);
    expect_success(r);
    cr_assert_eq(count_prefix(r.err, "rmp"), 0, "unexpected runtime output:\n%s", tail(r.err));
    run_free(&r);
}

Test(env, unknown_transport_is_refused, .timeout = 30)
{
    const char *env[] = {"RMP_TRANSPORT=carrier-pigeon", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("env"), NULL);
    cr_assert_neq(r.code, 0, "a job with RMP_TRANSPORT=carrier-pigeon succeeded");
    cr_assert(!r.timed_out, "a job with a bad RMP_TRANSPORT hung");
    cr_assert_gt(count_like(r.err, "rmp", "RMP_TRANSPORT=carrier-pigeon: expected shm, verbs or "
                                          "auto"),
                 0, "no message naming RMP_TRANSPORT:\n%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

Test(env, ring_size_out_of_range_is_refused, .timeout = 30)
{
    const char *env[] = {"RMP_SHM_RING_KB=1", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("env"), NULL);
    cr_assert_neq(r.code, 0, "a job with RMP_SHM_RING_KB=1 succeeded");
    cr_assert(!r.timed_out, "a job with a bad RMP_SHM_RING_KB hung");
    cr_assert_gt(count_like(r.err, "rmp", "RMP_SHM_RING_KB=1 out of range [16, 1048576]"), 0,
                 "no message naming RMP_SHM_RING_KB:\n%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

Test(env, transport_shm_and_auto_work, .timeout = 30)
{
    const char *names[] = {"RMP_TRANSPORT=shm", "RMP_TRANSPORT=auto"};
    for (int i = 0; i < 2; i++) {
        const char *env[] = {names[i], "RMP_SPIN_US=0", NULL};
        run_opts_t o = {.limit = 20, .env = env};
        run_result_t r = run_mrun(&o, 3, PROG("p2p"), NULL);
        expect_success(r);
        expect_line(r, out, "p2p: OK n=3", 1);
        run_free(&r);
    }
}
