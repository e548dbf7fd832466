/* shm_early_end.c — usage: shm_early_end abort|exit|init [RANK]. Right after rmp_init, RANK
 * (default 0) calls rmp_abort(3) ("abort") or exits 4 without rmp_finalize ("exit"), while its
 * local peers may still be mapping the shm segments; the others wait for it. "init": every rank
 * only reports what rmp_init returned ("rank R: rmp_init returned C") and exits 1 if it failed.
 * RANK prints "nspace <PMIx namespace>" first. Run under any launcher: what the ranks leave in
 * /dev/shm is theirs, not the launcher's. */
#include "progs.h"

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "abort";
    int who = argc > 2 ? atoi(argv[2]) : 0;
    int rc = rmp_init(&argc, &argv);
    if (!strcmp(how, "init")) {
        const char *r = getenv("PMIX_RANK");
        printf("rank %s: rmp_init returned %d\n", r ? r : "?", rc);
        fflush(stdout);
        if (rc != RMP_SUCCESS)
            return 1;
        MUST(rmp_finalize());
        return 0;
    }
    MUST(rc);
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    if (prog_rank == who) { /* where the test looks for segments: /dev/shm/rmp.<nspace>-r* */
        const char *ns = getenv("PMIX_NAMESPACE");
        printf("nspace %s\n", ns ? ns : "?");
        fflush(stdout);
    }
    if (prog_rank == who && !strcmp(how, "abort"))
        rmp_abort(RMP_COMM_WORLD, 3);
    if (prog_rank == who)
        exit(4);
    int x;
    phase("waiting for the rank that ends early (the launcher should have ended the job)", 60);
    rmp_recv(&x, 1, RMP_INT, who, 0, RMP_COMM_WORLD, RMP_STATUS_IGNORE);
    FAIL("the receive from rank %d returned", who);
    return 1;
}
