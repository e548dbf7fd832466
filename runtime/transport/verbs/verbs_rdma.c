/* verbs_rdma.c — rendezvous by RDMA READ: mem_reg exposes the sender's buffer (rkey), get()
 * registers the destination and reads it in segments (max_msg_sz caps one work request;
 * several in flight, bounded by the QP's rd_atomic and its send queue), and the registration
 * cache (RMP_REG_CACHE=1) that keeps hot buffers registered.
 *
 * Why the cache is off by default, and what makes it safe when on: a registration pins the
 * physical pages behind a virtual range. If the program frees the buffer and the allocator
 * unmaps it (glibc does for chunks >= 128 KiB, and trims the heap top), a later malloc can
 * return the same address backed by new pages; a cached registration would still point at the
 * old ones and a peer would read stale data. Catching every unmap means hooking the allocator
 * (glibc's free calls munmap internally, out of reach of symbol interposition), which a library
 * should not do behind the program's back. So with RMP_REG_CACHE=1 rmp instead makes unmapping
 * impossible where it caches: it tells glibc malloc never to use mmap and never to trim
 * (mallopt M_MMAP_MAX=0, M_TRIM_THRESHOLD=max: what Open MPI's leave_pinned did), and caches
 * only ranges inside the brk heap, whose pages then stay mapped for the life of the process;
 * anything else (stack, mmap, other arenas) is registered per use. The price: freed memory is
 * never returned to the OS, and a program must not call malloc_trim(). */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "transport/verbs/verbs.h"

#define CACHE_MAX_ENTRIES 128
#define CACHE_MAX_BYTES ((size_t)1 << 30)

static uintptr_t page_size(void)
{
    return (uintptr_t)sysconf(_SC_PAGESIZE);
}

/* ---- the registration list / cache ------------------------------------------------------ */

static void mr_unlink(verbs_tp_t *v, verbs_mr_t *m)
{
    if (m->prev)
        m->prev->next = m->next;
    else
        v->mrs = m->next;
    if (m->next)
        m->next->prev = m->prev;
    m->next = m->prev = NULL;
}

static void mr_push(verbs_tp_t *v, verbs_mr_t *m)
{
    m->prev = NULL;
    m->next = v->mrs;
    if (v->mrs)
        v->mrs->prev = m;
    v->mrs = m;
}

static void mr_destroy(verbs_tp_t *v, verbs_mr_t *m)
{
    mr_unlink(v, m);
    if (m->cached) {
        v->cache_bytes -= m->end - m->start;
        v->cache_entries--;
    }
    int rc = ibv_dereg_mr(m->mr);
    if (rc)
        tp_error(&v->base, "verbs: ibv_dereg_mr on %s: %s", v->devname, strerror(rc));
    free(m);
}

/* Drop unused cached registrations, oldest first, until within limits (all of them if
 * `all`: a registration just failed for lack of lockable memory). */
static void cache_evict(verbs_tp_t *v, bool all)
{
    verbs_mr_t *m = v->mrs;
    while (m && m->next)
        m = m->next;
    while (m && (all || v->cache_entries > CACHE_MAX_ENTRIES || v->cache_bytes > CACHE_MAX_BYTES)) {
        verbs_mr_t *prev = m->prev;
        if (m->cached && m->refs == 0)
            mr_destroy(v, m);
        m = prev;
    }
}

static bool cacheable(verbs_tp_t *v, uintptr_t start, uintptr_t end)
{
    return v->reg_cache && start >= v->heap_start && end <= (uintptr_t)sbrk(0);
}

static verbs_mr_t *cache_find(verbs_tp_t *v, uintptr_t a, uintptr_t e)
{
    for (verbs_mr_t *m = v->mrs; m; m = m->next) {
        if (!m->cached || a < m->start || e > m->end)
            continue;
        mr_unlink(v, m);
        mr_push(v, m); /* most recently used first */
        m->refs++;
        return m;
    }
    return NULL;
}

