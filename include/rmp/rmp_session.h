/* rmp/rmp_session.h — MPI-4 sessions (MPI-4.0 ch. 11).
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_SESSION_H
#define RMP_API_SESSION_H

/* ---- MPI-4: sessions (MPI-4.0 ch. 11) ---------------------------------------------------- */
/* A session holds the runtime as rmp_init does: the first of rmp_init and the sessions starts
 * it, the last of rmp_finalize and rmp_session_finalize ends it (then collective over the job,
 * as rmp_finalize); sessions and the world model may overlap in any order, and rmp_initialized
 * reports the world model only. A runtime started already keeps its thread level (*provided).
 * Once it has ended, a new session gets RMP_ERR_NOT_INITIALIZED. At most 64 live sessions.
 * An invalid or finalized session handle gives RMP_ERR_SESSION. */
typedef int rmp_session_t;
#define RMP_SESSION_NULL ((rmp_session_t)0)
int rmp_session_init(int required, int *provided, rmp_session_t *session);
/* *session becomes RMP_SESSION_NULL. */
int rmp_session_finalize(rmp_session_t *session);
/* The process sets: "mpi://WORLD", "mpi://SELF", "rmp://node" (the ranks of this node in local
 * rank order; mrun --nodes K: a virtual node), named in any case. get_nth_pset: with *len 0,
 * *len becomes the name's length + 1; else the name, cut to *len - 1 characters. pset_size:
 * its member count. An unknown name or n out of range: RMP_ERR_ARG. */
int rmp_session_get_num_psets(rmp_session_t session, int *n);
int rmp_session_get_nth_pset(rmp_session_t session, int n, int *len, char *name);
int rmp_session_pset_size(rmp_session_t session, const char *name, int *size);
int rmp_group_from_session_pset(rmp_session_t session, const char *name, rmp_group_t *group);
/* A communicator of group's members (collective over them only; a caller outside group gets
 * RMP_ERR_GROUP): the calls of the members with the same group and the same string tag make
 * one communicator (as rmp_comm_create_group over the world with a tag hashed from the
 * string: concurrent calls over overlapping groups need different strings). */
int rmp_comm_create_from_group(rmp_group_t group, const char *stringtag, rmp_comm_t *newcomm);
/* An intercommunicator between two disjoint groups, collective over both (each member names
 * its own group first, the leaders as ranks of each group), matched by the string tag as
 * rmp_comm_create_from_group; RMP_ERR_GROUP for a caller outside local_group, RMP_ERR_RANK for
 * a leader outside its group. */
int rmp_intercomm_create_from_groups(rmp_group_t local_group, int local_leader,
                                     rmp_group_t remote_group, int remote_leader,
                                     const char *stringtag, rmp_comm_t *newinter);
/* A session's buffer for buffered sends (MPI-4.1 3.6), as rmp_comm_attach_buffer's: a bsend
 * on a communicator that derives from the session (made by rmp_comm_create_from_group, or
 * from such a communicator, or of a group made of its psets' groups) uses the communicator's
 * own buffer, else the session's, else the process's. Finalizing the session detaches it. */
int rmp_session_attach_buffer(rmp_session_t session, void *buf, int size);
int rmp_session_detach_buffer(rmp_session_t session, void **buf, int *size);
int rmp_session_flush_buffer(rmp_session_t session);
int rmp_session_iflush_buffer(rmp_session_t session, rmp_request_t *req);

#endif
