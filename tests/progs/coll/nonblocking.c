/* nonblocking.c — coll's nonblocking collectives: many in flight on every communicator
 * at once, interleaved, then checked. */
#include "coll.h"

/* ---- nonblocking: many collectives in flight on every communicator at once, interleaved
 * with point-to-point traffic on COMM_WORLD, completed in a scrambled order -------------- */
enum { NB_BAR, NB_ALLRED, NB_BIG, NB_BCAST, NB_AG, NB_A2A, NB_RS, NB_RED, NB_GATHER, NB_SCAT, NB_N };
#define NB_BIGN 30000 /* above every eager limit: rendezvous inside a schedule */

typedef struct nb_bufs {
    int32_t *in, *out, *big_in, *big_out, *bc, *ag_out, *a2a_in, *a2a_out, *rs_out, *red_out;
    int32_t *ga_out, *sc_in, sc_out, *rs_in, *ag_in;
} nb_bufs_t;

static int32_t *nb_vec(size_t n, int who)
{
    int32_t *v = xmalloc(n * sizeof(int32_t));
    fill(&t_int32, v, n, who, RMP_SUM);
    return v;
}

/* Post the NB_N collectives of one communicator (identical order on every rank). */
static void nb_post(const tcomm_t *c, nb_bufs_t *b, rmp_request_t *r, int root)
{
    int n = c->size, me = c->rank;
    what_t w = {"nonblocking-post", &t_int32, RMP_SUM, 0, root, me, 0};
    b->in = nb_vec(5, me);
    b->out = xmalloc(5 * sizeof(int32_t));
    b->big_in = nb_vec(NB_BIGN, me);
    b->big_out = xmalloc(NB_BIGN * sizeof(int32_t));
    b->bc = me == root ? nb_vec(9, root) : nb_vec(9, 1000 + me);
    b->ag_out = xmalloc(3 * sizeof(int32_t) * (size_t)n);
    b->a2a_in = xmalloc(2 * sizeof(int32_t) * (size_t)n);
    for (int j = 0; j < n; j++)
        fill(&t_int32, b->a2a_in + 2 * j, 2, me * 4096 + j, 0);
    b->a2a_out = xmalloc(2 * sizeof(int32_t) * (size_t)n);
    b->rs_out = xmalloc(4 * sizeof(int32_t));
    b->red_out = xmalloc(5 * sizeof(int32_t));
    b->ga_out = xmalloc(sizeof(int32_t) * (size_t)n);
    b->sc_in = nb_vec((size_t)n, root);
    b->rs_in = nb_vec(4 * (size_t)n, me);
    b->ag_in = nb_vec(3, me);
    expect_rc(&w, rmp_ibarrier(c->comm, &r[NB_BAR]));
    expect_rc(&w, rmp_iallreduce(b->in, b->out, 5, RMP_INT32, RMP_SUM, c->comm, &r[NB_ALLRED]));
    expect_rc(&w, rmp_iallreduce(b->big_in, b->big_out, NB_BIGN, RMP_INT32, RMP_SUM, c->comm,
                                 &r[NB_BIG]));
    expect_rc(&w, rmp_ibcast(b->bc, 9, RMP_INT32, root, c->comm, &r[NB_BCAST]));
    expect_rc(&w, rmp_iallgather(b->ag_in, 3, RMP_INT32, b->ag_out, 3, RMP_INT32, c->comm, &r[NB_AG]));
    expect_rc(&w, rmp_ialltoall(b->a2a_in, 2, RMP_INT32, b->a2a_out, 2, RMP_INT32, c->comm,
                                &r[NB_A2A]));
    expect_rc(&w, rmp_ireduce_scatter_block(b->rs_in, b->rs_out, 4, RMP_INT32, RMP_SUM, c->comm,
                                            &r[NB_RS]));
    expect_rc(&w, rmp_ireduce(b->in, b->red_out, 5, RMP_INT32, RMP_SUM, root, c->comm, &r[NB_RED]));
    expect_rc(&w, rmp_igather(&b->in[0], 1, RMP_INT32, b->ga_out, 1, RMP_INT32, root, c->comm,
                              &r[NB_GATHER]));
    expect_rc(&w, rmp_iscatter(b->sc_in, 1, RMP_INT32, &b->sc_out, 1, RMP_INT32, root, c->comm,
                               &r[NB_SCAT]));
}

