/* test_security.c — a second local user attacks a job (issue 9): joins it through mrun's PMIx
 * server with a forged uid, connects with its true uid (after which mrun used to hang for ever),
 * squats the doorbell names of the next jobs and floods the doorbells of a running one, and
 * opens (or guesses the names of) the one-sided window segments of a running one. The test
 * creates that user itself (root only: skipped otherwise), runs the attackers of tests/progs
 * (sec_*) as it from a 0755 copy, and checks that the job ends normally, right and in time.
 * Each test runs in a private network namespace, so that its attacks (loopback ports, abstract
 * socket names) reach only its own job, never a job of another test running at the same time. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

#define VICTIM_SECS "3"  /* how long the attacked job runs */
#define JOB_LIMIT 30.0   /* seconds before the harness kills a job that should take ~4 */
#define ATTACK_SECS "30" /* the attackers give up after this (they stop when mrun exits) */
#define WAIT_SECS 15.0   /* bound on every other wait of the test */

static struct {
    char name[32];     /* the throw-away user */
    uid_t uid;
    gid_t gid;
    int guard_fd;      /* write end of the guardian's pipe (-1: no guardian) */
    pid_t guard;
    char dir[64];      /* 0755 directory with the attacker binaries and their output */
    pid_t attacker;
} sec = {.guard_fd = -1};

static double sec_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* waitpid with a bound: the exit status, -1 if it had to be killed, -2 if already reaped. */
static int wait_bounded(pid_t pid, double secs)
{
    double until = sec_clock() + secs;
    int ws;
    for (;;) {
        pid_t rc = waitpid(pid, &ws, WNOHANG);
        if (rc == pid)
            return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
        if (rc < 0)
            return -2; /* run_cmd reaps stray children of the test too */
        if (sec_clock() > until) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
            return -1;
        }
        usleep(10000);
    }
}

/* Runs argv with stdio on /dev/null; its exit status (-1: could not run or killed). */
static int run_quiet(const char *const argv[])
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
            _exit(126);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    return wait_bounded(pid, WAIT_SECS);
}

/* The path of an admin tool into path[64], or NULL if none is installed. */
static const char *sbin(const char *name, char *path)
{
    const char *dirs[] = {"/usr/sbin", "/sbin", "/usr/bin", "/bin"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        snprintf(path, 64, "%s/%s", dirs[i], name);
        if (access(path, X_OK) == 0)
            return path;
    }
    return NULL;
}

/* ---- the private network namespace ---- */

static void sec_isolate(void)
{
    if (unshare(CLONE_NEWNET) != 0)
        cr_skip_test("skipped: unshare(CLONE_NEWNET) failed (%s): the attacks need a private "
                     "network namespace so that they cannot hit other jobs",
                     strerror(errno));
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr = {0};
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    cr_assert(fd >= 0 && ioctl(fd, SIOCGIFFLAGS, &ifr) == 0, "loopback flags: %s",
              strerror(errno));
    ifr.ifr_flags |= IFF_UP;
    cr_assert(ioctl(fd, SIOCSIFFLAGS, &ifr) == 0, "bringing up loopback: %s", strerror(errno));
    close(fd);
}

/* ---- the second user: created here, removed by a guardian even if the test dies ---- */

/* The guardian (its own session, so a killed test does not take it along) waits for the
 * test's end of a pipe to close — a normal end, a failed assertion or a SIGKILL — and then
 * deletes the user. */
static void start_guardian(const char *userdel)
{
    int p[2];
    cr_assert(pipe2(p, O_CLOEXEC) == 0, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        setsid();
        close(p[1]);
        int null = open("/dev/null", O_RDWR); /* hold none of Criterion's pipes open */
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        char c;
        while (read(p[0], &c, 1) != 0 && errno == EINTR)
            ;
        const char *argv[] = {userdel, sec.name, NULL};
        _exit(run_quiet(argv) == 0 ? 0 : 1);
    }
    close(p[0]);
    sec.guard = pid;
    sec.guard_fd = p[1];
}