verbs_mr_t *verbs_reg_get(verbs_tp_t *v, void *buf, size_t len, int access, const char *what)
{
    uintptr_t a = (uintptr_t)buf, e = a + len;
    uintptr_t ps = page_size(), pa = a & ~(ps - 1), pe = (e + ps - 1) & ~(ps - 1);
    bool cache = cacheable(v, pa, pe);
    if (cache) {
        verbs_mr_t *m = cache_find(v, a, e);
        v->base.stats.reg_hits += m != NULL;
        if (m)
            return m;
        /* Heap pages are always writable: one registration serves sends and gets alike. */
        access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ;
        a = pa, e = pe;
    }
    verbs_mr_t *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->mr = ibv_reg_mr(v->pd, (void *)a, e - a, access);
    if (!m->mr && cache && (errno == ENOMEM || errno == EAGAIN)) {
        cache_evict(v, true);
        m->mr = ibv_reg_mr(v->pd, (void *)a, e - a, access);
    }
    if (!m->mr) {
        verbs_reg_error(v, what, e - a, errno);
        free(m);
        return NULL;
    }
    v->base.stats.reg_misses++;
    m->start = a;
    m->end = e;
    m->refs = 1;
    m->cached = cache;
    mr_push(v, m);
    if (cache) {
        v->cache_entries++;
        v->cache_bytes += e - a;
        cache_evict(v, false);
    }
    return m;
}

void verbs_reg_put(verbs_tp_t *v, verbs_mr_t *m)
{
    if (--m->refs > 0)
        return;
    if (!m->cached)
        mr_destroy(v, m);
    else if (m->end > (uintptr_t)sbrk(0))
        mr_destroy(v, m); /* the heap shrank under it (malloc_trim?): never reuse it */
}

int verbs_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey, void **memh_p)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    memset(rkey, 0, sizeof(*rkey));
    *memh_p = NULL;
    if (len == 0)
        return RMP_SUCCESS;
    /* Read access only: the buffer may be read-only memory (a send from a constant). */
    verbs_mr_t *m = verbs_reg_get(v, buf, len, IBV_ACCESS_REMOTE_READ, "rendezvous send buffer");
    if (!m)
        return RMP_ERR_TRANSPORT;
    rkey->addr = (uint64_t)(uintptr_t)buf;
    rkey->key[0] = m->mr->rkey;
    rkey->key[1] = len;
    verbs_fault_revoke(v, m); /* RMP_VERBS_FAULT=revoke: the key just published dies */
    *memh_p = m;
    return RMP_SUCCESS;
}

int verbs_mem_dereg(tp_t *tp, void *memh)
{
    if (memh)
        verbs_reg_put((verbs_tp_t *)tp, memh);
    return RMP_SUCCESS;
}

/* ---- gets -------------------------------------------------------------------------------- */

static uint32_t read_seg(verbs_tp_t *v)
{
    return v->max_msg < VERBS_READ_SEG ? v->max_msg : VERBS_READ_SEG;
}

static void get_unlink(verbs_conn_t *c, verbs_get_t *g)
{
    verbs_get_t **pp = &c->gets_head, *prev = NULL;
    while (*pp && *pp != g)
        prev = *pp, pp = &(*pp)->next;
    if (!*pp)
        return;
    *pp = g->next;
    if (c->gets_tail == g)
        c->gets_tail = prev;
    g->next = NULL;
}

static void get_free(verbs_tp_t *v, verbs_conn_t *c, verbs_get_t *g)
{
    get_unlink(c, g);
    if (g->mr)
        verbs_reg_put(v, g->mr);
    free(g);
}

