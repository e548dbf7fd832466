/* comm_coll.c — the table through which comm/ runs collectives (comm_coll.h says why), and the
 * intracommunicator check comm/'s creations and collectives/' calls both start with. */
#include "comm_coll.h"

comm_coll_ops_t comm_coll;

int comm_intra(rmp_comm_t h, intra_t *in)
{
    int err = ctx_check();
    if (err)
        return err;
    ctx_lock(&rmp_ctx);
    comm_t *c = comm_get(h);
    if (c && c->lworld) /* an intercommunicator: only the calls that dispatch to inter*.c */
        c = NULL;
    if (c)
        *in = (intra_t){.comm = c, .rank = c->rank, .size = c->size};
    ctx_unlock(&rmp_ctx);
    return c ? RMP_SUCCESS : RMP_ERR_COMM;
}

int intra_root(const intra_t *in, int root)
{
    return root < 0 || root >= in->size ? RMP_ERR_ROOT : RMP_SUCCESS;
}
