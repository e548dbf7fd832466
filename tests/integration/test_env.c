/* test_env.c — the RMP_* environment variables: RMP_VERBOSE explains the choices on stderr,
 * invalid values are refused by rmp_init with one line naming the variable, the value and what
 * is accepted (and the job fails cleanly), valid ones (suffixes included) are taken, misspelt
 * names are warned about. */
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

/* A job whose environment holds `assign` fails with status 1, its stderr has `message` exactly
 * once (rank 0 prints it for the job), and nothing is left behind. */
static void refused(const char *assign, const char *message)
{
    const char *env[] = {assign, NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 3, PROG("env"), NULL);
    expect_exit(r, 1);
    expect_line(r, err, message, 1);
    cr_assert_eq(count_prefix(r.err, "rmp"), 1, "other runtime lines besides the one naming "
                 "the variable:\n%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

Test(env, eager_limit_negative_is_refused, .timeout = 30)
{
    refused("RMP_EAGER_LIMIT=-5",
            "rmp: RMP_EAGER_LIMIT=-5 is not valid: expected a size from 0 to 1 MiB (suffixes k, m)");
}

Test(env, eager_limit_overflow_is_refused, .timeout = 60)
{
    refused("RMP_EAGER_LIMIT=99999999999999999999",
            "rmp: RMP_EAGER_LIMIT=99999999999999999999 is not valid: expected a size from 0 to "
            "1 MiB (suffixes k, m)");
    /* fits in 64 bits, overflows once the suffix multiplies it */
    refused("RMP_EAGER_LIMIT=18014398509481984k",
            "rmp: RMP_EAGER_LIMIT=18014398509481984k is not valid: expected a size from 0 to "
            "1 MiB (suffixes k, m)");
    refused("RMP_EAGER_LIMIT=2m",
            "rmp: RMP_EAGER_LIMIT=2m is not valid: expected a size from 0 to 1 MiB (suffixes k, m)");
}

Test(env, trailing_garbage_is_refused, .timeout = 60)
{
    refused("RMP_EAGER_LIMIT=12abc",
            "rmp: RMP_EAGER_LIMIT=12abc is not valid: expected a size from 0 to 1 MiB (suffixes "
            "k, m)");
    refused("RMP_SPIN_US=10 ", "rmp: RMP_SPIN_US=10  is not valid: expected an integer from 0 "
                               "to 1000000");
    refused("RMP_SPIN_US=0x10", "rmp: RMP_SPIN_US=0x10 is not valid: expected an integer from 0 "
                                "to 1000000");
    /* a newline in the value does not break the message's one line */
    refused("RMP_SPIN_US=1\n2", "rmp: RMP_SPIN_US=1?2 is not valid: expected an integer from 0 "
                                "to 1000000");
}

Test(env, cma_out_of_range_is_refused, .timeout = 30)
{
    refused("RMP_CMA=-1", "rmp: RMP_CMA=-1 is not valid: expected 0 or 1");
    refused("RMP_CMA=2", "rmp: RMP_CMA=2 is not valid: expected 0 or 1");
}

Test(env, spin_negative_is_refused, .timeout = 30)
{
    refused("RMP_SPIN_US=-5",
            "rmp: RMP_SPIN_US=-5 is not valid: expected an integer from 0 to 1000000");
}

/* verbs is not used here (one node), and its knobs are refused all the same. */
Test(env, verbs_knobs_are_checked_without_verbs, .timeout = 60)
{
    refused("RMP_VERBS_SRQ=abc",
            "rmp: RMP_VERBS_SRQ=abc is not valid: expected an integer from 256 to 4096");
    refused("RMP_CM=tcp", "rmp: RMP_CM=tcp is not valid: expected one of: ibv, rdmacm");
    refused("RMP_DEVICE=mlx5_0:0", "rmp: RMP_DEVICE=mlx5_0:0 is not valid: expected a device "
                                   "name[:port] (port from 1 to 255), e.g. mlx5_0 or rxe0:1");
}

Test(env, unknown_device_is_refused, .timeout = 30)
{
    const char *env[] = {"RMP_DEVICE=foo", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("env"), NULL);
    expect_exit(r, 1);
    /* "(this machine has none)" here, "(this machine has: rxe0)" in the VM */
    cr_assert_eq(count_like(r.err, "rmp: RMP_DEVICE=foo: no RDMA device named foo (this machine "
                                   "has ", ")"),
                 1, "no single line refusing RMP_DEVICE=foo:\n%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

Test(env, unknown_transport_is_refused, .timeout = 30)
{
    refused("RMP_TRANSPORT=carrier-pigeon", "rmp: RMP_TRANSPORT=carrier-pigeon is not valid: "
                                            "expected one of: auto, shm, verbs");
}

Test(env, ring_size_out_of_range_is_refused, .timeout = 30)
{
    refused("RMP_SHM_RING_KB=1",
            "rmp: RMP_SHM_RING_KB=1 is not valid: expected an integer from 16 to 1048576");
}

Test(env, collective_knobs_are_refused_at_init, .timeout = 60)
{
    refused("RMP_COLL_BCAST=fastest", "rmp: RMP_COLL_BCAST=fastest is not valid: expected one "
                                      "of: auto, binomial, scatter_allgather, pipelined_chain, "
                                      "pipelined_tree, direct");
    refused("RMP_COLL_SEGMENT=0", "rmp: RMP_COLL_SEGMENT=0 is not valid: expected a size from "
                                  "1 to 1 GiB (suffixes k, m, g)");
    refused("RMP_COLL_BCAST_LARGE=1t", "rmp: RMP_COLL_BCAST_LARGE=1t is not valid: expected a "
                                       "size from 0 to 1 TiB (suffixes k, m, g)");
}

/* Without a launcher (a singleton) the refusal is the same. */
Test(env, singleton_refuses_too, .timeout = 30)
{
    const char *env[] = {"RMP_CMA=yes", NULL};
    const char *argv[] = {PROG("env"), NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_cmd(&o, argv);
    expect_exit(r, 1);
    expect_line(r, err, "rmp: RMP_CMA=yes is not valid: expected 0 or 1", 1);
    expect_line(r, out, "FAIL rank -1: tests/progs/env.c:8: rmp_init(&argc, &argv) returned -1 "
                        "(invalid argument); giving up", 1);
    run_free(&r);
}

/* Valid values, suffixes included, are taken (RMP_VERBOSE says as what) and the job runs. */
Test(env, valid_values_with_suffixes_are_accepted, .timeout = 30)
{
    const char *env[] = {"RMP_VERBOSE=1", "RMP_EAGER_LIMIT=1k", "RMP_COLL_ALLREDUCE_LARGE=1G",
                         "RMP_COLL_BCAST_LARGE=64m", "RMP_CMA=0", "RMP_SPIN_US=0",
                         "RMP_SHM_RING_KB=16", "RMP_VERBS_SRQ=4096", "RMP_CM=rdmacm",
                         "RMP_COLL_ALLREDUCE=ring", "RMP_TRANSPORT=auto", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 3, PROG("p2p"), NULL);
    expect_success(r);
    expect_line(r, out, "p2p: OK n=3", 1);
    expect_line(r, err, "rmp[2]: RMP_EAGER_LIMIT=1k: 1024 bytes", 1);
    expect_line(r, err, "rmp[2]: RMP_COLL_ALLREDUCE_LARGE=1G: 1073741824 bytes", 1);
    expect_line(r, err, "rmp[2]: RMP_COLL_BCAST_LARGE=64m: 67108864 bytes", 1);
    expect_line(r, err, "rmp[2]: RMP_COLL_ALLREDUCE=ring", 1);
    run_free(&r);
}

/* A name one letter off a knob is a warning (once per job), not an error. */
Test(env, misspelt_knob_is_a_warning, .timeout = 30)
{
    const char *env[] = {"RMP_EAGERLIMIT=5", "RMP_SPINUS=3", "RMP_TEST_SOMETHING_ELSE=1", NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_mrun(&o, 3, PROG("env"), NULL);
    expect_success(r);
    expect_line(r, err, "rmp: warning: RMP_EAGERLIMIT is not an rmp variable (ignored); did you "
                        "mean RMP_EAGER_LIMIT?", 1);
    expect_line(r, err, "rmp: warning: RMP_SPINUS is not an rmp variable (ignored); did you mean "
                        "RMP_SPIN_US?", 1);
    cr_assert_eq(count_prefix(r.err, "rmp"), 2, "other runtime lines:\n%s", tail(r.err));
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

/* `coll allreduce` on 2 ranks with RMP_VERBOSE=1 (and `extra`): each rank must say once
 * "offload: allreduce on a communicator of 2 (context 0) " followed by `how` (a NULL how:
 * nothing more to check). */
static run_result_t world_allreduce_says(const char *extra, const char *how)
{
    const char *env[] = {"RMP_VERBOSE=1", extra, NULL};
    run_opts_t o = {.limit = 50, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("coll"), "allreduce", NULL);
    expect_success(r);
    for (int rank = 0; rank < 2 && how; rank++) {
        char line[192];
        snprintf(line, sizeof(line), "rmp[%d]: offload: allreduce on a communicator of 2 "
                 "(context 0) %s", rank, how);
        cr_assert_eq(count_lines(r.err, line), 1, "rank %d, '%s':\n%s", rank, how,
                     tail(r.err));
    }
    return r;
}

/* RMP_VERBOSE says once per rank, communicator and collective where a collective runs and
 * why: in shared memory on one node, else the software schedule with each backend's reason. */
Test(env, verbose_says_where_collectives_run, .timeout = 60)
{
    run_result_t r = world_allreduce_says(NULL, "runs in shared memory (shm)");
    run_free(&r);
    /* the same run's vectors past a channel go as messages; single-rank communicators too */
    r = world_allreduce_says(NULL, "runs the software schedule: shm: 4000 bytes are more than "
                             "a channel's 2048");
    for (int rank = 0; rank < 2; rank++) {
        char line[96];
        snprintf(line, sizeof(line), "rmp[%d]: offload: allreduce on a communicator of 1 ", rank);
        cr_assert_eq(count_like(r.err, line, "runs the software schedule: a single rank"), 1,
                     "rank %d:\n%s", rank, tail(r.err));
    }
    run_free(&r);
}

/* RMP_SHM_COLL=0 keeps every collective on messages, and says so. */
Test(env, shm_coll_off_is_said, .timeout = 60)
{
    run_result_t r =
        world_allreduce_says("RMP_SHM_COLL=0", "runs the software schedule: shm: RMP_SHM_COLL=0");
    cr_assert_null(strstr(r.err, "runs in shared memory"), "%s", tail(r.err));
    run_free(&r);
}
