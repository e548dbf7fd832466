/* test_shm_leftovers.c — nothing of a job stays in /dev/shm (issue 21, item 3): once every rank
 * has finished rmp_init, the job's segment names are gone (the last local rank to map each one
 * unlinks it), and a job whose mrun and ranks are stopped and SIGKILLed at any moment — before
 * the names are gone, too — leaves nothing once the next mrun of the user has run: that mrun
 * removes the segments whose creator's lock nobody holds, and only those. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* The 30 trials in the release run; the ASan run repeats the mechanism, not the count
 * (each instrumented job takes seconds to start on 2 cores: 30 would be minutes of CI). */
#if defined(__SANITIZE_ADDRESS__)
#define TRIALS 8
#else
#define TRIALS 30
#endif
#define TRIAL_RANKS "8"

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

/* Names /dev/shm/rmp.mrun-<pid>-* (segments of the job of that mrun) into names; how many. */
static int job_names(pid_t mrun, char *names, size_t len)
{
    char prefix[64];
    int plen = snprintf(prefix, sizeof prefix, "rmp.mrun-%d-", (int)mrun), n = 0;
    DIR *d = opendir("/dev/shm");
    cr_assert_not_null(d, "opendir /dev/shm: %s", strerror(errno));
    struct dirent *e;
    names[0] = '\0';
    while ((e = readdir(d)))
        if (!strncmp(e->d_name, prefix, (size_t)plen)) {
            size_t used = strlen(names);
            snprintf(names + used, len - used, " %s", e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

/* Every rank has mapped every segment once all have passed rmp_init: no name is left while
 * the job runs. */
Test(shm_leftovers, names_gone_once_init_completes, .timeout = 60)
{
    run_opts_t o = {.limit = 45};
    run_result_t r = run_mrun(&o, 8, PROG("shm_names"), NULL);
    expect_success(r);
    expect_line(r, out, "names 0", 1);
    run_free(&r);
}

/* Starts mrun -n TRIAL_RANKS shm_names ROUNDS with `marker` in its environment (the ranks
 * inherit it); its pid. */
static pid_t start_job(const char *marker)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 || putenv((char *)marker))
            _exit(126);
        execl(RMP_TEST_MRUN, RMP_TEST_MRUN, "-n", TRIAL_RANKS, PROG("shm_names"), "200000",
              (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* One trial: a job stopped at a random moment of its start-up or run (every rank, in the
 * order /proc lists them, then mrun), then SIGKILLed. Returns its mrun's pid; *left: how many
 * names of its segments it left (before any other mrun ran). */
static pid_t stop_then_kill(int trial, unsigned rnd, int *left)
{
    char marker[96];
    snprintf(marker, sizeof marker, "RMP_TEST_KILLED_JOB=%d.%d", (int)getpid(), trial);
    pid_t mrun = start_job(marker);
    nap_ms((long)(rnd % 1500)); /* start-up takes ~0.2-1 s here: both phases are hit */
    run_signal_marked(marker, SIGSTOP);
    kill(mrun, SIGSTOP);
    nap_ms((long)(rnd >> 16) % 50);
    kill(mrun, SIGKILL);
    run_signal_marked(marker, SIGKILL);
    int ws;
    cr_assert_eq(waitpid(mrun, &ws, 0), mrun);
    double until = mono() + 20;
    while (run_signal_marked(marker, SIGKILL) > 0 && mono() < until) {
        while (waitpid(-1, NULL, WNOHANG) > 0) /* ranks reparented to this test */
            ;
        nap_ms(10);
    }
    cr_assert_eq(run_signal_marked(marker, 0), 0, "trial %d: the killed job's ranks live on",
                 trial);
    char names[2048];
    *left = job_names(mrun, names, sizeof names);
    return mrun;
}

/* The trials: 5 of 30 left 3-4 segments that no later mrun removed. Here each trial's
 * job is killed, then the next job runs as the same user: afterwards nothing of either is in
 * /dev/shm. */
Test(shm_leftovers, stop_then_kill_then_next_job_leaves_nothing, .timeout = 600)
{
    int left_by_kill = 0;
    double until = mono() + 480;
    for (int t = 0; t < TRIALS; t++) {
        cr_assert(mono() < until, "%d trials took more than 480 s", t);
        unsigned rnd;
        cr_assert_eq(getrandom(&rnd, sizeof rnd, 0), (ssize_t)sizeof rnd);
        int left;
        pid_t killed = stop_then_kill(t, rnd, &left);
        left_by_kill += left > 0;
        run_opts_t o = {.limit = 60};
        run_result_t r = run_mrun(&o, 2, PROG("shm_names"), NULL);
        expect_success(r); /* nothing of its own left: the harness checks that */
        expect_line(r, out, "names 0", 1);
        run_free(&r);
        char names[2048];
        int after = job_names(killed, names, sizeof names);
        cr_assert_eq(after, 0, "trial %d: after the next job, /dev/shm still holds %d of the %d "
                     "segment(s) the killed job (mrun %d) left:%s", t, after, left,
                     (int)killed, names);
    }
    cr_log_info("%d of %d killed jobs left segments behind, all removed by the next job",
                left_by_kill, TRIALS);
}
