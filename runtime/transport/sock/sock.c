/* sock.c — the transport for peers gained after init (ports: connect/accept): stream sockets
 * of the local machine, one listening endpoint per process in the user's private directory
 * (sock_dir.c), opened only when the process first meets such a peer. Each side sends on the
 * connection it opened and receives on the ones it accepted, so there is nothing to arbitrate
 * and order per peer is the stream's. Frames: a 4-byte length, then the bytes of one send. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "transport/sock/sock.h"

#define SK_MAX_SEND (64u * 1024u)
#define SK_OUT_MAX (4u * 1024u * 1024u) /* queued bytes per peer before back-pressure */

static int sk_open(const tp_env_t *env, tp_t **tp_p)
{
    sk_t *s = calloc(1, sizeof(*s));
    if (!s)
        return RMP_ERR_NO_MEM;
    s->base = (tp_t){.ops = &tp_sock_ops, .env = env, .caps = TP_CAP_DROP, .max_send = SK_MAX_SEND,
                     .eager_limit = 16384};
    s->lfd = s->efd = -1;
    int rc = sk_listen(s);
    if (rc != RMP_SUCCESS) {
        free(s);
        return rc;
    }
    *tp_p = &s->base;
    return RMP_SUCCESS;
}

static int sk_addr(tp_t *tp, const void **blob_p, size_t *len_p)
{
    sk_t *s = (sk_t *)tp;
    *blob_p = s->path;
    *len_p = strlen(s->path) + 1;
    return RMP_SUCCESS;
}

/* The connection this process sends to peer on, opened now if it is not yet. */
static int sk_connect(tp_t *tp, int peer)
{
    sk_t *s = (sk_t *)tp;
    if (sk_out_conn(s, peer))
        return RMP_SUCCESS;
    const void *blob;
    size_t len;
    int rc = tp_modex_get(tp, peer, &blob, &len);
    if (rc != RMP_SUCCESS)
        return rc;
    int fd = sk_dial(tp, blob, 0);
    if (fd < 0)
        return RMP_ERR_PEER;
    sk_conn_t *k = sk_conn_add(s, fd, peer, true);
    if (!k) {
        close(fd);
        return RMP_ERR_NO_MEM;
    }
    /* hello: who I am, by my endpoint (the receiver names me by it) */
    return sk_queue(s, k, s->path, strlen(s->path) + 1, NULL, 0);
}

static int sk_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                   size_t len)
{
    sk_t *s = (sk_t *)tp;
    int rc = sk_connect(tp, peer);
    if (rc != RMP_SUCCESS)
        return rc;
    sk_conn_t *k = sk_out_conn(s, peer);
    if (k->out_len - k->out_off > SK_OUT_MAX)
        return RMP_AGAIN;
    return sk_queue(s, k, hdr, hdrlen, payload, len);
}

static int sk_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
                  void *cookie)
{
    return RMP_ERR_NOT_SUPPORTED; /* the core streams rendezvous data through send() */
}

static int sk_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey, void **memh)
{
    return RMP_ERR_NOT_SUPPORTED;
}

static int sk_mem_dereg(tp_t *tp, void *memh)
{
    return RMP_SUCCESS;
}

static int sk_wait_fd(tp_t *tp)
{
    return ((sk_t *)tp)->efd;
}

/* Nothing is kept unread between progress calls: sleeping is always safe (the epoll set
 * also waits for room on connections with bytes queued). */
static int sk_arm(tp_t *tp)
{
    return RMP_SUCCESS;
}

static void sk_close(tp_t *tp)
{
    sk_t *s = (sk_t *)tp;
    while (s->conns) {
        sk_conn_t *k = s->conns;
        if (k->out)
            sk_flush_bounded(s, k);
        sk_conn_drop(s, k);
    }
    sk_unlisten(s);
    free(s->out_by_peer);
    free(s);
}

static void sk_abandon(tp_t *tp)
{
    sk_t *s = (sk_t *)tp;
    if (s->path[0])
        tp_sock_tidy(s->path);
}

const tp_ops_t tp_sock_ops = {
    .name = "sock",
    .open = sk_open,
    .addr_pack = sk_addr,
    .wireup = tp_no_wireup,
    .connect = sk_connect,
    .send = sk_send,
    .mem_reg = sk_mem_reg,
    .mem_dereg = sk_mem_dereg,
    .get = sk_get,
    .progress = sk_progress,
    .wait_fd = sk_wait_fd,
    .arm = sk_arm,
    .disarm = tp_no_disarm,
    .close = sk_close,
    .abandon = sk_abandon,
    .drop = sk_drop,
};
