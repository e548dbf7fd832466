/* io/coll_access.c — the start of a collective access (io_cop_begin, io_coll_access): one
 * allgather of what each rank asks (its range, node, hints), the same decision on every rank
 * (two-phase or each rank alone), and the exchange set up; coll_run.c runs the rest. */
#include <limits.h>
#include <stdlib.h>

#include "coll_xch.h"
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

/* The plan from every rank's record: two-phase (exchange set up) or each rank alone. */
static int plan(io_cop_t *c, rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                const io_hints_t *hints)
{
    coll_plan_t *p = &c->pl;
    int64_t rec[REC_N];
    my_record(rec, check_runs(fd, runs, n), fd, runs, n, is_write, hints);
    int64_t *all = malloc((size_t)p->size * REC_N * sizeof(int64_t));
    /* A rank that cannot go on says so in a collective every rank makes (io_agree: the
     * lowest code wins), never by leaving the others waiting in the next one. */
    int rc = io_agree(comm, all ? RMP_SUCCESS : RMP_ERR_NO_MEM);
    if (!rc)
        rc = rmp_allgather(rec, REC_N, RMP_INT64, all, REC_N, RMP_INT64, comm);
    if (!rc)
        rc = records_status(all, p->size);
    int indep = 0;
    if (!rc)
        rc = io_agree(comm, coll_plan_make(p, all, &indep));
    free(all);
    c->two_phase = !indep;
    if (!rc && c->two_phase)
        rc = xch_setup(&c->x, p, runs, n);
    return rc;
}

int io_cop_begin(rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                 const io_hints_t *hints, uint32_t seq, io_alone_fn *alone, void *alone_arg,
                 io_cop_t **cop)
{
    *cop = NULL;
    int rank, size, rc = rmp_comm_rank(comm, &rank);
    if (!rc)
        rc = rmp_comm_size(comm, &size);
    if (rc)
        return rc;
    io_cop_t *c = calloc(1, sizeof *c);
    if (c) {
        c->pl = (coll_plan_t){.comm = comm, .rank = rank, .size = size, .fd = fd,
                              .is_write = is_write != 0, .me_agg = -1};
        c->x.cm = comm_get(comm);
        c->x.tag = COLL_TAG + 2 * (int)(seq % COLL_SEQS);
        c->areqs = malloc((size_t)size * sizeof(*c->areqs));
        c->votes = malloc((size_t)size * sizeof(int));
        c->alone = alone, c->alone_arg = alone_arg, c->runs = runs, c->n = n;
    }
    rc = io_agree(comm, c && c->areqs && c->votes ? RMP_SUCCESS : RMP_ERR_NO_MEM);
    if (!rc && !alone)
        rc = plan(c, comm, fd, runs, n, is_write, hints);
    if (rc) {
        if (c)
            cop_free(c);
        return rc;
    }
    c->step = c->two_phase ? COP_ROUND : COP_ALONE;
    *cop = c;
    return RMP_SUCCESS;
}

int io_coll_access(rmp_comm_t comm, int fd, io_run_t *runs, size_t n, int is_write,
                   const io_hints_t *hints)
{
    io_cop_t *cop;
    /* the engine's own test calls it: one access at a time on comm, any seq will do */
    int rc = io_cop_begin(comm, fd, runs, n, is_write, hints, COLL_SEQS - 1, NULL, NULL, &cop);
    return rc ? rc : io_cop_wait(cop);
}
