/* sock.h — the sock transport's insides (sock.c: the ops table; sock_conn.c: connections,
 * frames and progress; sock_dir.c: the private directory, listening, dialling, and the
 * same-user check every connection passes). */
#ifndef RMP_SOCK_H
#define RMP_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include "transport/transport.h"

typedef struct sk_conn {
    struct sk_conn *next;
    int fd;
    int peer;      /* world id; -1 on an accepted connection until its hello came */
    bool outgoing; /* opened by me: I send on it; else I receive on it */
    bool bye;      /* the peer said goodbye (an empty frame): its end is not a failure */
    uint8_t *in;   /* bytes read, not yet a whole frame */
    size_t in_len, in_cap;
    uint8_t *out;  /* frames queued behind a full socket */
    size_t out_off, out_len, out_cap;
    bool want_out; /* EPOLLOUT is armed */
} sk_conn_t;

typedef struct sk {
    tp_t base;
    int lfd, efd;                    /* my endpoint, the epoll set over everything */
    char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
    sk_conn_t *conns;
    sk_conn_t **out_by_peer;         /* [nby] outgoing connection per world id */
    int nby;
} sk_t;

/* sock_dir.c */
int sk_listen(sk_t *s);
void sk_unlisten(sk_t *s);
/* A connected, non-blocking socket to the endpoint at path (a process of my user), or -1 after
 * an error line (said unless quiet). */
int sk_dial(tp_t *tp, const char *path, int quiet);

/* sock_conn.c */
sk_conn_t *sk_out_conn(sk_t *s, int peer);
sk_conn_t *sk_conn_add(sk_t *s, int fd, int peer, bool outgoing);
void sk_conn_drop(sk_t *s, sk_conn_t *k);
int sk_queue(sk_t *s, sk_conn_t *k, const void *hdr, size_t hdrlen, const void *payload,
             size_t len);
void sk_flush_bounded(sk_t *s, sk_conn_t *k);
int sk_progress(tp_t *tp);
void sk_drop(tp_t *tp, int peer);

#endif
