/* rmp/rmp_comm.h — communicators: rank, size, dup, split, compare, intercommunicators, creation from groups,
 * names and hints, attributes, error classes.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_COMM_H
#define RMP_API_COMM_H

/* ---- Communicators ---------------------------------------------------------------------- */
int rmp_comm_rank(rmp_comm_t comm, int *rank);
int rmp_comm_size(rmp_comm_t comm, int *size);
/* New communicator with the same group and its own matching context. Collective. */
int rmp_comm_dup(rmp_comm_t comm, rmp_comm_t *newcomm);
/* Split by color (ranks ordered by key, then by old rank); RMP_UNDEFINED gives
 * RMP_COMM_NULL. Collective. */
int rmp_comm_split(rmp_comm_t comm, int color, int key, rmp_comm_t *newcomm);
/* Free a communicator made by dup/split/create; *comm becomes RMP_COMM_NULL. */
int rmp_comm_free(rmp_comm_t *comm);
/* As rmp_comm_free, once every member got here (collective: a barrier first, so that the
 * communication of all of them on comm has completed, MPI_Comm_disconnect's meaning on a
 * communicator of one job). RMP_ERR_COMM for RMP_COMM_WORLD, RMP_COMM_SELF or an invalid
 * one, before any communication. */
int rmp_comm_disconnect(rmp_comm_t *comm);
/* RMP_IDENT (the same communicator or group), RMP_CONGRUENT (communicators: the same members in
 * the same order, another context), RMP_SIMILAR (the same members in another order) or
 * RMP_UNEQUAL. */
#define RMP_IDENT 0
#define RMP_CONGRUENT 1
#define RMP_SIMILAR 2
#define RMP_UNEQUAL 3
int rmp_comm_compare(rmp_comm_t comm1, rmp_comm_t comm2, int *result);
/* Split by a property of the ranks instead of a color: RMP_COMM_TYPE_SHARED groups the ranks
 * that share a node (the launcher's node map: with `mrun --nodes K`, a virtual node), ordered
 * by key, then by old rank; split_type RMP_UNDEFINED gives RMP_COMM_NULL, any other value
 * RMP_ERR_ARG. Collective (every rank must call, whatever its split_type). */
#define RMP_COMM_TYPE_SHARED 1
int rmp_comm_split_type(rmp_comm_t comm, int split_type, int key, rmp_comm_t *newcomm);

/* ---- Intercommunicators ------------------------------------------------------------------ */
/* An intercommunicator joins two disjoint groups: rmp_comm_rank/size/group give the LOCAL
 * group, point-to-point ranks (dest, source, status.source) name ranks of the REMOTE group.
 * rmp_intercomm_create is collective over local_comm (an intracommunicator: RMP_ERR_COMM
 * otherwise) and, through the two leaders, over the other group: local_leader is a rank of
 * local_comm (RMP_ERR_RANK otherwise), remote_leader the other group's leader as a rank of
 * peer_comm, tag the tag of the leaders' messages on peer_comm (peer_comm, remote_leader and
 * tag matter at the leader only: an invalid one gives its group RMP_ERR_COMM, RMP_ERR_RANK, a
 * leader of peer_comm that belongs to the local group RMP_ERR_RANK, RMP_ERR_TAG). */
int rmp_intercomm_create(rmp_comm_t local_comm, int local_leader, rmp_comm_t peer_comm,
                         int remote_leader, int tag, rmp_comm_t *newintercomm);
/* An intracommunicator over both groups: the group passing high = 0 first (the same value on
 * both sides: an order both agree on). */
