/* rmp/rmp_group.h — groups: ordered sets of processes, local objects (no communication).
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_GROUP_H
#define RMP_API_GROUP_H

/* ---- Groups: ordered sets of processes, local objects (no communication) ----------------- */
typedef int rmp_group_t;
#define RMP_GROUP_NULL ((rmp_group_t)0x08000000) /* not negative: see RMP_COMM_NULL */
#define RMP_GROUP_EMPTY ((rmp_group_t)0)   /* builtin: never freed */
/* The members of comm, in comm rank order (free it with rmp_group_free). */
int rmp_comm_group(rmp_comm_t comm, rmp_group_t *group);
int rmp_group_size(rmp_group_t group, int *size);
/* My rank in group, RMP_UNDEFINED if I am not a member. */
int rmp_group_rank(rmp_group_t group, int *rank);
/* The n members ranks[0..n-1] of group, in that order (incl), or group without them (excl).
 * A rank out of range or listed twice gives RMP_ERR_RANK; n = 0 gives RMP_GROUP_EMPTY (incl). */
int rmp_group_incl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup);
int rmp_group_excl(rmp_group_t group, int n, const int ranks[], rmp_group_t *newgroup);
/* ranks2[i]: the rank in group2 of the process of rank ranks1[i] in group1 (RMP_UNDEFINED if
 * it is not in group2; RMP_PROC_NULL stays RMP_PROC_NULL, as MPI-2.2 says). */
int rmp_group_translate_ranks(rmp_group_t group1, int n, const int ranks1[], rmp_group_t group2,
                              int ranks2[]);
/* RMP_IDENT (same members, same order), RMP_SIMILAR or RMP_UNEQUAL. */
int rmp_group_compare(rmp_group_t group1, rmp_group_t group2, int *result);
/* *group becomes RMP_GROUP_NULL; RMP_GROUP_EMPTY gives RMP_ERR_GROUP. */
int rmp_group_free(rmp_group_t *group);
/* A communicator of group's members, ordered as in group (collective over comm: every rank of
 * comm passes the same group, which must be a subset of comm, else RMP_ERR_GROUP); the ranks of
 * comm outside group get RMP_COMM_NULL. */
int rmp_comm_create(rmp_comm_t comm, rmp_group_t group, rmp_comm_t *newcomm);

/* Groups (local): the ranks first, first+stride, ..., up to last of each triplet
 * ranges[i] = {first, last, stride}, in triplet order (range_incl), or the group without them
 * (range_excl). first and last must be ranks of group (RMP_ERR_RANK); stride != 0 and moving
 * from first towards last (RMP_ERR_ARG); a rank named twice gives RMP_ERR_RANK. */
int rmp_group_range_incl(rmp_group_t group, int n, const int ranges[][3],
                         rmp_group_t *newgroup);
int rmp_group_range_excl(rmp_group_t group, int n, const int ranges[][3],
                         rmp_group_t *newgroup);
/* Union: group1's members, then group2's not in group1 (group2's order); intersection:
 * group1's members also in group2; difference: group1's members not in group2 (both in
 * group1's order). An empty result is RMP_GROUP_EMPTY. */
int rmp_group_union(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);
int rmp_group_intersection(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);
int rmp_group_difference(rmp_group_t group1, rmp_group_t group2, rmp_group_t *newgroup);

#endif
