/* test_launch.c — mrun's verdicts and its life cycle: the first cause of a failure is blamed
 * (not the first rank reaped), "exited without rmp_finalize" is never claimed of a rank that
 * finalized (PMIx's late upcall), signals are forwarded or end the job with nothing orphaned,
 * a SIGKILLed mrun's temp dir is removed by the next mrun, and a launcher that does not speak
 * PMIx is named instead of running N singletons. */
#include <signal.h>

#include "run.h"

/* The job r ended with `status`, blamed on rank `cause`'s exit with it, and freed r. */
static void expect_exit_blamed(run_result_t *r, int cause, int status)
{
    char prefix[32], suffix[64];
    snprintf(prefix, sizeof prefix, "mrun: rank %d (pid ", cause);
    snprintf(suffix, sizeof suffix, ") exited with status %d; terminating the job", status);
    expect_exit(*r, status);
    expect_like(*r, err, prefix, suffix, 1);
    expect_no_fail(*r);
    expect_clean(*r);
    run_free(r);
}

/* `times` jobs of prog (arg may be NULL) on n ranks: each must end with status 5, blamed on
 * rank `cause`'s exit. */
static void expect_blamed(int times, int n, int cause, const char *prog, const char *arg)
{
    for (int i = 0; i < times; i++) {
        run_opts_t o = {.limit = 20};
        run_result_t r = run_mrun(&o, n, prog, arg, NULL);
        expect_exit_blamed(&r, cause, 5);
    }
}

/* Rank 1 exits 5; the others then fail with RMP_ERR_PEER reading its memory and exit 3:
 * mrun must report rank 1's 5, whichever it reaps first. */
Test(launch, blames_the_first_cause_not_the_first_reaped, .timeout = 120)
{
    expect_blamed(10, 4, 1, PROG("fail_blame"), NULL);
}

/* Rank 0 exits 3 reporting rank 1's failure while rank 1 is still alive; rank 1 exits 5 once
 * rank 0 has: the cause is rank 1, though rank 0 is reaped first. */
Test(launch, holds_a_consequence_until_its_cause_ends, .timeout = 60)
{
    expect_blamed(5, 3, 1, PROG("fail_consequence"), NULL);
}

/* Ranks 0, 1 and 2 all report rank 3's failure before it ends: every one of them is held. */
Test(launch, holds_every_consequence_of_one_cause, .timeout = 60)
{
    expect_blamed(3, 5, 3, PROG("fail_consequence"), NULL);
}

/* The reporters end by rmp_abort, as MPI's fatal error handler does after a peer's failure:
 * PMIx's abort notice is not the verdict, the cause still is. */
Test(launch, holds_an_abort_that_follows_a_peers_failure, .timeout = 60)
{
    expect_blamed(3, 4, 2, PROG("fail_consequence"), "abort");
}

/* mrun is stopped while rank 0 (which blames rank 1) and then rank 1 exit: both are reaped in
 * one batch, rank 0 first; rank 1's verdict is not in yet when rank 0 is judged, so rank 0's
 * failure is held and rank 1 is blamed. On 4 ranks, ranks 0 and 1 blame rank 2: both held. */
Test(launch, holds_a_consequence_reaped_with_its_cause, .timeout = 60)
{
    expect_blamed(3, 3, 1, PROG("fail_consequence"), "stopped");
    expect_blamed(3, 4, 2, PROG("fail_consequence"), "stopped");
}

/* A plain PMIx client's clean exit waits for PMIx's late "finalized" while another rank
 * fails: the job ends, blaming that rank (mrun used to spin for ever: the failure stopped
 * every later verdict, and the wait for that one was never called off). */
Test(launch, fails_while_a_late_finalize_is_awaited, .timeout = 60)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 3, PROG("pmix_plain_fail"), NULL);
    expect_exit_blamed(&r, 1, 7);
}

