/* contract.c — the transport contract cases (the harness that runs them is ct_run.c). A
 * transport is opened through its ops table exactly as the core opens it, with a tp_env_t whose
 * callbacks are the harness's own (arrivals are logged, completions and failures recorded, the
 * modex is a shared board the harness owns); every rank is a forked process. Nothing of the
 * transport is mocked: the code under test is the library's. */
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

/* ---- failing ---------------------------------------------------------------------------- */

int ct_fail(ct_t *t, const char *fmt, ...)
{
    char *w = t->board->why[t->rank];
    if (!w[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w, sizeof(t->board->why[0]), fmt, ap);
        va_end(ap);
    }
    atomic_store(&t->board->abort, 1);
    return -1;
}

double ct_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- helpers for the cases -------------------------------------------------------------- */

int ct_barrier(ct_t *t)
{
    int want = ++t->nbar * t->size;
    atomic_fetch_add(&t->board->arrived, 1);
    double end = ct_now() + CT_WAIT_S;
    struct timespec nap = {0, 100000};
    while (atomic_load(&t->board->arrived) < want) {
        if (atomic_load(&t->board->abort))
            return ct_fail(t, "stopped: another rank failed");
        if (ct_now() > end)
            return ct_fail(t, "barrier %d: the other ranks did not come within %d s", t->nbar,
                           CT_WAIT_S);
        nanosleep(&nap, NULL);
    }
    return 0;
}

/* Send as the core does: connect on first use, RMP_AGAIN means progress and retry. */
int ct_send(ct_t *t, int dst, const ct_hdr_t *h, const void *payload)
{
    if (!t->connected[dst]) {
        int rc = t->ops->connect(t->tp, dst);
        CT_CHECK(t, rc == RMP_SUCCESS, "connect(%d): %s", dst, rmp_strerror(rc));
        t->connected[dst] = true;
    }
    double end = ct_now() + CT_WAIT_S;
    for (;;) {
        int rc = t->ops->send(t->tp, dst, h, sizeof(*h), payload, h->len);
        if (rc == RMP_SUCCESS)
            return 0;
        CT_CHECK(t, rc == RMP_AGAIN, "send of %zu bytes to %d: %s (%d)",
                 sizeof(*h) + (size_t)h->len, dst, rc < 0 ? rmp_strerror(rc) : "?", rc);
        CT_CHECK(t, ct_now() < end, "send to %d: RMP_AGAIN for %d s, progress never drained it",
                 dst, CT_WAIT_S);
        t->ops->progress(t->tp);
    }
}

unsigned char ct_byte(uint32_t src, uint32_t seq, size_t i)
{
    return (unsigned char)(src * 31u + seq * 131u + (uint32_t)i * 7u + (uint32_t)(i >> 8));
}

void ct_fill(unsigned char *p, uint32_t src, uint32_t seq, size_t len)
{
    for (size_t i = 0; i < len; i++)
        p[i] = ct_byte(src, seq, i);
}

static int ct_send_data(ct_t *t, int dst, uint32_t seq, size_t len, unsigned char *scratch)
{
    ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_DATA, .src = (uint32_t)t->rank, .seq = seq,
                  .len = len};
    ct_fill(scratch, h.src, seq, len);
    return ct_send(t, dst, &h, scratch);
}

/* Progress until n arrivals are logged. */
static int ct_wait_msgs(ct_t *t, size_t n)
{
    double end = ct_now() + CT_WAIT_S;
    while (t->nmsgs < n) {
        if (atomic_load(&t->board->abort))
            return ct_fail(t, "stopped: another rank failed");
        CT_CHECK(t, ct_now() < end, "%zu of %zu arrivals after %d s", t->nmsgs, n, CT_WAIT_S);
        t->ops->progress(t->tp);
    }
    return 0;
}

/* The first arrival of type `type` not taken yet (waiting for it), or NULL (failed). */
const ct_msg_t *ct_take(ct_t *t, uint32_t type)
{
    for (size_t seen = 0;;) {
        for (size_t i = seen; i < t->nmsgs; i++) {
            ct_hdr_t h;
            if (t->msgs[i].taken || t->msgs[i].len < sizeof(h))
                continue;
            memcpy(&h, t->msgs[i].data, sizeof(h));
            if (h.type == type) {
                t->msgs[i].taken = true;
                return &t->msgs[i];
            }
        }
        seen = t->nmsgs;
        if (ct_wait_msgs(t, seen + 1))
            return NULL;
    }
}

