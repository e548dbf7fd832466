/* inter.c — intercommunicators: rmp_intercomm_create, rmp_intercomm_merge, the queries, and
 * dup/split/create on an intercommunicator (dispatched here from comm_ops.c and group.c).
 *
 * The shape (core.h, inter.h): the intercommunicator's size/world are the remote group, so
 * point-to-point needs nothing new; its bridge, a hidden intracommunicator over both groups
 * (the group whose rank 0 has the lower world rank first), owns the context pair both share
 * and carries every collective step. Creation agrees on that pair as comm_ops.c does for an
 * intracommunicator (an allreduce of free masks over local_comm), the two leaders exchanging
 * their groups' reduced masks over peer_comm in each round, so the pair is free on every
 * member of both groups. Everything later (dup, split, merge) agrees over the bridge. */
#include <stdlib.h>
#include <string.h>

#include "inter.h"

int inter_get(rmp_comm_t h, inter_t *it)
{
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(h);
    if (c && c->lworld) {
        comm_t *br = &rmp_ctx.comms[c->bridge];
        *it = (inter_t){.ic = c, .br = br, .lsize = c->lsize, .rsize = c->size,
                        .rank = c->rank, .lo = c->lfirst ? 0 : c->size,
                        .ro = c->lfirst ? c->lsize : 0};
    }
    ctx_unlock(&rmp_ctx);
    return c && c->lworld ? RMP_SUCCESS : RMP_ERR_COMM;
}

int inter_build(const int *lw, int ln, int me, const int *rw, int rn, bool lfirst,
                       uint32_t id, rmp_comm_t *out)
{
    int *all = malloc(sizeof(int) * (size_t)(ln + rn)), *lcopy = malloc(sizeof(int) * (size_t)ln);
    rmp_comm_t br = RMP_COMM_NULL, ic = RMP_COMM_NULL;
    int err = all && lcopy ? RMP_SUCCESS : RMP_ERR_NO_MEM;
    if (!err) {
        memcpy(all + (lfirst ? 0 : rn), lw, sizeof(int) * (size_t)ln);
        memcpy(all + (lfirst ? ln : 0), rw, sizeof(int) * (size_t)rn);
        memcpy(lcopy, lw, sizeof(int) * (size_t)ln);
        err = comm_create(all, ln + rn, (lfirst ? 0 : rn) + me, id, &br);
    }
    if (!err)
        err = comm_create(rw, rn, me, id, &ic);
    free(all);
    ctx_lock(&rmp_ctx);
    if (!err) {
        comm_t *c = &rmp_ctx.comms[ic];
        c->lsize = ln;
        c->lworld = lcopy;
        c->bridge = br;
        c->lfirst = lfirst;
        *out = ic;
    } else {
        free(lcopy);
        if (br != RMP_COMM_NULL)
            comm_release_locked(&rmp_ctx.comms[br]);
    }
    ctx_unlock(&rmp_ctx);
    if (err)
        ctx_release(id);
    return err;
}

/* ---- rmp_intercomm_create ---- */

typedef struct leaders {
    rmp_comm_t local, peer;
    int leader, remote, tag; /* local leader (rank in local), remote leader (rank in peer) */
    bool am_leader;
    uint32_t key[2], rkey[2]; /* the context id agreement's key of my group, of the other */
} leaders_t;

/* ctx_combine_t for creation: the leaders swap their groups' masks over peer_comm, AND them,
 * and hand the result to their groups. */
static int leaders_combine(void *arg, uint32_t *buf, int n)
{
    const leaders_t *L = arg;
    int err = RMP_SUCCESS;
    if (L->am_leader) {
        uint32_t *theirs = malloc(sizeof(uint32_t) * (size_t)n);
        if (!theirs)
            return RMP_ERR_NO_MEM; /* (the remote leader then waits: out of memory is fatal) */
        err = rmp_sendrecv(buf, n, RMP_UINT32, L->remote, L->tag, theirs, n, RMP_UINT32,
                           L->remote, L->tag, L->peer, RMP_STATUS_IGNORE);
        for (int i = 0; !err && i < n; i++)
            buf[i] &= theirs[i];
        free(theirs);
    }
    int e2 = comm_coll.bcast(buf, n, RMP_UINT32, L->leader, L->local);
    return err ? err : e2;
}

static int world_min(const int *world, int n)
{
    int m = world[0];
    for (int i = 1; i < n; i++)
        m = world[i] < m ? world[i] : m;
    return m;
}

/* At the leader: the checks only it can make, then the exchange of the groups' world ranks
 * and agreement keys. *rw gets the remote group (malloc'd), *rn its size. */
