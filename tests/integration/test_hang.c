/* test_hang.c — erroneous programs get a diagnosis (issue 21, items 8 and 9): a job hung in a
 * barrier says, rank by rank, where it waits (mrun --timeout asks; RMP_HANG_REPORT=S says it
 * after S seconds without mrun asking); RMP_CHECK_COLLECTIVES=1 fails a job whose ranks call
 * mismatched collectives, naming both ranks and their arguments; without the check such a
 * call fails on every rank rather than returning success; rmp_finalize with a rendezvous send
 * nobody receives ends within RMP_FINALIZE_TIMEOUT, naming the peer and the tag. The programs
 * are tests/progs/erroneous.c. */
#include "run.h"

#define WAITING "rmp[%d]: hang report: in rmp_barrier for "
#define OUTSIDE "rmp[%d]: hang report: not waiting in rmp (running the program's own code, " \
                "or blocked outside rmp)"

/* Rank `rank`'s report line names the barrier, the communicator, its sequence number and
 * `peer` as the rank it waits for. */
static void expect_waits(const run_result_t *r, int rank, int peer, const char *round)
{
    char pre[96], suf[160];
    snprintf(pre, sizeof pre, WAITING, rank);
    snprintf(suf, sizeof suf, "on RMP_COMM_WORLD (context 0), collective seq 0%s: waiting for "
             "rank %d", round, peer);
    cr_expect_eq(count_like(r->err, pre, suf), 1, "rank %d's line (...%s) is missing:\n%s",
                 rank, suf, tail(r->err));
}

static void expect_outside(const run_result_t *r, int rank)
{
    char line[160];
    snprintf(line, sizeof line, OUTSIDE, rank);
    cr_expect_eq(count_lines(r->err, line), 1, "no line '%s':\n%s", line, tail(r->err));
}

/* mrun --timeout 3 -n N erroneous barrier_missing */
static run_result_t run_timeout(const char *n, const char *const *env)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", n, "--timeout", "3", PROG("erroneous"),
                          "barrier_missing", NULL};
    run_opts_t o = {.limit = 25, .env = env};
    return run_cmd(&o, argv);
}

/* --timeout ends the job: every rank in the barrier names the one that never came (the
 * shared-memory area shows each member's arrival), and that one says it is not in rmp. */
Test(hang, timeout_reports_barrier_shm, .timeout = 40)
{
    run_result_t r = run_timeout("3", NULL);
    cr_assert_eq(r.code, 124, "status %d\n%s", r.code, tail(r.err));
    expect_waits(&r, 0, 2, "");
    expect_waits(&r, 1, 2, "");
    expect_outside(&r, 2);
    expect_line(r, err, "mrun: job timed out after 3 s; terminating 3 ranks", 1);
    expect_clean(r);
    run_free(&r);
}

/* The same through the software schedule (dissemination): rank 0 waits for the missing rank 3
 * in the first round; everyone in the barrier says so, with its round. */
Test(hang, timeout_reports_barrier_schedule, .timeout = 40)
{
    const char *env[] = {"RMP_SHM_COLL=0", NULL};
    run_result_t r = run_timeout("4", env);
    cr_assert_eq(r.code, 124, "status %d\n%s", r.code, tail(r.err));
    expect_waits(&r, 0, 3, ", round 1 of 2");
    expect_waits(&r, 1, 3, ", round 2 of 2");
    expect_waits(&r, 2, 0, ", round 2 of 2");
    expect_outside(&r, 3);
    expect_clean(r);
    run_free(&r);
}

/* No --timeout and no mrun asking: RMP_HANG_REPORT=2 makes the waiting ranks report on their
 * own (as under srun); the test's own limit then kills the job. */
Test(hang, hang_report_knob_without_timeout, .timeout = 40)
{
    const char *env[] = {"RMP_HANG_REPORT=2", NULL};
    run_opts_t o = {.limit = 6, .env = env};
    run_result_t r = run_mrun(&o, 3, PROG("erroneous"), "barrier_missing", NULL);
    cr_assert(r.timed_out, "the job ended by itself (status %d)\n%s", r.code, tail(r.err));
    expect_waits(&r, 0, 2, "");
    expect_waits(&r, 1, 2, "");
    cr_expect_eq(count_prefix(r.err, "rmp[2]: hang report:"), 0, "%s", tail(r.err));
    run_free(&r);
}