/* Check arrival m: from src, a DATA of exactly len payload bytes numbered seq, bytes intact. */
static int ct_check_data(ct_t *t, const ct_msg_t *m, int src, uint32_t seq, size_t len)
{
    ct_hdr_t h;
    CT_CHECK(t, m->len == sizeof(h) + len, "arrival from %d (seq %u): %zu bytes, expected %zu",
             m->src, seq, m->len, sizeof(h) + len);
    memcpy(&h, m->data, sizeof(h));
    CT_CHECK(t, m->src == src && h.src == (uint32_t)src,
             "arrival delivered as from rank %d, sent by rank %u, expected %d", m->src, h.src, src);
    CT_CHECK(t, h.magic == CT_MAGIC && h.type == CT_T_DATA && h.len == len, "arrival header "
             "garbled (magic %x type %u len %llu)", h.magic, h.type, (unsigned long long)h.len);
    CT_CHECK(t, h.seq == seq, "from rank %d: message %u arrived where %u was due", src, h.seq,
             seq);
    for (size_t i = 0; i < len; i++)
        CT_CHECK(t, m->data[sizeof(h) + i] == ct_byte((uint32_t)src, seq, i),
                 "from rank %d, message %u: byte %zu of %zu differs", src, seq, i, len);
    return 0;
}

/* The rank that receives in the cases: the last one (myself alone). */
static int ct_receiver(const ct_t *t)
{
    return t->size - 1;
}

static bool ct_is_sender(const ct_t *t)
{
    return t->size == 1 || t->rank != ct_receiver(t);
}

static size_t ct_max_payload(const ct_t *t, size_t cap)
{
    size_t m = t->tp->max_send - sizeof(ct_hdr_t);
    return m < cap ? m : cap;
}

/* ---- the cases -------------------------------------------------------------------------- */

#define ORDER_N 1000

/* A send arrives whole, in order after everything sent before to that peer, from the right
 * source: every other rank sends ORDER_N messages of mixed sizes to one receiver. */
static int case_order(ct_t *t)
{
    size_t sizes[] = {0, 1, 7, 64, 1000, 4096, ct_max_payload(t, 65536)};
    size_t nsizes = sizeof(sizes) / sizeof(sizes[0]);
    int r = ct_receiver(t);
    if (ct_is_sender(t)) {
        unsigned char *buf = malloc(sizes[nsizes - 1] + 1);
        CT_CHECK(t, buf, "out of memory");
        int rc = 0;
        for (uint32_t i = 0; i < ORDER_N && !rc; i++)
            rc = ct_send_data(t, r, i, sizes[i % nsizes], buf);
        free(buf);
        if (rc)
            return rc;
    }
    if (t->rank != r)
        return 0;
    int nsend = t->size == 1 ? 1 : t->size - 1;
    if (ct_wait_msgs(t, (size_t)nsend * ORDER_N))
        return -1;
    uint32_t next[CT_MAXR] = {0};
    for (size_t k = 0; k < t->nmsgs; k++) {
        const ct_msg_t *m = &t->msgs[k];
        CT_CHECK(t, m->src >= 0 && m->src < t->size && (t->size == 1 || m->src != r),
                 "arrival %zu names source %d, which sent nothing", k, m->src);
        uint32_t seq = next[m->src]++;
        if (ct_check_data(t, m, m->src, seq, sizes[seq % nsizes]))
            return -1;
    }
    for (int i = 0; i < 100; i++)
        t->ops->progress(t->tp);
    CT_CHECK(t, t->nmsgs == (size_t)nsend * ORDER_N, "%zu arrivals, %d sent", t->nmsgs,
             nsend * ORDER_N);
    return 0;
}

/* max_send is honoured: a send of exactly max_send bytes (header included) arrives whole, and
 * so does one of the header alone. The default eager size fits under it. */
static int case_max_send(ct_t *t)
{
    CT_CHECK(t, t->tp->eager_limit < t->tp->max_send, "eager limit %zu >= max_send %zu",
             t->tp->eager_limit, t->tp->max_send);
    size_t big = ct_max_payload(t, (size_t)8 << 20);
    int r = ct_receiver(t);
    if (t->rank == 0) {
        unsigned char *buf = malloc(big);
        CT_CHECK(t, buf, "out of memory");
        int rc = ct_send_data(t, r, 0, big, buf);
        if (!rc)
            rc = ct_send_data(t, r, 1, 0, buf);
        free(buf);
        if (rc)
            return rc;
    }
    if (t->rank != r)
        return 0;
    if (ct_wait_msgs(t, 2) || ct_check_data(t, &t->msgs[0], 0, 0, big))
        return -1;
    return ct_check_data(t, &t->msgs[1], 0, 1, 0);
}