static void nb_check(const tcomm_t *c, nb_bufs_t *b, int root)
{
    int n = c->size, me = c->rank;
    int32_t *want = xmalloc(sizeof(int32_t) * (size_t)(4 * n > NB_BIGN ? 4 * n : NB_BIGN));
    int32_t *tmp = xmalloc(sizeof(int32_t) * (size_t)(4 * n > NB_BIGN ? 4 * n : NB_BIGN));
    what_t w = {"nonblocking", &t_int32, RMP_SUM, 5, -1, me, 0};
    reference(&t_int32, RMP_SUM, n, 5, want, tmp);
    expect(&w, b->out, 0, want, 5);
    if (me == root) {
        w.coll = "nonblocking-reduce";
        expect(&w, b->red_out, 0, want, 5);
    }
    w.coll = "nonblocking-big";
    reference(&t_int32, RMP_SUM, n, NB_BIGN, want, tmp);
    expect(&w, b->big_out, 0, want, NB_BIGN);
    w.coll = "nonblocking-bcast";
    fill(&t_int32, want, 9, root, RMP_SUM);
    expect(&w, b->bc, 0, want, 9);
    w.coll = "nonblocking-allgather";
    for (int j = 0; j < n; j++) {
        fill(&t_int32, want, 3, j, RMP_SUM);
        expect(&w, b->ag_out, 3 * (size_t)j, want, 3);
    }
    w.coll = "nonblocking-alltoall";
    for (int j = 0; j < n; j++) {
        fill(&t_int32, want, 2, j * 4096 + me, 0);
        expect(&w, b->a2a_out, 2 * (size_t)j, want, 2);
    }
    w.coll = "nonblocking-reduce_scatter";
    reference(&t_int32, RMP_SUM, n, 4 * (size_t)n, want, tmp);
    expect(&w, b->rs_out, 0, want + 4 * me, 4);
    if (me == root) {
        w.coll = "nonblocking-gather";
        for (int j = 0; j < n; j++) {
            fill(&t_int32, want, 5, j, RMP_SUM);
            expect(&w, b->ga_out, (size_t)j, want, 1);
        }
    }
    w.coll = "nonblocking-scatter";
    fill(&t_int32, want, (size_t)n, root, RMP_SUM);
    expect(&w, &b->sc_out, 0, want + me, 1);
    free(want);
    free(tmp);
    free(b->in);
    free(b->out);
    free(b->big_in);
    free(b->big_out);
    free(b->bc);
    free(b->ag_out);
    free(b->a2a_in);
    free(b->a2a_out);
    free(b->rs_out);
    free(b->red_out);
    free(b->ga_out);
    free(b->sc_in);
    free(b->rs_in);
    free(b->ag_in);
}

void run_nonblocking(const tcomm_t *cs, int ncomms)
{
    enum { ROUNDS = 6, PP = 2000 };
    int me = g.wrank, n = g.wsize;
    /* run_separation's wildcard receive must not see this section's messages */
    rmp_barrier(RMP_COMM_WORLD);
    for (int round = 0; round < ROUNDS; round++) {
        g.salt = ((uint64_t)99 << 40) + (uint64_t)round; /* the same on every rank: all comms */
        nb_bufs_t b[3];
        rmp_request_t r[3][NB_N], p2p[2];
        int32_t *pin = nb_vec(PP, me), *pout = xmalloc(PP * sizeof(int32_t));
        what_t w = {"nonblocking-p2p", &t_int32, 0, PP, -1, me, 0};
        /* user p2p on WORLD posted before, between and after the collectives */
        expect_rc(&w, rmp_irecv(pout, PP, RMP_INT32, (me - 1 + n) % n, round, RMP_COMM_WORLD,
                                &p2p[0]));
        for (int i = 0; i < ncomms; i++) {
            nb_post(&cs[i], &b[i], r[i], (round + i) % cs[i].size);
            if (i == 0)
                expect_rc(&w, rmp_isend(pin, PP, RMP_INT32, (me + 1) % n, round, RMP_COMM_WORLD,
                                        &p2p[1]));
        }
        /* complete: test-poll some, waitany over a mix, then waitall in reverse */
        int flag = 0;
        for (int k = 0; k < 100 && !flag; k++)
            expect_rc(&w, rmp_test(&r[ncomms - 1][NB_BAR], &flag, RMP_STATUS_IGNORE));
        rmp_request_t mix[4] = {r[0][NB_A2A], p2p[0], r[ncomms - 1][NB_BIG], p2p[1]};
        int idx;
        expect_rc(&w, rmp_waitany(4, mix, &idx, RMP_STATUS_IGNORE));
        expect_rc(&w, rmp_waitall(4, mix, RMP_STATUSES_IGNORE));
        r[0][NB_A2A] = r[ncomms - 1][NB_BIG] = RMP_REQUEST_NULL;
        for (int i = ncomms - 1; i >= 0; i--) {
            rmp_request_t rev[NB_N];
            for (int k = 0; k < NB_N; k++)
                rev[k] = r[i][NB_N - 1 - k];
            w.coll = "nonblocking-waitall";
            expect_rc(&w, rmp_waitall(NB_N, rev, RMP_STATUSES_IGNORE));
        }
        w.coll = "nonblocking-p2p";
        fill(&t_int32, pin, PP, (me - 1 + n) % n, RMP_SUM);
        expect(&w, pout, 0, pin, PP);
        for (int i = 0; i < ncomms; i++) {
            g.salt = ((uint64_t)99 << 40) + (uint64_t)round;
            nb_check(&cs[i], &b[i], (round + i) % cs[i].size);
        }
        free(pin);
        free(pout);
    }
}
