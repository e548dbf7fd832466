/* guard.c: the door of mrun's PMIx server. PMIx 4.2 listens on TCP 127.0.0.1 and believes the
 * uid a client claims in its handshake, so any local user could join a job (and abort it). mrun
 * therefore decides itself, in the accept() its PMIx library calls, and lets through only the
 * connections whose socket the kernel says belongs to mrun's own uid. */
#include "guard.h"

#include <dlfcn.h>
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Asks the kernel (sock_diag) who owns the client end of an accepted loopback TCP connection:
 * the uid recorded when that socket was created, which no LD_PRELOAD can forge. */
int guard_peer_uid(int fd, uid_t *uid)
{
    struct sockaddr_storage me, peer;
    socklen_t ml = sizeof me, pl = sizeof peer;
    if (getsockname(fd, (struct sockaddr *)&me, &ml) != 0 ||
        getpeername(fd, (struct sockaddr *)&peer, &pl) != 0)
        return errno;
    if (peer.ss_family != AF_INET && peer.ss_family != AF_INET6)
        return EAFNOSUPPORT;
    struct {
        struct nlmsghdr nlh;
        struct inet_diag_req_v2 req;
    } q = {0};
    q.nlh.nlmsg_len = sizeof q;
    q.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    q.nlh.nlmsg_flags = NLM_F_REQUEST; /* one exact socket, not a dump */
    q.req.sdiag_family = (unsigned char)peer.ss_family;
    q.req.sdiag_protocol = IPPROTO_TCP;
    q.req.idiag_states = ~0U;
    q.req.id.idiag_cookie[0] = q.req.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
    /* The client's socket: its source is the peer address, its destination is us. */
    if (peer.ss_family == AF_INET) {
        const struct sockaddr_in *p = (void *)&peer, *m = (void *)&me;
        q.req.id.idiag_sport = p->sin_port;
        q.req.id.idiag_dport = m->sin_port;
        memcpy(q.req.id.idiag_src, &p->sin_addr, 4);
        memcpy(q.req.id.idiag_dst, &m->sin_addr, 4);
    } else {
        const struct sockaddr_in6 *p = (void *)&peer, *m = (void *)&me;
        q.req.id.idiag_sport = p->sin6_port;
        q.req.id.idiag_dport = m->sin6_port;
        memcpy(q.req.id.idiag_src, &p->sin6_addr, 16);
        memcpy(q.req.id.idiag_dst, &m->sin6_addr, 16);
    }
    int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (nl < 0)
        return errno;
    int err = 0;
    union {
        struct nlmsghdr h;
        char buf[8192];
    } ans;
    ssize_t n;
    if (send(nl, &q, sizeof q, 0) != (ssize_t)sizeof q) {
        err = errno ? errno : EIO;
    } else if ((n = recv(nl, &ans, sizeof ans, 0)) < (ssize_t)sizeof ans.h ||
               !NLMSG_OK(&ans.h, (size_t)n)) {
        err = n < 0 ? errno : EPROTO;
    } else if (ans.h.nlmsg_type == NLMSG_ERROR) {
        const struct nlmsgerr *e = NLMSG_DATA(&ans.h);
        err = ans.h.nlmsg_len >= NLMSG_LENGTH(sizeof *e) && e->error ? -e->error : EPROTO;
    } else if (ans.h.nlmsg_type != SOCK_DIAG_BY_FAMILY ||
               ans.h.nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
        err = EPROTO;
    } else {
        *uid = ((const struct inet_diag_msg *)NLMSG_DATA(&ans.h))->idiag_uid;
    }
    close(nl);
    return err;
}

/* The same from /proc/net/tcp, for kernels without sock_diag for TCP (inet_diag is a module
 * that a minimal system, like the test VM's, may not load): the line whose local end is the
 * peer and whose remote end is us. IPv4 only, which is what PMIx listens on by default. */
static int proc_peer_uid(const struct sockaddr_in *peer, const struct sockaddr_in *me,
                         uid_t *uid)
{
    FILE *f = fopen("/proc/net/tcp", "re");
    if (!f)
        return errno;
    char line[512];
    int err = ENOENT;
    while (err == ENOENT && fgets(line, sizeof line, f)) {
        unsigned la, lp, ra, rp, u;
        if (sscanf(line, " %*d: %8x:%4x %8x:%4x %*x %*x:%*x %*x:%*x %*x %u", &la, &lp, &ra,
                   &rp, &u) == 5 &&
            la == peer->sin_addr.s_addr && lp == ntohs(peer->sin_port) &&
            ra == me->sin_addr.s_addr && rp == ntohs(me->sin_port)) {
            *uid = (uid_t)u;
            err = 0;
        }
    }
    fclose(f);
    return err;
}

/* The uid at the other end of an accepted socket, from the kernel; 0 or an errno. */
static int peer_uid(int fd, uid_t *uid)
{
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) != 0)
        return errno;
    if (sa.ss_family != AF_UNIX) {
        int err = guard_peer_uid(fd, uid);
        struct sockaddr_storage peer;
        socklen_t plen = sizeof peer;
        if (err != 0 && sa.ss_family == AF_INET &&
            getpeername(fd, (struct sockaddr *)&peer, &plen) == 0 && peer.ss_family == AF_INET)
            err = proc_peer_uid((const struct sockaddr_in *)&peer,
                                (const struct sockaddr_in *)&sa, uid);
        return err;
    }
    struct ucred cred;
    socklen_t clen = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0)
        return errno;
    *uid = cred.uid;
    return 0;
}

static atomic_bool guard_on;
static atomic_uint guard_refused;
static bool (*_Atomic guard_admit)(int fd);

void guard_set_admit(bool (*admit)(int fd)) { atomic_store(&guard_admit, admit); }

/* PMIx's listener thread calls accept() (it imports it from libc; 4.2.2 has no usable hook to
 * accept for it). mrun defines accept itself and exports it, so the dynamic linker binds
 * libpmix's call here: each connection is admitted only when the kernel says its socket
 * belongs to our uid. A refused one reads as ECONNABORTED, which PMIx treats as a client that
 * gave up, and goes on accepting. */
__attribute__((visibility("default"))) int accept(int fd, struct sockaddr *addr,
                                                  socklen_t *len)
{
    int s = accept4(fd, addr, len, 0); /* a different symbol: the real thing */
    if (s < 0 || !atomic_load(&guard_on))
        return s;
    uid_t uid = (uid_t)-1;
    int err = peer_uid(s, &uid);
    bool (*admit)(int) = atomic_load(&guard_admit);
    if (err == 0 && uid == getuid() && (!admit || admit(s)))
        return s;
    close(s);
    if (err == 0 && uid == getuid()) { /* admit said why */
        errno = ECONNABORTED;
        return -1;
    }
    if (atomic_fetch_add(&guard_refused, 1) < 3) { /* a flood must not flood the job's stderr */
        if (err)
            fprintf(stderr, "mrun: refused a connection to the job's PMIx server: its owner "
                    "is unknown (%s)\n", strerror(err));
        else
            fprintf(stderr, "mrun: refused a connection to the job's PMIx server from uid %u: "
                    "only the job's own processes may connect\n", (unsigned)uid);
    }
    errno = ECONNABORTED;
    return -1;
}

bool guard_enable(void)
{
    /* The guard works only if the dynamic linker binds accept to ours (mrun linked with
     * accept in its dynamic symbol table, see the Makefile). */
    void *bound = dlsym(RTLD_DEFAULT, "accept");
    if (bound != (void *)accept)
        return false;
    atomic_store(&guard_on, true);
    return true;
}
