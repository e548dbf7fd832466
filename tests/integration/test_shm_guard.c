/* test_shm_guard.c — the shm transport against what another process of the node can do, and
 * against what the node cannot hold: doorbell names nobody can squat, junk datagrams that change
 * nothing, no segment left in /dev/shm by ranks that abort under a launcher other than mrun, and
 * rings that would not fit refused before anything is created. (Attacks by a second user are
 * in the security tests; these prove the mechanism as the same user.) */
#include "run.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- junk on a doorbell ---------------------------------------------------------------------- */

/* A process of the same user that is no rank floods rank 0's doorbell while the two ranks
 * exchange 200 checked messages with rank 0 asleep between them: every message arrives, the
 * job ends normally, and rank 0 names the stranger once (rank 1, a real peer, is never named). */
Test(shm_guard, junk_datagrams_ignored, .timeout = 60)
{
    const char *env[] = {"RMP_SPIN_US=0", NULL};
    run_opts_t o = {.limit = 45, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("shm_junk"), NULL);
    expect_success(r);
    expect_line(r, out, "junk: OK", 1);
    expect_like(r, out, "flooder: sent ", " refused: queue full)", 1);
    char line[160], want[400];
    long sent = 0, full = 0;
    find_prefix(r.out, "flooder: sent ", line, sizeof line);
    cr_assert_eq(sscanf(line, "flooder: sent %ld datagrams (%ld refused", &sent, &full), 2, "%s",
                 line);
    /* A queue kept full: rank 1 rang into it all along, and was never blocked. */
    cr_assert(sent > 0 && full > 0, "the flood never filled the queue: %s", line);
    cr_assert_not_null(find_prefix(r.out, "rank 1: flooder pid ", line, sizeof line),
                       "no flooder pid:\n%s", tail(r.out));
    snprintf(want, sizeof want, "rmp[0]: shm: ignoring datagrams on my doorbell from pid %s "
             "(uid %u): not a rank of this job (said once; they cannot alter data, only wake me)",
             line + strlen("rank 1: flooder pid "), (unsigned)getuid());
    expect_line(r, err, want, 1);
    expect_like(r, err, "rmp[1]: shm: ignoring", "", 0);
    run_free(&r);
}

/* ---- squatted names ------------------------------------------------------------------------- */

#define SQUAT_PIDS 2500 /* the next pids of the machine, each with the names of ranks 0 and 1 */

/* Bind "rmp.mrun-<pid>.<rank>" (the doorbell names of rmp before they became random) for the
 * next SQUAT_PIDS pids: the first of the range in *first. Returns the sockets bound. */
static int squat_old_names(int *fds, int max, long *first)
{
    long last = 0, pid_max = 32768;
    FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "r");
    cr_assert_not_null(f, "/proc/sys/kernel/ns_last_pid: %s", strerror(errno));
    cr_assert_eq(fscanf(f, "%ld", &last), 1);
    fclose(f);
    if ((f = fopen("/proc/sys/kernel/pid_max", "r"))) {
        if (fscanf(f, "%ld", &pid_max) != 1)
            pid_max = 32768;
        fclose(f);
    }
    *first = last + 1;
    int n = 0;
    for (long k = 1; k <= SQUAT_PIDS && n + 2 <= max; k++) {
        long pid = (last + k) % pid_max;
        for (int rank = 0; rank < 2; rank++) {
            struct sockaddr_un sa = {.sun_family = AF_UNIX};
            int len = snprintf(sa.sun_path + 1, sizeof sa.sun_path - 1, "rmp.mrun-%ld.%d",
                               pid, rank);
            int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
            socklen_t sl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);
            cr_assert_eq(bind(fd, (struct sockaddr *)&sa, sl), 0, "bind @%s: %s",
                         sa.sun_path + 1, strerror(errno));
            fds[n++] = fd;
        }
    }
    return n;
}

/* Someone bound the doorbell names the next jobs would have used: the job does not care. The
 * job's mrun pid (from the verbose segment name) must fall in the squatted range, or the run
 * proved nothing and is repeated. */
