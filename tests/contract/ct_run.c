/* ct_run.c — the contract's harness: the environment's callbacks a transport is opened with
 * (arrivals logged, completions and failures recorded, the modex read from the shared board),
 * one rank's life (its environment, the descriptors it must not leak), and the run that forks
 * the ranks, reaps them and sweeps what they left. */
#include "contract.h"
#include "ct_harness.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the environment's callbacks -------------------------------------------------------- */

static void up_deliver(void *core, int src, const void *data, size_t len)
{
    ct_t *t = core;
    if (t->nmsgs == t->capmsgs) {
        size_t cap = t->capmsgs ? 2 * t->capmsgs : 256;
        ct_msg_t *m = realloc(t->msgs, cap * sizeof(*m));
        if (!m) {
            ct_fail(t, "out of memory logging arrivals");
            return;
        }
        t->msgs = m;
        t->capmsgs = cap;
    }
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy) {
        ct_fail(t, "out of memory logging arrivals");
        return;
    }
    memcpy(copy, data, len);
    t->msgs[t->nmsgs++] = (ct_msg_t){.src = src, .len = len, .data = copy};
}

static void up_get_done(void *core, void *cookie, int status)
{
    ct_t *t = core;
    if (t->ndone < 16) {
        t->done_cookie[t->ndone] = cookie;
        t->done_status[t->ndone++] = status;
    }
}

static void up_peer_failed(void *core, int peer, int status, const char *why)
{
    ct_t *t = core;
    if (t->failed_peer < 0) {
        t->failed_peer = peer;
        t->failed_status = status;
    }
}

static int up_modex_get(void *core, int peer, const char *name, const void **blob_p,
                        size_t *len_p)
{
    ct_t *t = core;
    if (peer < 0 || peer >= t->size || !t->board->bloblen[peer])
        return RMP_ERR_BOOTSTRAP;
    *blob_p = t->board->blob[peer];
    *len_p = t->board->bloblen[peer];
    return RMP_SUCCESS;
}

static void up_vlog(void *core, tp_log_t level, const char *fmt, va_list ap)
{
    ct_t *t = core;
    char line[1024];
    vsnprintf(line, sizeof(line), fmt, ap);
    fprintf(stderr, "contract[%d]: %s\n", t->rank, line);
}

/* The harness's RMP_* values are the test's inputs (RMP_DEVICE, RMP_GID_INDEX in the VM). */
static const char *up_knob(void *core, const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

/* What the transport itself reported is all the harness knows of failed peers. */
static int up_peer_error(void *core, int peer)
{
    ct_t *t = core;
    return t->failed_peer == peer ? t->failed_status : 0;
}

static const tp_upcalls_t ct_upcalls = {
    .deliver = up_deliver, .get_done = up_get_done, .peer_failed = up_peer_failed,
    .modex_get = up_modex_get, .vlog = up_vlog, .knob = up_knob, .peer_error = up_peer_error,
};

/* ---- one rank ---------------------------------------------------------------------------- */

#define CT_FDS 1024 /* descriptors tracked by number (a rank opens few) */

/* Under RMP_CM=rdmacm, librdmacm opens each device it routes through once and keeps that
 * context (its command and async-event descriptors) in its own table until the process
 * exits, whatever the caller closes: those two are the library's, not the transport's. */
static bool librdmacm_keeps(int fd)
{
    const char *cm = getenv("RMP_CM");
    if (!cm || strcmp(cm, "rdmacm"))
        return false;
    char path[64], target[256];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    ssize_t k = readlink(path, target, sizeof(target) - 1);
    target[k > 0 ? k : 0] = '\0';
    return !strncmp(target, "/dev/infiniband/uverbs", 22) ||
           !strcmp(target, "anon_inode:[infinibandevent]");
}

/* The open descriptors: how many, and which of the first CT_FDS (open[fd]). */
static int count_fds(bool *open)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    int n = 0, self = dirfd(d);
    memset(open, 0, CT_FDS * sizeof(*open));
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        int fd = atoi(e->d_name);
        if (librdmacm_keeps(fd))
            continue;
        n += fd != self;
        if (fd != self && fd >= 0 && fd < CT_FDS)
            open[fd] = true;
    }
    closedir(d);
    return n;
}

/* What the descriptors open now but not before point at: "7 -> /dev/infiniband/uverbs0, ...". */
static void new_fds(const bool *before, const bool *after, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int fd = 0; fd < CT_FDS; fd++) {
        if (!after[fd] || before[fd])
            continue;
        char path[64], target[256];
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        ssize_t k = readlink(path, target, sizeof(target) - 1);
        target[k > 0 ? k : 0] = '\0';
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%d -> %s", used ? ", " : "", fd, target);
    }
}