static void sec_user_create(void)
{
    if (geteuid() != 0)
        cr_skip_test("skipped: needs root to create a second user");
    static char add_path[64], del_path[64];
    const char *useradd = sbin("useradd", add_path), *userdel = sbin("userdel", del_path);
    if (!useradd || !userdel)
        cr_skip_test("skipped: needs useradd and userdel to create a second user");
    unsigned char rnd[4];
    cr_assert(getrandom(rnd, sizeof rnd, 0) == sizeof rnd, "getrandom: %s", strerror(errno));
    snprintf(sec.name, sizeof sec.name, "rmpsec%02x%02x%02x%02x", rnd[0], rnd[1], rnd[2], rnd[3]);
    start_guardian(userdel);
    const char *argv[] = {useradd, "-M", "-r", "-s", "/usr/sbin/nologin", sec.name, NULL};
    int rc = run_quiet(argv);
    cr_assert_eq(rc, 0, "%s -M -r %s exited with %d", useradd, sec.name, rc);
    struct passwd *pw = getpwnam(sec.name);
    cr_assert(pw, "user %s not found after useradd", sec.name);
    sec.uid = pw->pw_uid;
    sec.gid = pw->pw_gid;
    cr_assert_neq(sec.uid, 0, "the second user must not be root");
}

/* The attackers, copied into a 0755 directory the stranger can read (the build tree may not
 * be reachable for it). */
static void copy_attacker(const char *prog)
{
    char src[512], dst[128];
    snprintf(src, sizeof src, "%s/%s", RMP_TEST_PROGS, prog);
    snprintf(dst, sizeof dst, "%s/%s", sec.dir, prog);
    int in = open(src, O_RDONLY | O_CLOEXEC);
    int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
    cr_assert(in >= 0 && out >= 0, "copying %s to %s: %s", src, dst, strerror(errno));
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        cr_assert_eq(write(out, buf, (size_t)n), n, "writing %s: %s", dst, strerror(errno));
    cr_assert_eq(n, 0, "reading %s: %s", src, strerror(errno));
    close(in);
    cr_assert_eq(fchmod(out, 0755), 0, "chmod %s: %s", dst, strerror(errno));
    close(out);
}

static void sec_setup(const char *prog)
{
    sec_isolate();
    sec_user_create();
    snprintf(sec.dir, sizeof sec.dir, "/tmp/rmp-sec.XXXXXX");
    cr_assert(mkdtemp(sec.dir), "mkdtemp %s: %s", sec.dir, strerror(errno));
    cr_assert_eq(chmod(sec.dir, 0755), 0, "chmod %s: %s", sec.dir, strerror(errno));
    copy_attacker(prog);
}

static void sec_teardown(void)
{
    if (sec.attacker > 0)
        wait_bounded(sec.attacker, 0);
    if (sec.dir[0]) {
        char path[128];
        const char *names[] = {"sec_pmix_join", "sec_bells", "sec_shmwin", "attack.out"};
        for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
            snprintf(path, sizeof path, "%s/%s", sec.dir, names[i]);
            unlink(path);
        }
        rmdir(sec.dir);
    }
    if (sec.guard_fd >= 0) {
        close(sec.guard_fd); /* the guardian deletes the user now */
        int rc = wait_bounded(sec.guard, WAIT_SECS);
        cr_expect_eq(rc, 0, "userdel %s exited with %d", sec.name, rc);
        cr_expect_null(getpwnam(sec.name), "user %s still exists", sec.name);
    }
}

/* ---- the attacker ---- */

/* Starts dir/prog args... as the second user, stdout and stderr to dir/attack.out. */
static void start_attacker(const char *prog, const char *a1, const char *a2, const char *a3)
{
    char path[128], out[128], ruid[32], rgid[32];
    snprintf(path, sizeof path, "%s/%s", sec.dir, prog);
    snprintf(out, sizeof out, "%s/attack.out", sec.dir);
    snprintf(ruid, sizeof ruid, "--reuid=%u", (unsigned)sec.uid);
    snprintf(rgid, sizeof rgid, "--regid=%u", (unsigned)sec.gid);
    char setpriv_path[64];
    const char *setpriv = sbin("setpriv", setpriv_path);
    cr_assert(setpriv, "setpriv (util-linux) not found: needed to run as the second user");
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    cr_assert(fd >= 0, "open %s: %s", out, strerror(errno));
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        const char *argv[] = {setpriv, ruid, rgid, "--clear-groups", "--", path, a1, a2, a3, NULL};
        execv(setpriv, (char *const *)argv);
        _exit(127);
    }
    close(fd);
    sec.attacker = pid;
}

