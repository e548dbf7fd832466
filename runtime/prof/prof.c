/* prof.c — RMP_PROFILE's counters and their one gather: per rank, the messages and bytes sent
 * to each peer, eager and by rendezvous, are the runtime's own (peer_t's, which rmp_stats and
 * MPI_T read: one set), taken at start and at the fold; one-sided transfers by protocol and
 * the size histogram are counted here (lock held, like stats.h's); per thread (its own
 * table, no lock, no shared line) each call's count, time and bytes, and the collectives per
 * communicator. rmp_finalize folds the threads' tables into the rank's blob and sends it to
 * rank 0, which writes the report's three files (prof_report.c, prof_summary.c, prof_html.c
 * fill them), each beside its name and renamed: a full disk leaves no half file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core.h"
#include "prof.h"

int rmp_prof_on;

/* A thread's own counters, made at its first profiled call, listed for the fold. */
typedef struct prof_thr {
    prof_call_t call[RMP_PROF_MAX_CALLS]; /* ns: ticks of its first PROF_EXACT calls */
    /* Past them, where the clock is slow: ticks of the calls timed, and how many there were */
    uint64_t sampled[RMP_PROF_MAX_CALLS], timed[RMP_PROF_MAX_CALLS];
    uint32_t rng, mask;     /* which calls are timed: those where rng & mask is 0 */
    prof_comm_t comm[PROF_MAX_COMMS + 1];
    uint64_t cur_bytes; /* sent since its current call began */
    char alg[PROF_ALG_LEN]; /* the algorithm setting its current collective ran under */
    struct prof_thr *next;
} prof_thr_t;

/* initial-exec: one load, not a __tls_get_addr call, on every profiled call. */
static _Thread_local prof_thr_t *prof_me __attribute__((tls_model("initial-exec")));
static prof_thr_t *prof_threads; /* (lock held to add one) */

#define PROF_TAG 0x7ffffffe
#define PROF_EXACT 16 /* a call's first ones are all timed: a rare call's time is never a guess */ /* on the world's collective context: no collective is running */

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The cheapest clock that counts: the TSC on x86-64 (a few ns, no system call), turned into
 * ns at the fold by the rate measured over the whole run; clock_gettime elsewhere. */
static inline uint64_t ticks(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return now_ns();
#endif
}

static prof_thr_t *thr_get(void)
{
    if (__builtin_expect(prof_me != NULL, 1))
        return prof_me;
    prof_thr_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL; /* not counted: the call itself goes on */
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    t->mask = c->prof ? c->prof->sample - 1 : 0;
    t->rng = 0x9e3779b9u ^ (uint32_t)(uintptr_t)t;
    t->next = prof_threads;
    prof_threads = t;
    ctx_unlock(c);
    return prof_me = t;
}

/* A call starts: 0 when it is not timed (a clock read costs more than a short call where the
 * clock is slow: 1 in p->sample calls is timed then, at random, and the time estimated). */
static unsigned long long enter(const char *const *names, int id, bool always)
{
    prof_t *p = rmp_ctx.prof;
    prof_thr_t *t = thr_get();
    if (p && !__atomic_load_n(&p->names, __ATOMIC_RELAXED)) /* threads store the same one */
        __atomic_store_n(&p->names, names, __ATOMIC_RELAXED); /* one static table */
    if (!t)
        return 0;
    t->cur_bytes = 0;
    t->alg[0] = '\0';
    t->rng ^= t->rng << 13, t->rng ^= t->rng >> 17, t->rng ^= t->rng << 5; /* xorshift32 */
    if (always || !(t->rng & t->mask) ||
        (id >= 0 && id < RMP_PROF_MAX_CALLS && t->call[id].calls < PROF_EXACT))
        return ticks() | 1;
    return 0;
}

unsigned long long rmp_prof_enter(const char *const *names, int id)
{
    return enter(names, id, false);
}

unsigned long long rmp_prof_enter_coll(const char *const *names, int id)
{
    return enter(names, id, true); /* collectives are always timed: their imbalance needs it */
}

