/* errors.c — coll's argument errors: every rank passes the same bad argument, so none may
 * hang, and each gets its error code. */
#include "coll.h"

/* ---- argument errors: every rank gets the same bad argument, so none may hang ------------ */
static void expect_err(const char *call, int rc, int want)
{
    g.checks++;
    if (rc != want) {
        what_t w = {call, NULL, 0, 0, -1, g.wrank, 0};
        char gs[48], ws[48];
        snprintf(gs, sizeof(gs), "%d", rc);
        snprintf(ws, sizeof(ws), "%d", want);
        fail(&w, 0, gs, ws);
    }
}

void run_errors(const tcomm_t *c)
{
    int32_t a[4] = {0}, b[64] = {0};
    float f[2] = {0};
    rmp_comm_t cm = c->comm, nul = RMP_COMM_NULL;
    rmp_datatype_t unc;
    rmp_type_contiguous(2, RMP_INT32, &unc); /* never committed */
    expect_err("bcast-comm-null", rmp_bcast(a, 1, RMP_INT32, 0, RMP_COMM_NULL), RMP_ERR_COMM);
    expect_err("barrier-comm-bad", rmp_barrier(12345), RMP_ERR_COMM);
    expect_err("allreduce-comm-bad", rmp_allreduce(a, b, 1, RMP_INT32, RMP_SUM, 4095),
               RMP_ERR_COMM);
    expect_err("bcast-root-neg", rmp_bcast(a, 1, RMP_INT32, -1, cm), RMP_ERR_ROOT);
    expect_err("bcast-root-big", rmp_bcast(a, 1, RMP_INT32, c->size, cm), RMP_ERR_ROOT);
    expect_err("reduce-root", rmp_reduce(a, b, 1, RMP_INT32, RMP_SUM, c->size, cm), RMP_ERR_ROOT);
    expect_err("gather-root", rmp_gather(a, 1, RMP_INT32, b, 1, RMP_INT32, -3, cm), RMP_ERR_ROOT);
    expect_err("scatter-root", rmp_scatter(b, 1, RMP_INT32, a, 1, RMP_INT32, c->size, cm),
               RMP_ERR_ROOT);
    expect_err("bcast-count", rmp_bcast(a, -1, RMP_INT32, 0, cm), RMP_ERR_COUNT);
    expect_err("allreduce-count", rmp_allreduce(a, b, -2, RMP_INT32, RMP_SUM, cm), RMP_ERR_COUNT);
    expect_err("allgather-count", rmp_allgather(a, -1, RMP_INT32, b, 1, RMP_INT32, cm),
               RMP_ERR_COUNT);
    expect_err("bcast-type", rmp_bcast(a, 1, 999, 0, cm), RMP_ERR_TYPE);
    expect_err("bcast-uncommitted", rmp_bcast(a, 1, unc, 0, cm), RMP_ERR_TYPE);
    expect_err("alltoall-type", rmp_alltoall(a, 1, RMP_DATATYPE_NULL, b, 1, RMP_INT32, cm),
               RMP_ERR_TYPE);
    expect_err("allreduce-band-float", rmp_allreduce(f, f + 1, 1, RMP_FLOAT, RMP_BAND, cm),
               RMP_ERR_OP);
    expect_err("allreduce-op-null", rmp_allreduce(a, b, 1, RMP_INT32, RMP_OP_NULL, cm), RMP_ERR_OP);
    expect_err("reduce-op-bad", rmp_reduce(a, b, 1, RMP_INT32, 42, 0, cm), RMP_ERR_OP);
    expect_err("allreduce-sum-byte", rmp_allreduce(a, b, 1, RMP_BYTE, RMP_SUM, cm), RMP_ERR_OP);
    expect_err("allreduce-null-recv", rmp_allreduce(a, NULL, 1, RMP_INT32, RMP_SUM, cm),
               RMP_ERR_BUFFER);
    expect_err("bcast-null", rmp_bcast(NULL, 3, RMP_INT32, 0, cm), RMP_ERR_BUFFER);
    expect_err("bcast-in-place", rmp_bcast(RMP_IN_PLACE, 1, RMP_INT32, 0, cm), RMP_ERR_BUFFER);
    expect_err("allgather-null-send", rmp_allgather(NULL, 1, RMP_INT32, b, 1, RMP_INT32, cm),
               RMP_ERR_BUFFER);
    expect_err("comm-free-world", rmp_comm_free(&(rmp_comm_t){RMP_COMM_WORLD}), RMP_ERR_COMM);
    expect_err("comm-free-self", rmp_comm_free(&(rmp_comm_t){RMP_COMM_SELF}), RMP_ERR_COMM);
    expect_err("comm-free-null", rmp_comm_free(&nul), RMP_ERR_COMM);
    expect_err("comm-free-ptr", rmp_comm_free(NULL), RMP_ERR_ARG);
    expect_err("comm-dup-ptr", rmp_comm_dup(cm, NULL), RMP_ERR_ARG);
    expect_err("comm-dup-null", rmp_comm_dup(RMP_COMM_NULL, &nul), RMP_ERR_COMM);
    expect_err("comm-split-color", rmp_comm_split(cm, -5, 0, &nul), RMP_ERR_ARG);
    rmp_type_free(&unc);
    /* nothing was sent by the failed calls: the next collectives still line up */
    a[0] = 1;
    expect_err("allreduce-after-errors", rmp_allreduce(a, b, 1, RMP_INT32, RMP_SUM, cm), 0);
    expect_err("allreduce-after-errors-value", b[0], c->size);
}
