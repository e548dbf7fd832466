/* comm_type.c — rmp_comm_split_type: a split whose color is a property of the rank. For
 * RMP_COMM_TYPE_SHARED the color is the lowest world rank on my node (PMIX_LOCAL_PEERS, which
 * every launcher gives): the same for every rank of a node, different across nodes, known
 * without communication. The hardware types (rmp/rmp_comm_hw.h) split by the node too. */
#include <string.h>

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

#define HW_KEY "mpi_hw_resource_type"
#define HW_NODE "mpi_shared_memory"

/* HW_GUIDED names the resource in info: the node, or one rmp does not split by (NULL). */
static bool hw_guided_node(rmp_info_t info)
{
    char v[RMP_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    return info != RMP_INFO_NULL && rmp_info_get(info, HW_KEY, sizeof v - 1, v, &flag) == 0 &&
           flag && !strcmp(v, HW_NODE);
}

int rmp_comm_split_type_info(rmp_comm_t comm, int split_type, int key, rmp_info_t info,
                             rmp_comm_t *newcomm)
{
    if (split_type != RMP_COMM_TYPE_HW_GUIDED && split_type != RMP_COMM_TYPE_HW_UNGUIDED)
        return rmp_comm_split_type(comm, split_type, key, newcomm);
    bool node = split_type == RMP_COMM_TYPE_HW_UNGUIDED || hw_guided_node(info);
    int rc = rmp_comm_split_type(comm, node ? RMP_COMM_TYPE_SHARED : RMP_UNDEFINED, key,
                                 newcomm);
    if (rc || split_type != RMP_COMM_TYPE_HW_UNGUIDED || *newcomm == RMP_COMM_NULL)
        return rc;
    int size = 0, nsize = 0; /* the nodes partition comm: whole on one rank, whole on all */
    (void)rmp_comm_size(comm, &size);
    (void)rmp_comm_size(*newcomm, &nsize);
    if (nsize == size)
        return rmp_comm_free(newcomm);
    return info == RMP_INFO_NULL ? RMP_SUCCESS : rmp_info_set(info, HW_KEY, HW_NODE);
}
