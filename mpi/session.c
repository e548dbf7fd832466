/* session.c — MPI-4.0's sessions (ch. 11) over rmp's (runtime/session.c): the MPI layer's part
 * is the info objects (the thread level asked and used, a pset's size), the session error
 * handlers (kept with the others in errors.c, kind RMPI_EH_SESSION) and where errors go. */
#include <stdio.h>
#include <string.h>

#include "rmpi.h"

static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                     "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

/* Raise code on a session's handler; a handle that is not a live session's (rmp says
 * RMP_ERR_ARG for it) goes to MPI_COMM_WORLD's, as an invalid communicator's does. */
int rmpi_raise_session(MPI_Session s, int rmp_err, const char *call)
{
    int n;
    if (rmp_err == RMP_SUCCESS)
        return MPI_SUCCESS;
    if (rmp_session_get_num_psets(s, &n) != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rmp_err, call);
    return rmpi_raise_on(RMPI_EH_SESSION, s, rmpi_code(rmp_err), call);
}

/* The thread level an info asks for (MPI_THREAD_SINGLE when none; -1: not a level). */
static int info_level(MPI_Info info)
{
    char v[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    if (info == MPI_INFO_NULL || rmp_info_get(info, "thread_level", MPI_MAX_INFO_VAL, v, &flag) ||
        !flag)
        return MPI_THREAD_SINGLE;
    for (int i = 0; i < 4; i++)
        if (strcmp(v, levels[i]) == 0)
            return i;
    return -1;
}

/* An error before the session exists: on the handler given (a user's, or MPI_ERRORS_RETURN,
 * returns the code; MPI_ERRORS_ARE_FATAL ends the job). */
static int init_fail(MPI_Errhandler eh, int code)
{
    if (eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRHANDLER_NULL)
        return rmpi_raise_on(RMPI_EH_SESSION, MPI_SESSION_NULL, code, "MPI_Session_init");
    return code;
}

int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    int code = rmpi_info_check(info);
    int level = code ? 0 : info_level(info), provided;
    if (!code && (level < 0 || !session))
        code = MPI_ERR_ARG;
    if (code)
        return init_fail(errhandler, code);
    int rc = rmp_session_init(level, &provided, session);
    if (rc)
        return init_fail(errhandler, rmpi_code(rc));
    if (errhandler != MPI_ERRHANDLER_NULL &&
        (code = rmpi_errh_set(RMPI_EH_SESSION, *session, errhandler)) != MPI_SUCCESS) {
        rmp_session_finalize(session);
        return init_fail(errhandler, code);
    }
    return MPI_SUCCESS;
}

int MPI_Session_finalize(MPI_Session *session)
{
    MPI_Session s = session ? *session : MPI_SESSION_NULL;
    int n;
    int rc = session ? rmp_session_get_num_psets(s, &n) : RMP_ERR_ARG;
    if (rc)
        return rmpi_raise_session(s, rc, __func__);
    (void)rmpi_errh_set(RMPI_EH_SESSION, s, MPI_ERRORS_ARE_FATAL); /* its handler let go */
    return rmpi_raise(MPI_COMM_WORLD, rmp_session_finalize(session), __func__);
}

int MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npset_names)
{
    int code = rmpi_info_check(info);
    if (code)
        return rmpi_raise_on(RMPI_EH_SESSION, session, code, __func__);
    return rmpi_raise_session(session, rmp_session_get_num_psets(session, npset_names), __func__);
}

int MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *pset_len,
                             char *pset_name)
{
    int code = rmpi_info_check(info);
    if (code)
        return rmpi_raise_on(RMPI_EH_SESSION, session, code, __func__);
    return rmpi_raise_session(session, rmp_session_get_nth_pset(session, n, pset_len, pset_name),
                   __func__);
}

/* A new info holding key = value (an int); MPI_SUCCESS or the MPI code. */
static int info_with(MPI_Info *info, const char *key, const char *value)
{
    int rc = rmp_info_create(info);
    if (!rc && (rc = rmp_info_set(*info, key, value)))
        rmp_info_free(info);
    return rc;
}

