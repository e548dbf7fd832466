/* sock_conn.c — the sock transport's connections: frames queued behind a full socket and
 * written as room comes, frames read and delivered whole, the hello that names the sender of
 * an accepted connection, and the goodbye (an empty frame) that makes its end an orderly one
 * rather than a failed peer. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "transport/sock/sock.h"

#define SK_FLUSH_MS 10000 /* a goodbye's wait for the peer to take what is queued */

sk_conn_t *sk_out_conn(sk_t *s, int peer)
{
    return peer >= 0 && peer < s->nby ? s->out_by_peer[peer] : NULL;
}

static int sk_epoll(sk_t *s, sk_conn_t *k, int op)
{
    struct epoll_event ev = {.events = EPOLLIN | (k->want_out ? EPOLLOUT : 0), .data.ptr = k};
    return epoll_ctl(s->efd, op, k->fd, &ev);
}

sk_conn_t *sk_conn_add(sk_t *s, int fd, int peer, bool outgoing)
{
    if (outgoing && peer >= s->nby) {
        int n = peer + 64;
        sk_conn_t **by = realloc(s->out_by_peer, sizeof(*by) * (size_t)n);
        if (!by)
            return NULL;
        memset(by + s->nby, 0, sizeof(*by) * (size_t)(n - s->nby));
        s->out_by_peer = by;
        s->nby = n;
    }
    sk_conn_t *k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    *k = (sk_conn_t){.next = s->conns, .fd = fd, .peer = peer, .outgoing = outgoing};
    if (sk_epoll(s, k, EPOLL_CTL_ADD) != 0) {
        free(k);
        return NULL;
    }
    s->conns = k;
    if (outgoing)
        s->out_by_peer[peer] = k;
    return k;
}

void sk_conn_drop(sk_t *s, sk_conn_t *k)
{
    for (sk_conn_t **pp = &s->conns; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            break;
        }
    if (k->outgoing && sk_out_conn(s, k->peer) == k)
        s->out_by_peer[k->peer] = NULL;
    epoll_ctl(s->efd, EPOLL_CTL_DEL, k->fd, NULL);
    close(k->fd);
    free(k->in);
    free(k->out);
    free(k);
}

