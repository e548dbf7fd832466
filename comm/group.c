/* group.c — groups (ordered sets of processes, held as world ranks), their queries and
 * rmp_comm_compare. Groups are local objects: nothing here communicates (rmp_comm_create, a
 * split whose colour is membership and whose key is the group rank, is comm_create.c's).
 * The table grows on demand; handle 0 is the builtin empty group. Under the runtime lock. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "comm_coll.h"
#include "group.h"

static group_t *groups; /* [ngroups]; slot 0: RMP_GROUP_EMPTY */
static int ngroups;
/* its handles: below RMP_GROUP_NULL, which no group may be */
static hpool_t group_pool = {.first = 1, .limit = RMP_GROUP_NULL, .next = 1};

group_t *group_get(rmp_group_t h)
{
    if (h == RMP_GROUP_EMPTY) {
        static group_t empty = {.in_use = true};
        return &empty;
    }
    return h > 0 && h < ngroups && groups[h].in_use ? &groups[h] : NULL;
}

/* A new group taking ownership of world[0..n-1] (lock held); frees world on failure. */
static int group_new(int *world, int n, int session, rmp_group_t *out)
{
    if (n == 0) {
        free(world);
        *out = RMP_GROUP_EMPTY;
        return RMP_SUCCESS;
    }
    int h = hpool_get_in(&group_pool, (void **)&groups, &ngroups, sizeof(group_t));
    if (h < 0) {
        free(world);
        return RMP_ERR_NO_MEM;
    }
    groups[h] = (group_t){.in_use = true, .n = n, .world = world, .session = session};
    *out = h;
    return RMP_SUCCESS;
}

int group_session(rmp_group_t h)
{
    ctx_lock(&rmp_ctx);
    group_t *g = group_get(h);
    int s = g ? g->session : 0;
    ctx_unlock(&rmp_ctx);
    return s;
}

void group_set_session(rmp_group_t h, int session)
{
    ctx_lock(&rmp_ctx);
    group_t *g = h != RMP_GROUP_EMPTY ? group_get(h) : NULL;
    if (g)
        g->session = session;
    ctx_unlock(&rmp_ctx);
}

static int lock_checked(void)
{
    int err = ctx_check();
    if (!err)
        ctx_lock(&rmp_ctx);
    return err;
}

int group_pos(const group_t *g, int w)
{
    for (int i = 0; i < g->n; i++)
        if (g->world[i] == w)
            return i;
    return RMP_UNDEFINED;
}

int rmp_comm_group(rmp_comm_t comm, rmp_group_t *group)
{
    int err = lock_checked();
    if (err)
        return err;
    comm_t *c = comm_get(comm);
    /* an intercommunicator's group is its local group (core.h) */
    int n = c && c->lworld ? c->lsize : c ? c->size : 0;
    int *w = c && group ? malloc(sizeof(int) * (size_t)n) : NULL;
    if (!c)
        err = RMP_ERR_COMM;
    else if (!group)
        err = RMP_ERR_ARG;
    else if (!w)
        err = RMP_ERR_NO_MEM;
    else {
        memcpy(w, c->lworld ? c->lworld : c->world, sizeof(int) * (size_t)n);
        err = group_new(w, n, c->session, group);
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

/* Size (rank false) or my rank (rank true, RMP_UNDEFINED if not a member) of a group. */
static int group_query(rmp_group_t group, int *out, bool rank)
{
    int err = lock_checked();
    if (err)
        return err;
    group_t *g = group_get(group);
    if (!g || !out)
        err = g ? RMP_ERR_ARG : RMP_ERR_GROUP;
    else
        *out = rank ? group_pos(g, rmp_ctx.rank) : g->n;
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_group_size(rmp_group_t group, int *size)
{
    return group_query(group, size, false);
}

int rmp_group_rank(rmp_group_t group, int *rank)
{
    return group_query(group, rank, true);
}

/* ranks[0..n-1]: each in [0, g->n) and listed once (RMP_ERR_RANK), marked in seen[g->n]. */
static int check_ranks(const group_t *g, int n, const int *ranks, bool *seen)
{
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->n || seen[ranks[i]])
            return RMP_ERR_RANK;
        seen[ranks[i]] = true;
    }
    return RMP_SUCCESS;
}

static int group_pick(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup,
                      bool incl)
{
    int err = lock_checked();
    if (err)
        return err;
    group_t *g = group_get(group);
    bool *seen = g ? calloc((size_t)g->n + 1, sizeof(bool)) : NULL;
    int *w = g ? malloc(sizeof(int) * ((size_t)g->n + 1)) : NULL;
    if (!g)
        err = RMP_ERR_GROUP;
    else if (!newgroup || n < 0 || (n > 0 && !ranks))
        err = RMP_ERR_ARG;
    else if (n > g->n)
        err = RMP_ERR_RANK;
    else if (!seen || !w)
        err = RMP_ERR_NO_MEM;
    else if (!(err = check_ranks(g, n, ranks, seen))) {
        int k = 0;
        if (incl)
            for (int i = 0; i < n; i++)
                w[k++] = g->world[ranks[i]];
        else
            for (int i = 0; i < g->n; i++)
                if (!seen[i])
                    w[k++] = g->world[i];
        err = group_new(w, k, g->session, newgroup);
        w = NULL; /* owned by the group now, or freed */
    }
    free(seen);
    free(w);
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_group_incl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup)
{
    return group_pick(group, n, ranks, newgroup, true);
}

int rmp_group_excl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup)
{
    return group_pick(group, n, ranks, newgroup, false);
}