Test(shm_guard, old_doorbell_names_squatted, .timeout = 120)
{
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    rl.rlim_cur = rl.rlim_max < 2 * SQUAT_PIDS + 64 ? rl.rlim_max : 2 * SQUAT_PIDS + 64;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
    int max = (int)rl.rlim_cur - 64;
    int *fds = malloc(sizeof(int) * (size_t)max);
    cr_assert_not_null(fds);
    bool covered = false;
    for (int attempt = 0; attempt < 3 && !covered; attempt++) {
        long first;
        int n = squat_old_names(fds, max, &first);
        const char *env[] = {"RMP_VERBOSE=1", NULL};
        run_opts_t o = {.limit = 30, .env = env};
        run_result_t r = run_mrun(&o, 2, PROG("pingpong"), "1", "4k", NULL);
        expect_success(r);
        char line[512];
        long pid = -1;
        cr_assert_not_null(find_prefix(r.err, "rmp[0]: shm: segment /rmp.mrun-", line,
                                       sizeof line), "no segment line:\n%s", tail(r.err));
        cr_assert_eq(sscanf(line, "rmp[0]: shm: segment /rmp.mrun-%ld-r0.", &pid), 1, "%s", line);
        covered = pid >= first && pid < first + n / 2;
        run_free(&r);
        for (int i = 0; i < n; i++)
            close(fds[i]);
    }
    free(fds);
    cr_assert(covered, "the machine started more than %d processes during each of 3 jobs: the "
              "squatted range never held mrun's pid", SQUAT_PIDS);
}

/* ---- no leftovers under another launcher ------------------------------------------------- */

/* Segments /dev/shm/rmp.<nspace>-r* of the job whose namespace the program printed. */
static int count_job_segments(const run_result_t *r, char *names, size_t len)
{
    char line[300], ns[256];
    if (!find_prefix(r->out, "nspace ", line, sizeof line) || sscanf(line, "nspace %255s", ns) != 1)
        return -1;
    for (char *c = ns; *c; c++) /* as shm.c's job_tag keeps names */
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '_' || *c == '.' || *c == '-'))
            *c = '_';
    char prefix[300];
    int plen = snprintf(prefix, sizeof prefix, "rmp.%s-r", ns), n = 0;
    DIR *d = opendir("/dev/shm");
    cr_assert_not_null(d);
    struct dirent *e;
    names[0] = '\0';
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, prefix, (size_t)plen))
            continue;
        n++;
        size_t used = strlen(names);
        snprintf(names + used, len - used, " %s", e->d_name);
        char path[300];
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        unlink(path); /* the next trial starts clean either way */
    }
    closedir(d);
    return n;
}

/* Under Open MPI's mpirun (no sweep of /dev/shm by rmp's own launcher), rank 0 ends the job
 * right after rmp_init, while its peers may still be mapping the segments: nothing may stay. */
static void ended_early_under_mpirun(const char *how, int trials)
{
    char mpirun[512];
    if (!run_find_mpirun(mpirun, sizeof mpirun))
        cr_skip_test("mpirun (Open MPI) is not installed: apt-get install openmpi-bin");
    for (int t = 0; t < trials; t++) {
        const char *argv[] = {mpirun, "--oversubscribe", "-n", "8", PROG("shm_early_end"), how,
                              "0", NULL, NULL};
        if (geteuid() == 0) { /* Open MPI refuses root without it */
            memmove(argv + 2, argv + 1, sizeof(argv[0]) * 7);
            argv[1] = "--allow-run-as-root";
        }
        run_opts_t o = {.limit = 30};
        run_result_t r = run_cmd(&o, argv);
        cr_assert(!r.timed_out, "mpirun hung:\n%s\n%s", tail(r.out), tail(r.err));
        cr_assert_neq(r.code, 0, "the job should have failed:\n%s", tail(r.err));
        char names[1024];
        int left = count_job_segments(&r, names, sizeof names);
        cr_assert_geq(left, 0, "the program printed no namespace:\n%s", tail(r.out));
        cr_assert_eq(left, 0, "trial %d of %s: the ranks left%s", t + 1, how, names);
        run_free(&r);
    }
}

Test(shm_guard, abort_under_mpirun_leaves_nothing, .timeout = 240)
{
    ended_early_under_mpirun("abort", 12);
}

Test(shm_guard, exit_without_finalize_under_mpirun_leaves_nothing, .timeout = 240)
{
    ended_early_under_mpirun("exit", 6);
}

/* ---- rings the node cannot hold ---------------------------------------------------------- */

/* With the largest rings (1 GiB), each rank's segment holds its 4 outgoing fast rings and its
 * queue: n ranks need n x (4 GiB + 1 MiB). Take the smallest n above all of /dev/shm and of
 * the available memory. rmp_init fails with RMP_ERR_NO_MEM (-14) on every rank
 * that gets to say it, local rank 0 alone says why, and nothing was created. */