static void ct_env(ct_t *t, const ct_case_t *c)
{
    /* Two nodes (verbs only: shm cannot cross them): the last rank alone on node 1. */
    bool two = (c->flags & CT_TWO_NODES) && t->ops == &tp_verbs_ops && t->size > 1;
    int lsize = 0, lrank = 0;
    for (int w = 0; w < t->size; w++)
        t->node[w] = two && w == t->size - 1 ? 1 : 0;
    for (int w = 0; w < t->size; w++) {
        /* What the core would route: self only me, shm every other rank of the node, verbs
         * (as under RMP_TRANSPORT=verbs) everyone, or with two nodes the other node's. */
        t->route[w] = t->ops == &tp_self_ops ? w == t->rank
                      : t->ops == &tp_shm_ops ? w != t->rank
                      : two ? t->node[w] != t->node[t->rank] : true;
    }
    for (int w = 0; w < t->size; w++)
        if (t->node[w] == t->node[t->rank]) {
            lrank = w == t->rank ? lsize : lrank;
            t->local_ranks[lsize++] = w;
        }
    int n = 0;
    for (int w = 0; w < t->size; w++)
        n += t->route[w];
    t->env = (tp_env_t){
        .rank = t->rank, .size = t->size, .local_rank = lrank, .local_size = lsize,
        .local_ranks = t->local_ranks, .node = t->node, .nspace = t->nspace,
        .verbose = getenv("CT_VERBOSE") != NULL, .use_cma = true, .shm_ring_bytes = 64 << 10,
        .route = t->route, .nroute = n, .no_route = n ? NULL : "no peer", .up = &ct_upcalls,
        .core = t,
    };
}

static int rank_body(ct_t *t, const ct_case_t *c)
{
    int rc = t->ops->open(&t->env, &t->tp);
    CT_CHECK(t, rc == RMP_SUCCESS, "open: %s", rmp_strerror(rc));
    const void *blob;
    size_t len;
    rc = t->ops->addr_pack(t->tp, &blob, &len);
    CT_CHECK(t, rc == RMP_SUCCESS, "addr_pack: %s", rmp_strerror(rc));
    CT_CHECK(t, !blob || len <= CT_BLOB_MAX, "address blob of %zu bytes", len);
    if (blob)
        memcpy(t->board->blob[t->rank], blob, len);
    t->board->bloblen[t->rank] = blob ? len : 0;
    if (ct_barrier(t))
        return -1;
    rc = t->ops->wireup(t->tp);
    CT_CHECK(t, rc == RMP_SUCCESS, "wireup: %s", rmp_strerror(rc));
    if (ct_barrier(t))
        return -1;
    return c->run(t);
}

static int rank_main(const tp_ops_t *ops, ct_board_t *b, int rank, int n, const char *nspace,
                     const ct_case_t *c)
{
    ct_t t = {.ops = ops, .rank = rank, .size = n, .board = b, .failed_peer = -1,
              .orderly = true};
    snprintf(t.nspace, sizeof(t.nspace), "%s", nspace);
    ct_env(&t, c);
    static bool open_before[CT_FDS], open_after[CT_FDS];
    int fds = count_fds(open_before);
    int rc = rank_body(&t, c);
    if (t.tp) {
        /* As the core: a barrier before an orderly close (rmp_finalize's), else abandon. */
        if (t.orderly && !rc)
            rc = ct_barrier(&t);
        if (!t.orderly || rc)
            ops->abandon(t.tp);
        ops->close(t.tp);
    }
    int after = count_fds(open_after);
    if (!rc && after != fds) {
        char what[300];
        new_fds(open_before, open_after, what, sizeof(what));
        rc = ct_fail(&t, "close left %d file descriptors open (%d before open, %d after close: "
                     "%s)", after - fds, fds, after, what);
    }
    for (size_t i = 0; i < t.nmsgs; i++)
        free(t.msgs[i].data);
    free(t.msgs);
    return rc;
}

/* ---- the run ----------------------------------------------------------------------------- */

/* Under ASan, the leak check exit() would run (a rank's close must free everything). */
extern void __lsan_do_leak_check(void) __attribute__((weak));

/* A rank ends with _exit: a forked copy of a test runner must not run the runner's atexit
 * handlers (Criterion's would report on behalf of the parent). */
static _Noreturn void rank_exit(int rc)
{
    fflush(NULL);
    if (__lsan_do_leak_check)
        __lsan_do_leak_check();
    _exit(rc ? 1 : 0);
}