int rmp_group_translate_ranks(rmp_group_t group1, int n, const int ranks1[], rmp_group_t group2,
                              int ranks2[])
{
    int err = lock_checked();
    if (err)
        return err;
    group_t *a = group_get(group1), *b = group_get(group2);
    if (!a || !b)
        err = RMP_ERR_GROUP;
    else if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
        err = RMP_ERR_ARG;
    for (int i = 0; !err && i < n; i++) /* MPI-2.2: RMP_PROC_NULL translates to itself */
        if (ranks1[i] != RMP_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= a->n))
            err = RMP_ERR_RANK;
    /* nothing written unless every rank is valid; b's positions by world rank, so that the
     * translation costs n + |b|, not n x |b| (MPICH's gtranksperf times a large group against
     * a small one) */
    int *pos = !err && n > 4 && b->n > 4 ? malloc(sizeof(int) * (size_t)rmp_ctx.size) : NULL;
    if (pos) {
        for (int w = 0; w < rmp_ctx.size; w++)
            pos[w] = RMP_UNDEFINED;
        for (int j = 0; j < b->n; j++)
            pos[b->world[j]] = j;
    }
    for (int i = 0; !err && i < n; i++)
        ranks2[i] = ranks1[i] == RMP_PROC_NULL ? RMP_PROC_NULL
                    : pos                      ? pos[a->world[ranks1[i]]]
                                               : group_pos(b, a->world[ranks1[i]]);
    free(pos);
    ctx_unlock(&rmp_ctx);
    return err;
}

/* RMP_IDENT, RMP_SIMILAR or RMP_UNEQUAL for two member lists. */
static int members_compare(const int *a, int na, const int *b, int nb)
{
    if (na != nb)
        return RMP_UNEQUAL;
    if (na == 0 || !memcmp(a, b, sizeof(int) * (size_t)na)) /* empty: no member array */
        return RMP_IDENT;
    for (int i = 0; i < na; i++) { /* members are distinct: each of a found in b suffices */
        bool found = false;
        for (int j = 0; j < nb && !found; j++)
            found = a[i] == b[j];
        if (!found)
            return RMP_UNEQUAL;
    }
    return RMP_SIMILAR;
}

int rmp_group_compare(rmp_group_t group1, rmp_group_t group2, int *result)
{
    int err = lock_checked();
    if (err)
        return err;
    group_t *a = group_get(group1), *b = group_get(group2);
    if (!a || !b)
        err = RMP_ERR_GROUP;
    else if (!result)
        err = RMP_ERR_ARG;
    else
        *result = members_compare(a->world, a->n, b->world, b->n);
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_group_free(rmp_group_t *group)
{
    if (!group)
        return RMP_ERR_ARG;
    int err = lock_checked();
    if (err)
        return err;
    group_t *g = *group == RMP_GROUP_EMPTY ? NULL : group_get(*group);
    if (!g)
        err = RMP_ERR_GROUP;
    else {
        free(g->world);
        *g = (group_t){0};
        hpool_put(&group_pool, *group);
        *group = RMP_GROUP_NULL;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}

int rmp_comm_compare(rmp_comm_t comm1, rmp_comm_t comm2, int *result)
{
    int err = lock_checked();
    if (err)
        return err;
    comm_t *a = comm_get(comm1), *b = comm_get(comm2);
    if (!a || !b)
        err = RMP_ERR_COMM;
    else if (!result)
        err = RMP_ERR_ARG;
    else if (comm1 == comm2)
        *result = RMP_IDENT;
    else if (!a->lworld != !b->lworld) /* an intercommunicator and an intracommunicator */
        *result = RMP_UNEQUAL;
    else if (a->lworld) { /* two intercommunicators: both groups, the weaker result */
        int l = members_compare(a->lworld, a->lsize, b->lworld, b->lsize);
        int r = members_compare(a->world, a->size, b->world, b->size);
        *result = l == RMP_UNEQUAL || r == RMP_UNEQUAL ? RMP_UNEQUAL
                  : l == RMP_IDENT && r == RMP_IDENT  ? RMP_CONGRUENT
                                                      : RMP_SIMILAR;
    } else {
        int r = members_compare(a->world, a->size, b->world, b->size);
        *result = r == RMP_IDENT ? RMP_CONGRUENT : r;
    }
    ctx_unlock(&rmp_ctx);
    return err;
}