/* Everything the attacker printed so far (malloc'd, never NULL). */
static char *attacker_output(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s/attack.out", sec.dir);
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 65537);
    cr_assert(text, "out of memory");
    if (f) {
        size_t n = fread(text, 1, 65536, f);
        text[n] = '\0';
        fclose(f);
    }
    return text;
}

/* Waits (bounded) until the attacker printed `line`. */
static void wait_attacker_line(const char *line)
{
    double until = sec_clock() + WAIT_SECS;
    for (;;) {
        char *text = attacker_output();
        bool found = count_lines(text, line) > 0;
        cr_assert(found || sec_clock() < until, "the attacker did not print \"%s\" within %.0f s:\n%s",
                  line, WAIT_SECS, tail(text));
        free(text);
        if (found)
            return;
        usleep(10000);
    }
}

/* Waits for the attacker to finish (it stops once mrun has exited) and returns its output. */
static char *finish_attacker(void)
{
    int rc = wait_bounded(sec.attacker, WAIT_SECS);
    sec.attacker = 0;
    char *text = attacker_output();
    cr_assert(rc == 0 || rc == -2, "the attacker exited with %d:\n%s", rc, tail(text));
    return text;
}

/* The job ran to its end as if nobody had attacked it. */
static void expect_unharmed(const run_result_t *r, const char *attack)
{
    cr_assert(!r->timed_out, "mrun did not exit within %.0f s (the job takes ~%s s)\n--- attacker:"
              "\n%s\n--- stderr:\n%s", JOB_LIMIT, VICTIM_SECS, attack, tail(r->err));
    cr_assert_eq(r->code, 0, "the attacked job exited with %d, expected 0\n--- attacker:\n%s\n"
                 "--- stdout:\n%s\n--- stderr:\n%s", r->code, attack, tail(r->out), tail(r->err));
    expect_line(*r, out, "sec_victim: OK n=4", 1);
    expect_no_fail(*r);
    expect_clean(*r);
}

/* ---- attacks 1 and 2: joining through the PMIx server ---- */

static void pmix_join(const char *mode)
{
    char parent[32];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    start_attacker("sec_pmix_join", parent, mode, ATTACK_SECS);
    run_opts_t o = {.limit = JOB_LIMIT};
    run_result_t r = run_mrun(&o, 4, PROG("sec_victim"), VICTIM_SECS, NULL);
    char *attack = finish_attacker();
    int attempts = -1, joined = -1; /* from the attacker's last line */
    for (const char *p = attack; (p = strstr(p, "attack: ")); p++)
        sscanf(p, "attack: %d attempt(s), %d joined", &attempts, &joined);
    cr_assert_geq(attempts, 1, "the attacker never reached mrun's PMIx server:\n%s", tail(attack));
    cr_assert_eq(count_like(attack, "attack: port ", "; calling PMIx_Abort(99)"), 0,
                 "a stranger joined the job (mrun exited with %d):\n%s", r.code, tail(attack));
    cr_assert_eq(joined, 0, "a stranger joined the job (mrun exited with %d):\n%s", r.code,
                 tail(attack));
    cr_assert_eq(count_like(attack, "attack: port ", "the client hung; killed"), 0,
                 "a refused client hung instead of failing:\n%s", tail(attack));
    expect_unharmed(&r, attack);
    free(attack);
    run_free(&r);
}

/* Attack 1: a client that claims mrun's uid (and rank 0) must not get in, read the job's data
 * or end it with PMIx_Abort(99); mrun must still end in time afterwards (attack 2). */
Test(security, pmix_join_forged_uid, .timeout = 90, .fini = sec_teardown)
{
    sec_setup("sec_pmix_join");
    pmix_join("forge");
}

