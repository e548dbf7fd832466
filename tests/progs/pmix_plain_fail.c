/* pmix_plain_fail.c — a plain PMIx client (no rmp: no status channel, so mrun knows of its
 * finalize only from PMIx's upcall, which may come after its exit): rank 0 leaves without
 * PMIx_Finalize and exits 0, so mrun waits a while for a late "finalized" before it judges
 * it; meanwhile rank 1 exits 7. mrun must blame rank 1 and end. (It used to spin for ever:
 * the failure stopped every later verdict, and the wait for rank 0's was never called off.) */
#include <pmix.h>

#include "progs.h"

#define KEY "rmp.test.pid"

int main(void)
{
    pmix_proc_t me;
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        printf("FAIL: PMIx_Init: %s\n", PMIx_Error_string(rc));
        return 1;
    }
    prog_rank = (int)me.rank;
    int pid = (int)getpid();
    pmix_value_t v;
    PMIX_VALUE_LOAD(&v, &pid, PMIX_INT);
    bool collect = true;
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    if ((rc = PMIx_Put(PMIX_GLOBAL, KEY, &v)) != PMIX_SUCCESS ||
        (rc = PMIx_Commit()) != PMIX_SUCCESS || (rc = PMIx_Fence(&all, 1, &info, 1)) != PMIX_SUCCESS) {
        FAIL("PMIx put, commit or fence: %s", PMIx_Error_string(rc));
        return 1;
    }
    if (me.rank == 0) {
        printf("rank 0: exiting without PMIx_Finalize\n");
        fflush(stdout);
        _exit(0);
    }
    if (me.rank == 1) {
        pmix_proc_t p0;
        PMIX_LOAD_PROCID(&p0, me.nspace, 0);
        pmix_value_t *got = NULL;
        if ((rc = PMIx_Get(&p0, KEY, NULL, 0, &got)) != PMIX_SUCCESS || got->type != PMIX_INT) {
            FAIL("PMIx_Get of rank 0's pid: %s", PMIx_Error_string(rc));
            return 1;
        }
        if (!prog_await_exit((pid_t)got->data.integer, 10))
            FAIL("rank 0 (pid %d) did not exit within 10 s", got->data.integer);
        printf("rank 1: exiting with status 7\n");
        fflush(stdout);
        _exit(7);
    }
    sleep(10); /* the others wait to be ended by mrun */
    return 0;
}
