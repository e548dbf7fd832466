/* test_mrun_output.c — mrun's output forwarding under a reader that stalls: with its stdout a
 * pipe nobody reads, --timeout, SIGINT and a crashing rank still end the job on time (the
 * ranks are gone, mrun said why), and when the reader comes back every byte the ranks wrote is
 * there, in order; a reader that never comes back costs a bounded wait, not a hang. Lines are
 * never interleaved: 200 000 and 1 000 000 character lines from two ranks at once arrive whole
 * and tagged once, and bursts cut anywhere reach a slow reader as whole lines, complete.
 * These cases start mrun themselves (run.c reads stdout at once, which is what they avoid). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../progs/outflood.h"
#include "run.h"

typedef struct job {
    pid_t pid;
    int out, err; /* read ends; -1 at EOF */
    double t0;
    char *errtext; /* stderr so far */
    size_t errlen;
    char *outtext;
    size_t outlen;
} job_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spawn(job_t *j, const char *const argv[])
{
    int outp[2], errp[2];
    cr_assert(pipe2(outp, O_CLOEXEC) == 0 && pipe2(errp, O_CLOEXEC) == 0, "pipe: %s",
              strerror(errno));
    *j = (job_t){.out = outp[0], .err = errp[0], .t0 = now_s()};
    j->errtext = calloc(1, 1);
    j->outtext = calloc(1, 1);
    j->pid = fork();
    cr_assert(j->pid >= 0, "fork: %s", strerror(errno));
    if (j->pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        if (in < 0 || dup2(in, 0) < 0 || dup2(outp[1], 1) < 0 || dup2(errp[1], 2) < 0)
            _exit(126);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGINT, SIG_DFL); /* a suite started in the background ignores it */
        signal(SIGPIPE, SIG_DFL);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(outp[1]);
    close(errp[1]);
}

/* Appends what fd holds (up to max bytes) to *text; false at EOF. */
static bool take(int *fd, char **text, size_t *len, size_t max)
{
    char buf[65536];
    ssize_t n = read(*fd, buf, max < sizeof buf ? max : sizeof buf);
    if (n < 0 && errno == EINTR)
        return true;
    if (n <= 0) {
        close(*fd);
        *fd = -1;
        return false;
    }
    *text = realloc(*text, *len + (size_t)n + 1);
    memcpy(*text + *len, buf, (size_t)n);
    *len += (size_t)n;
    (*text)[*len] = '\0';
    return true;
}

/* Reads stderr only (stdout stays stalled) until it holds `needle`; returns the time since
 * the start then, or -1 if `until` (seconds since the start) passed first. */
static double wait_err(job_t *j, const char *needle, double until)
{
    while (!strstr(j->errtext, needle)) {
        double left = until - (now_s() - j->t0);
        if (left <= 0 || j->err < 0)
            return -1;
        struct pollfd p = {.fd = j->err, .events = POLLIN};
        if (poll(&p, 1, (int)(left * 1000) + 1) > 0)
            take(&j->err, &j->errtext, &j->errlen, SIZE_MAX);
    }
    return now_s() - j->t0;
}

/* Waits up to `secs` for process pid to be gone (reaped by mrun: a zombie still counts). */
static bool gone_within(pid_t pid, double secs)
{
    double end = now_s() + secs;
    while (now_s() < end) {
        if (kill(pid, 0) != 0 && errno == ESRCH)
            return true;
        usleep(20000);
    }
    return false;
}

/* Sleeps `secs` while reading stderr (so that only stdout is stalled). */
static void stall(job_t *j, double secs)
{
    double end = now_s() + secs;
    wait_err(j, "\x01never", end - j->t0);
    while (now_s() < end) /* stderr ended early */
        usleep(10000);
}

/* The reader comes back: reads both streams to their end (stdout in pieces of `piece` bytes
 * with `pause_us` between them: a slow reader), then reaps mrun. Returns its status, or -1
 * if it did not end within `limit` seconds (it is killed then) or was reaped already. */
static int finish(job_t *j, double limit, size_t piece, int pause_us)
{
    double end = now_s() + limit;
    while ((j->out >= 0 || j->err >= 0) && now_s() < end) {
        struct pollfd p[2] = {{.fd = j->out, .events = POLLIN}, {.fd = j->err, .events = POLLIN}};
        if (poll(p, 2, 100) <= 0)
            continue;
        if (p[0].revents)
            take(&j->out, &j->outtext, &j->outlen, piece);
        if (p[1].revents)
            take(&j->err, &j->errtext, &j->errlen, SIZE_MAX);
        if (pause_us && p[0].revents)
            usleep((useconds_t)pause_us);
    }
    int ws;
    if (j->pid < 0) /* reaped already (exits_within) */
        return -1;
    while (now_s() < end) {
        pid_t w = waitpid(j->pid, &ws, WNOHANG);
        if (w == j->pid)
            return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
        usleep(20000);
    }
    kill(-j->pid, SIGKILL);
    waitpid(j->pid, &ws, 0);
    return -1;
}

