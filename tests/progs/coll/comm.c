/* comm.c — coll's communicators (dup, split, free) and the separation of collective
 * traffic from user point-to-point messages. */
#include "coll.h"

/* ---- communicators ----------------------------------------------------------------------- */
void expect_int(const char *what, long got, long want)
{
    char gs[32], ws[32];
    g.checks++;
    if (got != want) {
        what_t w = {what, NULL, 0, 0, -1, g.wrank, 0};
        snprintf(gs, sizeof(gs), "%ld", got);
        snprintf(ws, sizeof(ws), "%ld", want);
        fail(&w, 0, gs, ws);
    }
}

/* A quick allreduce on a new communicator: sum of (world rank + 1) over its members. */
static void comm_sum_check(const char *what, rmp_comm_t cm, long want)
{
    int64_t mine = g.wrank + 1, sum = -1;
    expect_int(what, rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, cm), 0);
    expect_int(what, (long)sum, want);
}

void run_comm(void)
{
    int me = g.wrank, n = g.wsize, r = -1, s = -1;
    rmp_comm_t dup = RMP_COMM_NULL, holes = RMP_COMM_NULL, again;
    expect_int("comm-dup", rmp_comm_dup(RMP_COMM_WORLD, &dup), 0);
    rmp_comm_rank(dup, &r);
    rmp_comm_size(dup, &s);
    expect_int("comm-dup-rank", r, me);
    expect_int("comm-dup-size", s, n);
    comm_sum_check("comm-dup-allreduce", dup, (long)n * (n + 1) / 2);
    comm_sum_check("comm-self-allreduce", RMP_COMM_SELF, me + 1);
    rmp_comm_t self = RMP_COMM_NULL;
    expect_int("comm-dup-self", rmp_comm_dup(RMP_COMM_SELF, &self), 0);
    comm_sum_check("comm-dup-self-allreduce", self, me + 1);
    expect_int("comm-free-dup-self", rmp_comm_free(&self), 0);

    /* ranks 1, 4, 7, ... stay out; the others are ordered by descending world rank */
    int color = me % 3 == 1 ? RMP_UNDEFINED : 7;
    expect_int("comm-split-holes", rmp_comm_split(dup, color, -me, &holes), 0);
    long members = 0, sum = 0, above = 0;
    for (int q = 0; q < n; q++)
        if (q % 3 != 1) {
            members++;
            sum += q + 1;
            above += q > me;
        }
    if (color == RMP_UNDEFINED) {
        expect_int("comm-split-undefined", holes, RMP_COMM_NULL);
    } else {
        rmp_comm_rank(holes, &r);
        rmp_comm_size(holes, &s);
        expect_int("comm-split-holes-rank", r, above);
        expect_int("comm-split-holes-size", s, members);
        comm_sum_check("comm-split-holes-allreduce", holes, sum);
        again = holes;
        expect_int("comm-free", rmp_comm_free(&holes), 0);
        expect_int("comm-free-sets-null", holes, RMP_COMM_NULL);
        expect_int("comm-freed-use", rmp_barrier(again), RMP_ERR_COMM);
        expect_int("comm-free-twice", rmp_comm_free(&again), RMP_ERR_COMM);
    }
    /* many short-lived communicators: context ids keep being agreed and released */
    for (int i = 0; i < 50; i++) {
        rmp_comm_t t;
        expect_int("comm-split-loop", rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &t), 0);
        rmp_comm_size(t, &s);
        expect_int("comm-split-loop-size", s, (n + 1 - me % 2) / 2);
        expect_int("comm-split-loop-free", rmp_comm_free(&t), 0);
    }
    expect_int("comm-free-dup", rmp_comm_free(&dup), 0);
}

/* User p2p traffic and collective traffic never match each other: a wildcard receive posted
 * before collectives still gets the user's message afterwards. */
void run_separation(void)
{
    if (g.wsize < 2)
        return;
    int32_t got = -1, v = 4242, x = 1, y = 0;
    rmp_request_t req = RMP_REQUEST_NULL;
    rmp_status_t st;
    if (g.wrank == 0)
        expect_int("sep-irecv",
                   rmp_irecv(&got, 1, RMP_INT32, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &req),
                   0);
    expect_int("sep-bcast", rmp_bcast(&x, 1, RMP_INT32, 1, RMP_COMM_WORLD), 0);
    expect_int("sep-allreduce", rmp_allreduce(&x, &y, 1, RMP_INT32, RMP_SUM, RMP_COMM_WORLD), 0);
    expect_int("sep-allreduce-value", y, g.wsize);
    expect_int("sep-barrier", rmp_barrier(RMP_COMM_WORLD), 0);
    if (g.wrank == 1)
        expect_int("sep-send", rmp_send(&v, 1, RMP_INT32, 0, 7, RMP_COMM_WORLD), 0);
    if (g.wrank == 0) {
        expect_int("sep-wait", rmp_wait(&req, &st), 0);
        expect_int("sep-value", got, 4242);
        expect_int("sep-tag", st.tag, 7);
        expect_int("sep-source", st.source, 1);
    }
}
