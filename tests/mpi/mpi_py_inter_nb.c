/* mpi_py_inter_nb.c — the nonblocking collectives on an intercommunicator as mpi4py's
 * test_cco_nb_buf/test_cco_buf_inter run them (n >= 2: the world split in halves, each
 * collective rooted in each group in turn: MPI_ROOT at the root, MPI_PROC_NULL at its group's
 * other ranks, the root's rank in the other group): bcast, gather(v), scatter(v), reduce,
 * and the rooted-nowhere ones: allgather(v), alltoall(v,w), allreduce, barrier, and
 * reduce_scatter(_block) where the halves are even; each value checked. */
#include <stdbool.h>

#include "mpicheck.h"

#define MAXN 16

static MPI_Comm ic;
static int lrank, lsize, rsize;
static bool low; /* the group of world rank 0 */

static void wait(MPI_Request *q)
{
    CHECK(MPI_Wait(q, MPI_STATUS_IGNORE));
}

/* Rooted collectives, the root being rank 0 of group `rooted` (true: low). */
static void rooted(bool rooted_low)
{
    bool mine = low == rooted_low; /* my group holds the root */
    int root = mine ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
    bool is_root = root == MPI_ROOT, leaf = !mine;
    int buf[MAXN], out[MAXN], cnt[MAXN], dsp[MAXN];
    MPI_Request q;
    for (int i = 0; i < MAXN; i++)
        buf[i] = 100 + i, out[i] = -1, cnt[i] = 1, dsp[i] = i;
    int v = is_root ? 42 : -1;
    CHECK(MPI_Ibcast(&v, 1, MPI_INT, root, ic, &q));
    wait(&q);
    if (leaf)
        EXPECT_INT(v, 42);
    int me = 1000 + lrank;
    CHECK(MPI_Igather(&me, 1, MPI_INT, out, 1, MPI_INT, root, ic, &q));
    wait(&q);
    for (int i = 0; is_root && i < rsize; i++)
        EXPECT_INT(out[i], 1000 + i);
    CHECK(MPI_Igatherv(&me, 1, MPI_INT, out, cnt, dsp, MPI_INT, root, ic, &q));
    wait(&q);
    for (int i = 0; is_root && i < rsize; i++)
        EXPECT_INT(out[i], 1000 + i);
    v = -1;
    CHECK(MPI_Iscatter(buf, 1, MPI_INT, &v, 1, MPI_INT, root, ic, &q));
    wait(&q);
    if (leaf)
        EXPECT_INT(v, 100 + lrank);
    v = -1;
    CHECK(MPI_Iscatterv(buf, cnt, dsp, MPI_INT, &v, 1, MPI_INT, root, ic, &q));
    wait(&q);
    if (leaf)
        EXPECT_INT(v, 100 + lrank);
    int sum = -1;
    CHECK(MPI_Ireduce(&me, &sum, 1, MPI_INT, MPI_SUM, root, ic, &q));
    wait(&q);
    if (is_root)
        EXPECT_INT(sum, 1000 * rsize + rsize * (rsize - 1) / 2);
}

/* The others: every rank gets the remote group's contributions. */
static void everywhere(void)
{
    int me = 1000 + lrank, out[MAXN], cnt[MAXN], dsp[MAXN], snd[MAXN];
    int sz[MAXN], bd[MAXN];
    MPI_Datatype ty[MAXN];
    MPI_Request q;
    for (int i = 0; i < MAXN; i++) {
        cnt[i] = 1, dsp[i] = i, out[i] = -1, snd[i] = 10 * lrank + i;
        sz[i] = 1, bd[i] = i * (int)sizeof(int), ty[i] = MPI_INT;
    }
    CHECK(MPI_Iallgather(&me, 1, MPI_INT, out, 1, MPI_INT, ic, &q));
    wait(&q);
    for (int i = 0; i < rsize; i++)
        EXPECT_INT(out[i], 1000 + i);
    CHECK(MPI_Iallgatherv(&me, 1, MPI_INT, out, cnt, dsp, MPI_INT, ic, &q));
    wait(&q);
    for (int i = 0; i < rsize; i++)
        EXPECT_INT(out[i], 1000 + i);
    /* alltoall: to remote rank i goes 10*me + i; from remote rank i comes 10*i + me */
    CHECK(MPI_Ialltoall(snd, 1, MPI_INT, out, 1, MPI_INT, ic, &q));
    wait(&q);
    for (int i = 0; i < rsize; i++)
        EXPECT_INT(out[i], 10 * i + lrank);
    for (int i = 0; i < MAXN; i++)
        out[i] = -1;
    CHECK(MPI_Ialltoallv(snd, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, ic, &q));
    wait(&q);
    for (int i = 0; i < rsize; i++)
        EXPECT_INT(out[i], 10 * i + lrank);
    for (int i = 0; i < MAXN; i++)
        out[i] = -1;
    CHECK(MPI_Ialltoallw(snd, sz, bd, ty, out, sz, bd, ty, ic, &q));
    wait(&q);
    for (int i = 0; i < rsize; i++)
        EXPECT_INT(out[i], 10 * i + lrank);
    int sum = -1, rsum = 1000 * rsize + rsize * (rsize - 1) / 2;
    CHECK(MPI_Iallreduce(&me, &sum, 1, MPI_INT, MPI_SUM, ic, &q));
    wait(&q);
    EXPECT_INT(sum, rsum);
    CHECK(MPI_Ibarrier(ic, &q));
    wait(&q);
    if (lsize != rsize) /* halves of different sizes: MPICH, Open MPI and rmp each read the */
        return;         /* counts otherwise than this layout; the even split is unambiguous */
    /* reduce_scatter_block: each of my ranks gets one int of the remote group's sum,
     * indexed by my rank */
    int rs[MAXN];
    for (int i = 0; i < MAXN; i++)
        rs[i] = 1000 + lrank + i;
    int got = -1;
    CHECK(MPI_Ireduce_scatter_block(rs, &got, 1, MPI_INT, MPI_SUM, ic, &q));
    wait(&q);
    EXPECT_INT(got, 1000 * rsize + rsize * (rsize - 1) / 2 + rsize * lrank);
    got = -1;
    CHECK(MPI_Ireduce_scatter(rs, &got, cnt, MPI_INT, MPI_SUM, ic, &q));
    wait(&q);
    EXPECT_INT(got, 1000 * rsize + rsize * (rsize - 1) / 2 + rsize * lrank);
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2 && size <= MAXN) {
        low = mc_rank < size / 2;
        MPI_Comm half;
        CHECK(MPI_Comm_split(MPI_COMM_WORLD, low, 0, &half));
        CHECK(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7, &ic));
        CHECK(MPI_Comm_free(&half));
        MPI_Comm_rank(ic, &lrank);
        MPI_Comm_size(ic, &lsize);
        MPI_Comm_remote_size(ic, &rsize);
        rooted(true);
        rooted(false);
        everywhere();
        CHECK(MPI_Comm_free(&ic));
    }
    MPI_Finalize();
    return mc_done("mpi_py_inter_nb");
}
