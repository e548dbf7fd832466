/* comm_ops.c — communicator construction (dup, split) and rmp_comm_free. A new communicator
 * needs a context id free on every member: the members agree on one with allreduces over the
 * parent of their masks of free ids (ctxid.c), safe when several threads create communicators
 * at once. Ids come in pairs (p2p, collective). */
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "ctxid.h"
#include "inter.h"
#include "match.h"
#include "objmeta.h"
#include "topo.h"

static int agree_ctx_id(const intra_t *cl, rmp_comm_t parent, uint32_t *id)
{
    (void)cl;
    return comm_agree_ctx(parent, NULL, NULL, id);
}

int rmp_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm)
{
    intra_t cl;
    uint32_t id;
    if (comm_is_inter(comm))
        return inter_comm_dup(comm, newcomm);
    int err = comm_intra(comm, &cl);
    if (!err && !newcomm)
        err = RMP_ERR_ARG;
    if (!err)
        err = agree_ctx_id(&cl, comm, &id);
    if (!err && (err = comm_create(cl.comm->world, cl.size, cl.rank, id, newcomm)))
        ctx_release(id);
    if (!err)
        comm_inherit_session(comm, *newcomm);
    if (!err && (err = topo_dup(cl.comm, comm_get(*newcomm)))) /* MPI: the topology too */
        rmp_comm_free(newcomm);
    if (!err && (err = objmeta_copy_info(OBJ_COMM, comm, *newcomm))) /* and the hints */
        rmp_comm_free(newcomm);
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
static int split_members(const intra_t *cl, const int *ck, int color, int *world, int *n_p,
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
    intra_t cl;
    uint32_t id;
    if (comm_is_inter(comm))
        return inter_comm_split(comm, color, key, newcomm);
    int err = comm_intra(comm, &cl);
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
    bool have_id = false;
    if (!err)
        have_id = !(err = agree_ctx_id(&cl, comm, &id)); /* RMP_UNDEFINED ranks take part too */
    if (!err)
        err = comm_coll.allgather(mine, 2, RMP_INT32, ck, 2, RMP_INT32, comm);
    if (!err && color != RMP_UNDEFINED)
        err = split_members(&cl, ck, color, world, &n, &me);
    if (!err) {
        *newcomm = RMP_COMM_NULL;
        if (color != RMP_UNDEFINED && !(err = comm_create(world, n, me, id, newcomm)))
            comm_inherit_session(comm, *newcomm);
    }
    /* each color's communicator has the same id (their members are disjoint); a rank in none
     * of them, or whose creation failed, does not use it */
    if (have_id && (err || color == RMP_UNDEFINED))
        ctx_release(id);
    free(ck);
    free(world);
    return err;
}

/* Lock held: everything of c goes, its context pair last (no new communicator can have
 * taken it: until here the pair stays out of this process's free mask). Messages that
 * arrived for it and were never received go too: a later communicator on the same pair must
 * not find them. */
static void comm_teardown(comm_t *c)
{
    uint32_t id = c->ctx_id;
    /* (an intercommunicator's collective context is its bridge's, whose collectives may be
     * in flight still: the bridge's own teardown drops what is left there) */
    size_t lost = match_drop_ctx(rmp_ctx.mq, id) +
                  (c->lworld ? 0 : match_drop_ctx(rmp_ctx.mq, id + 1));
    if (lost)
        core_verbose(&rmp_ctx, "a freed communicator had %zu message%s nobody received: dropped",
                     lost, lost == 1 ? "" : "s");
    if (!c->lworld) /* an intercommunicator never offloads; its pair's state is the bridge's */
        comm_coll.comm_free(c);
    /* an intercommunicator's bridge owns the pair: it goes with it, when its last collective
     * ends */
    comm_t *bridge = c->lworld ? &rmp_ctx.comms[c->bridge] : NULL;
    comm_release_locked(c);
    if (bridge && bridge->busy)
        bridge->freed = comm_teardown;
    else if (bridge)
        comm_teardown(bridge);
    else
        ctx_release_locked(id);
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
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(*comm); /* NULL for RMP_COMM_NULL and invalid or freed handles */
    if (c && c->busy)
        c->freed = comm_teardown; /* its last collective or posted receive finishes the job */
    else if (c)
        comm_teardown(c);
    ctx_unlock(&rmp_ctx);
    if (!c)
        return RMP_ERR_COMM;
    *comm = RMP_COMM_NULL;
    return RMP_SUCCESS;
}

int rmp_comm_disconnect(rmp_comm_t *comm)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!comm)
        return RMP_ERR_ARG;
    int size;
    if (*comm == RMP_COMM_WORLD || *comm == RMP_COMM_SELF || rmp_comm_size(*comm, &size))
        return RMP_ERR_COMM;
    if ((err = comm_coll.barrier(*comm)))
        return err;
    return rmp_comm_free(comm);
}
