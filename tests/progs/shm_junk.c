/* shm_junk.c — run with 2 ranks and RMP_SPIN_US=0 (rank 0 sleeps on its doorbell at once).
 * Rank 1 finds rank 0's doorbell the way anyone can (the sockets in /proc/<pid>/fd, named in
 * /proc/net/unix) and forks a flooder, a process of the same user that is no rank, which sends
 * junk datagrams to it without pause. Meanwhile rank 1 sends ROUNDS checked messages, each
 * after a short sleep, and rank 0 acknowledges each: every message must arrive intact and the
 * job end normally. Prints "rank 1: flooder pid P", "flooder: sent S datagrams (F refused:
 * queue full)" and "junk: OK". */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "progs.h"

#define ROUNDS 200
#define MSG_BYTES 4096

/* The abstract name ("@..." in /proc/net/unix) of a socket of process pid whose name starts
 * with "@rmp": 0 and the address in *sa, or -1. */
static int find_bell(pid_t pid, struct sockaddr_un *sa, socklen_t *len)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    FILE *f = fopen("/proc/net/unix", "r");
    if (!d || !f) {
        if (d)
            closedir(d);
        if (f)
            fclose(f);
        return -1;
    }
    unsigned long inodes[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) {
        char link[320], target[64];
        snprintf(link, sizeof link, "%s/%s", path, e->d_name);
        ssize_t k = readlink(link, target, sizeof target - 1);
        if (k > 0 && (target[k] = '\0', sscanf(target, "socket:[%lu]", &inodes[n]) == 1))
            n++;
    }
    closedir(d);
    char line[512];
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        unsigned long ino;
        char name[256];
        if (sscanf(line, "%*s %*s %*s %*s %*s %*s %lu %255s", &ino, name) != 2 ||
            strncmp(name, "@rmp", 4) || strlen(name) >= sizeof sa->sun_path)
            continue;
        for (int i = 0; i < n && found < 0; i++) {
            if (inodes[i] != ino)
                continue;
            memset(sa, 0, sizeof *sa);
            sa->sun_family = AF_UNIX;
            memcpy(sa->sun_path + 1, name + 1, strlen(name) - 1);
            *len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(name));
            found = 0;
        }
    }
    fclose(f);
    return found;
}

static volatile sig_atomic_t flood_stop;

static void on_term(int sig)
{
    (void)sig;
    flood_stop = 1;
}

/* The stranger: junk of every small size, as fast as it goes with a breath every burst. */
static void flood(const struct sockaddr_un *sa, socklen_t len)
{
    signal(SIGTERM, on_term);
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    long sent = 0, full = 0;
    char junk[64];
    memset(junk, 0x5a, sizeof junk);
    while (fd >= 0 && !flood_stop) {
        for (int i = 0; i < 32; i++) {
            ssize_t k = sendto(fd, junk, 1 + (size_t)(sent % 64), MSG_DONTWAIT,
                               (const struct sockaddr *)sa, len);
            if (k > 0)
                sent++;
            else if (errno == EAGAIN)
                full++;
        }
        usleep(100);
    }
    printf("flooder: sent %ld datagrams (%ld refused: queue full)\n", sent, full);
    fflush(stdout);
    _exit(fd >= 0 && sent > 0 ? 0 : 1);
}

static void rank1(void)
{
    int pid0;
    MUST(rmp_recv(&pid0, 1, RMP_INT, 0, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    struct sockaddr_un sa;
    socklen_t len;
    if (find_bell((pid_t)pid0, &sa, &len)) {
        FAIL("no doorbell of rank 0 (pid %d) in /proc/net/unix", pid0);
        exit(1);
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0)
        flood(&sa, len);
    if (child < 0) {
        FAIL("fork: %s", strerror(errno));
        exit(1);
    }
    printf("rank 1: flooder pid %d\n", (int)child);
    fflush(stdout);
    static char buf[MSG_BYTES];
    for (int i = 0; i < ROUNDS; i++) {
        usleep(2000); /* rank 0 goes to sleep on its doorbell, under the flood */
        fill(buf, sizeof buf, (uint64_t)i);
        CHECK(rmp_send(buf, MSG_BYTES, RMP_BYTE, 0, 1, RMP_COMM_WORLD));
        int ack = -1;
        CHECK(rmp_recv(&ack, 1, RMP_INT, 0, 2, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        if (ack != i)
            FAIL("round %d: ack %d", i, ack);
    }
    int st;
    if (kill(child, SIGTERM) || waitpid(child, &st, 0) != child || !WIFEXITED(st) ||
        WEXITSTATUS(st))
        FAIL("the flooder did not end well (it sent nothing?)");
}

static void rank0(void)
{
    int me = (int)getpid();
    MUST(rmp_send(&me, 1, RMP_INT, 1, 0, RMP_COMM_WORLD));
    static char buf[MSG_BYTES];
    for (int i = 0; i < ROUNDS; i++) {
        memset(buf, 0, sizeof buf);
        CHECK(rmp_recv(buf, MSG_BYTES, RMP_BYTE, 1, 1, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
        size_t bad = first_mismatch(buf, sizeof buf, (uint64_t)i);
        if (bad != sizeof buf)
            FAIL("round %d: byte %zu differs", i, bad);
        CHECK(rmp_send(&i, 1, RMP_INT, 1, 2, RMP_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    int size;
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    if (size != 2) {
        FAIL("run with 2 ranks");
        return 1;
    }
    phase("messages under a flood of junk datagrams", 60);
    if (prog_rank == 0)
        rank0();
    else
        rank1();
    phase("finalize", 30);
    MUST(rmp_finalize());
    if (prog_rank == 0 && !prog_failures)
        printf("junk: OK\n");
    return prog_exit();
}