/* Post read segments, oldest get first, while the QP has read and send-queue room. */
void verbs_reads_push(verbs_tp_t *v, verbs_conn_t *c)
{
    uint32_t seg = read_seg(v);
    for (verbs_get_t *g = c->gets_head; g && c->state == VC_READY; g = g->next) {
        while (g->posted < g->len) {
            if (c->reads_out >= v->rd_atomic || c->sq_free == 0)
                return;
            size_t n = g->len - g->posted < seg ? g->len - g->posted : seg;
            struct ibv_sge sge = {.addr = (uintptr_t)(g->dst + g->posted), .length = (uint32_t)n,
                                  .lkey = g->mr->mr->lkey};
            struct ibv_send_wr wr = {
                .wr_id = (uint64_t)(uintptr_t)g | WR_READ,
                .sg_list = &sge,
                .num_sge = 1,
                .opcode = IBV_WR_RDMA_READ,
                .wr.rdma = {.remote_addr = g->raddr + g->posted, .rkey = g->rkey},
            };
            if (verbs_post(v, c, &wr, true) != RMP_SUCCESS) {
                verbs_peer_failed(v, c->peer, "cannot post an RDMA READ");
                return;
            }
            g->posted += n;
            g->segs_out++;
            c->reads_out++;
            v->st_reads++;
            v->base.stats.rdma_reads++;
        }
    }
}

int verbs_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
              void *cookie)
{
    verbs_tp_t *v = (verbs_tp_t *)tp;
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_FAILED)
        return RMP_ERR_PEER;
    if (off > rkey->key[1] || len > rkey->key[1] - off) {
        tp_error(tp, "verbs: get of %zu bytes at offset %zu from rank %d is outside its "
                 "%llu-byte buffer", len, off, peer, (unsigned long long)rkey->key[1]);
        return RMP_ERR_INTERNAL;
    }
    if (len == 0)
        return RMP_SUCCESS;
    /* The RTS came over this QP, so the peer is wired to me; my side may still be only
     * receive-ready (lazy connection): reads need it send-ready. */
    if (v->wiring == WIRE_IBV && c->state == VC_RTR) {
        int rc = verbs_wire_connect(v, peer);
        if (rc != RMP_SUCCESS)
            return rc;
    }
    verbs_get_t *g = calloc(1, sizeof(*g));
    if (!g)
        return RMP_ERR_NO_MEM;
    g->mr = verbs_reg_get(v, dst, len, IBV_ACCESS_LOCAL_WRITE, "rendezvous receive buffer");
    if (!g->mr) {
        free(g);
        return RMP_ERR_NOT_SUPPORTED; /* the core streams the data through send() instead */
    }
    uint32_t seg = read_seg(v);
    g->peer = peer;
    g->cookie = cookie;
    g->dst = dst;
    g->raddr = rkey->addr + off;
    g->rkey = (uint32_t)rkey->key[0];
    g->len = len;
    g->segs_total = (uint32_t)((len + seg - 1) / seg);
    v->st_gets++;
    if (len > v->st_get_max) {
        v->st_get_max = len;
        v->st_get_max_reads = g->segs_total;
    }
    if (c->gets_tail)
        c->gets_tail->next = g;
    else
        c->gets_head = g;
    c->gets_tail = g;
    verbs_reads_push(v, c);
    return RMP_INPROGRESS;
}

void verbs_on_read(verbs_tp_t *v, const struct ibv_wc *wc)
{
    verbs_get_t *g = (verbs_get_t *)(uintptr_t)(wc->wr_id & ~(uint64_t)WR_KIND_MASK);
    verbs_conn_t *c = &v->conns[g->peer];
    g->segs_out--;
    c->reads_out--;
    if (wc->status != IBV_WC_SUCCESS) {
        if (!g->orphan) {
            char why[320];
            snprintf(why, sizeof(why), "RDMA READ from rank %d on %s: %s%s", g->peer,
                     v->devname, ibv_wc_status_str(wc->status), verbs_wc_fix(wc->status));
            /* verbs_gets_fail frees the gets with nothing in flight: g, if this was its last
             * segment, and it is still used below. Held as one more segment meanwhile. */
            g->segs_out++;
            verbs_peer_failed(v, g->peer, why); /* orphans g: the core fails its request */
            g->segs_out--;
            g->orphan = true;
        }
        if (g->segs_out == 0)
            get_free(v, c, g);
        return;
    }
    verbs_sq_retire(v, c);
    if (g->orphan) {
        if (g->segs_out == 0)
            get_free(v, c, g);
        return;
    }
    if (++g->segs_done == g->segs_total) {
        void *cookie = g->cookie;
        get_free(v, c, g);
        tp_get_done(&v->base, cookie, RMP_SUCCESS); /* may start another get on c */
    }
    verbs_reads_push(v, c);
}