static prof_thr_t *leave(int id, unsigned long long t0)
{
    uint64_t dt = t0 ? ticks() - t0 : 0;
    prof_thr_t *t = prof_me;
    if (!t || id < 0 || id >= RMP_PROF_MAX_CALLS)
        return NULL;
    prof_call_t *k = &t->call[id];
    if (k->calls < PROF_EXACT)
        k->ns += dt; /* in ticks until the fold */
    else if (t0) {
        t->sampled[id] += dt;
        t->timed[id]++;
    }
    k->calls++;
    k->bytes += t->cur_bytes;
    return t;
}

void rmp_prof_leave(int id, unsigned long long t0)
{
    leave(id, t0);
}

/* The slot of communicator (ctx_id, size) in a table; the last one takes the overflow. */
static prof_comm_t *comm_slot(prof_comm_t *tab, uint32_t ctx_id, int size)
{
    for (int i = 0; i < PROF_MAX_COMMS; i++) {
        if (tab[i].calls && tab[i].ctx_id == ctx_id && tab[i].size == size)
            return &tab[i];
        if (!tab[i].calls) {
            tab[i].ctx_id = ctx_id;
            tab[i].size = size;
            return &tab[i];
        }
    }
    tab[PROF_MAX_COMMS].ctx_id = UINT32_MAX;
    return &tab[PROF_MAX_COMMS];
}

/* Adds "alg" to the list in algs (space-separated, each once; what does not fit is left). */
static void alg_add(char *algs, const char *alg)
{
    size_t n = strlen(algs), a = strlen(alg);
    if (!a || strstr(algs, alg) || n + a + 2 > PROF_ALG_LEN)
        return;
    if (n)
        algs[n++] = ' ';
    memcpy(algs + n, alg, a + 1);
}

void rmp_prof_leave_coll(int id, unsigned long long t0, rmp_comm_t comm)
{
    prof_thr_t *t = leave(id, t0);
    comm_t *cm = comm_get(comm);
    if (!t || !cm)
        return;
    prof_comm_t *s = comm_slot(t->comm, cm->ctx_id, cm->lworld ? -cm->size : cm->size);
    s->calls++;
    s->ns += t0 ? ticks() - t0 : 0;
    s->bytes += t->cur_bytes;
    alg_add(s->algs, t->alg);
}

void prof_alg(const char *coll, const char *alg)
{
    prof_thr_t *t = prof_me;
    if (t)
        snprintf(t->alg, sizeof(t->alg), "%s=%s", coll, alg);
}

void prof_size(prof_t *p, uint64_t len)
{
    p->me->hist[prof_bucket(len)]++;
    if (prof_me)
        prof_me->cur_bytes += len;
}

void prof_msg(prof_t *p, int peer, int proto, uint64_t len)
{
    p->me->peer[peer][proto][0]++;
    p->me->peer[peer][proto][1] += len;
    prof_size(p, len);
}

/* Each peer's counters (peer_t: what stats and MPI_T read) now, into v[peer]. */
static void peer_counts(const rmp_ctx_t *c, uint64_t (*v)[4])
{
    for (int i = 0; i < c->size && i < c->npeers; i++) {
        const peer_t *q = &c->peers[i];
        v[i][0] = q->msgs_sent;
        v[i][1] = q->bytes_sent;
        v[i][2] = q->rndv_sent;
        v[i][3] = q->rndv_bytes;
    }
}

/* The point-to-point matrix from the peers' counters since the start (lock held). */
static void fold_peers(const rmp_ctx_t *c, prof_t *p)
{
    uint64_t (*now)[4] = calloc((size_t)c->size, sizeof(*now));
    if (!now || !p->base) {
        free(now);
        return;
    }
    peer_counts(c, now);
    for (int i = 0; i < c->size; i++) {
        uint64_t *a = now[i], *b = p->base[i];
        uint64_t rn = a[2] - b[2], rb = a[3] - b[3];
        p->me->peer[i][PROF_RNDV][0] += rn;
        p->me->peer[i][PROF_RNDV][1] += rb;
        p->me->peer[i][PROF_EAGER][0] += a[0] - b[0] - rn;
        p->me->peer[i][PROF_EAGER][1] += a[1] - b[1] - rb;
    }
    free(now);
}