static void expect_mismatch(const char *what, const char *line)
{
    const char *env[] = {"RMP_CHECK_COLLECTIVES=1", NULL};
    run_opts_t o = {.limit = 25, .env = env};
    run_result_t r = run_mrun(&o, 3, PROG("erroneous"), what, NULL);
    expect_exit(r, 1);
    expect_line(r, err, line, 1);
    expect_line(r, err, "mrun: rank 0 called rmp_abort with code 1; terminating the job", 1);
    cr_expect_eq(count_like(r.out, "rank ", "returned 0, result 3"), 0, "%s", tail(r.out));
    expect_clean(r);
    run_free(&r);
}

#define MISMATCH "rmp[0]: collective mismatch on RMP_COMM_WORLD (context 0), collective seq 0 " \
                 "(RMP_CHECK_COLLECTIVES): "

Test(hang, check_allreduce_counts, .timeout = 40)
{
    expect_mismatch("allreduce_count", MISMATCH "rank 0 called allreduce (4 bytes per block, "
                    "RMP_SUM on RMP_INT32) but rank 1 called allreduce (8 bytes per block, "
                    "RMP_SUM on RMP_INT32)");
}

Test(hang, check_iallreduce_counts, .timeout = 40)
{
    expect_mismatch("ibarrier_count", MISMATCH "rank 0 called allreduce (4 bytes per block, "
                    "RMP_SUM on RMP_INT32) but rank 1 called allreduce (8 bytes per block, "
                    "RMP_SUM on RMP_INT32)");
}

Test(hang, check_barrier_against_allreduce, .timeout = 40)
{
    expect_mismatch("barrier_allreduce", MISMATCH "rank 0 called barrier (0 bytes per block) "
                    "but rank 1 called allreduce (4 bytes per block, RMP_SUM on RMP_INT32)");
}

/* Without the check: the shared-memory area sees the mismatch as it counts the ranks in, and
 * every rank's call fails (before, all returned 0 with a wrong result). */
static void unchecked(const char *what, const char *fails)
{
    run_opts_t o = {.limit = 25};
    run_result_t r = run_mrun(&o, 3, PROG("erroneous"), what, NULL);
    expect_exit(r, 0);
    cr_expect_eq(count_like(r.out, "rank ", fails), 3, "%s", tail(r.out));
    cr_expect_eq(count_like(r.err, "rmp[", "called different collectives, or one with "
                            "different sizes, at the same point: each call fails with "
                            "RMP_ERR_ARG (RMP_CHECK_COLLECTIVES=1 names the ranks)"), 1,
                 "%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

Test(hang, unchecked_allreduce_counts_fail, .timeout = 40)
{
    unchecked("allreduce_count", "returned -1, result -1");
}

Test(hang, unchecked_barrier_against_allreduce_fails, .timeout = 40)
{
    unchecked("barrier_allreduce", "returned -1, result -1");
}

/* A rendezvous send nobody receives: rmp_finalize gives up after RMP_FINALIZE_TIMEOUT, names
 * the peer and the tag, and returns an error (the program exits 3). */
Test(hang, finalize_unmatched_rendezvous_bounded, .timeout = 40)
{
    const char *env[] = {"RMP_FINALIZE_TIMEOUT=2", NULL};
    run_opts_t o = {.limit = 25, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("erroneous"), "finalize_rndv", NULL);
    expect_exit(r, 3);
    expect_line(r, err, "rmp[0]: rmp_finalize: gave up after 2 s (RMP_FINALIZE_TIMEOUT) on what "
                "no peer took: a send of 1048576 bytes on RMP_COMM_WORLD (context 0): waiting "
                "for rank 1 to receive it (tag 7)", 1);
    expect_line(r, out, "rank 0: rmp_finalize returned -31", 1);
    cr_expect_lt(r.elapsed, 15, "took %.1f s", r.elapsed);
    expect_clean(r);
    run_free(&r);
}
