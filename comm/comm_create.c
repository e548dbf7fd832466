/* comm_create.c — rmp_comm_create: the communicators of groups, made by a split of the
 * parent (an intercommunicator's: inter.c). Above group.c, whose groups it reads, and
 * inter.c, which uses groups too: neither calls it back. */
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "group.h"
#include "inter.h"

/* After the split of rmp_comm_create: the communicator I got must have exactly my group's
 * members in my group's order. Overlapping groups that are not identical (an erroneous
 * program: MPI asks for disjoint ones) put members of different groups under one colour;
 * a member that sees it returns RMP_ERR_GROUP rather than a communicator nobody asked for. */
static int comm_create_check(const int *mine, int n, rmp_comm_t *newcomm)
{
    if (*newcomm == RMP_COMM_NULL)
        return RMP_SUCCESS;
    ctx_lock(&rmp_ctx);
    comm_t *nc = comm_get(*newcomm);
    bool same = nc && nc->size == n && !memcmp(nc->world, mine, sizeof(int) * (size_t)n);
    ctx_unlock(&rmp_ctx);
    if (same)
        return RMP_SUCCESS;
    rmp_comm_free(newcomm);
    *newcomm = RMP_COMM_NULL;
    return RMP_ERR_GROUP;
}

/* MPI-2.2 lets the ranks of comm pass different groups, as long as the groups are disjoint
 * (a 2-D grid builds its rows this way, each rank passing its own row): each group becomes a
 * communicator of its own. A group is named, alike by all its members, by its lowest rank in
 * comm, which is the split's colour; the key is the group rank. */
int rmp_comm_create(rmp_comm_t comm, rmp_group_t group, rmp_comm_t *newcomm)
{
    if (ctx_check() == RMP_SUCCESS && comm_is_inter(comm))
        return inter_comm_create(comm, group, newcomm);
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(comm);
    group_t *g = group_get(group);
    int color = RMP_UNDEFINED, key = 0;
    if (!c)
        err = RMP_ERR_COMM;
    else if (!g)
        err = RMP_ERR_GROUP;
    else if (!newcomm)
        err = RMP_ERR_ARG;
    int lowest = -1;
    for (int i = 0; !err && i < g->n; i++) { /* a subset of comm */
        int r = comm_rank_of_world(c, g->world[i]);
        if (r < 0)
            err = RMP_ERR_GROUP;
        else if (lowest < 0 || r < lowest)
            lowest = r;
    }
    int *mine = NULL, n = 0; /* my group's members: the table may move once unlocked */
    if (!err && (key = group_pos(g, rmp_ctx.rank)) != RMP_UNDEFINED) {
        color = lowest;
        n = g->n;
        if (!(mine = malloc(sizeof(int) * (size_t)n)))
            err = RMP_ERR_NO_MEM;
        else
            memcpy(mine, g->world, sizeof(int) * (size_t)n);
    }
    ctx_unlock(&rmp_ctx);
    /* Every rank of comm reaches this split, whatever its group: a rank whose group is not a
     * subset of comm returns the error alone, and the others' split would wait for it, so
     * such a rank still takes part, in no colour. */
    rmp_comm_t made = RMP_COMM_NULL; /* nothing is written to *newcomm on an error */
    int split = rmp_comm_split(comm, err ? RMP_UNDEFINED : color, key, &made);
    if (!err && !split)
        err = comm_create_check(mine, n, &made);
    free(mine);
    if (!err && !split)
        *newcomm = made;
    return err ? err : split;
}
