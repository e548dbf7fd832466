/* fdlimit.c: mrun's open-file budget. Counted on a job of 64 ranks (issue 21): per rank mrun
 * holds the read ends of the rank's stdout, stderr and status pipes, the read end of its
 * exec-result pipe until every rank has started, and PMIx's socket for the rank: 5 (the old
 * reserve of 3 per rank made 64 ranks fail at rank 48 under `ulimit -Sn 256`). Besides those,
 * mrun held 16 (stdio, the signalfd, PMIx's event pipe, /dev/null, the temp dir, PMIx's
 * listener, libevent's epoll and pipes); starting a rank briefly adds four pipes (8), and the
 * PMIx guard's netlink socket one more: a base of 64 leaves room for what PMIx may open. */
#include "fdlimit.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "procs.h"

enum {
    FDS_PER_RANK = 5,
    FDS_PER_RANK_FILES = 2, /* --output-filename's stdout and stderr */
    FDS_BASE = 64,
    /* A rank: stdio, the status channel, 16 free for rmp_init (runtime/bootstrap.c), and
     * some for the program: below this every rank would fail, each with its own line. */
    FDS_RANK_MIN = 32,
};

bool fdlimit_prepare(int nprocs, bool files)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return true; /* cannot fail for a valid resource; if it did, let the job say */
    procs_rank_nofile(&rl); /* what the ranks get back */
    if (rl.rlim_cur < FDS_RANK_MIN) {
        fprintf(stderr, "mrun: the open-file limit is %lu, and a rank needs at least %d (rmp's "
                "own and the program's): raise it (ulimit -n)\n", (unsigned long)rl.rlim_cur,
                FDS_RANK_MIN);
        return false;
    }
    rlim_t per = FDS_PER_RANK + (files ? FDS_PER_RANK_FILES : 0);
    rlim_t need = (rlim_t)nprocs * per + FDS_BASE;
    if (rl.rlim_cur >= need) /* RLIM_INFINITY is the largest value */
        return true;
    if (rl.rlim_max < need) {
        rlim_t fit = rl.rlim_max > FDS_BASE ? (rl.rlim_max - FDS_BASE) / per : 0;
        char fewer[64] = "";
        if (fit > 0)
            snprintf(fewer, sizeof fewer, ", or run at most %lu ranks", (unsigned long)fit);
        fprintf(stderr, "mrun: %d ranks need %lu open files in mrun (%lu per rank + %d), but "
                "the hard limit is %lu: raise it (ulimit -Hn, limits.conf)%s\n", nprocs,
                (unsigned long)need, (unsigned long)per, FDS_BASE, (unsigned long)rl.rlim_max,
                fewer);
        return false;
    }
    rlim_t old = rl.rlim_cur;
    rl.rlim_cur = need;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
        fprintf(stderr, "mrun: %d ranks need %lu open files in mrun; raising the limit from "
                "%lu failed: %s\n", nprocs, (unsigned long)need, (unsigned long)old,
                strerror(errno));
        return false;
    }
    return true;
}