Test(shm_guard, rings_that_do_not_fit_refused, .timeout = 60)
{
    struct statvfs v;
    cr_assert_eq(statvfs("/dev/shm", &v), 0, "statvfs /dev/shm: %s", strerror(errno));
    uint64_t room = (uint64_t)v.f_bavail * v.f_frsize, mem = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    cr_assert_not_null(f);
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNu64, &mem) == 1)
            break;
    fclose(f);
    mem *= 1024;
    if (mem > room)
        room = mem;
    int n = 2;
    while ((uint64_t)n * (4ull << 30) <= room)
        n++;
    if (n > 32)
        cr_skip_test("this machine holds %" PRIu64 " GiB: refusing it would take %d ranks",
                     room >> 30, n);
    const char *env[] = {"RMP_SHM_RING_KB=1048576", NULL};
    run_opts_t o = {.limit = 40, .env = env};
    char ns[16];
    snprintf(ns, sizeof ns, "%d", n);
    run_result_t r = run_mrun(&o, n, PROG("shm_early_end"), "init", NULL);
    expect_exit(r, 1);
    expect_clean(r);
    /* mrun ends the job at the first rank's exit: the others may not get to print. */
    int failed = count_like(r.out, "rank ", ": rmp_init returned -14");
    cr_assert(failed >= 1 && failed == count_prefix(r.out, "rank "),
              "every rank that reports must report RMP_ERR_NO_MEM:\n%s", tail(r.out));
    char says[96];
    snprintf(says, sizeof says, "]: shm: the %d ranks on this node need ", n);
    cr_assert(strstr(r.err, says), "no rank said why:\n%s", tail(r.err));
    /* Each rank that gets to it says why (whichever exits first ends the job), and nothing
     * else: no generic "rmp_init failed" line after the reason. */
    int why = count_like(r.err, "rmp[", "; lower RMP_SHM_RING_KB (now 1048576) or start fewer "
                                         "ranks per node");
    cr_assert(why >= 1 && why == count_prefix(r.err, "rmp["),
              "every rank that fails must say why, once:\n%s", tail(r.err));
    run_free(&r);
}

/* ---- a private /dev/shm: the guard judges the node once ------------------------------------ */

/* This test's own /dev/shm, `mib` MiB large, in a private mount namespace (the test's process
 * only: Criterion runs each test in its own). Skipped, with the reason, when not root. */
static void private_dev_shm(int mib)
{
    if (geteuid() != 0)
        cr_skip_test("skipped: a private /dev/shm needs root (unshare -m, mount tmpfs)");
    if (unshare(CLONE_NEWNS) != 0)
        cr_skip_test("skipped: unshare(CLONE_NEWNS): %s", strerror(errno));
    cr_assert_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0,
                 "making / private: %s", strerror(errno));
    char opts[32];
    snprintf(opts, sizeof opts, "size=%dm,mode=1777", mib);
    cr_assert_eq(mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, opts), 0,
                 "mount tmpfs on /dev/shm: %s", strerror(errno));
}

/* The case: 256 ranks need 528 MiB, a third of a 1.5 GiB /dev/shm; each rank used to
 * compare that with what was still free after its peers had created theirs, and rank 232
 * refused. The guard now judges the figures mrun measured before any rank started. */
Test(shm_guard, fits_in_private_dev_shm_at_256_ranks, .timeout = 400)
{
#if defined(__SANITIZE_ADDRESS__)
    cr_skip_test("skipped under ASan: 256 instrumented processes need more memory than a "
                 "1.5 GiB /dev/shm test is worth; the release run covers the guard's decision");
#endif
    private_dev_shm(1536);
    run_opts_t o = {.limit = 360};
    run_result_t r = run_mrun(&o, 256, RMP_TEST_BINDIR "/examples/allreduce", NULL);
    expect_success(r);
    expect_line(r, out, "allreduce OK", 1);
    run_free(&r);
}

/* A /dev/shm too small for the job: refused before anything is created, with one line that
 * says why (local rank 0's), the program's own report of its failed rmp_init (rank 0's: the
 * others wait for mrun to end them) and mrun's one line; no other rank says anything (the
 * issue counted 511 lines for one cause). */
Test(shm_guard, too_small_dev_shm_refused_in_one_line, .timeout = 120)
{
    private_dev_shm(64); /* 64 ranks need 132 MiB */
    run_opts_t o = {.limit = 90};
    run_result_t r = run_mrun(&o, 64, RMP_TEST_BINDIR "/examples/allreduce", NULL);
    expect_exit(r, 1);
    expect_clean(r);
    expect_like(r, err, "rmp[0]: shm: the 64 ranks on this node need ",
                "MiB free); lower RMP_SHM_RING_KB (now 256) or start fewer ranks per node", 1);
    int lines = 0;
    for (const char *p = r.err; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 3, "want the reason, the program's own report of it (rank 0's) and "
                 "mrun's line, got %d lines:\n%s", lines, tail(r.err));
    expect_line(r, err, "allreduce: rmp_init failed: out of memory", 1);
    expect_like(r, err, "mrun: rank ", "; terminating the job", 1);
    cr_assert_eq(count_prefix(r.out, "allreduce"), 0, "%s", tail(r.out));
    run_free(&r);
}
