/* progress.c — asynchronous progress (RMP_PROGRESS_THREAD): transfers posted before a long
 * computation that calls no rmp function have landed when the computation ends.
 * Usage: progress overlap [T [MAX_MS]] — T user threads (default 1; T > 1 runs at
 *                          RMP_THREAD_MULTIPLE); receivers compute 1 s, then on until
 *                          their data is there or MAX_MS (default 1000) have passed
 *        progress tasks        — prints the process's thread counts around init and finalize
 *        progress kill         — rank 1 dies by SIGKILL while the others compute
 * overlap: the first half of the ranks sends BYTES (rendezvous) to rank + n/2, which posted the
 * receive before a barrier; the sender posts once the receiver says (by a file, not by rmp)
 * that it left the barrier for its computation, so the receive can only progress inside the
 * receiver's computation. The receiver checks its buffer BEFORE any rmp call and prints
 * "rank R thread T: p2p landed during compute: yes|no"; then an iallreduce of COLL_N ints
 * posted before a computation gives "rank R: iallreduce landed during compute: yes|no". Every
 * transfer is then waited for and checked exactly. */
#include <dirent.h>
#include <pthread.h>
#include <time.h>

#include "progs.h"

#define BYTES (8u << 20)    /* far above every transport's eager limit */
#define COLL_N (512 * 1024) /* 2 MiB of ints: rendezvous steps in the allreduce */
#define WAIT_MS 30000 /* how long a sender waits for its receiver to say it computes */
#define COMPUTE_MS 1000

static int rank, n;
static double max_ms = COMPUTE_MS; /* argv[3]: how long a receiver computes at most */
static pthread_barrier_t posted; /* the user threads of this rank */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The application's computation: a busy loop that calls nothing of rmp. */
static void compute(double ms)
{
    volatile uint64_t x = 1;
    double end = now_ms() + ms;
    while (now_ms() < end)
        for (int i = 0; i < 10000; i++)
            x = x * 6364136223846793005ull + 1;
}

/* How many leading bytes of buf already equal fill(seed), read while the runtime's progress
 * thread may still be writing them: a race on purpose (the test observes progress without
 * calling rmp, which would make progress itself), hence a plain loop that ThreadSanitizer
 * neither instruments nor intercepts. The verdict after rmp_wait uses first_mismatch. */
__attribute__((noinline, no_sanitize("thread"))) static size_t landed_bytes(
    const volatile unsigned char *buf, size_t len, uint64_t seed)
{
    for (size_t i = 0; i < len; i += 8) {
        uint64_t v = mix64(seed ^ (i * 0x100000001b3ull));
        unsigned char want[8]; /* fill's bytes, in memory order */
        memcpy(want, &v, 8);
        for (size_t j = 0; j < 8 && i + j < len; j++)
            if (buf[i + j] != want[j])
                return i + j;
    }
    return len;
}

/* Index of the first of n ints of out that is not the allreduce's result (-1: none), read
 * while the progress thread may write them (see landed_bytes). */
__attribute__((noinline, no_sanitize("thread"))) static int coll_first_wrong(
    const volatile int *out, int count, long tri)
{
    for (int i = 0; i < count; i++)
        if (out[i] != tri * (i % 1000))
            return i;
    return -1;
}

/* The file by which a receiver thread tells its sender that it left rmp for its computation:
 * no rmp call may carry that word, or the receiver's call would progress the transfer. In the
 * job's TMPDIR (the test harness gives each job its own), named after the job. */
static void computing_path(char *path, size_t len, int receiver, int thread)
{
    const char *dir = getenv("TMPDIR"), *job = getenv("RMP_MRUN_FD");
    snprintf(path, len, "%s/progress-computing.%s.%d.%d", dir && *dir ? dir : "/tmp",
             job && strchr(job, ':') ? strchr(job, ':') + 1 : "0", receiver, thread);
}