int MPI_Session_get_pset_info(MPI_Session session, const char *pset_name, MPI_Info *info)
{
    int size = 0;
    int rc = rmp_session_pset_size(session, pset_name, &size);
    if (!rc && !info)
        rc = RMP_ERR_ARG;
    char v[16];
    snprintf(v, sizeof v, "%d", size);
    if (!rc)
        rc = info_with(info, "mpi_size", v);
    return rmpi_raise_session(session, rc, __func__);
}

int MPI_Session_get_info(MPI_Session session, MPI_Info *info_used)
{
    int n, level = 0;
    int rc = rmp_session_get_num_psets(session, &n);
    if (!rc && !info_used)
        rc = RMP_ERR_ARG;
    if (!rc)
        rc = rmp_query_thread(&level);
    if (!rc)
        rc = info_with(info_used, "thread_level", levels[level]);
    return rmpi_raise_session(session, rc, __func__);
}

int MPI_Session_create_errhandler(MPI_Session_errhandler_function *session_errhandler_fn,
                                  MPI_Errhandler *errhandler)
{
    return rmpi_raise_code(
        MPI_COMM_WORLD,
        rmpi_errh_create(RMPI_EH_SESSION, (void (*)(void))session_errhandler_fn, errhandler),
        __func__);
}

int MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
    int n;
    int rc = rmp_session_get_num_psets(session, &n);
    if (rc)
        return rmpi_raise_session(session, rc, __func__);
    int code = rmpi_errh_set(RMPI_EH_SESSION, session, errhandler);
    return code ? rmpi_raise_on(RMPI_EH_SESSION, session, code, __func__) : MPI_SUCCESS;
}

int MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *errhandler)
{
    int n;
    int rc = rmp_session_get_num_psets(session, &n);
    if (!rc && !errhandler)
        rc = RMP_ERR_ARG;
    if (rc)
        return rmpi_raise_session(session, rc, __func__);
    *errhandler = rmpi_errh_get(RMPI_EH_SESSION, session);
    return MPI_SUCCESS;
}

/* The handler runs as if a call on the session had failed with errorcode. */
int MPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
    int n;
    int rc = rmp_session_get_num_psets(session, &n);
    if (rc)
        return rmpi_raise_session(session, rc, __func__);
    if (errorcode != MPI_SUCCESS)
        (void)rmpi_raise_on(RMPI_EH_SESSION, session, errorcode, __func__);
    return MPI_SUCCESS;
}

int MPI_Group_from_session_pset(MPI_Session session, const char *pset_name,
                                MPI_Group *newgroup)
{
    return rmpi_raise_session(session, rmp_group_from_session_pset(session, pset_name, newgroup), __func__);
}

/* A communicator made from groups (rc: rmp's result) gets errhandler; errors go to the
 * handler given (MPI_ERRORS_RETURN or a user's: returned; else fatal). */
static int made(int code, int rc, MPI_Errhandler errhandler, MPI_Comm *newcomm, const char *call)
{
    if (!code)
        code = rmpi_code(rc);
    if (!code && errhandler != MPI_ERRHANDLER_NULL)
        code = rmpi_errh_set(RMPI_EH_COMM, *newcomm, errhandler);
    if (code && (errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRHANDLER_NULL))
        return rmpi_raise_on(RMPI_EH_SESSION, MPI_SESSION_NULL, code, call);
    return code;
}

int MPI_Comm_create_from_group(MPI_Group group, const char *stringtag, MPI_Info info,
                               MPI_Errhandler errhandler, MPI_Comm *newcomm)
{
    int code = rmpi_info_check(info);
    int rc = code ? RMP_SUCCESS : rmp_comm_create_from_group(group, stringtag, newcomm);
    return made(code, rc, errhandler, newcomm, __func__);
}

int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                     MPI_Group remote_group, int remote_leader,
                                     const char *stringtag, MPI_Info info,
                                     MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    int code = rmpi_info_check(info);
    int rc = code ? RMP_SUCCESS
                  : rmp_intercomm_create_from_groups(local_group, local_leader, remote_group,
                                                     remote_leader, stringtag, newintercomm);
    return made(code, rc, errhandler, newintercomm, __func__);
}
