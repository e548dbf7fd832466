/* sock_dir.c — where dynamic peers meet: one private directory per user (/tmp/rmp-<uid>, mode
 * 0700, refused if another user owns it or it is not a plain directory), endpoints and ports
 * as stream sockets in it, and the credentials check (SO_PEERCRED) on both ends of every
 * connection: a process of another user cannot reach them, nor be reached by mistake. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "transport/sock/sock.h"

int tp_sock_dir(char *buf, size_t len, char *why, size_t wlen)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || tmp[0] != '/')
        tmp = "/tmp";
    int n = snprintf(buf, len, "%s/rmp-%u", tmp, (unsigned)getuid());
    if (n < 0 || (size_t)n >= len) {
        snprintf(why, wlen, "TMPDIR is too long for a socket path");
        return RMP_ERR_PORT;
    }
    if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
        snprintf(why, wlen, "cannot create %s: %s", buf, strerror(errno));
        return RMP_ERR_PORT;
    }
    struct stat st;
    if (lstat(buf, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077)) {
        snprintf(why, wlen, "%s is not a directory of this user with mode 0700: remove it",
                 buf);
        return RMP_ERR_PORT;
    }
    return RMP_SUCCESS;
}

void tp_sock_tidy(const char *path)
{
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    unlink(path);
    if (slash && slash != dir) {
        *slash = '\0';
        (void)rmdir(dir); /* the last one out: nothing left behind (ENOTEMPTY otherwise) */
    }
}

int tp_sock_same_user(int fd)
{
    struct ucred cr;
    socklen_t l = sizeof(cr);
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) == 0 && cr.uid == getuid();
}

int tp_sock_listen(const char *kind, char *path, size_t len, int *fd_p, char *why, size_t wlen)
{
    static unsigned serial; /* names several ports of one process apart (with the clock) */
    char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
    int rc = tp_sock_dir(dir, sizeof dir, why, wlen);
    if (rc != RMP_SUCCESS)
        return rc;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int n = snprintf(a.sun_path, sizeof a.sun_path, "%s/%s-%d-%u-%lx", dir, kind, (int)getpid(),
                     __atomic_fetch_add(&serial, 1, __ATOMIC_RELAXED), (long)ts.tv_nsec);
    if (n < 0 || (size_t)n >= sizeof a.sun_path || (size_t)n >= len) {
        snprintf(why, wlen, "socket path under %s too long", dir);
        return RMP_ERR_PORT;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int b = fd < 0 ? -1 : bind(fd, (struct sockaddr *)&a, sizeof a);
    /* Another process's tidy-up removed the directory while it was empty, between our mkdir
     * and bind: make it again. Once our socket is in it, it stays; ranks opening and closing
     * ports at once can remove it several times in a row, hence more than one try. */
    for (int t = 0; b != 0 && errno == ENOENT && t < TP_SOCK_DIR_TRIES &&
                    tp_sock_dir(dir, sizeof dir, why, wlen) == RMP_SUCCESS; t++)
        b = bind(fd, (struct sockaddr *)&a, sizeof a);
    if (b != 0 || listen(fd, 128) != 0) {
        snprintf(why, wlen, "cannot listen on %s: %s", a.sun_path, strerror(errno));
        if (fd >= 0)
            close(fd);
        tp_sock_tidy(a.sun_path);
        return RMP_ERR_PORT;
    }
    memcpy(path, a.sun_path, (size_t)n + 1);
    *fd_p = fd;
    return RMP_SUCCESS;
}

int tp_sock_dial(const char *path, char *why, size_t wlen)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        snprintf(why, wlen, "socket path too long: %.40s...", path);
        return -1;
    }
    strcpy(a.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        snprintf(why, wlen, "cannot connect to %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!tp_sock_same_user(fd)) {
        snprintf(why, wlen, "%s belongs to another user: refused", path);
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0) {
        snprintf(why, wlen, "fcntl: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

int tp_sock_accept(int lfd, int timeout_ms, char *why, size_t wlen)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0 && tp_sock_same_user(fd))
            return fd;
        if (fd >= 0) { /* another user's process: closed, and we wait on */
            close(fd);
            continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            snprintf(why, wlen, "accept: %s", strerror(errno));
            return -1;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = timeout_ms - ((t.tv_sec - t0.tv_sec) * 1000 +
                                  (t.tv_nsec - t0.tv_nsec) / 1000000);
        if (left <= 0) {
            snprintf(why, wlen, "nobody connected within %d ms", timeout_ms);
            return -2;
        }
        struct pollfd p = {.fd = lfd, .events = POLLIN};
        (void)poll(&p, 1, (int)(left < 100 ? left : 100));
    }
}

int sk_listen(sk_t *s)
{
    char why[256];
    int rc = tp_sock_listen("ep", s->path, sizeof s->path, &s->lfd, why, sizeof why);
    if (rc != RMP_SUCCESS) {
        tp_error(&s->base, "dynamic peers: %s", why);
        return rc;
    }
    s->efd = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL}; /* NULL: the listener */
    if (s->efd < 0 || epoll_ctl(s->efd, EPOLL_CTL_ADD, s->lfd, &ev) != 0) {
        tp_error(&s->base, "dynamic peers: epoll: %s", strerror(errno));
        sk_unlisten(s);
        return RMP_ERR_TRANSPORT;
    }
    tp_verbose(&s->base, "dynamic peers: endpoint %s", s->path);
    return RMP_SUCCESS;
}

void sk_unlisten(sk_t *s)
{
    if (s->efd >= 0)
        close(s->efd);
    if (s->lfd >= 0)
        close(s->lfd);
    if (s->path[0])
        tp_sock_tidy(s->path);
    s->efd = s->lfd = -1;
    s->path[0] = '\0';
}

int sk_dial(tp_t *tp, const char *path, int quiet)
{
    char why[256];
    int fd = tp_sock_dial(path, why, sizeof why);
    if (fd < 0 && !quiet)
        tp_error(tp, "dynamic peer: %s", why);
    return fd;
}