/* The peer it blamed goes on running: after the bounded wait, the reporting rank is blamed. */
Test(launch, blames_the_reporter_when_its_peer_lives_on, .timeout = 30)
{
    run_opts_t o = {.limit = 20, .mark_when = "rank 0: exiting"};
    run_result_t r = run_mrun(&o, 3, PROG("fail_consequence"), "stays", NULL);
    expect_exit(r, 3);
    expect_like(r, err, "mrun: rank 0 (pid ", ") exited with status 3; terminating the job", 1);
    cr_assert_lt(run_since_cause(&r), 4.0, "mrun waited %.1f s for the blamed peer",
                 run_since_cause(&r));
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

/* A clean job is never failed for a finalize PMIx reports late (it used to be, now and then,
 * under load: shared measurements of PMIx 4.2.2). Many short jobs of every size. */
Test(launch, finalize_verdict_never_flaky, .timeout = 240)
{
    /* The verdict is mrun's; the ASan pass repeats it 12 times (its instrumented ranks start
     * slowly: 60 jobs were a minute of CI), the release pass 60 times. */
#if defined(__SANITIZE_ADDRESS__)
    const int jobs = 12;
#else
    const int jobs = 60;
#endif
    for (int i = 0; i < jobs; i++) {
        run_opts_t o = {.limit = 30};
        run_result_t r = run_mrun(&o, 1 + i % 6, PROG("quick"), NULL);
        expect_success(r);
        cr_assert_eq(count_prefix(r.err, "mrun:"), 0, "job %d: %s", i, tail(r.err));
        run_free(&r);
    }
}

static void forward_case(int sig, const char *name)
{
    run_opts_t o = {.limit = 20, .signal = sig, .signal_when = "ready", .signal_after_lines = 3};
    run_result_t r = run_mrun(&o, 3, PROG("sig_forward"), NULL);
    expect_success(r);
    char line[64];
    for (int rank = 0; rank < 3; rank++) {
        snprintf(line, sizeof line, "rank %d: got %s", rank, name);
        expect_line(r, out, line, 1);
    }
    run_free(&r);
}

Test(launch, sigusr1_is_forwarded_to_every_rank, .timeout = 30)
{
    forward_case(SIGUSR1, "SIGUSR1");
}

Test(launch, sigusr2_is_forwarded_to_every_rank, .timeout = 30)
{
    forward_case(SIGUSR2, "SIGUSR2");
}

/* Signals whose default would kill mrun and orphan the ranks end the job cleanly instead. */
static void ends_job_case(int sig)
{
    run_opts_t o = {.limit = 20, .signal = sig, .signal_when = "ready", .signal_after_lines = 2};
    run_result_t r = run_mrun(&o, 2, PROG("sleeper"), NULL);
    expect_exit(r, 128 + sig);
    char line[96];
    snprintf(line, sizeof line, "mrun: received signal %d (%s); terminating the job", sig,
             strsignal(sig));
    expect_line(r, err, line, 1);
    expect_clean(r);
    run_free(&r);
}

Test(launch, sigquit_ends_the_job_cleanly, .timeout = 30)
{
    ends_job_case(SIGQUIT);
}

Test(launch, sigalrm_ends_the_job_cleanly, .timeout = 30)
{
    ends_job_case(SIGALRM);
}

Test(launch, sigxcpu_ends_the_job_cleanly, .timeout = 30)
{
    ends_job_case(SIGXCPU);
}

/* mrun SIGKILLed: its ranks die with it (parent-death signal); its temp dir cannot be removed
 * by it, so the next mrun of the same user removes it. The output file exists before mrun
 * starts: the loop that waits for "ready" must not read it before the shell created it. */
Test(launch, next_mrun_removes_a_killed_mruns_temp_dir, .timeout = 60)
{
    const char *script =
        "out=$TMPDIR/out; : >$out; \"$1\" -n 2 \"$2\" >$out 2>&1 & p=$!; i=0; "
        "while [ $(grep -c ready $out) -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
        "kill -9 $p; wait $p; "
        "echo stale $(ls $TMPDIR | grep -c '^mrun\\.'); "
        "\"$1\" -n 1 \"$3\" >/dev/null 2>&1; echo status $?; "
        "echo after $(ls $TMPDIR | grep -c '^mrun\\.'); rm -f $out";
    const char *argv[] = {"/bin/sh", "-c", script, "sh", RMP_TEST_MRUN, PROG("sleeper"),
                          PROG("quick"), NULL};
    run_opts_t o = {.limit = 40};
    run_result_t r = run_cmd(&o, argv);
    expect_exit(r, 0);
    expect_line(r, out, "stale 1", 1);
    expect_line(r, out, "status 0", 1);
    expect_line(r, out, "after 0", 1);
    expect_clean(r);
    run_free(&r);
}

/* Started N times by a launcher without PMIx, each copy would be a singleton "succeeding". */
static void foreign_case(const char *var, const char *says)
{
    const char *env[] = {var, NULL};
    const char *argv[] = {PROG("quick"), NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_cmd(&o, argv);
    cr_assert_neq(r.code, 0, "started with %s, the program succeeded:\n%s", var, tail(r.out));
    cr_assert(strstr(r.err, says), "started with %s, stderr does not say \"%s\":\n%s", var,
              says, tail(r.err));
    cr_assert_eq(count_prefix(r.out, "rank "), 0, "%s", tail(r.out));
    run_free(&r);
}

Test(launch, srun_without_pmix_is_named, .timeout = 30)
{
    foreign_case("SLURM_NTASKS=4", "srun --mpi=pmix");
}

Test(launch, pmi2_launcher_is_named, .timeout = 30)
{
    foreign_case("PMI_SIZE=2", "PMI-1/PMI-2 launcher");
}

Test(launch, open_mpi_launcher_without_pmix_is_named, .timeout = 30)
{
    foreign_case("OMPI_COMM_WORLD_SIZE=2", "Open MPI");
}

/* One task under srun is a singleton as far as anyone can tell: it still runs. */
Test(launch, single_task_launcher_still_runs, .timeout = 30)
{
    const char *env[] = {"SLURM_NTASKS=1", NULL};
    const char *argv[] = {PROG("quick"), NULL};
    run_opts_t o = {.limit = 20, .env = env};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    expect_line(r, out, "rank 0 of 1 ok", 1);
    run_free(&r);
}

/* More ranks end at once than mrun reaps in one batch (64), and their SIGCHLDs coalesce into
 * one: every one must still be reaped and judged (a batch cap once left 616 zombies and mrun
 * waiting for ever). Small rings: the node holds 100 x 100 of them. */
static const char *const small_rings[] = {"RMP_SHM_RING_KB=16", NULL};

Test(launch, hundred_ranks_end_together, .timeout = 120)
{
    run_opts_t o = {.limit = 90, .env = small_rings};
    run_result_t r = run_mrun(&o, 100, PROG("quick"), NULL);
    expect_success(r);
    cr_assert_eq(count_like(r.out, "rank ", " of 100 ok"), 100, "%s", tail(r.out));
    run_free(&r);
}

Test(launch, hundred_ranks_fail_together, .timeout = 120)
{
    run_opts_t o = {.limit = 90, .env = small_rings};
    run_result_t r = run_mrun(&o, 100, PROG("fail_exit"), NULL);
    expect_exit_blamed(&r, 1, 3);
}

/* Every rank fails in rmp_init while mrun is still starting the others (rings that cannot
 * fit), so the exits pile up unreaped: the case that left zombies and a waiting mrun (n = 400
 * hung every time with a batch cap of 64; n = 150 did not show it). */
Test(launch, four_hundred_ranks_refused_at_start, .timeout = 120)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("skipped under ASan: 400 instrumented processes need several GiB; the release "
                 "run covers it");
#endif
    const char *const huge_rings[] = {"RMP_SHM_RING_KB=1048576", NULL};
    run_opts_t o = {.limit = 90, .env = huge_rings};
    run_result_t r = run_mrun(&o, 400, PROG("quick"), NULL);
    expect_exit(r, 1);
    cr_assert(strstr(r.err, "lower RMP_SHM_RING_KB"), "%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}

/* Rank 0 runs an rmp program with system(): the child inherits the rank's PMIx variables and
 * connected as a second rank 0, which then waited in the job's fence for ever (the job hung
 * until --timeout). mrun refuses it at once, in one line naming the rank, the rank's process
 * and the fix; the child's rmp_init fails with the same fix; the job goes on and succeeds. */
Test(launch, program_started_by_a_rank_is_refused_not_hung, .timeout = 60)
{
    run_opts_t o = {.limit = 30};
    run_result_t r = run_mrun(&o, 2, PROG("sysrun"), PROG("quick"), NULL);
    expect_success(r);
    expect_line(r, out, "sysrun: child exit 1", 1);
    expect_line(r, out, "sysrun: OK n=2", 1);
    expect_like(r, err, "mrun: refused a second process as rank 0: rank 0 is connected already "
                "(pid ", "); a program started by a rank is not that rank: unset the PMIX_* "
                "variables or start it with mrun", 1);
    expect_line(r, err, "rmp: mrun refused this process as rank 0: that rank is another "
                "process, connected already; a program started by a rank is not that rank: "
                "unset the PMIX_* variables or start it with mrun", 1);
    expect_line(r, err, "quick: rmp_init failed: bootstrap (PMIx) failure", 1);
    cr_assert_eq(count_prefix(r.err, "rank "), 0, "the child ran as a rank:\n%s", tail(r.out));
    run_free(&r);
}

/* The same child started by its own mrun is a job of its own, and a rank that is a wrapper
 * (a shell running the program) is still the program's first connection: both work. */
Test(launch, nested_mrun_and_wrapped_ranks_still_work, .timeout = 60)
{
    run_opts_t o = {.limit = 30};
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s -n 2 %s", RMP_TEST_MRUN, PROG("quick"));
    run_result_t r = run_mrun(&o, 2, PROG("sysrun"), cmd, NULL);
    expect_success(r);
    expect_line(r, out, "sysrun: child exit 0", 1);
    expect_line(r, out, "rank 0 of 2 ok", 1);
    expect_line(r, out, "rank 1 of 2 ok", 1);
    run_free(&r);
    r = run_mrun(&o, 2, "/bin/sh", "-c", PROG("quick") "; echo wrapped $?", NULL);
    expect_success(r);
    expect_line(r, out, "wrapped 0", 2);
    expect_line(r, out, "rank 0 of 2 ok", 1);
    run_free(&r);
}

/* Job control: SIGTSTP to mrun (Ctrl-Z) stopped mrun alone, the ranks computed on, and the
 * --timeout clock ran on. Now every rank and mrun are stopped (state T), for longer than the
 * timeout; SIGCONT resumes them all, and the job ends correctly, not timed out. (The timeout,
 * 6 s, must outlast the job's running time, start-up under ASan included.) */
Test(launch, sigtstp_stops_every_rank_and_the_timeout_clock, .timeout = 90)
{
    const char *script =
        "mrun=$1; prog=$2; n=3; t=6; out=$TMPDIR/out; flag=$TMPDIR/flag; : >$out; "
        "state() { sed 's/.*) //' /proc/$1/stat 2>/dev/null | cut -d' ' -f1; }; "
        "states() { s=''; for q in $p $pids; do s=\"$s$(state $q)\"; done; echo $s; }; "
        "\"$mrun\" --timeout $t -n $n \"$prog\" $flag >$out 2>&1 & p=$!; i=0; "
        "while [ $(grep -c '^ready ' $out) -lt $n ] && [ $i -lt 400 ]; do "
        "  sleep 0.05; i=$((i+1)); done; "
        "pids=$(sed -n 's/^ready //p' $out); echo procs $(echo $p $pids | wc -w); "
        "kill -TSTP $p; i=0; "
        "while [ \"$(states)\" != TTTT ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
        "echo stopped $(states); sleep $((t + 1)); echo still $(states); "
        "kill -CONT $p; i=0; "
        "while states | grep -q T && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
        "echo continued $(states | tr RSD rrr); touch $flag; wait $p; echo status $?; "
        "grep -v '^ready ' $out; rm -f $out $flag";
    const char *argv[] = {"/bin/sh", "-c", script, "sh", RMP_TEST_MRUN, PROG("stoppable"),
                          NULL};
    run_opts_t o = {.limit = 60};
    run_result_t r = run_cmd(&o, argv);
    expect_exit(r, 0);
    expect_line(r, out, "procs 4", 1);
    expect_line(r, out, "stopped TTTT", 1);
    expect_line(r, out, "still TTTT", 1);
    expect_line(r, out, "continued rrrr", 1);
    expect_line(r, out, "status 0", 1);
    expect_line(r, out, "stoppable: OK n=3", 1);
    expect_no_fail(r);
    cr_assert_eq(count_prefix(r.out, "mrun:") + count_prefix(r.err, "mrun:"), 0, "%s%s",
                 tail(r.out), tail(r.err));
    expect_clean(r);
    run_free(&r);
}

/* A rank that dies while connecting made PMIx's server print "PMIX ERROR: UNREACHABLE in file
 * ...ptl_base_connection_hdlr.c at line 388" on mrun's stderr: PMIx's own lines are not
 * shown (mrun says what failed in its own words). */
Test(launch, pmix_own_error_lines_do_not_leak, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 1, PROG("pmix_gone"), NULL);
    /* Whether PMIx's server reported the half-made connection before the process ended is a
     * race: if it did, the rank is a client that never finalized, and mrun says so (status 1,
     * one line of its own); if not, a plain program that exited 0. Both are right; what this
     * test is about is that PMIx's own lines stay out. */
    if (r.code != 0 || r.timed_out) {
        expect_exit(r, 1);
        expect_line(r, err, "mrun: rank 0 exited without calling rmp_finalize; terminating the job",
                    1);
    } else {
        expect_exit(r, 0);
    }
    expect_line(r, out, "gone", 1);
    cr_assert(!strstr(r.err, "PMIX ERROR") && !strstr(r.err, "ptl_base"), "%s", tail(r.err));
    expect_clean(r);
    run_free(&r);
}
