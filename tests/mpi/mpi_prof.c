/* mpi_prof.c — RMP_PROFILE's numbers are exact for traffic whose every message is known.
 * "p2p" (the default): a ring (8 small messages and one of 1 MiB, by rendezvous, to the next
 * rank), an all-to-all by point-to-point (r+1 bytes to every other rank), and a master-worker
 * with skew (worker w gets w tasks of 64 bytes, answers each with 8). "coll": barriers and
 * allreduces on a duplicate of the world, rank r late by r * 30 ms to each barrier.
 * "crash": rank 1 exits with status 3 before MPI_Finalize (mrun's one line says why there is
 * no report); "abort": rank 1 calls MPI_Abort(5) after the ring; "kill": rank 1 is killed
 * (SIGKILL) after the ring. "full", "notdir": the ring, then rank 0 makes the report's files land on
 * /dev/full, or its directory a plain file: one line says why no report, the job succeeds.
 * After MPI_Finalize rank 0 reads the profile.json it wrote (RMP_PROFILE=DIR) and checks every
 * pair's messages and bytes by protocol, the calls' counts and the collectives' imbalance. */
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "mpicheck.h"

#define RING_SMALL 8
#define BIG (1 << 20)
#define BARRIERS 3

static int n, me;

static void ring(void)
{
    static char big[BIG], in[BIG];
    char small[16] = {0};
    int to = (me + 1) % n, from = (me + n - 1) % n;
    for (int i = 0; i < RING_SMALL; i++)
        CHECK(MPI_Sendrecv(small, 16, MPI_BYTE, to, i, in, 16, MPI_BYTE, from, i,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(MPI_Sendrecv(big, BIG, MPI_BYTE, to, 99, in, BIG, MPI_BYTE, from, 99,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
}

static void alltoall(void)
{
    char buf[256] = {0}, in[256];
    MPI_Request *rq = malloc(2 * (size_t)n * sizeof(*rq));
    int k = 0;
    if (!rq) {
        FAIL("no memory for %d requests", 2 * n);
        return;
    }
    for (int p = 0; p < n; p++)
        if (p != me) {
            CHECK(MPI_Irecv(in, 256, MPI_BYTE, p, 7, MPI_COMM_WORLD, &rq[k++]));
            CHECK(MPI_Isend(buf, me + 1, MPI_BYTE, p, 7, MPI_COMM_WORLD, &rq[k++]));
        }
    CHECK(MPI_Waitall(k, rq, MPI_STATUSES_IGNORE));
    free(rq);
}

static void master_worker(void)
{
    char task[64] = {0}, ans[8] = {0};
    if (me == 0) {
        for (int w = 1; w < n; w++)
            for (int t = 0; t < w; t++) {
                CHECK(MPI_Send(task, 64, MPI_BYTE, w, 1, MPI_COMM_WORLD));
                CHECK(MPI_Recv(ans, 8, MPI_BYTE, w, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            }
    } else
        for (int t = 0; t < me; t++) {
            CHECK(MPI_Recv(task, 64, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(MPI_Send(ans, 8, MPI_BYTE, 0, 2, MPI_COMM_WORLD));
        }
}

static void colls(void)
{
    MPI_Comm d;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &d));
    for (int i = 0; i < BARRIERS; i++) {
        usleep((useconds_t)me * 30000);
        CHECK(MPI_Barrier(d));
    }
    int x = me, y;
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d));
    CHECK(MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, d));
    EXPECT_INT(y, n * (n - 1) / 2);
    CHECK(MPI_Comm_free(&d));
}

/* ---- rank 0, after MPI_Finalize: profile.json read back ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[4 << 20];
    size_t len = fread(buf, 1, sizeof(buf) - 1, f);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

/* What the p2p phases send from s to d by protocol k: messages (what = 0) or bytes (1). */
static unsigned long long expect(int s, int d, int k, int what)
{
    unsigned long long m = 0, b = 0;
    if (d == (s + 1) % n && k == 0)
        m += RING_SMALL, b += RING_SMALL * 16;
    if (d == (s + 1) % n && k == 1)
        m += 1, b += BIG;
    if (s != d && k == 0)
        m += 1, b += (unsigned long long)s + 1;
    if (s == 0 && d != 0 && k == 0)
        m += (unsigned long long)d, b += 64ull * (unsigned long long)d;
    if (d == 0 && s != 0 && k == 0)
        m += (unsigned long long)s, b += 8ull * (unsigned long long)s;
    return what ? b : m;
}

static void check_traffic(const char *js)
{
    static unsigned long long got[256][256][4][2];
    memset(got, 0, sizeof(got));
    const char *p = strstr(js, "\"traffic\":[");
    if (!p) {
        FAIL("profile.json has no traffic");
        return;
    }
    int s, d, k;
    unsigned long long m, b;
    for (p = strchr(p, '[') + 1; (p = strchr(p, '[')) && sscanf(p, "[%d,%d,%d,%llu,%llu]", &s,
                                                                &d, &k, &m, &b) == 5; p++)
        if (s >= 0 && s < n && d >= 0 && d < n && k >= 0 && k < 4)
            got[s][d][k][0] = m, got[s][d][k][1] = b;
    for (s = 0; s < n; s++)
        for (d = 0; d < n; d++)
            for (k = 0; k < 4; k++)
                for (int w = 0; w < 2; w++)
                    if (got[s][d][k][w] != expect(s, d, k, w))
                        FAIL("%d -> %d protocol %d: %s %llu, expected %llu", s, d, k,
                             w ? "bytes" : "messages", got[s][d][k][w], expect(s, d, k, w));
}

/* The per-rank counts of call `name` ("calls":[...]), into v. */
static int call_counts(const char *js, const char *name, long long *v)
{
    char key[96];
    snprintf(key, sizeof(key), "{\"name\":\"%s\",\"calls\":[", name);
    const char *p = strstr(js, key);
    if (!p)
        return -1;
    p += strlen(key);
    for (int r = 0; r < n; r++) {
        v[r] = strtoll(p, (char **)&p, 10);
        p++;
    }
    return 0;
}

static void check_calls(const char *js, bool coll)
{
    long long v[256];
    if (!coll) {
        if (call_counts(js, "MPI_Sendrecv", v))
            FAIL("no MPI_Sendrecv in profile.json");
        for (int r = 0; r < n; r++)
            if (v[r] != RING_SMALL + 1)
                FAIL("rank %d: %lld MPI_Sendrecv, expected %d", r, v[r], RING_SMALL + 1);
        int sends = n > 1 ? (call_counts(js, "MPI_Send", v), 1) : 0;
        for (int r = 0; sends && r < n; r++)
            if (v[r] != (r == 0 ? n * (n - 1) / 2 : r))
                FAIL("rank %d: %lld MPI_Send, expected %d", r, v[r], r == 0 ? n * (n - 1) / 2 : r);
        return;
    }
    if (call_counts(js, "MPI_Barrier", v))
        FAIL("no MPI_Barrier in profile.json");
    for (int r = 0; r < n; r++)
        if (v[r] != BARRIERS)
            FAIL("rank %d: %lld MPI_Barrier, expected %d", r, v[r], BARRIERS);
}

/* The duplicate's entry: 5 calls on every rank, rank 0 waiting longest (its imbalance at
 * least most of the (n - 1) * 30 ms per barrier it waited for the last rank). */
static void check_colls(const char *js)
{
    char key[64];
    snprintf(key, sizeof(key), "\"size\":%d,\"algorithms\":\"", n);
    const char *p = strstr(js, key);
    if (!p) {
        FAIL("no collectives on a communicator of %d in profile.json", n);
        return;
    }
    if (!strstr(p, "BARRIER=") || !strstr(p, "ALLREDUCE="))
        FAIL("the algorithms are not named: %.80s", p);
    unsigned long long calls;
    const char *c = strstr(p, "\"calls\":");
    if (!c || sscanf(c, "\"calls\":%llu", &calls) != 1 || calls != BARRIERS + 2)
        FAIL("collective calls: %.40s, expected %d", c ? c : "none", BARRIERS + 2);
    const char *q = strstr(p, "\"ranks\":[[0,");
    unsigned long long k, ns, imb;
    if (!q || sscanf(q, "\"ranks\":[[0,%llu,%llu,%llu]", &k, &ns, &imb) != 3)
        FAIL("no rank 0 in the collectives' entry");
    else if (imb < (unsigned long long)(n - 1) * BARRIERS * 20000000ull)
        FAIL("rank 0's imbalance %llu ns, expected at least %llu", imb,
             (unsigned long long)(n - 1) * BARRIERS * 20000000ull);
}

static void check_report(const char *dir, bool coll)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/summary.txt", dir);
    if (access(path, R_OK))
        FAIL("no %s", path);
    snprintf(path, sizeof(path), "%s/report.html", dir);
    if (access(path, R_OK))
        FAIL("no %s", path);
    snprintf(path, sizeof(path), "%s/profile.json", dir);
    const char *js = slurp(path);
    if (!js) {
        FAIL("cannot read %s", path);
        return;
    }
    if (!strstr(js, "\"missing\":[]"))
        FAIL("ranks missing in a job where none failed");
    if (!coll)
        check_traffic(js);
    check_calls(js, coll);
    if (coll && n > 1)
        check_colls(js);
}

/* Rank 0 spoils the report's directory before finalize: "full" (profile.json goes to a
 * file that takes nothing: ENOSPC at its first flush), "notdir" (the directory a plain file). */
static void spoil(const char *how, const char *dir)
{
    char path[4200];
    if (!strcmp(how, "full")) {
        mkdir(dir, 0777);
        snprintf(path, sizeof(path), "%s/profile.json.tmp", dir);
        unlink(path);
        if (symlink("/dev/full", path))
            FAIL("symlink %s: cannot set up the test", path);
    } else {
        rmdir(dir);
        FILE *f = fopen(dir, "w");
        if (!f)
            FAIL("cannot create the file %s", dir);
        else
            fclose(f);
    }
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    me = mc_rank;
    const char *mode = argc > 1 ? argv[1] : "p2p";
    bool coll = !strcmp(mode, "coll");
    const char *dir = getenv("RMP_PROFILE");
    if (n > 256) {
        FAIL("at most 256 ranks");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (!strcmp(mode, "crash") && me == 1)
        exit(3);
    if ((!strcmp(mode, "abort") || !strcmp(mode, "kill")) && n > 1) {
        ring(); /* traffic the profile counted, then a rank that never reaches MPI_Finalize */
        if (me == 1 && mode[0] == 'a')
            MPI_Abort(MPI_COMM_WORLD, 5);
        if (me == 1)
            raise(SIGKILL);
        MPI_Finalize();
        return mc_done("mpi_prof");
    }
    if (!strcmp(mode, "full") || !strcmp(mode, "notdir")) {
        ring();
        if (me == 0 && dir)
            spoil(mode, dir);
        MPI_Finalize();
        return mc_done("mpi_prof");
    }
    if (coll)
        colls();
    else {
        ring();
        alltoall();
        master_worker();
    }
    MPI_Finalize();
    if (me == 0 && (!dir || !strcmp(dir, "1") || !strcmp(dir, "0")))
        FAIL("run with RMP_PROFILE=DIR");
    else if (me == 0)
        check_report(dir, coll);
    return mc_done("mpi_prof");
}