#define AGAIN_LIMIT 100000 /* sends without the receiver's progress before giving up */
#define AGAIN_MORE 200     /* sent after the receiver starts draining */

/* Back-pressure: while the receiver does not progress, a transport with bounded buffers says
 * RMP_AGAIN (self queues without bound); once it progresses, every message arrives, in order,
 * and sending goes on. */
static int case_again(ct_t *t)
{
    int r = ct_receiver(t);
    unsigned char buf[1024];
    long sent = 0;
    bool bounded = t->ops != &tp_self_ops;
    if (t->rank == 0) {
        ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_DATA, .src = 0, .len = sizeof(buf)};
        int rc = t->ops->connect(t->tp, r);
        CT_CHECK(t, rc == RMP_SUCCESS, "connect(%d): %s", r, rmp_strerror(rc));
        t->connected[r] = true;
        long limit = bounded ? AGAIN_LIMIT : 2000;
        for (rc = RMP_SUCCESS; rc == RMP_SUCCESS && sent < limit; sent += rc == RMP_SUCCESS) {
            h.seq = (uint32_t)sent;
            ct_fill(buf, 0, h.seq, sizeof(buf));
            rc = t->ops->send(t->tp, r, &h, sizeof(h), buf, sizeof(buf));
            CT_CHECK(t, rc == RMP_SUCCESS || rc == RMP_AGAIN, "send %ld: %s", sent,
                     rmp_strerror(rc));
        }
        CT_CHECK(t, !bounded || rc == RMP_AGAIN, "%ld sends of 1 KiB to a rank that does not "
                 "progress, and no RMP_AGAIN", sent);
        atomic_store(&t->board->count, sent + AGAIN_MORE);
    }
    if (ct_barrier(t))
        return -1;
    if (t->rank == 0) /* the one refused first, then more, retrying through progress */
        for (long i = sent; i < sent + AGAIN_MORE; i++)
            if (ct_send_data(t, r, (uint32_t)i, sizeof(buf), buf))
                return -1;
    if (t->rank != r)
        return 0;
    long total = atomic_load(&t->board->count);
    if (ct_wait_msgs(t, (size_t)total))
        return -1;
    for (long i = 0; i < total; i++)
        if (ct_check_data(t, &t->msgs[i], 0, (uint32_t)i, sizeof(buf)))
            return -1;
    return 0;
}

#define GET_LEN ((size_t)3 << 20 | 123)

/* Wait for the get_done of cookie; its status. */
static int ct_get_wait(ct_t *t, void *cookie, int *status)
{
    double end = ct_now() + CT_WAIT_S;
    for (;;) {
        for (int i = 0; i < t->ndone; i++)
            if (t->done_cookie[i] == cookie) {
                *status = t->done_status[i];
                t->done_cookie[i] = NULL;
                return 0;
            }
        CT_CHECK(t, ct_now() < end, "get: no get_done within %d s", CT_WAIT_S);
        t->ops->progress(t->tp);
    }
}

/* One get of len bytes at off into a buffer with guards: the bytes exactly, nothing around. */
static int ct_get_one(ct_t *t, int owner, const tp_rkey_t *rkey, size_t off, size_t len)
{
    unsigned char *buf = malloc(len + 64);
    CT_CHECK(t, buf, "out of memory");
    memset(buf, 0xa5, len + 64);
    int cookie, status = RMP_SUCCESS;
    int rc = t->ops->get(t->tp, owner, buf + 32, len, rkey, off, &cookie);
    if (rc == RMP_INPROGRESS && ct_get_wait(t, &cookie, &status)) {
        free(buf);
        return -1;
    }
    int bad = rc != RMP_SUCCESS && rc != RMP_INPROGRESS ? ct_fail(t, "get(%zu at %zu): %s", len,
                                                                 off, rmp_strerror(rc))
              : status != RMP_SUCCESS ? ct_fail(t, "get_done(%zu at %zu): %s", len, off,
                                                rmp_strerror(status))
                                      : 0;
    for (size_t i = 0; !bad && i < 32; i++)
        if (buf[i] != 0xa5 || buf[32 + len + i] != 0xa5)
            bad = ct_fail(t, "get(%zu at %zu) wrote outside its destination", len, off);
    for (size_t i = 0; !bad && i < len; i++)
        if (buf[32 + i] != ct_byte((uint32_t)owner, 0, off + i))
            bad = ct_fail(t, "get(%zu at %zu): byte %zu differs", len, off, i);
    free(buf);
    return bad;
}

