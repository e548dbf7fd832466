/* self.c — the transport from a rank to itself: a packet is copied into a local FIFO and
 * delivered on the next progress call (never from inside send(), so the core is never
 * re-entered); rendezvous "get" is a memcpy. */
#include <stdlib.h>
#include <string.h>

#include "transport/transport.h"

typedef struct self_pkt {
    struct self_pkt *next;
    size_t len;
    char data[];
} self_pkt_t;

typedef struct tp_self {
    tp_t base;
    self_pkt_t *head, *tail;
} tp_self_t;

static int self_open(const tp_env_t *env, tp_t **tp_p)
{
    tp_self_t *s = calloc(1, sizeof(*s));
    if (!s)
        return RMP_ERR_NO_MEM;
    s->base = (tp_t){.ops = &tp_self_ops, .env = env, .caps = TP_CAP_GET,
                     .max_send = (size_t)1 << 62, .eager_limit = 16384};
    *tp_p = &s->base;
    return RMP_SUCCESS;
}

static int self_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                     size_t len)
{
    tp_self_t *s = (tp_self_t *)tp;
    self_pkt_t *p = malloc(sizeof(*p) + hdrlen + len);
    if (!p)
        return RMP_ERR_NO_MEM;
    p->next = NULL;
    p->len = hdrlen + len;
    memcpy(p->data, hdr, hdrlen);
    if (len)
        memcpy(p->data + hdrlen, payload, len);
    if (s->tail)
        s->tail->next = p;
    else
        s->head = p;
    s->tail = p;
    return RMP_SUCCESS;
}

static int self_progress(tp_t *tp)
{
    tp_self_t *s = (tp_self_t *)tp;
    int n = 0;
    /* Deliver only what is queued now: a delivery may queue more (a FIN after a get). */
    self_pkt_t *p = s->head;
    s->head = s->tail = NULL;
    while (p) {
        self_pkt_t *next = p->next;
        tp_deliver(tp, tp->env->rank, p->data, p->len);
        free(p);
        p = next;
        n++;
    }
    return n;
}

static int self_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey,
                        void **memh_p)
{
    rkey->addr = (uint64_t)(uintptr_t)buf;
    *memh_p = NULL;
    return RMP_SUCCESS;
}

static int self_mem_dereg(tp_t *tp, void *memh)
{
    return RMP_SUCCESS;
}

static int self_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey,
                    size_t off, void *cookie)
{
    memcpy(dst, (const char *)(uintptr_t)rkey->addr + off, len);
    return RMP_SUCCESS;
}

static int self_arm(tp_t *tp)
{
    return ((tp_self_t *)tp)->head ? RMP_AGAIN : RMP_SUCCESS;
}

static void self_close(tp_t *tp)
{
    tp_self_t *s = (tp_self_t *)tp;
    for (self_pkt_t *p = s->head, *n; p; p = n) {
        n = p->next;
        free(p);
    }
    free(s);
}

const tp_ops_t tp_self_ops = {
    .name = "self",
    .open = self_open,
    .addr_pack = tp_no_addr,
    .wireup = tp_no_wireup,
    .connect = tp_no_connect,
    .send = self_send,
    .mem_reg = self_mem_reg,
    .mem_dereg = self_mem_dereg,
    .get = self_get,
    .progress = self_progress,
    .wait_fd = tp_no_wait_fd, /* arm() says when it has work: the core never sleeps then */
    .arm = self_arm,
    .disarm = tp_no_disarm,
    .close = self_close,
    .abandon = tp_no_abandon,
};