static void job_free(job_t *j)
{
    if (j->out >= 0)
        close(j->out);
    if (j->err >= 0)
        close(j->err);
    free(j->errtext);
    free(j->outtext);
}

/* The pid rank r reported in its "started" line. */
static pid_t rank_pid(const job_t *j, int r)
{
    char key[48];
    snprintf(key, sizeof key, "rank %d: started pid ", r);
    const char *p = strstr(j->errtext, key);
    return p ? (pid_t)atoi(p + strlen(key)) : -1;
}

/* The most rank r said it wrote ("rank r: wrote N" on stderr). */
static size_t rank_reported(const job_t *j, int r)
{
    char key[48];
    snprintf(key, sizeof key, "rank %d: wrote ", r);
    size_t most = 0, klen = strlen(key);
    for (const char *p = j->errtext; (p = strstr(p, key)); p += klen) {
        const char *v = p + klen;
        size_t n = strtoul(strncmp(v, "all ", 4) == 0 ? v + 4 : v, NULL, 10);
        most = n > most ? n : most;
    }
    return most;
}

enum { MAXR = 4 };

/* Checks stdout as outflood's lines: each rank's lines in order and exact, except that its
 * last one may be cut short (a rank killed mid-line; tagged: mrun ended it with a newline).
 * Fills bytes[r] with how much of rank r's stream arrived. */
static void check_lines(const char *out, bool tagged, int n, size_t bytes[MAXR])
{
    long next[MAXR] = {0};
    bool cut[MAXR] = {false};
    memset(bytes, 0, MAXR * sizeof *bytes);
    for (const char *p = out; *p;) {
        const char *nl = strchr(p, '\n');
        cr_assert(nl, "stdout ends without a newline: %.200s", p);
        int r = -1, tr = -1, skip = 0;
        if (tagged)
            cr_assert(sscanf(p, "[%d] %n", &tr, &skip) == 1 && skip > 0, "untagged line: %.200s",
                      p);
        cr_assert(sscanf(p + skip, "%d ", &r) == 1 && r >= 0 && r < n, "not a rank's line: %.200s",
                  p);
        cr_assert(!tagged || tr == r, "rank %d's line tagged [%d]", r, tr);
        cr_assert(!cut[r], "rank %d has a line after its cut-short last one: %.200s", r, p);
        char want[256];
        size_t wlen = outflood_line(r, next[r], want);
        size_t got = (size_t)(nl + 1 - (p + skip));
        if (got != wlen || memcmp(p + skip, want, wlen) != 0) {
            cr_assert(got < wlen && memcmp(p + skip, want, got - 1) == 0,
                      "rank %d's line %ld is wrong:\n got: %.*s\nwant: %.*s", r, next[r],
                      (int)got, p + skip, (int)wlen, want);
            cut[r] = true;
            got--; /* the newline mrun added */
        }
        bytes[r] += got;
        next[r]++;
        p = nl + 1;
    }
}

/* Every rank's stream arrived at least as far as the rank said it had written it. */
static void expect_reported(const job_t *j, int n, const size_t bytes[MAXR])
{
    for (int r = 0; r < n; r++) {
        size_t said = rank_reported(j, r);
        cr_assert(said > 0, "rank %d never reported writing\n%s", r, tail(j->errtext));
        cr_assert_geq(bytes[r], said, "rank %d wrote %zu bytes, only %zu arrived", r, said,
                      bytes[r]);
    }
}

#define FLOOD "8388608" /* more than mrun buffers: the ranks end up blocked in write() */

/* Starts the job, lets its ranks fill every buffer and block (stdout is never read), then
 * sends mrun SIGINT: handled within 3 s. */
static void start_and_interrupt(job_t *j, const char *const argv[])
{
    spawn(j, argv);
    cr_assert(wait_err(j, "rank 1: started", 30) >= 0 && wait_err(j, "rank 0: started", 30) >= 0,
              "the ranks did not start:\n%s", tail(j->errtext));
    stall(j, 1);
    double sent = now_s() - j->t0;
    kill(j->pid, SIGINT);
    cr_assert(wait_err(j, "mrun: received signal 2", sent + 3) >= 0,
              "SIGINT not handled within 3 s while stdout is not read:\n%s", tail(j->errtext));
}

