/* port.c — two groups that share no communicator meet through a port: rmp_comm_accept and
 * rmp_comm_connect (and rmp_comm_join, a meeting of two processes over a socket they share).
 * The roots talk over one stream socket (the acceptor's port): each sends its group's
 * endpoint addresses (runtime/dynpeer.c makes dynamic peers of the other group's), then they
 * agree on a context pair as rmp_intercomm_create's leaders do, each round's masks swapped over
 * the socket, so the pair is free in every process of both jobs. Each root hands its group the
 * outcome by a broadcast: an error is every rank's, never one rank's while the others wait. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "inter.h"
#include "port.h"

#define PORT_MAGIC 0x726d7031 /* "rmp1": a peer of this version */

typedef struct meet {
    rmp_comm_t comm;
    int root, fd;        /* fd: the roots' socket, at the root; -1 elsewhere */
    bool am_root, acceptor;
    int timeout_ms;
    const char *port;
    const port_child_t *child; /* a spawn's root watches the children's launcher, or NULL */
} meet_t;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* All n bytes, within timeout_ms: RMP_SUCCESS or RMP_ERR_PORT (said). */
static int xfer(const meet_t *m, void *buf, size_t n, bool wr)
{
    double end = now_ms() + m->timeout_ms;
    for (size_t done = 0; done < n;) {
        ssize_t r = wr ? send(m->fd, (char *)buf + done, n - done, MSG_NOSIGNAL)
                       : recv(m->fd, (char *)buf + done, n - done, 0);
        if (r > 0) {
            done += (size_t)r;
            continue;
        }
        int left = (int)(end - now_ms());
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) && left > 0) {
            struct pollfd p = {.fd = m->fd, .events = wr ? POLLOUT : POLLIN};
            (void)poll(&p, 1, left);
            continue;
        }
        core_error(&rmp_ctx, "%s on %s: %s", m->acceptor ? "rmp_comm_accept" : "rmp_comm_connect",
                   m->port, r == 0 ? "the other side closed the connection"
                            : r < 0 && left > 0 ? strerror(errno)
                                                : "no answer within the timeout");
        return RMP_ERR_PORT;
    }
    return RMP_SUCCESS;
}

/* The connector speaks first, the acceptor answers: mine out, theirs in. */
static int swap(const meet_t *m, void *mine, void *theirs, size_t n)
{
    int err = m->acceptor ? RMP_SUCCESS : xfer(m, mine, n, true);
    if (!err)
        err = xfer(m, theirs, n, false);
    if (!err && m->acceptor)
        err = xfer(m, mine, n, true);
    return err;
}

/* A spawn's accept: in slices, each after a look at the children's launcher, whose end
 * before they connected is RMP_ERR_SPAWN (it said why on stderr). */