static void say_computing(int thread)
{
    char path[512];
    computing_path(path, sizeof path, rank, thread);
    FILE *f = fopen(path, "w");
    if (!f || fclose(f) != 0)
        FAIL("thread %d: cannot create %s: %s", thread, path, strerror(errno));
}

/* Computes (calling nothing of rmp) until the receiver said it computes; removes its word. */
static void await_computing(int receiver, int thread)
{
    char path[512];
    computing_path(path, sizeof path, receiver, thread);
    double end = now_ms() + WAIT_MS;
    while (access(path, F_OK) != 0 && now_ms() < end)
        compute(1);
    if (unlink(path) != 0)
        FAIL("thread %d: rank %d never said it computes (%s)", thread, receiver, path);
}

static uint64_t seed_of(int sender, int thread)
{
    return mix64((uint64_t)sender << 8 | (uint64_t)thread);
}

/* One rendezvous transfer from rank s < n/2 to s + n/2, with tag `thread`. */
static void *p2p_phase(void *arg)
{
    int thread = (int)(intptr_t)arg;
    unsigned char *buf = malloc(BYTES);
    if (!buf) {
        FAIL("thread %d: no memory for %u bytes", thread, BYTES);
        return NULL;
    }
    bool sender = rank < n / 2;
    int peer = sender ? rank + n / 2 : rank - n / 2;
    rmp_request_t req;
    if (sender)
        fill(buf, BYTES, seed_of(rank, thread));
    else {
        memset(buf, 0, BYTES);
        CHECK(rmp_irecv(buf, BYTES, RMP_BYTE, peer, thread, RMP_COMM_WORLD, &req));
    }
    /* One world barrier per rank, after every thread posted (collectives from several
     * threads at once would pair up in any order across ranks). */
    pthread_barrier_wait(&posted);
    if (thread == 0)
        CHECK(rmp_barrier(RMP_COMM_WORLD));
    pthread_barrier_wait(&posted);
    if (sender) {
        await_computing(peer, thread);
        CHECK(rmp_isend(buf, BYTES, RMP_BYTE, peer, thread, RMP_COMM_WORLD, &req));
        compute(COMPUTE_MS);
    } else {
        say_computing(thread);
        /* Compute COMPUTE_MS, then on (up to max_ms) until the data is there: a loaded machine
         * may give the progress thread little CPU, and this is not a speed test. */
        double end = now_ms() + max_ms;
        size_t good = 0;
        compute(COMPUTE_MS);
        while ((good = landed_bytes(buf, BYTES, seed_of(peer, thread))) < BYTES &&
               now_ms() < end)
            compute(20);
        /* Nothing of rmp was called since the barrier: only another thread moved the data. */
        printf("rank %d thread %d: p2p landed during compute: %s\n", rank, thread,
               good == BYTES ? "yes" : "no");
        if (good < BYTES) /* for the reader of a failure: nothing, or a transfer under way */
            printf("rank %d thread %d: the first %zu bytes had landed\n", rank, thread, good);
    }
    rmp_status_t st;
    CHECK(rmp_wait(&req, &st));
    if (!sender) {
        size_t bad = first_mismatch(buf, BYTES, seed_of(peer, thread));
        EXPECT(bad == BYTES, "thread %d: received data differs at byte %zu", thread, bad);
        EXPECT(st.source == peer && st.tag == thread, "thread %d: status source %d tag %d",
               thread, st.source, st.tag);
    }
    free(buf);
    return NULL;
}