static int leader_exchange(leaders_t *L, const comm_t *lc, int **rw, int *rn)
{
    int psize, err;
    rmp_status_t st;
    ctx_lock(&rmp_ctx);
    comm_t *pc = comm_get(L->peer);
    int pworld = pc && L->remote >= 0 && L->remote < pc->size ? pc->world[L->remote] : -1;
    psize = pc ? pc->size : 0;
    ctx_unlock(&rmp_ctx);
    if (!pc)
        return RMP_ERR_COMM;
    if (L->remote < 0 || L->remote >= psize || comm_rank_of_world(lc, pworld) >= 0)
        return RMP_ERR_RANK; /* out of peer_comm, or a member of my own group */
    if (L->tag < 0 || L->tag > RMP_TAG_UB)
        return RMP_ERR_TAG;
    int n = lc->size;
    err = rmp_sendrecv(&n, 1, RMP_INT32, L->remote, L->tag, rn, 1, RMP_INT32, L->remote, L->tag,
                       L->peer, &st);
    if (!err)
        err = rmp_sendrecv(L->key, 2, RMP_UINT32, L->remote, L->tag, L->rkey, 2, RMP_UINT32,
                           L->remote, L->tag, L->peer, &st);
    if (err)
        return err;
    if (*rn <= 0)
        return RMP_ERR_INTERNAL;
    *rw = malloc(sizeof(int) * (size_t)*rn);
    if (!*rw)
        return RMP_ERR_NO_MEM;
    err = rmp_sendrecv(lc->world, n, RMP_INT32, L->remote, L->tag, *rw, *rn, RMP_INT32,
                       L->remote, L->tag, L->peer, &st);
    for (int i = 0; !err && i < *rn; i++) /* the groups must be disjoint */
        if (comm_rank_of_world(lc, (*rw)[i]) >= 0)
            err = RMP_ERR_RANK;
    return err;
}

int rmp_intercomm_create(rmp_comm_t local_comm, int local_leader, rmp_comm_t peer_comm,
                         int remote_leader, int tag, rmp_comm_t *newintercomm)
{
    intra_t cl;
    int err = comm_intra(local_comm, &cl); /* an intracommunicator (RMP_ERR_COMM otherwise) */
    if (!err && !newintercomm)
        err = RMP_ERR_ARG;
    if (!err && (local_leader < 0 || local_leader >= cl.size))
        err = RMP_ERR_RANK;
    if (err)
        return err;
    leaders_t L = {.local = local_comm, .peer = peer_comm, .leader = local_leader,
                   .remote = remote_leader, .tag = tag, .am_leader = cl.rank == local_leader};
    ctx_lock(&rmp_ctx);
    L.key[0] = cl.comm->ctx_id; /* what dup would rank by: the same on my group's members */
    L.key[1] = cl.comm->coll_seq;
    ctx_unlock(&rmp_ctx);
    uint32_t hdr[4] = {RMP_SUCCESS, 0, 0, 0}; /* outcome, remote size, remote key */
    int *rw = NULL;
    if (L.am_leader) {
        int rn = 0;
        hdr[0] = (uint32_t)leader_exchange(&L, cl.comm, &rw, &rn);
        hdr[1] = (uint32_t)rn;
        memcpy(&hdr[2], L.rkey, sizeof L.rkey);
        if (hdr[0]) {
            free(rw);
            rw = NULL;
        }
    }
    /* every member learns the outcome, the remote group and its key from its leader */
    err = comm_coll.bcast(hdr, 4, RMP_UINT32, local_leader, local_comm);
    int rn = (int)hdr[1];
    if (!err && !(err = (int)hdr[0]) && !L.am_leader && !(rw = malloc(sizeof(int) * (size_t)rn)))
        err = RMP_ERR_NO_MEM; /* (the others then wait in the bcast: out of memory is fatal) */
    if (!err)
        err = comm_coll.bcast(rw, rn, RMP_INT32, local_leader, local_comm);
    /* both groups rank the creation by the lower of their keys (ctxid.c says why); equal
     * keys (disjoint groups may share them) go to the group with the lower world rank */
    int lmin = !err ? world_min(cl.comm->world, cl.size) : 0;
    int rmin = !err ? world_min(rw, rn) : 0;
    bool mine = L.key[0] != hdr[2]   ? L.key[0] < hdr[2]
                : L.key[1] != hdr[3] ? L.key[1] < hdr[3]
                                     : lmin < rmin;
    ctx_waiter_t key = {.parent = mine ? L.key[0] : hdr[2],
                        .sub = CTX_SUB_INTER | (mine ? L.key[1] : hdr[3]),
                        .who = (uint32_t)(mine ? lmin : rmin)};
    uint32_t id;
    if (!err)
        err = comm_agree_ctx_keyed(local_comm, &key, leaders_combine, &L, &id);
    if (!err) {
        bool lfirst = cl.comm->world[0] < rw[0];
        err = inter_build(cl.comm->world, cl.size, cl.rank, rw, rn, lfirst, id, newintercomm);
    }
    free(rw);
    return err;
}

