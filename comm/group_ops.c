/* group_ops.c — the group constructors of MPI-3.1 6.3.2 that group.c lacks: range inclusion
 * and exclusion (triplets first, last, stride), union, intersection and difference. They are
 * built on the public group calls only (a group is its members' world ranks: translated to the
 * world group and back, then made by rmp_group_incl on it), so group.c's table stays private
 * and every result goes through its checks and its locking. Local: nothing communicates. */
#include <limits.h>
#include <stdlib.h>

#include "comm_coll.h"
#include "group.h"

/* Expand n triplets into *out (*nout ranks): every triplet's first and last within [0, size)
 * (RMP_ERR_RANK), a non-zero stride that moves from first towards last (RMP_ERR_ARG: MPI
 * requires a stride != 0, and a range that runs away from last names no rank of the formula
 * first + k*stride, k = 0..floor((last-first)/stride), so it is refused as MPICH does); the
 * ranks distinct over all triplets (RMP_ERR_RANK). */
static int expand_ranges(int size, int n, const int ranges[][3], int **out, int *nout)
{
    if (n < 0 || (n > 0 && !ranges))
        return RMP_ERR_ARG;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= size || last < 0 || last >= size)
            return RMP_ERR_RANK;
        if (stride == 0 || (first < last && stride < 0) || (first > last && stride > 0))
            return RMP_ERR_ARG;
        total += ((long long)last - first) / stride + 1;
        if (total > size) /* some rank repeats */
            return RMP_ERR_RANK;
    }
    int *r = malloc(sizeof(int) * (size_t)(total ? total : 1));
    bool *seen = calloc((size_t)size + 1, sizeof(bool));
    if (!r || !seen) {
        free(r);
        free(seen);
        return RMP_ERR_NO_MEM;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        long long cnt = ((long long)last - first) / stride + 1;
        for (long long j = 0; j < cnt; j++) {
            int x = (int)(first + j * stride);
            if (seen[x]) {
                free(r);
                free(seen);
                return RMP_ERR_RANK;
            }
            seen[x] = true;
            r[k++] = x;
        }
    }
    free(seen);
    *out = r;
    *nout = k;
    return RMP_SUCCESS;
}

static int group_range(rmp_group_t group, int n, const int ranges[][3], rmp_group_t *newgroup,
                       bool incl)
{
    int size, err = rmp_group_size(group, &size);
    if (err)
        return err;
    if (!newgroup)
        return RMP_ERR_ARG;
    int *ranks = NULL, k = 0;
    if ((err = expand_ranges(size, n, ranges, &ranks, &k)))
        return err;
    err = incl ? rmp_group_incl(group, k, ranks, newgroup)
               : rmp_group_excl(group, k, ranks, newgroup);
    free(ranks);
    return err;
}

int rmp_group_range_incl(rmp_group_t group, int n, const int ranges[][3], rmp_group_t *newgroup)
{
    return group_range(group, n, ranges, newgroup, true);
}

int rmp_group_range_excl(rmp_group_t group, int n, const int ranges[][3], rmp_group_t *newgroup)
{
    return group_range(group, n, ranges, newgroup, false);
}

/* The world ranks of g's members, in g's order (*w: malloc'd, *n of them). */
static int world_ranks(rmp_group_t g, rmp_group_t world, int **w, int *n)
{
    int size, err = rmp_group_size(g, &size);
    if (err)
        return err;
    int *in = malloc(sizeof(int) * (size_t)(size ? size : 1));
    int *out = malloc(sizeof(int) * (size_t)(size ? size : 1));
    if (!in || !out) {
        free(in);
        free(out);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 0; i < size; i++)
        in[i] = i;
    err = rmp_group_translate_ranks(g, size, in, world, out);
    free(in);
    if (err) {
        free(out);
        return err;
    }
    *w = out;
    *n = size;
    return RMP_SUCCESS;
}

typedef enum { SET_UNION, SET_INTERSECTION, SET_DIFFERENCE } set_op_t;

/* MPI-3.1 6.3.2: union: all of group1, then the members of group2 not in group1, in group2's
 * order; intersection: the members of group1 also in group2, in group1's order; difference:
 * those of group1 not in group2, in group1's order. An empty result is RMP_GROUP_EMPTY. */
static int group_set(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup, set_op_t op)
{
    int err = ctx_check();
    if (err)
        return err;
    int s1, s2;
    if ((err = rmp_group_size(group1, &s1)) || (err = rmp_group_size(group2, &s2)))
        return err;
    if (!newgroup)
        return RMP_ERR_ARG;
    rmp_group_t world;
    if ((err = rmp_comm_group(RMP_COMM_WORLD, &world)))
        return err;
    int *w1 = NULL, *w2 = NULL, n1 = 0, n2 = 0, wsize = rmp_ctx.size;
    bool *in1 = calloc((size_t)wsize, sizeof(bool)), *in2 = calloc((size_t)wsize, sizeof(bool));
    int *res = malloc(sizeof(int) * ((size_t)s1 + (size_t)s2 + 1));
    if (!in1 || !in2 || !res)
        err = RMP_ERR_NO_MEM;
    if (!err)
        err = world_ranks(group1, world, &w1, &n1);
    if (!err)
        err = world_ranks(group2, world, &w2, &n2);
    int k = 0;
    if (!err) {
        for (int i = 0; i < n1; i++)
            in1[w1[i]] = true;
        for (int i = 0; i < n2; i++)
            in2[w2[i]] = true;
        for (int i = 0; i < n1; i++)
            if (op == SET_UNION || (op == SET_INTERSECTION) == in2[w1[i]])
                res[k++] = w1[i];
        if (op == SET_UNION)
            for (int i = 0; i < n2; i++)
                if (!in1[w2[i]])
                    res[k++] = w2[i];
        err = rmp_group_incl(world, k, res, newgroup);
    }
    if (!err) /* made of a session's groups: of that session too */
        group_set_session(*newgroup, group_session(group1) ? group_session(group1)
                                                           : group_session(group2));
    free(w1);
    free(w2);
    free(in1);
    free(in2);
    free(res);
    rmp_group_free(&world);
    return err;
}

int rmp_group_union(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup)
{
    return group_set(group1, group2, newgroup, SET_UNION);
}

int rmp_group_intersection(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup)
{
    return group_set(group1, group2, newgroup, SET_INTERSECTION);
}

int rmp_group_difference(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup)
{
    return group_set(group1, group2, newgroup, SET_DIFFERENCE);
}
