/* fence.c — fence epochs (MPI-3.1 11.5.1): every rank's operations complete at their targets
 * (rma_flush_all), then a barrier on the window's communicator, after which everyone's are
 * complete here too; the next epoch opens unless NOSUCCEED says none follows. */
#include "rma.h"

int rmp_win_fence(int assert_mode, rmp_win_t win)
{
    win_t *w;
    int err = win_enter(win, &w);
    if (err)
        return err;
    rmp_ctx_t *c = &rmp_ctx;
    if ((w->access != RMA_EP_NONE && w->access != RMA_EP_FENCE) || w->exposing) {
        ctx_unlock(c);
        return RMP_ERR_RMA_SYNC; /* a lock or PSCW epoch is open */
    }
    if (!(assert_mode & RMP_MODE_NOPRECEDE))
        err = rma_flush_all(w, false); /* mine are done at their targets... */
    ctx_unlock(c);
    int e = rmp_barrier(w->comm); /* ...and everyone's at mine, when it returns */
    err = err ? err : e;
    ctx_lock(c);
    bool open = !(assert_mode & RMP_MODE_NOSUCCEED);
    w->access = open ? RMA_EP_FENCE : RMA_EP_NONE;
    w->fence_open = open;
    ctx_unlock(c);
    return err;
}

