/* test_shm_bell.c — unit tests of the shm doorbell on its own: random well-formed names, the
 * check of names read from the modex, the credential filter, a drain that tells a stranger's
 * datagrams (another process, descriptors passed along) from the job's, and a ring that never
 * blocks on a full queue. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "transport/shm/shm_bell.h"

static void bell_new(shm_bell_t *b)
{
    const char *what = "";
    int e = shm_bell_open(b, &what);
    cr_assert_eq(e, 0, "%s: %s", what, strerror(e));
}

static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    cr_assert_not_null(d);
    int n = 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

Test(shm_bell, names_random_and_well_formed)
{
    shm_bell_t a, b;
    bell_new(&a);
    bell_new(&b);
    cr_assert_eq(strlen(a.name), SHM_BELL_NAME - 1);
    cr_assert_eq(strncmp(a.name, "rmp-bell.", 9), 0, "%s", a.name);
    cr_assert(shm_bell_name_valid(a.name, sizeof(a.name)), "%s", a.name);
    cr_assert_str_neq(a.name, b.name);
    shm_bell_close(&a);
    shm_bell_close(&b);
    cr_assert_eq(a.fd, -1);
}

Test(shm_bell, modex_names_checked)
{
    char n[SHM_BELL_NAME];
    memcpy(n, "rmp-bell.0123456789abcdef0123456789abcdef", SHM_BELL_NAME);
    cr_assert(shm_bell_name_valid(n, sizeof n));
    cr_assert_not(shm_bell_name_valid(n, sizeof n - 1), "a short field");
    n[20] = 'A';
    cr_assert_not(shm_bell_name_valid(n, sizeof n), "upper case");
    n[20] = '/';
    cr_assert_not(shm_bell_name_valid(n, sizeof n), "not hex");
    n[20] = '\0';
    cr_assert_not(shm_bell_name_valid(n, sizeof n), "too short");
    memcpy(n, "rmp-bell.0123456789abcdef0123456789abcdef", SHM_BELL_NAME);
    n[SHM_BELL_NAME - 1] = 'x';
    cr_assert_not(shm_bell_name_valid(n, sizeof n), "no NUL");
    memcpy(n, "rmp.bell.0123456789abcdef0123456789abcdef", SHM_BELL_NAME);
    cr_assert_not(shm_bell_name_valid(n, sizeof n), "prefix");
}

Test(shm_bell, credential_filter)
{
    int32_t pids[3] = {100, 0, 300};
    cr_assert(shm_bell_from_job(100, 5, 5, pids, 3));
    cr_assert(shm_bell_from_job(300, 5, 5, pids, 3));
    cr_assert_not(shm_bell_from_job(100, 6, 5, pids, 3), "another uid");
    cr_assert_not(shm_bell_from_job(200, 5, 5, pids, 3), "not a rank");
    cr_assert_not(shm_bell_from_job(0, 5, 5, pids, 3), "unknown pid vs a not-yet-known slot");
    cr_assert(shm_bell_from_job(200, 5, 5, NULL, 0), "no pid list: the uid decides");
    cr_assert_not(shm_bell_from_job(200, 6, 5, NULL, 0));
}

/* The job's own ring counts; a forked process of the same user is a stranger, once per
 * datagram, and the descriptor it passes along is closed, not kept. */
Test(shm_bell, drain_tells_strangers, .timeout = 10)
{
    shm_bell_t me, peer;
    bell_new(&me);
    bell_new(&peer);
    struct sockaddr_un to;
    socklen_t len;
    shm_bell_addr(me.name, &to, &len);
    int32_t pids[1] = {(int32_t)getpid()};
    shm_bell_stranger_t who = {0, 0};

    shm_bell_ring(&peer, &to, len);
    cr_assert_eq(shm_bell_drain(&me, pids, 1, &who), 0);

    int fds_before = open_fds();
    pid_t child = fork();
    cr_assert_geq(child, 0);
    if (child == 0) {
        int s = socket(AF_UNIX, SOCK_DGRAM, 0);
        for (int i = 0; i < 3; i++)
            if (sendto(s, "junk", 4, 0, (struct sockaddr *)&to, len) != 4)
                _exit(1);
        int devnull = open("/dev/null", O_RDONLY);
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int))];
        } ctl;
        struct iovec iov = {"fd", 2};
        struct msghdr m = {.msg_name = &to, .msg_namelen = len, .msg_iov = &iov,
                           .msg_iovlen = 1, .msg_control = ctl.buf,
                           .msg_controllen = sizeof ctl.buf};
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &devnull, sizeof(int));
        _exit(devnull >= 0 && sendmsg(s, &m, 0) == 2 ? 0 : 1);
    }
    int st;
    cr_assert_eq(waitpid(child, &st, 0), child);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the stranger could not send");
    shm_bell_ring(&peer, &to, len); /* a real ring among them still counts as the job's */
    cr_assert_eq(shm_bell_drain(&me, pids, 1, &who), 4);
    cr_assert_eq(who.pid, child);
    cr_assert_eq(who.uid, getuid());
    cr_assert_eq(open_fds(), fds_before, "a passed descriptor was kept");
    cr_assert_eq(shm_bell_drain(&me, pids, 1, &who), 0, "not drained");
    shm_bell_close(&me);
    shm_bell_close(&peer);
}

/* A queue kept full (by anyone) neither blocks a ringer nor hides the wakeup: the socket is
 * readable, and one drain empties it. */
Test(shm_bell, full_queue_never_blocks, .timeout = 10)
{
    shm_bell_t me, peer;
    bell_new(&me);
    bell_new(&peer);
    struct sockaddr_un to;
    socklen_t len;
    shm_bell_addr(me.name, &to, &len);
    int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    int queued = 0;
    while (sendto(s, "j", 1, 0, (struct sockaddr *)&to, len) == 1)
        queued++;
    cr_assert_eq(errno, EAGAIN, "%s", strerror(errno));
    cr_assert_gt(queued, 0);
    for (int i = 0; i < 1000; i++)
        shm_bell_ring(&peer, &to, len); /* would hang the test if it blocked */
    shm_bell_stranger_t who;
    int32_t pids[1] = {(int32_t)getpid()};
    cr_assert_eq(shm_bell_drain(&me, pids, 1, &who), 0, "all from this process: the job's");
    char c;
    cr_assert_eq(recv(me.fd, &c, 1, MSG_DONTWAIT), -1);
    cr_assert_eq(errno, EAGAIN);
    close(s);
    shm_bell_close(&me);
    shm_bell_close(&peer);
}