/* mem_reg + get + get_done move the bytes exactly: the last rank registers a buffer and sends
 * its key; rank 0 reads pieces of it (the whole, single bytes at both ends, an unaligned
 * middle), tells it so, and the owner deregisters. */
static int case_get(ct_t *t)
{
    int owner = ct_receiver(t);
    CT_CHECK(t, t->tp->caps & TP_CAP_GET, "no TP_CAP_GET");
    unsigned char *mem = NULL;
    void *memh = NULL;
    if (t->rank == owner) {
        mem = malloc(GET_LEN);
        CT_CHECK(t, mem, "out of memory");
        ct_fill(mem, (uint32_t)owner, 0, GET_LEN);
        tp_rkey_t rkey;
        int rc = t->ops->mem_reg(t->tp, 0, mem, GET_LEN, &rkey, &memh);
        ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_RKEY, .src = (uint32_t)t->rank,
                      .len = sizeof(rkey)};
        if (rc != RMP_SUCCESS || ct_send(t, 0, &h, &rkey)) {
            free(mem);
            return rc != RMP_SUCCESS ? ct_fail(t, "mem_reg: %s", rmp_strerror(rc)) : -1;
        }
    }
    if (t->rank == 0) {
        const ct_msg_t *m = ct_take(t, CT_T_RKEY);
        if (!m)
            return -1;
        tp_rkey_t rkey;
        CT_CHECK(t, m->len == sizeof(ct_hdr_t) + sizeof(rkey), "key message of %zu bytes",
                 m->len);
        memcpy(&rkey, m->data + sizeof(ct_hdr_t), sizeof(rkey));
        size_t pieces[][2] = {{0, GET_LEN}, {0, 1}, {GET_LEN - 1, 1}, {4095, 70001}};
        for (size_t i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++)
            if (ct_get_one(t, owner, &rkey, pieces[i][0], pieces[i][1]))
                return -1;
        ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_DONE, .src = 0};
        if (ct_send(t, owner, &h, NULL))
            return -1;
    }
    if (t->rank == owner) {
        int bad = ct_take(t, CT_T_DONE) ? 0 : -1;
        int rc = t->ops->mem_dereg(t->tp, memh);
        free(mem);
        if (!bad)
            CT_CHECK(t, rc == RMP_SUCCESS, "mem_dereg: %s", rmp_strerror(rc));
        return bad;
    }
    return 0;
}

/* Progress until it reports nothing several times in a row. */
void ct_settle(ct_t *t)
{
    for (int idle = 0; idle < 50;)
        idle = t->ops->progress(t->tp) ? 0 : idle + 1;
}

/* Blocking: idle, arm() says sleeping is safe; an arrival makes wait_fd readable (a transport
 * with something to wait for has one) and arm() then says RMP_AGAIN until progress took it. */
static int case_arm(ct_t *t)
{
    int r = ct_receiver(t);
    int fd = t->ops->wait_fd(t->tp);
    if (t->rank == r) {
        ct_settle(t);
        int rc = t->ops->arm(t->tp);
        CT_CHECK(t, rc == RMP_SUCCESS, "arm() with nothing pending: %d", rc);
        CT_CHECK(t, fd >= 0 || t->ops == &tp_self_ops, "no wait_fd: a peer's send could not "
                 "wake this rank");
    }
    if (ct_barrier(t))
        return -1;
    if (t->rank == 0) {
        unsigned char b[64];
        if (ct_send_data(t, r, 0, sizeof(b), b))
            return -1;
    }
    if (t->rank != r)
        return 0;
    if (fd >= 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int n = poll(&p, 1, CT_WAIT_S * 1000);
        CT_CHECK(t, n == 1, "wait_fd not readable %d s after a send to me (poll: %d)",
                 CT_WAIT_S, n);
    }
    double end = ct_now() + CT_WAIT_S;
    int rc;
    while ((rc = t->ops->arm(t->tp)) == RMP_SUCCESS && fd < 0 && ct_now() < end)
        ;
    CT_CHECK(t, rc == RMP_AGAIN, "arm() with an arrival pending: %d, not RMP_AGAIN", rc);
    t->ops->disarm(t->tp);
    if (ct_wait_msgs(t, 1) || ct_check_data(t, &t->msgs[0], 0, 0, 64))
        return -1;
    ct_settle(t);
    rc = t->ops->arm(t->tp);
    t->ops->disarm(t->tp);
    CT_CHECK(t, rc == RMP_SUCCESS, "arm() after the arrival was delivered: %d", rc);
    return 0;
}

/* A peer dies (rank 1 ends itself right after handing out a key): rank 0 hears of it, as
 * tp_peer_failed or as RMP_ERR_PEER from a get, within the wait. */