static int accept_child(meet_t *m, int lfd)
{
    char why[300];
    double end = now_ms() + m->timeout_ms;
    int status = 0, left;
    const port_child_t *c = m->child;
    while ((left = (int)(end - now_ms())) > 0) {
        m->fd = tp_sock_accept(lfd, left < 200 ? left : 200, why, sizeof why);
        if (m->fd >= 0)
            return RMP_SUCCESS;
        if (m->fd == -1)
            break;
        struct pollfd p = {.fd = c->fd, .events = POLLIN};
        if (c->fd >= 0 && poll(&p, 1, 0) == 1) { /* a pidfd is readable once it has ended */
            if (c->mine && waitpid(c->pid, &status, WNOHANG) == c->pid)
                core_error(&rmp_ctx, "rmp_comm_spawn: %s ended (%s %d) before the children "
                           "connected", c->what, WIFSIGNALED(status) ? "signal" : "status",
                           WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            else
                core_error(&rmp_ctx, "rmp_comm_spawn: %s ended before the children connected "
                           "(its own line says why)", c->what);
            return RMP_ERR_SPAWN;
        }
    }
    if (m->fd == -2)
        snprintf(why, sizeof why, "the children did not connect within %d ms (RMP_PORT_TIMEOUT, "
                 "info key \"timeout\")", m->timeout_ms);
    core_error(&rmp_ctx, "rmp_comm_spawn: %s", why);
    return RMP_ERR_SPAWN;
}

/* The root's end of the roots' socket: RMP_ERR_PORT, said, when there is none. */
static int link_open(meet_t *m)
{
    char why[300];
    const char *what = m->acceptor ? "rmp_comm_accept" : "rmp_comm_connect";
    if (m->acceptor) {
        int lfd = m->port ? dyn_port_fd(&rmp_ctx, m->port) : -1;
        if (lfd < 0)
            snprintf(why, sizeof why, "not a port this process opened (or closed already)");
        else if (!m->child)
            m->fd = tp_sock_accept(lfd, m->timeout_ms, why, sizeof why);
        else
            return accept_child(m, lfd);
    } else {
        const char *path = dyn_port_path(m->port);
        if (!path)
            snprintf(why, sizeof why, "not a port name (%s<path> expected)", DYN_PORT_PREFIX);
        else
            m->fd = tp_sock_dial(path, why, sizeof why);
    }
    if (m->fd >= 0)
        return RMP_SUCCESS;
    core_error(&rmp_ctx, "%s on port '%.200s': %s", what, m->port ? m->port : "(null)", why);
    return RMP_ERR_PORT;
}

/* ctx_combine_t: the roots swap their groups' masks, AND them; the group learns the result
 * and the outcome (the word after the mask) from its root. */
static int meet_combine(void *arg, uint32_t *buf, int n)
{
    const meet_t *m = arg;
    uint32_t *two = calloc((size_t)n * 2 + 1, sizeof(uint32_t));
    if (!two)
        return RMP_ERR_NO_MEM;
    uint32_t *theirs = two + n + 1;
    memcpy(two, buf, sizeof(uint32_t) * (size_t)n);
    if (m->am_root) {
        int err = swap(m, buf, theirs, sizeof(uint32_t) * (size_t)n);
        for (int i = 0; !err && i < n; i++)
            two[i] &= theirs[i];
        two[n] = (uint32_t)-err;
    }
    int err = comm_coll.bcast(two, n + 1, RMP_UINT32, m->root, m->comm);
    if (!err)
        err = -(int)two[n];
    memcpy(buf, two, sizeof(uint32_t) * (size_t)n);
    free(two);
    return err;
}

/* At the root: the link, then the groups' addresses swapped. hdr: {status, remote size}. */
static int root_exchange(meet_t *m, const char *mine, int n, char **theirs, int32_t hdr[2])
{
    int err = link_open(m);
    int32_t out[3] = {PORT_MAGIC, n, 0}, in[3] = {0};
    if (!err)
        err = swap(m, out, in, sizeof out);
    if (!err && (in[0] != PORT_MAGIC || in[1] <= 0 || in[1] > RMP_MAX_DYN_PEERS)) {
        core_error(&rmp_ctx, "port '%.200s': the other side is not an rmp job of this version",
                   m->port);
        err = RMP_ERR_PORT;
    }
    if (!err && !(*theirs = malloc((size_t)in[1] * RMP_DYN_ADDR_MAX)))
        err = RMP_ERR_NO_MEM;
    if (!err) /* (sizes differ: not swap's equal halves) */
        err = m->acceptor ? xfer(m, *theirs, (size_t)in[1] * RMP_DYN_ADDR_MAX, false)
                          : xfer(m, (void *)mine, (size_t)n * RMP_DYN_ADDR_MAX, true);
    if (!err)
        err = m->acceptor ? xfer(m, (void *)mine, (size_t)n * RMP_DYN_ADDR_MAX, true)
                          : xfer(m, *theirs, (size_t)in[1] * RMP_DYN_ADDR_MAX, false);
    hdr[0] = err;
    hdr[1] = err ? 0 : in[1];
    return err;
}

/* Every rank: the other group's addresses as world ids (dynamic peers). */
static int remote_ids(const char *addrs, int rn, int *rw)
{
    int err = RMP_SUCCESS;
    ctx_lock(&rmp_ctx);
    for (int i = 0; i < rn; i++) {
        char a[RMP_DYN_ADDR_MAX];
        memcpy(a, addrs + (size_t)i * RMP_DYN_ADDR_MAX, sizeof a);
        a[sizeof a - 1] = '\0';
        if ((rw[i] = dyn_peer_locked(&rmp_ctx, a)) < 0)
            err = RMP_ERR_NO_MEM;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

static int timeout_ms(rmp_info_t info)
{
    char v[32];
    int flag = 0;
    long s = 0;
    if (info != RMP_INFO_NULL && rmp_info_get(info, "timeout", sizeof v, v, &flag) == 0 &&
        flag && (s = strtol(v, NULL, 10)) > 0 && s < 86400)
        return (int)(s * 1000);
    const knob_val_t *k = knob_lookup(rmp_ctx.cfg.knobs, "RMP_PORT_TIMEOUT");
    return (int)((k ? k->num : 60) * 1000);
}

/* The rest, once every rank has the other group's addresses: ids, the pair, the result. */
static int meet_build(meet_t *m, const intra_t *cl, const char *addrs, int rn, rmp_comm_t *out)
{
    int *rw = malloc(sizeof(int) * (size_t)rn);
    int err = rw ? remote_ids(addrs, rn, rw) : RMP_ERR_NO_MEM, any = err ? 1 : 0;
    int e2 = comm_coll.allreduce(RMP_IN_PLACE, &any, 1, RMP_INT32, RMP_MAX, m->comm);
    if (!err && (e2 || any))
        err = e2 ? e2 : RMP_ERR_NO_MEM;
    uint32_t id;
    if (!err)
        err = comm_agree_ctx(m->comm, meet_combine, m, &id);
    if (!err)
        err = inter_build(cl->comm->world, cl->size, cl->rank, rw, rn, m->acceptor, id, out);
    free(rw);
    return err;
}

int port_meet(const char *port, rmp_info_t info, int root, rmp_comm_t comm, bool acceptor,
              const port_child_t *child, rmp_comm_t *newcomm)
{
    intra_t cl;
    int err = comm_intra(comm, &cl); /* an intracommunicator (RMP_ERR_COMM otherwise) */
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = intra_root(&cl, root);
    if (err)
        return err;
    *newcomm = RMP_COMM_NULL;
    meet_t m = {.comm = comm, .root = root, .fd = -1, .am_root = cl.rank == root,
                .acceptor = acceptor, .timeout_ms = timeout_ms(info), .port = port,
                .child = child};
    char me[RMP_DYN_ADDR_MAX] = {0}, *mine = NULL, *theirs = NULL;
    int32_t hdr[2] = {dyn_my_addr(&rmp_ctx, me, sizeof me), 0};
    if (m.am_root && !(mine = malloc((size_t)cl.size * RMP_DYN_ADDR_MAX)))
        hdr[0] = RMP_ERR_NO_MEM; /* (the gather below then fails alike: no root buffer) */
    int gerr = comm_coll.gather(me, RMP_DYN_ADDR_MAX, RMP_BYTE, mine, RMP_DYN_ADDR_MAX, RMP_BYTE,
                          root, comm);
    int any = gerr || hdr[0];
    err = comm_coll.allreduce(RMP_IN_PLACE, &any, 1, RMP_INT32, RMP_MAX, comm);
    if (!err && any) /* a rank without an endpoint said why */
        err = gerr ? gerr : hdr[0] ? hdr[0] : RMP_ERR_TRANSPORT;
    if (!err && m.am_root)
        (void)root_exchange(&m, mine, cl.size, &theirs, hdr);
    if (!err)
        err = comm_coll.bcast(hdr, 2, RMP_INT32, root, comm);
    if (!err && !(err = hdr[0]) && !m.am_root && !(theirs = malloc((size_t)hdr[1] *
                                                                     RMP_DYN_ADDR_MAX)))
        err = RMP_ERR_NO_MEM; /* (fatal, as anywhere a collective's buffer is missing) */
    if (!err)
        err = comm_coll.bcast(theirs, hdr[1] * RMP_DYN_ADDR_MAX, RMP_BYTE, root, comm);
    if (!err)
        err = meet_build(&m, &cl, theirs, hdr[1], newcomm);
    if (m.fd >= 0)
        close(m.fd);
    free(mine);
    free(theirs);
    return err;
}

int rmp_comm_accept(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                    rmp_comm_t *newcomm)
{
    return port_meet(port_name, info, root, comm, true, NULL, newcomm);
}

int rmp_comm_connect(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                     rmp_comm_t *newcomm)
{
    return port_meet(port_name, info, root, comm, false, NULL, newcomm);
}

int rmp_open_port(rmp_info_t info, char *port_name)
{
    int err = ctx_check();
    if (err)
        return err;
    return port_name ? dyn_port_open(&rmp_ctx, port_name) : RMP_ERR_ARG;
}

int rmp_close_port(const char *port_name)
{
    int err = ctx_check();
    if (err)
        return err;
    return port_name ? dyn_port_close(&rmp_ctx, port_name) : RMP_ERR_ARG;
}

/* ---- rmp_comm_join ---- */

/* All n bytes over the caller's socket (blocking, as the caller gave it). */
static int join_io(int fd, void *buf, size_t n, bool wr)
{
    for (size_t done = 0; done < n;) {
        ssize_t r = wr ? send(fd, (char *)buf + done, n - done, MSG_NOSIGNAL)
                       : recv(fd, (char *)buf + done, n - done, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            core_error(&rmp_ctx, "rmp_comm_join: socket %d: %s", fd,
                       r == 0 ? "the other side closed it" : strerror(errno));
            return RMP_ERR_ARG;
        }
        done += (size_t)r;
    }
    return RMP_SUCCESS;
}

/* Each side opens a port and sends its name over fd; the lower name accepts on it, the other
 * connects to it (both over RMP_COMM_SELF). */
int rmp_comm_join(int fd, rmp_comm_t *intercomm)
{
    char mine[RMP_MAX_PORT_NAME] = {0}, theirs[RMP_MAX_PORT_NAME] = {0};
    if (!intercomm || fd < 0)
        return RMP_ERR_ARG;
    int err = rmp_open_port(RMP_INFO_NULL, mine);
    if (err)
        return err;
    err = join_io(fd, mine, sizeof mine, true);
    if (!err)
        err = join_io(fd, theirs, sizeof theirs, false);
    theirs[sizeof theirs - 1] = '\0';
    if (!err && strcmp(mine, theirs) < 0)
        err = rmp_comm_accept(mine, RMP_INFO_NULL, 0, RMP_COMM_SELF, intercomm);
    else if (!err)
        err = rmp_comm_connect(theirs, RMP_INFO_NULL, 0, RMP_COMM_SELF, intercomm);
    (void)rmp_close_port(mine);
    return err;
}
