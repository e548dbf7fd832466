/* comm.c — the communicator table: handles are indexes (so a bad handle is an error code,
 * never a wild pointer); 0 and 1 are RMP_COMM_WORLD and RMP_COMM_SELF. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "objmeta.h"

static int comm_fill(comm_t *c, rmp_comm_t h, const int *world, int n, int rank, uint32_t ctx_id)
{
    int *w = malloc(sizeof(int) * (size_t)n);
    if (!w)
        return RMP_ERR_NO_MEM;
    memcpy(w, world, sizeof(int) * (size_t)n);
    *c = (comm_t){.in_use = true, .handle = h, .ctx_id = ctx_id, .rank = rank, .size = n,
                  .world = w};
    for (int i = 0; i < n; i++)
        c->dyn |= w[i] >= rmp_ctx.size;
    if (c->dyn) /* (comm_create holds the lock) */
        dyn_ref_locked(&rmp_ctx, w, n, +1);
    return RMP_SUCCESS;
}

/* The two predefined communicators (called by rmp_init). */
int comm_init_builtin(rmp_ctx_t *ctx)
{
    ctx->comms = calloc(RMP_MAX_COMMS, sizeof(comm_t));
    ctx->comm_pool = hpool_make(2, RMP_MAX_COMMS);
    int *all = malloc(sizeof(int) * (size_t)ctx->size);
    if (!ctx->comms || !all) {
        free(all);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 0; i < ctx->size; i++)
        all[i] = i;
    int rc = comm_fill(&ctx->comms[RMP_COMM_WORLD], RMP_COMM_WORLD, all, ctx->size, ctx->rank, 0);
    free(all);
    if (rc == RMP_SUCCESS)
        rc = comm_fill(&ctx->comms[RMP_COMM_SELF], RMP_COMM_SELF, &ctx->rank, 1, 0, 2);
    return rc;
}

void comm_fini(rmp_ctx_t *ctx)
{
    if (!ctx->comms)
        return;
    for (int i = 0; i < RMP_MAX_COMMS; i++) {
        free(ctx->comms[i].world);
        free(ctx->comms[i].lworld);
        free(ctx->comms[i].topo);
    }
    free(ctx->comms);
    ctx->comms = NULL;
    hpool_fini(&ctx->comm_pool);
}

int comm_create(const int *world, int n, int rank, uint32_t ctx_id, rmp_comm_t *out)
{
    rmp_ctx_t *ctx = &rmp_ctx;
    int rc = RMP_ERR_NO_MEM;
    ctx_lock(ctx);
    int h = hpool_get(&ctx->comm_pool);
    if (h >= 0) {
        rc = comm_fill(&ctx->comms[h], h, world, n, rank, ctx_id);
        if (rc == RMP_SUCCESS)
            *out = h;
        else
            hpool_put(&ctx->comm_pool, h);
    }
    ctx_unlock(ctx);
    if (rc == RMP_ERR_NO_MEM)
        core_error(ctx, "cannot create a communicator: %d already exist (free unused ones)",
                   RMP_MAX_COMMS);
    return rc;
}

void comm_release_locked(comm_t *c)
{
    objmeta_forget(OBJ_COMM, c->handle); /* its name and hints go with it */
    bsend_comm_release(&rmp_ctx, c);
    if (c->dyn)
        dyn_ref_locked(&rmp_ctx, c->world, c->size, -1);
    free(c->world);
    free(c->lworld);
    free(c->topo);
    int h = c->handle;
    memset(c, 0, sizeof(*c));
    if (h >= 2) /* WORLD and SELF are not the pool's */
        hpool_put(&rmp_ctx.comm_pool, h);
}

void comm_inherit_session(rmp_comm_t parent, rmp_comm_t child)
{
    ctx_lock(&rmp_ctx);
    comm_t *p = comm_get(parent), *c = comm_get(child);
    if (p && c)
        c->session = p->session;
    ctx_unlock(&rmp_ctx);
}

void comm_hold(comm_t *c)
{
    c->busy++;
}

void comm_unhold(comm_t *c)
{
    if (--c->busy == 0 && c->freed)
        c->freed(c);
}

int comm_rank_of_world(const comm_t *c, int w)
{
    for (int i = 0; i < c->size; i++)
        if (c->world[i] == w)
            return i;
    return -1;
}

int rmp_comm_rank(rmp_comm_t comm, int *rank)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    if (!rank)
        return RMP_ERR_ARG;
    *rank = c->rank;
    return RMP_SUCCESS;
}

int rmp_comm_size(rmp_comm_t comm, int *size)
{
    int rc = ctx_check();
    if (rc)
        return rc;
    comm_t *c = comm_get(comm);
    if (!c)
        return RMP_ERR_COMM;
    if (!size)
        return RMP_ERR_ARG;
    *size = c->lworld ? c->lsize : c->size; /* an intercommunicator: its local group */
    return RMP_SUCCESS;
}
