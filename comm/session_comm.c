/* session_comm.c — what sessions make in the communicator layer (MPI-4.0 11.3): a process
 * set's group (rmp_group_from_session_pset), a communicator of a group with no parent
 * matched across the members by a string tag (rmp_comm_create_from_group), and an
 * intercommunicator of two such groups. The sessions themselves are the runtime's
 * (runtime/boot/session.c: holding the runtime, the psets' names and sizes). */
#include <stdint.h>

#include "core.h"
#include "group.h"

int rmp_group_from_session_pset(rmp_session_t s, const char *name, rmp_group_t *group)
{
    int rc = session_check(s);
    if (rc)
        return rc;
    int i = session_pset_index(name);
    if (i < 0 || !group)
        return RMP_ERR_ARG;
    if (i < 2) {
        rc = rmp_comm_group(i == 0 ? RMP_COMM_WORLD : RMP_COMM_SELF, group);
    } else {
        rmp_group_t world;
        if ((rc = rmp_comm_group(RMP_COMM_WORLD, &world)))
            return rc;
        rc = rmp_group_incl(world, rmp_ctx.local_size, rmp_ctx.local_ranks, group);
        rmp_group_free(&world);
    }
    if (!rc)
        group_set_session(*group, s);
    return rc;
}

/* The tag of a string: FNV-1a folded into 0..RMP_TAG_UB, the same on every member. */
static int tag_of(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return (int)(h & RMP_TAG_UB);
}

int rmp_comm_create_from_group(rmp_group_t group, const char *stringtag, rmp_comm_t *newcomm)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (!stringtag || !newcomm)
        return RMP_ERR_ARG;
    int me = RMP_UNDEFINED;
    if ((rc = rmp_group_rank(group, &me)))
        return rc;
    if (me == RMP_UNDEFINED) /* only the members call */
        return RMP_ERR_GROUP;
    /* every group is one of world ranks: the world communicator (hidden when only sessions
     * hold the runtime) is the parent of the members' exchange */
    if ((rc = rmp_comm_create_group(RMP_COMM_WORLD, group, tag_of(stringtag), newcomm)))
        return rc;
    comm_get(*newcomm)->session = group_session(group); /* its bsends use the session's buffer */
    return RMP_SUCCESS;
}

/* The world rank of rank r of group g (RMP_UNDEFINED: r is not one of its ranks). */
static int world_of(rmp_group_t g, int r, rmp_group_t world)
{
    int w = RMP_UNDEFINED;
    return rmp_group_translate_ranks(g, 1, &r, world, &w) ? RMP_UNDEFINED : w;
}

/* Both groups make one communicator over their union (the group of the leader with the lower
 * world rank first, the same order on both sides), split it into the local group, and join
 * the halves through it: every message of the call is on communicators of its own. */
int rmp_intercomm_create_from_groups(rmp_group_t local_group, int local_leader,
                                     rmp_group_t remote_group, int remote_leader,
                                     const char *stringtag, rmp_comm_t *newinter)
{
    rmp_group_t world, all = RMP_GROUP_NULL;
    int me = RMP_UNDEFINED, rc = ctx_check();
    if (!rc && (!stringtag || !newinter))
        rc = RMP_ERR_ARG;
    if (!rc)
        rc = rmp_group_rank(local_group, &me);
    if (!rc && me == RMP_UNDEFINED)
        rc = RMP_ERR_GROUP;
    if (rc || (rc = rmp_comm_group(RMP_COMM_WORLD, &world)))
        return rc;
    int lw = world_of(local_group, local_leader, world);
    int rw = world_of(remote_group, remote_leader, world);
    rmp_group_free(&world);
    if (lw == RMP_UNDEFINED || rw == RMP_UNDEFINED || lw == rw)
        return RMP_ERR_RANK;
    rc = lw < rw ? rmp_group_union(local_group, remote_group, &all)
                 : rmp_group_union(remote_group, local_group, &all);
    rmp_comm_t uc = RMP_COMM_NULL, lc = RMP_COMM_NULL;
    if (!rc)
        rc = rmp_comm_create_from_group(all, stringtag, &uc);
    int peer = RMP_UNDEFINED;
    if (!rc && !(rc = rmp_comm_group(uc, &world))) {
        peer = world_of(remote_group, remote_leader, world);
        rmp_group_free(&world);
    }
    if (!rc)
        rc = rmp_comm_split(uc, lw < rw, me, &lc);
    if (!rc)
        rc = rmp_intercomm_create(lc, local_leader, uc, peer, 0, newinter);
    if (lc != RMP_COMM_NULL)
        rmp_comm_free(&lc);
    if (uc != RMP_COMM_NULL)
        rmp_comm_free(&uc);
    if (all != RMP_GROUP_NULL && all != RMP_GROUP_EMPTY)
        rmp_group_free(&all);
    return rc;
}