/* ---- queries ---- */

int rmp_comm_test_inter(rmp_comm_t comm, int *flag)
{
    int err = ctx_check();
    if (err)
        return err;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    if (!flag)
        return RMP_ERR_ARG;
    *flag = c->lworld != NULL;
    return RMP_SUCCESS;
}

int rmp_comm_remote_size(rmp_comm_t comm, int *size)
{
    inter_t it = {0};
    int err = inter_get(comm, &it);
    if (!err && !size)
        err = RMP_ERR_ARG;
    if (!err)
        *size = it.rsize;
    return err;
}

/* The remote group through the public calls (groups are group.c's): the world group's ranks
 * in the remote group's order. */
int rmp_comm_remote_group(rmp_comm_t comm, rmp_group_t *group)
{
    inter_t it = {0};
    int err = inter_get(comm, &it);
    if (!err && !group)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int *rw = malloc(sizeof(int) * (size_t)it.rsize);
    if (!rw)
        return RMP_ERR_NO_MEM;
    ctx_lock(&rmp_ctx);
    memcpy(rw, it.ic->world, sizeof(int) * (size_t)it.rsize);
    ctx_unlock(&rmp_ctx);
    rmp_group_t wg;
    err = rmp_comm_group(RMP_COMM_WORLD, &wg);
    if (!err) {
        err = rmp_group_incl(wg, it.rsize, rw, group);
        rmp_group_free(&wg);
    }
    free(rw);
    return err;
}

/* ---- merge ---- */

int rmp_intercomm_merge(rmp_comm_t intercomm, int high, rmp_comm_t *newintracomm)
{
    inter_t it = {0};
    int err = inter_get(intercomm, &it);
    if (!err && !newintracomm)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int n = it.lsize + it.rsize, mine = high != 0, *hi = malloc(sizeof(int) * (size_t)n);
    int *w = malloc(sizeof(int) * (size_t)n);
    uint32_t id;
    if (!hi || !w)
        err = RMP_ERR_NO_MEM;
    /* both groups learn each other's `high` (the leaders' values decide) */
    if (!err)
        err = comm_coll.allgather(&mine, 1, RMP_INT32, hi, 1, RMP_INT32, it.ic->bridge);
    if (!err)
        err = comm_agree_ctx(it.ic->bridge, NULL, NULL, &id);
    if (!err) {
        bool lhigh = hi[it.lo] != 0, rhigh = hi[it.ro] != 0;
        bool lfirst = lhigh == rhigh ? it.ic->lfirst : !lhigh; /* the low group first */
        ctx_lock(&rmp_ctx);
        memcpy(w + (lfirst ? 0 : it.rsize), it.ic->lworld, sizeof(int) * (size_t)it.lsize);
        memcpy(w + (lfirst ? it.lsize : 0), it.ic->world, sizeof(int) * (size_t)it.rsize);
        ctx_unlock(&rmp_ctx);
        if ((err = comm_create(w, n, (lfirst ? 0 : it.rsize) + it.rank, id, newintracomm)))
            ctx_release(id);
    }
    free(hi);
    free(w);
    return err;
}

/* ---- dup, split and create on an intercommunicator ---- */

int inter_build_copy(const inter_t *it, uint32_t id, rmp_comm_t *out)
{
    int *lw = malloc(sizeof(int) * (size_t)it->lsize),
        *rw = malloc(sizeof(int) * (size_t)it->rsize);
    if (!lw || !rw) {
        free(lw);
        free(rw);
        ctx_release(id);
        return RMP_ERR_NO_MEM;
    }
    ctx_lock(&rmp_ctx);
    memcpy(lw, it->ic->lworld, sizeof(int) * (size_t)it->lsize);
    memcpy(rw, it->ic->world, sizeof(int) * (size_t)it->rsize);
    bool lfirst = it->ic->lfirst;
    ctx_unlock(&rmp_ctx);
    int err = inter_build(lw, it->lsize, it->rank, rw, it->rsize, lfirst, id, out);
    free(lw);
    free(rw);
    return err;
}

int inter_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm)
{
    inter_t it = {0};
    int err = inter_get(comm, &it);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    uint32_t id;
    if (!err)
        err = comm_agree_ctx(it.ic->bridge, NULL, NULL, &id);
    if (!err)
        err = inter_build_copy(&it, id, newcomm);
    return err;
}