/* 1 where a clock read is cheap (a few ns: the TSC read directly), else 16: where a virtual
 * machine traps RDTSC (11-55 ns measured here, clock_gettime 130), two reads per call would
 * cost more than a short call itself. */
static uint32_t sample_period(double *cost_ns)
{
    uint64_t t0 = now_ns();
    for (int i = 0; i < 1000; i++)
        (void)ticks(); /* RDTSC is volatile, clock_gettime a call: neither is optimized out */
    *cost_ns = (double)(now_ns() - t0) / 1000.0;
    return *cost_ns <= 10.0 ? 1 : 16;
}

/* RMP_PROFILE=1: ./rmp-profile-<jobid>, the job id being the PMIx namespace made a name. */
static void default_dir(const rmp_ctx_t *c, char *dir, size_t len)
{
    char id[256];
    size_t i = 0;
    for (const char *s = c->nspace; *s && i + 1 < sizeof(id); s++)
        id[i++] = (char)(strchr("/ :", *s) ? '-' : *s);
    id[i] = '\0';
    snprintf(dir, len, "rmp-profile-%s", id);
}

int prof_init(rmp_ctx_t *c)
{
    const knob_val_t *v = &c->cfg.knobs[KNOB_PROFILE];
    if (!v->set || !strcmp(v->text, "0"))
        return RMP_SUCCESS;
    prof_t *p = calloc(1, sizeof(*p));
    size_t len = sizeof(prof_blob_t) + (size_t)c->size * sizeof(p->me->peer[0]);
    prof_blob_t *b = p ? calloc(1, len) : NULL;
    if (p)
        p->base = calloc((size_t)c->size, sizeof(*p->base));
    if (!b || !p->base) {
        free(b);
        if (p)
            free(p->base);
        free(p);
        core_error(c, "RMP_PROFILE: no memory for the counters (%zu bytes); not profiling", len);
        return RMP_SUCCESS; /* profiling never changes the job's result */
    }
    *b = (prof_blob_t){.magic = PROF_MAGIC, .rank = c->rank, .size = c->size,
                       .node = c->node ? c->node[c->rank] : 0};
    p->me = b;
    p->blob_len = len;
    if (!strcmp(v->text, "1"))
        default_dir(c, p->dir, sizeof(p->dir));
    else
        snprintf(p->dir, sizeof(p->dir), "%s", v->text);
    peer_counts(c, p->base); /* what wire-up sent is not the program's */
    p->ns0 = now_ns();
    p->tsc0 = ticks();
    p->sample = sample_period(&p->clock_ns);
    b->sample = p->sample;
    c->prof = p;
    rmp_prof_on = 1;
    return RMP_SUCCESS;
}

/* The threads' tables into the blob (times from ticks to ns), and freed. */
static void fold(prof_t *p)
{
    uint64_t ns = now_ns() - p->ns0, tk = ticks() - p->tsc0;
    double per_tick = tk ? (double)ns / (double)tk : 1.0;
    prof_blob_t *b = p->me;
    b->wall_ns = ns;
    for (prof_thr_t *t = prof_threads, *nx; t; t = nx) {
        nx = t->next;
        b->nthreads++;
        for (int i = 0; i < RMP_PROF_MAX_CALLS; i++) {
            uint64_t n = t->call[i].calls, rest = n > PROF_EXACT ? n - PROF_EXACT : 0;
            double est = t->timed[i] ? (double)t->sampled[i] * (double)rest / (double)t->timed[i]
                                     : 0; /* every timed call stands for its share */
            b->call[i].calls += n;
            b->call[i].ns += (uint64_t)(((double)t->call[i].ns + est) * per_tick);
            b->call[i].bytes += t->call[i].bytes;
        }
        for (int i = 0; i <= PROF_MAX_COMMS && t->comm[i].calls; i++) {
            prof_comm_t *s = &t->comm[i], *d = i == PROF_MAX_COMMS ? &b->comm[i]
                                                                 : comm_slot(b->comm, s->ctx_id,
                                                                             s->size);
            d->calls += s->calls;
            d->ns += (uint64_t)((double)s->ns * per_tick);
            d->bytes += s->bytes;
            alg_add(d->algs, s->algs);
        }
        free(t);
    }
    prof_threads = NULL;
    prof_me = NULL;
}