/* mrun exits within `secs` with its stdout still unread; returns its wait status. */
static int exits_within(job_t *j, double secs, const char *after)
{
    double end = now_s() + secs;
    int ws = 0;
    pid_t w = 0;
    while (now_s() < end && (w = waitpid(j->pid, &ws, WNOHANG)) == 0)
        stall(j, 0.05);
    if (w != j->pid) {
        kill(-j->pid, SIGKILL);
        waitpid(j->pid, &ws, 0);
        cr_assert_fail("mrun still waits for its reader %.0f s after %s", secs, after);
    }
    j->pid = -1;
    return ws;
}

/* The job has ended (`why`): both ranks are gone within 3 s although stdout is still not
 * read; it stays unread 1 s more; then the reader reads it all: mrun exits with `status`, and
 * every byte each rank wrote is there, in order, tagged. Fills bytes[]. */
static void expect_end_then_output(job_t *j, const char *why, int status, size_t bytes[MAXR])
{
    for (int r = 0; r < 2; r++)
        cr_assert(gone_within(rank_pid(j, r), 3), "rank %d still there 3 s after %s", r, why);
    stall(j, 1);
    int got = finish(j, 30, SIZE_MAX, 0);
    cr_assert_eq(got, status, "status %d after %s\n%s", got, why, tail(j->errtext));
    check_lines(j->outtext, true, 2, bytes);
    expect_reported(j, 2, bytes);
}

Test(mrun_output, stalled_stdout_timeout_fires_on_time, .timeout = 90)
{
    const char *argv[] = {RMP_TEST_MRUN, "--tag-output", "--timeout", "2", "-n", "2",
                          PROG("outflood"), "hang", FLOOD, NULL};
    job_t j;
    spawn(&j, argv);
    double at = wait_err(&j, "mrun: job timed out after 2 s; terminating 2 ranks", 2 + 3);
    cr_assert(at >= 0, "no timeout message within 5 s while stdout is not read:\n%s",
              tail(j.errtext));
    size_t bytes[MAXR];
    expect_end_then_output(&j, "the timeout", 124, bytes);
    job_free(&j);
}

Test(mrun_output, stalled_stdout_sigint_ends_job_on_time, .timeout = 90)
{
    const char *argv[] = {RMP_TEST_MRUN, "--tag-output", "-n", "2", PROG("outflood"), "hang",
                          FLOOD, NULL};
    job_t j;
    start_and_interrupt(&j, argv);
    size_t bytes[MAXR];
    expect_end_then_output(&j, "SIGINT", 130, bytes);
    job_free(&j);
}

Test(mrun_output, stalled_stdout_crashing_rank_ends_job_on_time, .timeout = 90)
{
    const char *argv[] = {RMP_TEST_MRUN, "--tag-output", "-n", "2", PROG("outflood"), "crash",
                          FLOOD, NULL};
    job_t j;
    spawn(&j, argv);
    double at = wait_err(&j, "rank 1: wrote all", 30);
    cr_assert(at >= 0, "rank 1 did not get to its crash:\n%s", tail(j.errtext));
    /* it kills itself 1 s after that line */
    cr_assert(wait_err(&j, "killed by signal 9", at + 1 + 3) >= 0,
              "rank 1's death not reported within 3 s while stdout is not read:\n%s",
              tail(j.errtext));
    cr_assert(strstr(j.errtext, "mrun: rank 1 (pid"), "%s", tail(j.errtext));
    size_t bytes[MAXR];
    expect_end_then_output(&j, "rank 1's death", 137, bytes);
    cr_assert_eq(bytes[1], rank_reported(&j, 1), "rank 1 wrote %zu bytes, %zu arrived",
                 rank_reported(&j, 1), bytes[1]); /* all it wrote: it did not block */
    job_free(&j);
}

/* A reader that never comes back: mrun gives it a bounded time after the job's end (10 s),
 * then exits with the job's status and says how much it dropped. */
Test(mrun_output, stalled_stdout_forever_bounded_wait, .timeout = 90)
{
    const char *argv[] = {RMP_TEST_MRUN, "--timeout", "1", "-n", "2", PROG("outflood"), "hang",
                          FLOOD, NULL};
    job_t j;
    spawn(&j, argv);
    cr_assert(wait_err(&j, "mrun: job timed out after 1 s", 1 + 3) >= 0, "%s", tail(j.errtext));
    int ws = exits_within(&j, 10 + 5, "the timeout");
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 124, "status 0x%x", ws);
    finish(&j, 10, SIZE_MAX, 0);
    cr_assert(strstr(j.errtext, "bytes of the job's output were dropped"), "%s",
              tail(j.errtext));
    job_free(&j);
}