/* Names the transport left in /dev/shm for this run (removed; counted). */
static int sweep_shm(const char *nspace, char *first, size_t len)
{
    char prefix[128];
    snprintf(prefix, sizeof(prefix), "rmp.%s-", nspace);
    DIR *d = opendir("/dev/shm");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, prefix, strlen(prefix)))
            continue;
        if (!n++)
            snprintf(first, len, "%s", e->d_name);
        char path[512];
        snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
        unlink(path);
    }
    if (d)
        closedir(d);
    return n;
}

static void describe_exit(char *why, size_t len, int rank, int status, const char *said)
{
    if (said[0])
        snprintf(why, len, "rank %d: %s", rank, said);
    else if (WIFSIGNALED(status))
        snprintf(why, len, "rank %d: killed by signal %d", rank, WTERMSIG(status));
    else
        snprintf(why, len, "rank %d: exit status %d", rank, WEXITSTATUS(status));
}

/* Wait for every rank (the run's time limit), reaping those that end on purpose at once. The
 * failure reported is the first rank's own (not "another rank failed"). */
static int reap_all(ct_board_t *b, pid_t *pids, int n, char *why, size_t len)
{
    int left = n, bad = 0, status[CT_MAXR] = {0};
    bool failed[CT_MAXR] = {false};
    double end = ct_now() + CT_RUN_S;
    struct timespec nap = {0, 2000000};
    while (left > 0) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p < 0 && errno != EINTR)
            break;
        int r = -1;
        for (int i = 0; p > 0 && i < n; i++)
            r = pids[i] == p ? i : r;
        if (r >= 0) {
            left--;
            pids[r] = 0;
            failed[r] = !WIFEXITED(st) || WEXITSTATUS(st) != 0;
            status[r] = st;
            atomic_store(&b->gone[r], 1);
            if (failed[r])
                atomic_store(&b->abort, 1);
            continue;
        }
        if (ct_now() > end) {
            if (!bad)
                snprintf(why, len, "the run did not end within %d s", CT_RUN_S);
            bad = 1;
            for (int i = 0; i < n; i++)
                if (pids[i] > 0)
                    kill(pids[i], SIGKILL);
            end = ct_now() + 10;
        }
        nanosleep(&nap, NULL);
    }
    int blame = -1;
    for (int r = 0; r < n; r++)
        if (failed[r] && (blame < 0 || !strncmp(b->why[blame], "stopped", 7)))
            blame = r;
    if (blame >= 0 && !bad)
        describe_exit(why, len, blame, status[blame], b->why[blame]);
    return bad || blame >= 0 ? -1 : 0;
}

int ct_run(const tp_ops_t *ops, int n, const ct_case_t *c, char *why, size_t len)
{
    if (n < 1 || n > CT_MAXR || n < c->min_ranks) {
        snprintf(why, len, "%s needs %d to %d ranks, not %d", c->name, c->min_ranks, CT_MAXR, n);
        return -1;
    }
    ct_board_t *b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                         -1, 0);
    if (b == MAP_FAILED) {
        snprintf(why, len, "mmap: %s", strerror(errno));
        return -1;
    }
    char nspace[96];
    snprintf(nspace, sizeof(nspace), "ct-%d-%s-%s", (int)getpid(), ops->name, c->name);
    pid_t pids[CT_MAXR] = {0};
    int bad = 0;
    fflush(NULL);
    for (int r = 0; r < n && !bad; r++) {
        pids[r] = fork();
        if (pids[r] == 0)
            rank_exit(rank_main(ops, b, r, n, nspace, c));
        if (pids[r] < 0) {
            snprintf(why, len, "fork: %s", strerror(errno));
            atomic_store(&b->abort, 1); /* the ranks forked so far stop at their barrier */
            pids[r] = 0;
            bad = 1;
        }
    }
    char scratch[512];
    int rc = reap_all(b, pids, n, bad ? scratch : why, bad ? sizeof(scratch) : len);
    for (int r = 0; r < n && !rc && !bad; r++)
        if (atomic_load(&b->dying[r]) != ((c->flags & CT_RANK1_DIES) && r == 1)) {
            snprintf(why, len, "rank %d ended unexpectedly", r);
            rc = -1;
        }
    char left[256];
    int nleft = sweep_shm(nspace, left, sizeof(left));
    if (!rc && !bad && nleft) {
        snprintf(why, len, "%d name(s) left in /dev/shm after close, e.g. %s", nleft, left);
        rc = -1;
    }
    munmap(b, sizeof(*b));
    return rc || bad ? -1 : 0;
}