/* Write what is queued; false when the connection broke. */
static bool sk_flush(sk_t *s, sk_conn_t *k)
{
    while (k->out_off < k->out_len) {
        ssize_t w = send(k->fd, k->out + k->out_off, k->out_len - k->out_off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (w <= 0)
            return false;
        k->out_off += (size_t)w;
    }
    if (k->out_off == k->out_len)
        k->out_off = k->out_len = 0;
    bool want = k->out_len > 0;
    if (want != k->want_out) {
        k->want_out = want;
        (void)sk_epoll(s, k, EPOLL_CTL_MOD);
    }
    return true;
}

static int sk_append(sk_conn_t *k, const void *p, size_t n)
{
    if (k->out_len + n > k->out_cap) {
        size_t cap = k->out_cap ? k->out_cap : 4096;
        while (cap < k->out_len + n)
            cap *= 2;
        uint8_t *o = realloc(k->out, cap);
        if (!o)
            return RMP_ERR_NO_MEM;
        k->out = o;
        k->out_cap = cap;
    }
    memcpy(k->out + k->out_len, p, n);
    k->out_len += n;
    return RMP_SUCCESS;
}

int sk_queue(sk_t *s, sk_conn_t *k, const void *hdr, size_t hdrlen, const void *payload,
             size_t len)
{
    uint32_t n = (uint32_t)(hdrlen + len);
    int rc = sk_append(k, &n, sizeof n);
    if (!rc && hdrlen)
        rc = sk_append(k, hdr, hdrlen);
    if (!rc && len)
        rc = sk_append(k, payload, len);
    if (rc)
        return rc;
    if (!sk_flush(s, k)) {
        tp_peer_failed(&s->base, k->peer, RMP_ERR_PEER, "its connection broke");
        return RMP_ERR_PEER;
    }
    return RMP_SUCCESS;
}

void sk_flush_bounded(sk_t *s, sk_conn_t *k)
{
    for (int waited = 0; k->out_len && waited < SK_FLUSH_MS; waited += 10) {
        if (!sk_flush(s, k))
            return;
        struct pollfd p = {.fd = k->fd, .events = POLLOUT};
        if (k->out_len)
            (void)poll(&p, 1, 10);
    }
}

/* One whole frame from k: the hello names an accepted connection's peer, an empty frame is
 * the goodbye, the rest goes to the core. */
static int sk_frame(sk_t *s, sk_conn_t *k, const uint8_t *f, size_t n)
{
    if (k->peer < 0) {
        if (!n || f[n - 1] != '\0')
            return -1; /* not a hello: not one of ours */
        k->peer = s->base.env->up->peer_by_addr(s->base.env->core, (const char *)f);
        return k->peer < 0 ? -1 : 0;
    }
    if (n == 0) {
        k->bye = true;
        return 0;
    }
    tp_deliver(&s->base, k->peer, f, n);
    return 1;
}

/* Read and deliver; false when the connection is over (closed, broken, or not ours). */
static bool sk_read(sk_t *s, sk_conn_t *k, int *events)
{
    for (;;) {
        if (k->in_cap - k->in_len < 65536) {
            size_t cap = k->in_cap ? k->in_cap * 2 : 131072;
            uint8_t *in = realloc(k->in, cap);
            if (!in)
                return false;
            k->in = in;
            k->in_cap = cap;
        }
        ssize_t r = recv(k->fd, k->in + k->in_len, k->in_cap - k->in_len, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (r <= 0)
            return false;
        k->in_len += (size_t)r;
        size_t at = 0;
        uint32_t n;
        while (k->in_len - at >= sizeof n) {
            memcpy(&n, k->in + at, sizeof n);
            if (k->in_len - at - sizeof n < n)
                break;
            int d = sk_frame(s, k, k->in + at + sizeof n, n);
            if (d < 0)
                return false;
            *events += d;
            at += sizeof n + n;
        }
        memmove(k->in, k->in + at, k->in_len - at);
        k->in_len -= at;
    }
}

/* My connection (nothing comes on it) is still open at the peer's end. */
static bool sk_alive(sk_conn_t *k)
{
    char b;
    ssize_t r = recv(k->fd, &b, 1, MSG_DONTWAIT);
    return r > 0 || (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

static void sk_accept_all(sk_t *s)
{
    for (;;) {
        int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        if (!tp_sock_same_user(fd) || !sk_conn_add(s, fd, -1, false))
            close(fd); /* another user's process, or no memory: never heard */
    }
}

int sk_progress(tp_t *tp)
{
    sk_t *s = (sk_t *)tp;
    struct epoll_event ev[16];
    int n = epoll_wait(s->efd, ev, 16, 0), events = 0;
    for (int i = 0; i < n; i++) {
        sk_conn_t *k = ev[i].data.ptr;
        if (!k) {
            sk_accept_all(s);
            continue;
        }
        bool ok = true;
        if (ev[i].events & EPOLLOUT)
            ok = sk_flush(s, k);
        if (ok && (ev[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
            ok = k->outgoing ? sk_alive(k) : sk_read(s, k, &events);
        if (ok)
            continue;
        /* An accepted connection's end: orderly after a goodbye, else the peer failed. The
         * end of one of mine says nothing (the peer closes it when it lets me go, maybe
         * before I read its goodbye on the other): a send after it reconnects, or fails. */
        int peer = k->peer;
        bool orderly = k->outgoing || k->bye;
        sk_conn_drop(s, k);
        if (peer >= 0 && !orderly)
            tp_peer_failed(tp, peer, RMP_ERR_PEER, "its process ended without disconnecting");
        return events + 1; /* the epoll events may name k: read them again */
    }
    return events;
}

/* The core released the peer (no communicator names it): say goodbye, hand over what is
 * queued (bounded), close. */
void sk_drop(tp_t *tp, int peer)
{
    sk_t *s = (sk_t *)tp;
    sk_conn_t *k = sk_out_conn(s, peer);
    if (k) {
        uint32_t zero = 0;
        if (sk_append(k, &zero, sizeof zero) == RMP_SUCCESS)
            sk_flush_bounded(s, k);
        sk_conn_drop(s, k);
    }
    for (sk_conn_t *c = s->conns, *nx; c; c = nx) {
        nx = c->next;
        if (c->peer == peer) /* its connection to me: what it sent was delivered */
            sk_conn_drop(s, c);
    }
}
