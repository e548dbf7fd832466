/* session.c — MPI-4 sessions (MPI-4.0 ch. 11) in the runtime: a session holds the runtime
 * (init.c's rt_hold: the first holder starts it, with or without rmp_init), names the process
 * sets and tells their sizes (their groups, and the communicators made from them, are
 * comm/session_comm.c's). The psets: "mpi://WORLD" (every rank of the job), "mpi://SELF"
 * (this process) and "rmp://node" (the ranks on this node, in local rank order: mrun's
 * virtual node with --nodes). */
#include <string.h>
#include <strings.h>

#include "core.h"

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF", "rmp://node"};
#define NPSETS ((int)(sizeof(psets) / sizeof(psets[0])))

int session_check(rmp_session_t s)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    if (s < 1 || s > SESSION_MAX || !(rmp_ctx.session_live & (1ull << (s - 1))))
        return RMP_ERR_SESSION;
    return RMP_SUCCESS;
}

int rmp_session_init(int required, int *provided, rmp_session_t *session)
{
    if (!session)
        return RMP_ERR_ARG;
    int rc = rt_hold(required, provided);
    if (rc)
        return rc;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    int k = 0;
    while (k < SESSION_MAX && (c->session_live & (1ull << k)))
        k++;
    if (k < SESSION_MAX)
        c->session_live |= 1ull << k;
    ctx_unlock(c);
    if (k == SESSION_MAX) {
        rt_release();
        return RMP_ERR_NO_MEM;
    }
    *session = k + 1;
    return RMP_SUCCESS;
}

int rmp_session_finalize(rmp_session_t *session)
{
    int rc = session ? session_check(*session) : RMP_ERR_ARG;
    if (rc)
        return rc;
    rmp_ctx_t *c = &rmp_ctx;
    ctx_lock(c);
    c->session_live &= ~(1ull << (*session - 1));
    bsend_session_release(c, *session); /* as freeing a communicator detaches its buffer */
    ctx_unlock(c);
    *session = RMP_SESSION_NULL;
    return rt_release();
}

int rmp_session_get_num_psets(rmp_session_t s, int *n)
{
    int rc = session_check(s);
    if (!rc && !n)
        rc = RMP_ERR_ARG;
    if (!rc)
        *n = NPSETS;
    return rc;
}

int rmp_session_get_nth_pset(rmp_session_t s, int n, int *len, char *name)
{
    int rc = session_check(s);
    if (!rc && (n < 0 || n >= NPSETS || !len || *len < 0 || (*len > 0 && !name)))
        rc = RMP_ERR_ARG;
    if (rc)
        return rc;
    int need = (int)strlen(psets[n]) + 1;
    if (*len == 0) { /* MPI-4.0 11.3.2: a length of 0 asks for the length */
        *len = need;
        return RMP_SUCCESS;
    }
    int k = *len < need ? *len - 1 : need - 1;
    memcpy(name, psets[n], (size_t)k);
    name[k] = '\0';
    return RMP_SUCCESS;
}

int session_pset_index(const char *name)
{
    for (int i = 0; name && i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return i;
    return -1;
}

int rmp_session_pset_size(rmp_session_t s, const char *name, int *size)
{
    int rc = session_check(s);
    if (rc)
        return rc;
    int i = session_pset_index(name);
    if (i < 0 || !size)
        return RMP_ERR_ARG;
    *size = i == 0 ? rmp_ctx.size : i == 1 ? 1 : rmp_ctx.local_size;
    return RMP_SUCCESS;
}