/* Attack 2: a client with its true uid is refused; mrun used to hang for ever in
 * PMIx_server_finalize after that. It must exit when the job ends. */
Test(security, pmix_refused_client_no_hang, .timeout = 90, .fini = sec_teardown)
{
    sec_setup("sec_pmix_join");
    pmix_join("honest");
}

/* ---- attack 3: doorbell names squatted before the job, doorbells flooded during it ---- */

#define SQUAT_WINDOW "400" /* pids squatted after the last one handed out */

Test(security, doorbell_squat_and_flood, .timeout = 90, .fini = sec_teardown)
{
    sec_setup("sec_bells");
    char parent[32];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    /* The squat must have covered the job's pid, or the run proved nothing about it: then it
     * is repeated (the other test worker may have started hundreds of processes meanwhile). */
    run_result_t r = {0};
    char *attack = NULL;
    for (int attempt = 0; attempt < 3; attempt++) {
        if (attack) {
            free(attack);
            run_free(&r);
        }
        start_attacker("sec_bells", parent, SQUAT_WINDOW, ATTACK_SECS);
        wait_attacker_line("bells: ready");
        run_opts_t o = {.limit = JOB_LIMIT};
        r = run_mrun(&o, 4, PROG("sec_victim"), VICTIM_SECS, NULL);
        attack = finish_attacker();
        expect_unharmed(&r, attack);
        if (count_like(attack, "bells: mrun pid ", " inside the squatted window") == 1)
            break;
    }
    cr_assert_eq(count_like(attack, "bells: mrun pid ", " inside the squatted window"), 1,
                 "in 3 tries, the squatted names never covered mrun's pid (too many processes "
                 "started meanwhile?):\n%s", tail(attack));
    long sent = -1;
    int sockets = -1;
    for (const char *p = attack; (p = strstr(p, "bells: ")); p++)
        sscanf(p, "bells: %ld datagram(s) to %d socket(s)", &sent, &sockets);
    cr_assert_geq(sockets, 1, "the flood found none of the job's doorbells:\n%s", tail(attack));
    cr_log_info("doorbell flood: %ld datagram(s) accepted by %d socket(s)", sent, sockets);
    free(attack);
    run_free(&r);
}

/* ---- attack 4: a job's one-sided window segments opened, or their names guessed ---- */

/* The victim holds an allocate and an allocate_shared window (shm segments of rma/win.c, made
 * through shm_seg.c) while the stranger opens every name of the job in /dev/shm and guesses
 * others: nothing opens (0600, another owner; 64 random bits in each name). */
Test(security, shm_window_segments, .timeout = 90, .fini = sec_teardown)
{
    sec_setup("sec_shmwin");
    char parent[32];
    snprintf(parent, sizeof parent, "%d", (int)getpid());
    start_attacker("sec_shmwin", parent, ATTACK_SECS, NULL);
    wait_attacker_line("shmwin: ready");
    run_opts_t o = {.limit = JOB_LIMIT};
    run_result_t r = run_mrun(&o, 4, PROG("sec_victim"), VICTIM_SECS, "windows", NULL);
    char *attack = finish_attacker();
    expect_unharmed(&r, attack);
    cr_assert_eq(count_prefix(attack, "shmwin: opened "), 0,
                 "the second user opened the job's segments:\n%s", tail(attack));
    long wins = -1, others = -1, opened = -1, guessed = -1;
    for (const char *p = attack; (p = strstr(p, "shmwin: ")); p++)
        sscanf(p, "shmwin: %ld window segment(s), %ld other(s) seen, %ld opened, %ld guessed",
               &wins, &others, &opened, &guessed);
    cr_assert_geq(wins, 1, "the stranger saw no window segment of the job (nothing was "
                  "attacked):\n%s", tail(attack));
    cr_assert_eq(opened, 0, "opened %ld:\n%s", opened, tail(attack));
    cr_log_info("window segments: %ld seen (and %ld others), %ld names guessed, none opened",
                wins, others, guessed);
    free(attack);
    run_free(&r);
}