static void coll_phase(void)
{
    int *in = malloc(COLL_N * sizeof(int)), *out = malloc(COLL_N * sizeof(int));
    if (!in || !out) {
        FAIL("no memory for the allreduce");
        exit(1);
    }
    for (int i = 0; i < COLL_N; i++) {
        in[i] = (rank + 1) * (i % 1000);
        out[i] = -1;
    }
    long tri = (long)n * (n + 1) / 2; /* sum of rank + 1 over the ranks */
    rmp_request_t req;
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_iallreduce(in, out, COLL_N, RMP_INT, RMP_SUM, RMP_COMM_WORLD, &req));
    double end = now_ms() + max_ms;
    int bad;
    compute(COMPUTE_MS);
    while ((bad = coll_first_wrong(out, COLL_N, tri)) >= 0 && now_ms() < end)
        compute(20);
    printf("rank %d: iallreduce landed during compute: %s\n", rank, bad < 0 ? "yes" : "no");
    CHECK(rmp_wait(&req, RMP_STATUS_IGNORE));
    for (int i = 0; i < COLL_N; i++)
        if (out[i] != tri * (i % 1000)) {
            FAIL("iallreduce: out[%d] = %d, expected %ld", i, out[i], tri * (i % 1000));
            break;
        }
    free(in);
    free(out);
}

static int overlap(int argc, char **argv)
{
    int threads = argc > 2 ? atoi(argv[2]) : 1;
    if (argc > 3)
        max_ms = atof(argv[3]);
    if (threads < 1 || threads > 16 || max_ms < COMPUTE_MS) {
        fprintf(stderr, "progress overlap [T [MAX_MS]]: T from 1 to 16, MAX_MS >= %d\n",
                COMPUTE_MS);
        return 2;
    }
    int provided;
    MUST(rmp_init_thread(&argc, &argv, threads > 1 ? RMP_THREAD_MULTIPLE : RMP_THREAD_SINGLE,
                         &provided));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    if (n % 2) {
        FAIL("run with an even number of ranks");
        exit(1);
    }
    phase("p2p transfers during a computation", 60);
    if (pthread_barrier_init(&posted, NULL, (unsigned)threads) != 0) {
        FAIL("pthread_barrier_init failed");
        exit(1);
    }
    if (threads == 1)
        p2p_phase((void *)(intptr_t)0);
    else {
        pthread_t tid[16];
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tid[t], NULL, p2p_phase, (void *)(intptr_t)t) != 0) {
                FAIL("pthread_create failed");
                exit(1);
            }
        for (int t = 0; t < threads; t++)
            pthread_join(tid[t], NULL);
    }
    pthread_barrier_destroy(&posted);
    phase("iallreduce during a computation", 60);
    coll_phase();
    phase("finalize", 60);
    CHECK(rmp_finalize());
    if (rank == 0 && !prog_failures)
        printf("progress: OK n=%d threads=%d\n", n, threads);
    return prog_exit();
}

/* Threads of this process (entries of /proc/self/task), or -1. */
static int tasks(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return -1;
    int k = 0;
    for (struct dirent *e; (e = readdir(d));)
        k += e->d_name[0] != '.';
    closedir(d);
    return k;
}

static int task_count(int argc, char **argv)
{
    int before = tasks();
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    prog_rank = rank;
    int during = tasks();
    phase("finalize", 60);
    CHECK(rmp_finalize());
    printf("rank %d tasks: before=%d init=%d finalized=%d\n", rank, before, during, tasks());
    return prog_exit();
}

static int kill_one(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    prog_rank = rank;
    int x = 0;
    rmp_request_t req;
    if (rank != 1)
        CHECK(rmp_irecv(&x, 1, RMP_INT, 1, 0, RMP_COMM_WORLD, &req));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (rank == 1) {
        printf("rank 1: raising SIGKILL\n");
        fflush(stdout);
        compute(50); /* the others' progress threads are asleep by now */
        raise(SIGKILL);
    }
    phase("computing while rank 1 dies (mrun should have ended the job)", 60);
    compute(60000);
    FAIL("still running 60 s after rank 1 was killed");
    return prog_exit();
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "overlap"))
        return overlap(argc, argv);
    if (!strcmp(mode, "tasks"))
        return task_count(argc, argv);
    if (!strcmp(mode, "kill"))
        return kill_one(argc, argv);
    fprintf(stderr, "usage: progress overlap [T] | tasks | kill\n");
    return 2;
}
