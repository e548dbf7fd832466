/* test_rma_fault.c — one-sided communication when things go wrong between jobs and ranks:
 *   rma_fault/killed_*   tests/progs/rma_kill: a window's target SIGKILLed during an epoch
 *                        (a lock held with operations in flight; a fence; the lock the dead
 *                        rank holds, waited for), on the DIRECT path (one node) and the
 *                        active-message path (RMP_RMA_PATH=am), allocate and create windows:
 *                        the origins see success or RMP_ERR_PEER (anything else is a FAIL line),
 *                        mrun ends the job naming the killed rank, exit 137, promptly, and
 *                        nothing of the job survives (no /dev/shm segment either)
 *   rma_fault/two_jobs*  tests/progs/rma_jobs: two mrun jobs at once, each hammering windows of
 *                        every flavor; both exact, and neither job's segments remain
 * (Over verbs across virtual nodes: the VM suite's rma-kill-* and rma-two-jobs cases.) */
#include <dirent.h>

#include "run.h"

#define FAIL_LIMIT 10.0 /* seconds from the kill to mrun's exit */

static void killed(int n, const char *mode, const char *flavor, bool am)
{
    const char *env_am[] = {"RMP_RMA_PATH=am", NULL};
    run_opts_t o = {.limit = 45, .env = am ? env_am : NULL, .mark_when = "rank "};
    run_result_t r = run_mrun(&o, n, PROG("rma_kill"), mode, flavor, NULL);
    expect_exit(r, 128 + 9);
    char line[96], who[64];
    snprintf(line, sizeof line, "rank %d: raising SIGKILL", n - 1);
    expect_line(r, out, line, 1);
    snprintf(who, sizeof who, "mrun: rank %d (pid ", n - 1);
    expect_like(r, err, who, ") killed by signal 9 (Killed); terminating the job", 1);
    cr_assert_lt(run_since_cause(&r), FAIL_LIMIT, "mrun took %.1f s to end the job after the "
                 "kill", run_since_cause(&r));
    expect_no_fail(r);
    expect_clean(r);
    run_free(&r);
}

Test(rma_fault, killed_lock_allocate_n3, .timeout = 60) { killed(3, "lock", "allocate", false); }
Test(rma_fault, killed_lock_create_n4, .timeout = 60) { killed(4, "lock", "create", false); }
Test(rma_fault, killed_lock_shared_n2, .timeout = 60) { killed(2, "lock", "shared", false); }
Test(rma_fault, killed_fence_allocate_n3, .timeout = 60) { killed(3, "fence", "allocate", false); }
Test(rma_fault, killed_lockwait_create_n3, .timeout = 60) { killed(3, "lockwait", "create", false); }
Test(rma_fault, killed_lockwait_allocate_n4, .timeout = 60)
{
    killed(4, "lockwait", "allocate", false);
}
Test(rma_fault, killed_am_lock_allocate_n3, .timeout = 60) { killed(3, "lock", "allocate", true); }
Test(rma_fault, killed_am_fence_create_n3, .timeout = 60) { killed(3, "fence", "create", true); }
Test(rma_fault, killed_am_lockwait_allocate_n3, .timeout = 60)
{
    killed(3, "lockwait", "allocate", true);
}

/* Two jobs through one shell: each job's exit status, its mrun's pid (its /dev/shm namespace
 * is rmp.mrun-<pid>), then the rendezvous files removed. */
static void two_jobs(int n, bool am)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "%s%s -n %d %s 1 2 \"$TMPDIR\" & a=$!; %s -n %d %s 2 1 \"$TMPDIR\" & b=$!; "
             "wait $a; ra=$?; wait $b; rb=$?; rm -f \"$TMPDIR\"/rma_jobs.ready.*; "
             "echo \"jobs: $ra $rb pids: $a $b\"; [ $ra = 0 ] && [ $rb = 0 ]",
             am ? "RMP_RMA_PATH=am " : "", RMP_TEST_MRUN, n, PROG("rma_jobs"), RMP_TEST_MRUN, n,
             PROG("rma_jobs"));
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    run_opts_t o = {.limit = 150};
    run_result_t r = run_cmd(&o, argv);
    expect_success(r);
    expect_line(r, out, "rma_jobs 1: OK", 1);
    expect_line(r, out, "rma_jobs 2: OK", 1);
    char buf[128];
    const char *l = find_prefix(r.out, "jobs: ", buf, sizeof buf);
    int ra = -1, rb = -1, pa = 0, pb = 0;
    cr_assert(l && sscanf(l, "jobs: %d %d pids: %d %d", &ra, &rb, &pa, &pb) == 4,
              "no \"jobs:\" line:\n%s", tail(r.out));
    DIR *d = opendir("/dev/shm");
    cr_assert(d, "cannot read /dev/shm");
    char na[64], nb[64];
    snprintf(na, sizeof na, "rmp.mrun-%d", pa);
    snprintf(nb, sizeof nb, "rmp.mrun-%d", pb);
    for (struct dirent *e; (e = readdir(d));)
        cr_expect(strncmp(e->d_name, na, strlen(na)) && strncmp(e->d_name, nb, strlen(nb)),
                  "left in /dev/shm: %s", e->d_name);
    closedir(d);
    run_free(&r);
}

Test(rma_fault, two_jobs_n3, .timeout = 180)
{
    two_jobs(3, false);
}

Test(rma_fault, two_jobs_am_n2, .timeout = 180)
{
    two_jobs(2, true);
}
