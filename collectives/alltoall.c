/* alltoall.c — block j of rank i's send buffer becomes block i of rank j's receive buffer.
 * bruck: ceil(log2 n) steps; in step k every rank sends, packed into one message, the blocks
 *   whose index has bit k set to rank + k. Fewest messages, but each block travels up to
 *   log2(n) times: small blocks. Local rotations before and after.
 * linear: every send and receive posted at once: the transport overlaps them (medium).
 * pairwise: in step s (1..n-1) rank r sends its block for r+s and receives the block from r-s:
 *   one message in each direction per step, nobody flooded (large blocks).
 * In place, the send side is a packed copy of the receive buffer.
 * A send block longer than the slots is cut to the slot and gives RMP_ERR_TRUNCATE to the
 * ranks that receive it (with bruck also those that forward it, i.e. all: sched.c passes the
 * error on), and to its sender for its own slot; blocks that fit arrive intact. Each rank
 * runs the whole collective (nobody hangs, the next one starts in step), and the algorithm
 * depends on the slot size only, which every rank shares. */
#include <string.h>

#include "coll.h"
#include "inter.h"

static const char *const algs[] = {"auto", "bruck", "linear", "pairwise", NULL};
enum { AUTO, BRUCK, LINEAR, PAIRWISE };
static coll_tune_t tune = {.name = "ALLTOALL", .algs = algs};
static atomic_long small = -1, large = -1;

static void alltoall_pairwise(sched_t *s, const coll_t *cl, const char *in, size_t sblk,
                              char *out, size_t rblk, bool all_at_once)
{
    int n = cl->size, me = cl->rank;
    sched_copy(s, out + (size_t)me * rblk, in + (size_t)me * sblk, sblk < rblk ? sblk : rblk);
    for (int i = 1; i < n; i++) {
        int to = (me + i) % n, from = (me - i + n) % n;
        sched_recv(s, from, out + (size_t)from * rblk, rblk);
        sched_send(s, to, in + (size_t)to * sblk, sblk);
        if (!all_at_once)
            sched_round(s);
    }
}

/* Copy the blocks whose index has bit k set between tmp (in place) and the packed buffer pk,
 * run by run (indices k..2k-1, 3k..4k-1, ...). */
static void bruck_pack(sched_t *s, int n, int k, char *tmp, char *pk, size_t blk, bool pack)
{
    size_t at = 0;
    for (int base = k; base < n; base += 2 * k) {
        size_t len = (size_t)(n - base < k ? n - base : k) * blk;
        if (pack)
            sched_copy(s, pk + at, tmp + (size_t)base * blk, len);
        else
            sched_copy(s, tmp + (size_t)base * blk, pk + at, len);
        at += len;
    }
}

/* Blocks travel in slots of blk (the receive size) bytes; my send blocks are sblk bytes, cut
 * to the slot when longer, and a shorter one leaves the rest of its slot undefined. */
static void alltoall_bruck(sched_t *s, const coll_t *cl, const char *in, size_t sblk, char *out,
                           size_t blk)
{
    int n = cl->size, me = cl->rank;
    size_t half = (size_t)(n + 1) / 2 * blk;
    char *tmp = sched_tmp(s, (size_t)n * blk), *spk = sched_tmp(s, half), *rpk = sched_tmp(s, half);
    if (!tmp || !spk || !rpk)
        return;
    /* tmp[i] = my block for rank me + i */
    if (sblk == blk) {
        sched_copy(s, tmp, in + (size_t)me * blk, (size_t)(n - me) * blk);
        sched_copy(s, tmp + (size_t)(n - me) * blk, in, (size_t)me * blk);
    } else {
        for (int i = 0; i < n; i++)
            sched_copy(s, tmp + (size_t)i * blk, in + (size_t)((me + i) % n) * sblk,
                       sblk < blk ? sblk : blk);
    }
    for (int k = 1; k < n; k <<= 1) {
        size_t cnt = 0;
        for (int i = 0; i < n; i++)
            cnt += (i & k) != 0;
        bruck_pack(s, n, k, tmp, spk, blk, true);
        sched_send(s, (me + k) % n, spk, cnt * blk);
        sched_recv(s, (me - k + n) % n, rpk, cnt * blk);
        sched_round(s);
        bruck_pack(s, n, k, tmp, rpk, blk, false);
    }
    /* now tmp[i] is the block from rank me - i */
    for (int i = 0; i < n; i++)
        sched_copy(s, out + (size_t)((me - i + n) % n) * blk, tmp + (size_t)i * blk, blk);
}

int rmp_ialltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                  int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm, rmp_request_t *req)
{
    if (comm_is_inter(comm)) /* intercommunicator: inter_coll.c */
        return inter_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               req);
    coll_t cl;
    const dtype_t *sdt = NULL, *rdt;
    size_t sblk = 0, rblk = 0;
    bool in_place = sendbuf == RMP_IN_PLACE;
    int alg, err = coll_comm(comm, &cl);
    if (!err && !req)
        err = RMP_ERR_ARG;
    if (!err && !in_place)
        err = coll_buf(sendbuf, sendcount, sendtype, cl.size, &sdt, &sblk);
    if (!err)
        err = coll_buf(recvbuf, recvcount, recvtype, cl.size, &rdt, &rblk);
    if (!err && !in_place && recvcount > 0)
        err = coll_alias(sendbuf, recvbuf, 0);
    bool trunc = sblk > rblk;
    sched_t *s;
    if (!err)
        coll_sign(&cl, CK_ALLTOALL, -1, (long long)(in_place ? rblk : sblk), RMP_OP_NULL, NULL);
    if (err || (err = coll_begin(&cl, &tune, &alg, &s)))
        return err;
    if (trunc)
        sched_truncated(s);
    int n = cl.size;
    const char *in;
    if (in_place) { /* received blocks overwrite ones still to be sent: send from a copy */
        sblk = rblk;
        in = coll_in(s, recvbuf, recvcount, n, rdt);
        if (in == recvbuf) {
            char *copy = sched_tmp(s, (size_t)n * rblk);
            if (copy)
                memcpy(copy, recvbuf, (size_t)n * rblk);
            in = copy;
        }
    } else {
        in = coll_in(s, sendbuf, sendcount, n, sdt);
    }
    char *out = coll_out(s, recvbuf, recvcount, n, rdt, false);
    if (alg == AUTO) {
        if (rblk <= (size_t)coll_threshold(&small, "ALLTOALL_SMALL", 256) && n > 2)
            alg = BRUCK;
        else if (rblk <= (size_t)coll_threshold(&large, "ALLTOALL_LARGE", 1 << 20))
            alg = LINEAR;
        else
            alg = PAIRWISE;
        coll_chose(&tune, alg);
    }
    if (in && out && (sblk > 0 || rblk > 0)) {
        if (alg == BRUCK)
            alltoall_bruck(s, &cl, in, sblk, out, rblk);
        else
            alltoall_pairwise(s, &cl, in, sblk, out, rblk, alg == LINEAR);
    }
    return sched_post(s, req);
}

int rmp_alltoall(const void *sendbuf, int sendcount, rmp_datatype_t sendtype, void *recvbuf,
                 int recvcount, rmp_datatype_t recvtype, rmp_comm_t comm)
{
    rmp_request_t r;
    return coll_block(
        rmp_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, &r), &r);
}
