/* comm_ops.c — communicator construction (dup, split) and rmp_comm_free. A new communicator
 * needs a context id free on every member: the members agree on the maximum of their
 * next_ctx_id by an allreduce over the parent. Ids come in pairs (p2p, collective). */
#include <stdlib.h>

#include "coll.h"

/* Collective over `parent`. Concurrent dup/split on different communicators from several
 * threads of one process could pick the same id: not supported yet. */
static int agree_ctx_id(rmp_comm_t parent, uint32_t *id)
{
    ctx_lock(&rmp_ctx);
    uint32_t mine = rmp_ctx.next_ctx_id;
    ctx_unlock(&rmp_ctx);
    int err = rmp_allreduce(&mine, id, 1, RMP_UINT32, RMP_MAX, parent);
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    if (rmp_ctx.next_ctx_id < *id + 2)
        rmp_ctx.next_ctx_id = *id + 2;
    ctx_unlock(&rmp_ctx);
    return RMP_SUCCESS;
}

int rmp_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm)
{
    coll_t cl;
    uint32_t id;
    int err = coll_comm(comm, &cl);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = agree_ctx_id(comm, &id);
    if (!err)
        err = comm_create(cl.comm->world, cl.size, cl.rank, id, newcomm);
    return err;
}

typedef struct split_member {
    int key, rank; /* rank in the parent */
} split_member_t;

static int split_cmp(const void *pa, const void *pb)
{
    const split_member_t *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* From everyone's (color, key) pairs: the members of my color in new-rank order, as world
 * ranks; *me_p gets my position. */
static int split_members(const coll_t *cl, const int *ck, int color, int *world, int *n_p,
                         int *me_p)
{
    split_member_t *m = malloc(sizeof(*m) * (size_t)cl->size);
    if (!m)
        return RMP_ERR_NO_MEM;
    int n = 0;
    for (int r = 0; r < cl->size; r++)
        if (ck[2 * r] == color)
            m[n++] = (split_member_t){.key = ck[2 * r + 1], .rank = r};
    qsort(m, (size_t)n, sizeof(*m), split_cmp);
    for (int i = 0; i < n; i++) {
        world[i] = cl->comm->world[m[i].rank];
        if (m[i].rank == cl->rank)
            *me_p = i;
    }
    *n_p = n;
    free(m);
    return RMP_SUCCESS;
}

int rmp_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm)
{
    coll_t cl;
    uint32_t id;
    int err = coll_comm(comm, &cl);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err && color < 0 && color != RMP_UNDEFINED)
        err = RMP_ERR_ARG;
    if (err)
        return err;
    int mine[2] = {color, key}, *ck = malloc(sizeof(int) * 2 * (size_t)cl.size);
    int *world = malloc(sizeof(int) * (size_t)cl.size), n = 0, me = 0;
    if (!ck || !world)
        err = RMP_ERR_NO_MEM;
    if (!err)
        err = agree_ctx_id(comm, &id); /* RMP_UNDEFINED ranks take part too */
    if (!err)
        err = rmp_allgather(mine, 2, RMP_INT32, ck, 2, RMP_INT32, comm);
    if (!err && color != RMP_UNDEFINED)
        err = split_members(&cl, ck, color, world, &n, &me);
    if (!err) {
        *newcomm = RMP_COMM_NULL;
        if (color != RMP_UNDEFINED)
            err = comm_create(world, n, me, id, newcomm);
    }
    free(ck);
    free(world);
    return err;
}

int rmp_comm_free(rmp_comm_t *comm)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!comm)
        return RMP_ERR_ARG;
    if (*comm == RMP_COMM_WORLD || *comm == RMP_COMM_SELF)
        return RMP_ERR_COMM;
    err = comm_release(*comm); /* RMP_ERR_COMM for RMP_COMM_NULL and invalid handles */
    if (!err)
        *comm = RMP_COMM_NULL;
    return err;
}