/* A second SIGINT does not wait for the stalled reader at all. */
Test(mrun_output, stalled_stdout_second_sigint_drops_output, .timeout = 90)
{
    const char *argv[] = {RMP_TEST_MRUN, "-n", "2", PROG("outflood"), "hang", FLOOD, NULL};
    job_t j;
    start_and_interrupt(&j, argv);
    for (int r = 0; r < 2; r++)
        cr_assert(gone_within(rank_pid(&j, r), 3), "rank %d still there 3 s after SIGINT", r);
    kill(j.pid, SIGINT);
    int ws = exits_within(&j, 3, "a second SIGINT");
    cr_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 130, "status 0x%x", ws);
    job_free(&j);
}

/* Two ranks write a line of `len` characters at once, in pieces: each arrives whole, tagged
 * once, then each rank's "done" line. */
static void long_lines(const char *len_arg)
{
    size_t len = strtoul(len_arg, NULL, 10);
    const char *argv[] = {RMP_TEST_MRUN, "--tag-output", "-n", "2", PROG("outflood"), "longline",
                          len_arg, NULL};
    job_t j;
    spawn(&j, argv);
    int status = finish(&j, 60, SIZE_MAX, 0);
    cr_assert_eq(status, 0, "status %d\n%s", status, tail(j.errtext));
    int seen[2] = {0, 0}, done[2] = {0, 0}, lines = 0;
    for (const char *p = j.outtext; *p; lines++) {
        const char *nl = strchr(p, '\n');
        cr_assert(nl, "stdout ends without a newline");
        int r = -1, skip = 0;
        cr_assert(sscanf(p, "[%d] %n", &r, &skip) == 1 && skip == 4 && (r == 0 || r == 1),
                  "line %d is not tagged: %.80s", lines, p);
        size_t got = (size_t)(nl - p) - 4;
        char want_done[32];
        snprintf(want_done, sizeof want_done, "rank %d: done", r);
        if (got == strlen(want_done) && memcmp(p + 4, want_done, got) == 0) {
            done[r]++;
        } else {
            cr_assert_eq(got, len, "rank %d's long line has %zu characters, not %zu (cut or "
                         "interleaved)", r, got, len);
            for (size_t k = 0; k < len; k++)
                cr_assert(p[4 + k] == outflood_long_char(r, k),
                          "rank %d's long line differs at %zu: '%c'", r, k, p[4 + k]);
            seen[r]++;
        }
        p = nl + 1;
    }
    cr_assert_eq(lines, 4, "%d lines, expected 4", lines);
    for (int r = 0; r < 2; r++)
        cr_assert(seen[r] == 1 && done[r] == 1, "rank %d: %d long lines, %d done lines", r,
                  seen[r], done[r]);
    job_free(&j);
}

Test(mrun_output, tagged_200000_char_lines_from_two_ranks_whole, .timeout = 90)
{
    long_lines("200000");
}

/* Beyond what mrun holds of one line (256 KiB): out in pieces, still whole. */
Test(mrun_output, tagged_1000000_char_lines_from_two_ranks_whole, .timeout = 90)
{
    long_lines("1000000");
}

/* Bursts cut anywhere, untagged, three ranks, a reader that takes 64 KiB every 30 ms: every
 * line whole, every byte there (the streams' checksums are compared too, for the message). */
Test(mrun_output, bursts_to_slow_reader_lose_nothing, .timeout = 120)
{
    const size_t total = 2 << 20;
    const char *argv[] = {RMP_TEST_MRUN, "-n", "3", PROG("outflood"), "exit", "2097152", NULL};
    job_t j;
    spawn(&j, argv);
    int status = finish(&j, 90, 65536, 30000);
    cr_assert_eq(status, 0, "status %d\n%s", status, tail(j.errtext));
    size_t bytes[MAXR];
    check_lines(j.outtext, false, 3, bytes);
    for (int r = 0; r < 3; r++) {
        /* the rank's whole stream: lines until at least `total` bytes */
        size_t want = 0;
        uint64_t sum_want = 1469598103934665603ull;
        char line[256];
        for (long i = 0; want < total; i++) {
            size_t l = outflood_line(r, i, line);
            for (size_t k = 0; k < l; k++)
                sum_want = (sum_want ^ (unsigned char)line[k]) * 1099511628211ull;
            want += l;
        }
        uint64_t sum_got = 1469598103934665603ull;
        char key[16];
        int klen = snprintf(key, sizeof key, "%d ", r);
        for (const char *p = j.outtext; *p; p = strchr(p, '\n') + 1)
            if (strncmp(p, key, (size_t)klen) == 0)
                for (const char *c = p; c <= strchr(p, '\n'); c++)
                    sum_got = (sum_got ^ (unsigned char)*c) * 1099511628211ull;
        cr_assert_eq(bytes[r], want, "rank %d: %zu of %zu bytes arrived", r, bytes[r], want);
        cr_assert_eq(sum_got, sum_want, "rank %d: checksum %016llx, expected %016llx", r,
                     (unsigned long long)sum_got, (unsigned long long)sum_want);
    }
    job_free(&j);
}
