/* comm_type.c — rmp_comm_split_type: a split whose color is a property of the rank. For
 * RMP_COMM_TYPE_SHARED the color is the lowest world rank on my node (PMIX_LOCAL_PEERS, which
 * every launcher gives): the same for every rank of a node, different across nodes, known
 * without communication. */
#include "comm_coll.h"

/* My node's color: the lowest world rank of the ranks sharing my node (me included). */
static int node_color(const rmp_ctx_t *c)
{
    int color = c->rank;
    for (int i = 0; i < c->local_size; i++)
        if (c->local_ranks[i] < color)
            color = c->local_ranks[i];
    return color;
}

int rmp_comm_split_type(rmp_comm_t comm, int split_type, int key, rmp_comm_t *newcomm)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!comm_get(comm))
        return RMP_ERR_COMM;
    if (!newcomm || (split_type != RMP_COMM_TYPE_SHARED && split_type != RMP_UNDEFINED))
        return RMP_ERR_ARG;
    int color = split_type == RMP_UNDEFINED ? RMP_UNDEFINED : node_color(&rmp_ctx);
    return rmp_comm_split(comm, color, key, newcomm);
}