int rmp_intercomm_merge(rmp_comm_t intercomm, int high, rmp_comm_t *newintracomm);
/* *flag: 1 for an intercommunicator, else 0. */
int rmp_comm_test_inter(rmp_comm_t comm, int *flag);
/* The remote group's size and group: RMP_ERR_COMM on an intracommunicator. */
int rmp_comm_remote_size(rmp_comm_t comm, int *size);
int rmp_comm_remote_group(rmp_comm_t comm, rmp_group_t *group);
/* Collectives on an intercommunicator (bcast, gather(v), scatter(v), reduce, allgather(v),
 * alltoall(v,w), allreduce, reduce_scatter(_block), barrier, blocking and nonblocking): each
 * group gets the OTHER group's data. A rooted one's root: RMP_ROOT at the root, RMP_PROC_NULL
 * at the other members of its group, the root's rank in its group at the members of the other
 * group (else RMP_ERR_ROOT). RMP_IN_PLACE: RMP_ERR_BUFFER. Scan, exscan, neighborhood
 * collectives, topologies and split_type on an intercommunicator: RMP_ERR_COMM. dup, split,
 * comm_create (each group passes a subgroup of its own group: RMP_ERR_GROUP otherwise),
 * comm_compare and comm_free work on intercommunicators. */
#define RMP_ROOT (-3)



/* ---- Communicator creation, names, info objects, attributes, error classes --------------- */

/* Names of communicators, datatypes and windows, cut to RMP_MAX_OBJECT_NAME - 1 characters.
 * Unnamed: "RMP_COMM_WORLD", "RMP_COMM_SELF", "" for other communicators and windows (and
 * rmp_type_get_name's names for types); a builtin type keeps its name until renamed. A name
 * goes with its object (a freed handle reused starts unnamed). name: RMP_MAX_OBJECT_NAME
 * bytes; *resultlen (may be NULL) gets its length. Local calls. */
int rmp_comm_set_name(rmp_comm_t comm, const char *name);
int rmp_comm_get_name(rmp_comm_t comm, char *name, int *resultlen);
int rmp_type_set_name(rmp_datatype_t type, const char *name);
int rmp_win_set_name(rmp_win_t win, const char *name);
int rmp_win_get_name(rmp_win_t win, char *name, int *resultlen);

/* Hints of a communicator or window: set_info updates the hints info names and leaves the
 * others (RMP_INFO_NULL: none changes); get_info returns a NEW info object (the caller frees
 * it) with the hints kept: a communicator keeps MPI-4's assertions (keys "mpi_assert_...")
 * and drops others, as hints nobody uses (MPI-3.1 6.4.4); a window keeps every hint. rmp is
 * not changed by any. rmp_comm_dup copies them. Local calls here (MPI makes set_info collective: every rank must pass the same). */
int rmp_comm_set_info(rmp_comm_t comm, rmp_info_t info);
int rmp_comm_get_info(rmp_comm_t comm, rmp_info_t *info);
int rmp_win_set_info(rmp_win_t win, rmp_info_t info);
int rmp_win_get_info(rmp_win_t win, rmp_info_t *info);

/* rmp_comm_dup with info's hints instead of comm's (RMP_INFO_NULL: none). Collective. */
int rmp_comm_dup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm);
/* Nonblocking rmp_comm_dup: *newcomm is set at once, usable (and the dup complete) when req
 * completes; meanwhile comm may be used for other communication and collectives, and other
 * communicators may be created, the dup calls being made in the same order on every rank of
 * comm. */
int rmp_comm_idup(rmp_comm_t comm, rmp_comm_t *newcomm, rmp_request_t *req);
/* rmp_comm_idup with info's hints instead of comm's (RMP_INFO_NULL: none). */
int rmp_comm_idup_with_info(rmp_comm_t comm, rmp_info_t info, rmp_comm_t *newcomm,
                            rmp_request_t *req);
/* A communicator of group's members (a subset of comm, else RMP_ERR_GROUP), ordered as in
 * group: collective over the members of group ONLY (the other ranks of comm need not call,
 * and are not waited for). Concurrent calls on one comm with intersecting groups use distinct
 * tags (0..RMP_TAG_UB, else RMP_ERR_TAG). A caller outside group gets RMP_COMM_NULL at once.
 * Threads creating communicators at once follow rmp_comm_dup's rule (collectives/comm_ops.c):
 * on every member, the same creations in each thread, in the same order. */
int rmp_comm_create_group(rmp_comm_t comm, rmp_group_t group, int tag, rmp_comm_t *newcomm);

#endif