void verbs_gets_fail(verbs_tp_t *v, verbs_conn_t *c)
{
    for (verbs_get_t *g = c->gets_head, *n; g; g = n) {
        n = g->next;
        g->orphan = true;
        if (g->segs_out == 0)
            get_free(v, c, g); /* flushed WRs would never come for it */
    }
}

/* ---- life cycle -------------------------------------------------------------------------- */

/* Start of the brk heap, from /proc/self/stat (field 47, start_brk); 0 if unknown. */
static uintptr_t heap_start(void)
{
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return 0;
    char line[2048];
    size_t n = fread(line, 1, sizeof(line) - 1, f);
    fclose(f);
    line[n] = '\0';
    char *p = strrchr(line, ')'); /* the command name may hold spaces */
    if (!p)
        return 0;
    unsigned long long val = 0;
    int field = 2;
    char *save;
    for (char *tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (++field == 47) {
            val = strtoull(tok, NULL, 10);
            break;
        }
    }
    return (uintptr_t)val;
}

int verbs_rdma_open(verbs_tp_t *v)
{
    const char *s = tp_knob(&v->base, "RMP_REG_CACHE");
    if (!s || strcmp(s, "1")) {
        tp_verbose(&v->base, "verbs: registration cache off (RMP_REG_CACHE=1 enables it)");
        return RMP_SUCCESS;
    }
    v->heap_start = heap_start();
    if (!v->heap_start) {
        tp_verbose(&v->base, "verbs: registration cache off: the heap's start is unknown "
                   "(/proc/self/stat unreadable)");
        return RMP_SUCCESS;
    }
    if (!mallopt(M_MMAP_MAX, 0) || !mallopt(M_TRIM_THRESHOLD, -1)) {
        tp_verbose(&v->base, "verbs: registration cache off: mallopt refused");
        return RMP_SUCCESS;
    }
    v->reg_cache = true;
    tp_verbose(&v->base, "verbs: registration cache on for the malloc heap (malloc keeps freed "
               "memory mapped; up to %d entries / %zu MiB)", CACHE_MAX_ENTRIES,
               CACHE_MAX_BYTES >> 20);
    return RMP_SUCCESS;
}

void verbs_rdma_close(verbs_tp_t *v)
{
    for (int p = 0; v->conns && p < v->base.env->size; p++) {
        verbs_conn_t *c = &v->conns[p];
        while (c->gets_head)
            get_free(v, c, c->gets_head);
    }
    while (v->mrs)
        mr_destroy(v, v->mrs);
}

/* A QP error or a lost connection (reported by any verbs file): the peer's READs are orphaned
 * here, where the gets live, before the core fails everything pending with it. */
void verbs_peer_failed(verbs_tp_t *v, int peer, const char *why)
{
    verbs_conn_t *c = &v->conns[peer];
    if (c->state == VC_FAILED)
        return;
    c->state = VC_FAILED;
    /* Into the error state: every work request still on the QP comes back flushed, so each
     * one-sided operation in flight (verbs_rma.c) completes, with the peer's error, instead of
     * waiting for a peer that will not answer. A QP already in error stays there. */
    if (c->qp) {
        struct ibv_qp_attr a = {.qp_state = IBV_QPS_ERR};
        int rc = ibv_modify_qp(c->qp, &a, IBV_QP_STATE);
        if (rc)
            tp_verbose(&v->base, "verbs: QP of rank %d to the error state: %s", peer,
                       strerror(rc));
    }
    verbs_gets_fail(v, c);
    tp_peer_failed(&v->base, peer, RMP_ERR_PEER, why);
}
