/* bsend.h — buffered sends' teardown (bsend.c): the buffers of the process, of a freed
 * communicator and of a finalized session are released once their messages left. */
#ifndef RMP_BSEND_H
#define RMP_BSEND_H

#include "ctx.h"

/* ---- Buffered sends (bsend.c) ---- */
/* At teardown, after finalize delivered every message: release the attached buffer's record
 * (the memory is the user's). */
void bsend_fini(rmp_ctx_t *c);
/* A communicator goes (lock held): its buffer is detached, kept until its messages left. */
void bsend_comm_release(rmp_ctx_t *ctx, comm_t *c);
/* A session is finalized (lock held): its buffer likewise. */
void bsend_session_release(rmp_ctx_t *ctx, int session);

#endif
