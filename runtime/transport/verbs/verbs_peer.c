/* verbs_peer.c — what the verbs files look up about a peer or a descriptor, calling nothing
 * of theirs back: the peer a QP number belongs to, a peer's control region, the fds the
 * transport waits on, a knob's count. The lowest layer of the transport's files: no cycle
 * goes through it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "transport/verbs/verbs.h"

bool verbs_conn_has_qpn(const verbs_conn_t *c, uint32_t qpn)
{
    return (c->qp && c->qp->qp_num == qpn) || (c->aux && c->aux->qp && c->aux->qp->qp_num == qpn);
}

int verbs_peer_of_qpn(verbs_tp_t *v, uint32_t qpn)
{
    for (int p = 0; p < v->base.env->size; p++)
        if (verbs_conn_has_qpn(&v->conns[p], qpn))
            return p;
    return -1;
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ? -1 : 0;
}

int verbs_watch_fd(verbs_tp_t *v, int fd, const char *what)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    if (set_nonblock(fd) || epoll_ctl(v->epfd, EPOLL_CTL_ADD, fd, &ev)) {
        tp_error(&v->base, "verbs: watching the %s fd of %s: %s", what, v->devname,
                 strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    return RMP_SUCCESS;
}

int verbs_ctrl_remote(verbs_tp_t *v, int peer, uint64_t *addr, uint32_t *rkey)
{
    const verbs_blob_t *b = verbs_peer_blob(v, peer);
    if (!b || !b->ctrl_addr || b->ctrl_len < VERBS_CTRL_BYTES)
        return RMP_ERR_NOT_SUPPORTED;
    *addr = b->ctrl_addr;
    *rkey = b->ctrl_rkey;
    return RMP_SUCCESS;
}

long verbs_env_count(verbs_tp_t *v, const char *name, long dflt, long min, long max)
{
    const char *s = tp_knob(&v->base, name);
    if (!s)
        return dflt;
    char *end;
    long n = strtol(s, &end, 10);
    if (*end || n < min || n > max)
        return dflt;
    return n;
}
