/* shm_bell.c — the shm doorbell: an AF_UNIX datagram socket in the abstract namespace, one per
 * rank, that local peers ring when the rank sleeps (see bell_ring in shm.c for why no wakeup is
 * lost). Knows nothing of ranks or rings; shm.c publishes the name and keeps the pid list.
 *
 * Why it looks like this. Abstract names leave nothing behind when a process dies (no file to
 * clean), but they carry no permissions: any local user can bind a name first or send to one,
 * and every bound name is listed in /proc/net/unix for all to read. So:
 * - a name nobody can predict or squat: 128 bits from getrandom(), bound by its owner and
 *   published through the modex (the shm address blob). Kernel autobind was the other
 *   candidate, but its names are 5 hex digits (2^20 of them): enumerable, and exhaustible.
 * - nothing is trusted from a datagram: it carries no data, it only ends a poll(), and the
 *   owner re-checks every ring after draining the queue, whoever rang.
 * - SO_PASSCRED: the kernel stamps each datagram with the sender's pid and uid (the sender
 *   cannot forge them), so the owner counts what comes from anyone but the job's local ranks
 *   (our uid and a pid from the ranks' segment headers) and says so once. Ranks in different
 *   pid namespaces would be named strangers too: a wrong line on stderr, nothing worse.
 * A flood cannot lose a real wakeup (the queue is readable, so the owner wakes and re-checks
 * the rings) nor block a sender (MSG_DONTWAIT; a full queue already means "awake"). What it
 * can do is make the owner's sleeps spurious, at the cost of the flooder's own CPU. */
#include "transport/shm/shm_bell.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define SHM_BELL_DRAIN_MAX 256 /* datagrams read per drain: a flood cannot pin us in here */
#define SHM_BELL_BIND_TRIES 4  /* a clash of 128 random bits is a squatter's luck, not ours */

int shm_bell_random_hex(char *out, size_t nhex)
{
    unsigned char r[32];
    size_t want = (nhex + 1) / 2, got = 0;
    if (want > sizeof(r))
        return EINVAL;
    while (got < want) {
        ssize_t n = getrandom(r + got, want - got, 0);
        if (n < 0 && errno != EINTR)
            return errno;
        got += n > 0 ? (size_t)n : 0;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < nhex; i++)
        out[i] = hex[(r[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    out[nhex] = '\0';
    return 0;
}

static int bell_random_name(char name[SHM_BELL_NAME])
{
    memcpy(name, SHM_BELL_PREFIX, sizeof(SHM_BELL_PREFIX) - 1);
    return shm_bell_random_hex(name + sizeof(SHM_BELL_PREFIX) - 1, SHM_BELL_HEX);
}

bool shm_bell_name_valid(const char *name, size_t max)
{
    size_t plen = sizeof(SHM_BELL_PREFIX) - 1;
    if (max < SHM_BELL_NAME || strncmp(name, SHM_BELL_PREFIX, plen) || name[SHM_BELL_NAME - 1])
        return false;
    for (size_t i = plen; i < plen + SHM_BELL_HEX; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return true;
}

void shm_bell_addr(const char *name, struct sockaddr_un *sa, socklen_t *len)
{
    memset(sa, 0, sizeof(*sa));
    sa->sun_family = AF_UNIX;
    size_t n = strlen(name); /* < SHM_BELL_NAME < sizeof(sun_path) - 1 */
    memcpy(sa->sun_path + 1, name, n);
    *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

_Static_assert(SHM_BELL_NAME + 1 <= sizeof(((struct sockaddr_un *)0)->sun_path),
               "doorbell names must fit in sun_path");

int shm_bell_open(shm_bell_t *b, const char **what)
{
    b->uid = getuid();
    b->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (b->fd < 0) {
        *what = "socket(AF_UNIX)";
        return errno;
    }
    /* Before bind: no datagram can reach the socket without its sender's credentials. */
    int on = 1;
    if (setsockopt(b->fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on))) {
        *what = "setsockopt(SO_PASSCRED)";
        return errno;
    }
    int e = EADDRINUSE;
    for (int t = 0; t < SHM_BELL_BIND_TRIES && e == EADDRINUSE; t++) {
        if ((e = bell_random_name(b->name))) {
            *what = "getrandom";
            return e;
        }
        struct sockaddr_un sa;
        socklen_t len;
        shm_bell_addr(b->name, &sa, &len);
        e = bind(b->fd, (struct sockaddr *)&sa, len) ? errno : 0;
    }
    *what = "bind";
    return e;
}

void shm_bell_close(shm_bell_t *b)
{
    if (b->fd >= 0)
        close(b->fd);
    b->fd = -1;
}

void shm_bell_ring(const shm_bell_t *b, const struct sockaddr_un *to, socklen_t len)
{
    (void)sendto(b->fd, "", 1, MSG_DONTWAIT, (const struct sockaddr *)to, len);
}

bool shm_bell_from_job(pid_t pid, uid_t uid, uid_t my_uid, const int32_t *pids, int n)
{
    if (uid != my_uid)
        return false;
    if (!pids)
        return true;
    for (int i = 0; i < n; i++)
        if (pids[i] == pid && pid > 0)
            return true;
    return false;
}

/* Close descriptors a stranger may have passed along (SCM_RIGHTS): never keep them. */
static void bell_close_rights(struct msghdr *m)
{
    for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
            continue;
        size_t nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < nfd; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
            close(fd);
        }
    }
}

int shm_bell_drain(shm_bell_t *b, const int32_t *pids, int n, shm_bell_stranger_t *first)
{
    int strangers = 0;
    for (int k = 0; k < SHM_BELL_DRAIN_MAX; k++) {
        char data[16];
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(struct ucred))];
        } ctl;
        struct iovec iov = {data, sizeof(data)};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                           .msg_controllen = sizeof(ctl.buf)};
        ssize_t got = recvmsg(b->fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            break; /* EAGAIN: drained */
        bell_close_rights(&m);
        struct ucred cr = {.pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1};
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS &&
                c->cmsg_len >= CMSG_LEN(sizeof(cr)))
                memcpy(&cr, CMSG_DATA(c), sizeof(cr));
        if (shm_bell_from_job(cr.pid, cr.uid, b->uid, pids, n))
            continue;
        if (!strangers++)
            *first = (shm_bell_stranger_t){.pid = cr.pid, .uid = cr.uid};
    }
    return strangers;
}