/* Rank 0: every other rank's blob, or NULL for those that never came (failed). */
static void gather_in(rmp_ctx_t *c, comm_t *w, prof_t *p, prof_job_t *j, char *all)
{
    struct rmp_request **rq = calloc((size_t)c->size, sizeof(*rq));
    for (int r = 1; rq && r < c->size; r++)
        if (p2p_irecv_bytes(w, 1, all + (size_t)r * p->blob_len, p->blob_len, r, PROF_TAG,
                            &rq[r]))
            rq[r] = NULL;
    j->blob[0] = p->me;
    for (int r = 1; r < c->size; r++) {
        rmp_status_t st = {0};
        rmp_request_t h = rq && rq[r] ? req_handle(rq[r]) : RMP_REQUEST_NULL;
        int rc = h != RMP_REQUEST_NULL ? rmp_wait(&h, &st) : RMP_ERR_PEER;
        prof_blob_t *b = (prof_blob_t *)(all + (size_t)r * p->blob_len);
        bool ok = !rc && !st.error && (size_t)st.count == p->blob_len &&
                  b->magic == PROF_MAGIC && b->rank == r;
        j->blob[r] = ok ? b : NULL;
        j->missing += !ok;
    }
    free(rq);
}

/* One file, through a temporary name: complete or absent. */
static int write_one(const prof_job_t *j, const char *dir, const char *name,
                     void (*fill)(const prof_job_t *, FILE *), char *why, size_t len)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(why, len, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    fill(j, f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(why, len, "cannot write %s: %s", tmp, strerror(errno ? errno : EIO));
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, path) != 0) {
        snprintf(why, len, "cannot rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

int prof_write(const prof_job_t *j, const char *dir, char *why, size_t len)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(why, len, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    errno = 0;
    if (write_one(j, dir, "profile.json", prof_json, why, len) ||
        write_one(j, dir, "summary.txt", prof_summary, why, len) ||
        write_one(j, dir, "report.html", prof_html, why, len))
        return -1;
    return 0;
}

static void write_report(rmp_ctx_t *c, prof_t *p, prof_job_t *j)
{
    char why[512];
    uint64_t t0 = now_ns();
    int rc = prof_write(j, p->dir, why, sizeof(why));
    j->write_s = (double)(now_ns() - t0) * 1e-9;
    if (rc)
        core_error(c, "RMP_PROFILE: no report written: %s (the job's result is unchanged)",
                   why);
    else if (j->missing)
        core_error(c, "RMP_PROFILE: partial report in %s/: %d rank(s) missing", p->dir,
                   j->missing);
    else
        core_verbose(c, "RMP_PROFILE: report in %s/ (%.3f s to write)", p->dir, j->write_s);
}

void prof_finish(rmp_ctx_t *c)
{
    prof_t *p = c->prof;
    if (!p)
        return;
    rmp_prof_on = 0;
    ctx_lock(c);
    c->prof = NULL; /* the gather's own messages are not counted */
    fold(p);
    fold_peers(c, p);
    ctx_unlock(c);
    comm_t *w = comm_get(RMP_COMM_WORLD);
    if (c->rank != 0 && w) {
        struct rmp_request *r;
        if (!p2p_isend_bytes(w, 1, p->me, p->blob_len, 0, PROF_TAG, &r)) {
            rmp_request_t h = req_handle(r);
            rmp_wait(&h, RMP_STATUS_IGNORE);
        }
    } else if (w) {
        prof_job_t j = {.size = c->size, .names = p->names, .c = c, .clock_ns = p->clock_ns};
        char *all = malloc((size_t)c->size * p->blob_len);
        j.blob = calloc((size_t)c->size, sizeof(*j.blob));
        if (all && j.blob) {
            gather_in(c, w, p, &j, all);
            write_report(c, p, &j);
        } else
            core_error(c, "RMP_PROFILE: no report written: no memory for %d ranks' counters "
                       "(the job's result is unchanged)", c->size);
        free(j.blob);
        free(all);
    }
    free(p->me);
    free(p->base);
    free(p);
}