static int case_peer_failed(ct_t *t)
{
    t->orderly = false;
    if (t->rank == 1) {
        static unsigned char mem[4096];
        void *memh;
        tp_rkey_t rkey;
        int rc = t->ops->mem_reg(t->tp, 0, mem, sizeof(mem), &rkey, &memh);
        CT_CHECK(t, rc == RMP_SUCCESS, "mem_reg: %s", rmp_strerror(rc));
        ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_RKEY, .src = 1, .len = sizeof(rkey)};
        if (ct_send(t, 0, &h, &rkey) || !ct_take(t, CT_T_DONE))
            return -1;
        atomic_store(&t->board->dying[1], 1);
        _exit(0); /* as a crash: no close, nothing released */
    }
    if (t->rank != 0)
        return 0;
    const ct_msg_t *m = ct_take(t, CT_T_RKEY);
    if (!m)
        return -1;
    tp_rkey_t rkey;
    memcpy(&rkey, m->data + sizeof(ct_hdr_t), sizeof(rkey));
    ct_hdr_t h = {.magic = CT_MAGIC, .type = CT_T_DONE, .src = 0};
    if (ct_send(t, 1, &h, NULL))
        return -1;
    if (ct_wait_gone(t, 1))
        return -1;
    double end = ct_now() + CT_WAIT_S;
    unsigned char buf[4096];
    int cookie, rc = t->ops->get(t->tp, 1, buf, sizeof(buf), &rkey, 0, &cookie);
    bool told = rc == RMP_ERR_PEER;
    CT_CHECK(t, told || rc == RMP_INPROGRESS || rc == RMP_SUCCESS,
             "get from a dead peer: %s (expected RMP_ERR_PEER or a tp_peer_failed)",
             rmp_strerror(rc));
    for (uint32_t seq = 0; !told && t->failed_peer < 0; seq++) {
        CT_CHECK(t, ct_now() < end, "no tp_peer_failed for the dead rank 1 within %d s",
                 CT_WAIT_S);
        if (seq < 64 && t->ops->send(t->tp, 1, &h, sizeof(h), NULL, 0) < 0)
            break; /* refused: the transport knows, the upcall follows from progress */
        t->ops->progress(t->tp);
    }
    while (!told && t->failed_peer < 0 && ct_now() < end)
        t->ops->progress(t->tp);
    CT_CHECK(t, told || (t->failed_peer == 1 && t->failed_status < 0),
             "no failure reported for the dead rank 1 (peer_failed: rank %d, status %d)",
             t->failed_peer, t->failed_status);
    return 0;
}

int ct_wait_gone(ct_t *t, int rank)
{
    double end = ct_now() + CT_WAIT_S;
    while (!atomic_load(&t->board->gone[rank])) {
        CT_CHECK(t, ct_now() < end, "rank %d did not end", rank);
        t->ops->progress(t->tp);
    }
    return 0;
}

/* Open, wire up, close: nothing else (the checks every case ends with do the rest). */
static int case_idle(ct_t *t)
{
    return 0;
}

const ct_case_t ct_cases[] = {
    {"idle", case_idle, 1, 0},         {"order", case_order, 1, 0},
    {"max_send", case_max_send, 1, 0}, {"again", case_again, 1, 0},
    {"get", case_get, 1, 0},           {"arm", case_arm, 1, 0},
    {"peer_failed", case_peer_failed, 2, CT_RANK1_DIES},
    /* One-sided (tp_rma_ops_t: contract_rma.c); transports without the table (self) are not
     * asked: 2 ranks at least. */
    {"rma_rw", ct_case_rma_rw, 2, CT_TWO_NODES},
    {"rma_atomic", ct_case_rma_atomic, 2, CT_TWO_NODES},
    {"rma_again", ct_case_rma_again, 2, CT_TWO_NODES},
    {"rma_peer_failed", ct_case_rma_peer_failed, 2, CT_RANK1_DIES},
};
const int ct_ncases = (int)(sizeof(ct_cases) / sizeof(ct_cases[0]));

const ct_case_t *ct_find(const char *name)
{
    for (int i = 0; i < ct_ncases; i++)
        if (!strcmp(ct_cases[i].name, name))
            return &ct_cases[i];
    return NULL;
}

int ct_default_ranks(const tp_ops_t *ops, const ct_case_t *c)
{
    if (ops == &tp_self_ops)
        return 1;
    /* order: two senders, so sources can be mixed up; two nodes: a peer on mine and one not */
    return c->run == case_order || (c->flags & CT_TWO_NODES) ? 3 : 2;
}