typedef struct ck {
    int key, rank;
} ck_t;

static int ck_cmp(const void *pa, const void *pb)
{
    const ck_t *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The members of colour `color` among n (colour, key) pairs at ck (bridge order, from base),
 * ordered by key then old rank, as world ranks of the group `gw`: count returned, *me my
 * position if `my` (my old rank) is among them. */
static int pick(const int *ck, int base, int n, int color, const int *gw, int my, int *out,
                int *me, ck_t *tmp)
{
    int k = 0;
    for (int r = 0; r < n; r++)
        if (ck[2 * (base + r)] == color)
            tmp[k++] = (ck_t){.key = ck[2 * (base + r) + 1], .rank = r};
    qsort(tmp, (size_t)k, sizeof(*tmp), ck_cmp);
    for (int i = 0; i < k; i++) {
        out[i] = gw[tmp[i].rank];
        if (tmp[i].rank == my)
            *me = i;
    }
    return k;
}

int inter_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm)
{
    inter_t it = {0};
    int err = inter_get(comm, &it);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err && color < 0 && color != RMP_UNDEFINED)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int n = it.lsize + it.rsize, mine[2] = {color, key};
    int *ck = malloc(sizeof(int) * 2 * (size_t)n), *lw = malloc(sizeof(int) * (size_t)n);
    int *rw = malloc(sizeof(int) * (size_t)n), *gl = malloc(sizeof(int) * (size_t)n);
    ck_t *tmp = malloc(sizeof(ck_t) * (size_t)n);
    uint32_t id;
    bool have_id = false;
    if (!ck || !lw || !rw || !gl || !tmp)
        err = RMP_ERR_NO_MEM;
    if (!err)
        have_id = !(err = comm_agree_ctx(it.ic->bridge, NULL, NULL, &id));
    if (!err)
        err = comm_coll.allgather(mine, 2, RMP_INT32, ck, 2, RMP_INT32, it.ic->bridge);
    int ln = 0, rn = 0, me = 0;
    bool lfirst = false;
    if (!err && color != RMP_UNDEFINED) {
        ctx_lock(&rmp_ctx);
        memcpy(gl, it.ic->lworld, sizeof(int) * (size_t)it.lsize);
        memcpy(gl + it.lsize, it.ic->world, sizeof(int) * (size_t)it.rsize);
        lfirst = it.ic->lfirst;
        ctx_unlock(&rmp_ctx);
        ln = pick(ck, it.lo, it.lsize, color, gl, it.rank, lw, &me, tmp);
        rn = pick(ck, it.ro, it.rsize, color, gl + it.lsize, -1, rw, &me, tmp);
    }
    bool used = false;
    if (!err) {
        *newcomm = RMP_COMM_NULL;
        if (ln > 0 && rn > 0) { /* an empty side: no intercommunicator (MPI-3.1 6.4.2) */
            err = inter_build(lw, ln, me, rw, rn, lfirst, id, newcomm);
            used = true; /* inter_build gave the pair back if it failed */
        }
    }
    if (have_id && !used) /* each colour's communicator has the same pair: disjoint members */
        ctx_release(id);
    free(ck);
    free(lw);
    free(rw);
    free(gl);
    free(tmp);
    return err;
}

/* MPI-2.2's form: each group passes a subgroup of its own (local) group; the members of those
 * two subgroups form the new intercommunicator, RMP_COMM_NULL elsewhere (and everywhere when
 * a side is empty). A split whose colour is membership and whose key the group rank. */
int inter_comm_create(rmp_comm_t comm, rmp_group_t group, rmp_comm_t *newcomm)
{
    inter_t it = {0};
    int err = inter_get(comm, &it);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int gn, pos;
    if ((err = rmp_group_size(group, &gn)) || (err = rmp_group_rank(group, &pos)))
        return err;
    /* a subset of the local group: every member found there */
    rmp_group_t lg;
    int *ranks = malloc(sizeof(int) * (size_t)(gn ? gn : 1) * 2);
    if (!ranks)
        return RMP_ERR_NO_MEM;
    err = rmp_comm_group(comm, &lg);
    if (!err) {
        for (int i = 0; i < gn; i++)
            ranks[i] = i;
        err = rmp_group_translate_ranks(group, gn, ranks, lg, ranks + gn);
        for (int i = 0; !err && i < gn; i++)
            if (ranks[gn + i] == RMP_UNDEFINED)
                err = RMP_ERR_GROUP;
        rmp_group_free(&lg);
    }
    free(ranks);
    if (err)
        return err;
    return inter_comm_split(comm, pos == RMP_UNDEFINED ? RMP_UNDEFINED : 0, pos, newcomm);
}
