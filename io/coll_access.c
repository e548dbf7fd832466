/* io/coll_access.c — io_coll_access, the entry of collective buffering: one allgather of
 * what each rank asks (its range, node, hints), the same decision on every rank (two-phase or
 * each rank alone), and one allreduce that gives every rank the worst status. */
#include <limits.h>
#include <stdlib.h>

#include "coll.h"
#include "core.h"

/* My runs must be what io_coll.h promises; a violation is the caller's bug, refused by every
 * rank before any byte moves. */
static int check_runs(int fd, const io_run_t *runs, size_t n)
{
    if (fd < 0 || (n > 0 && !runs))
        return RMP_ERR_ARG;
    int64_t end = 0;
    for (size_t i = 0; i < n; i++) {
        if (runs[i].off < end || runs[i].len < 0 || runs[i].off > INT64_MAX - runs[i].len ||
            (runs[i].len > 0 && !runs[i].mem))
            return RMP_ERR_ARG;
        end = runs[i].off + runs[i].len;
    }
    return RMP_SUCCESS;
}

/* What every rank learns about me (REC_* of coll.h). Hints are taken from rank 0's record,
 * so ranks that disagree cannot build different plans and hang. */
static void my_record(int64_t *rec, int st, int fd, const io_run_t *runs, size_t n,
                      int is_write, const io_hints_t *h)
{
    int64_t lo = INT64_MAX, hi = -1, nruns = 0;
    for (size_t i = 0; i < n; i++) {
        if (runs[i].len == 0)
            continue;
        lo = lo < runs[i].off ? lo : runs[i].off;
        hi = runs[i].off + runs[i].len;
        nruns++;
    }
    rec[REC_STATUS] = st;
    rec[REC_WRITE] = is_write != 0;
    rec[REC_NODE] = rmp_ctx.node ? rmp_ctx.node[rmp_ctx.rank] : 0;
    rec[REC_LO] = nruns ? lo : -1;
    rec[REC_HI] = nruns ? hi : -1;
    rec[REC_NRUNS] = nruns;
    rec[REC_BLOCK] = st ? 0 : coll_fs_block(fd);
    rec[REC_CB_NODES] = h ? h->cb_nodes : 0;
    rec[REC_CB_SIZE] = h ? h->cb_buffer_size : 0;
    rec[REC_CB] = !h ? 0 : is_write ? h->romio_cb_write : h->romio_cb_read;
    rec[REC_STRIPE] = h ? h->striping_unit : 0;
    rec[REC_DS] = !h ? 0 : is_write ? h->ds_write : h->ds_read;
}

/* A local argument error, or ranks that disagree on the direction. */
static int records_status(const int64_t *all, int size)
{
    for (int r = 0; r < size; r++) {
        if (all[r * REC_N + REC_STATUS])
            return (int)all[r * REC_N + REC_STATUS];
        if (all[r * REC_N + REC_WRITE] != all[REC_WRITE])
            return RMP_ERR_ARG;
    }
    return RMP_SUCCESS;
}

int io_coll_access(rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                   const io_hints_t *hints)
{
    coll_plan_t p = {.comm = comm, .fd = fd, .is_write = is_write != 0, .me_agg = -1};
    int rc = rmp_comm_rank(comm, &p.rank);
    if (!rc)
        rc = rmp_comm_size(comm, &p.size);
    if (rc)
        return rc;
    int64_t rec[REC_N];
    my_record(rec, check_runs(fd, runs, n), fd, runs, n, is_write, hints);
    int64_t *all = malloc((size_t)p.size * REC_N * sizeof(int64_t));
    /* A rank that cannot go on says so in a collective every rank makes (io_agree: the
     * lowest code wins), never by leaving the others waiting in the next one. */
    if (!all)
        return io_agree(comm, RMP_ERR_NO_MEM);
    rc = io_agree(comm, RMP_SUCCESS);
    if (!rc)
        rc = rmp_allgather(rec, REC_N, RMP_INT64, all, REC_N, RMP_INT64, comm);
    if (!rc)
        rc = records_status(all, p.size);
    if (rc) {
        free(all);
        return rc;
    }
    int indep = 0;
    int st = io_agree(comm, coll_plan_make(&p, all, &indep));
    free(all);
    if (st == RMP_SUCCESS && indep)
        st = coll_fs_independent(fd, runs, n, p.is_write);
    else if (st == RMP_SUCCESS)
        st = coll_exchange(&p, runs, n);
    coll_plan_free(&p);
    return io_agree(comm, st);
}
