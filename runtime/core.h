/* core.h — the runtime's internal view, as one include: each module's header, which says
 * what it owns (ctx.h the context; dtype.h, op.h datatypes and reductions; comm.h, request.h,
 * p2p_int.h communicators, requests and the internal point-to-point; progress.h, bsend.h, boot.h,
 * dynpeer.h the engine, start-up and dynamic peers). Status codes are the public RMP_* ones plus
 * RMP_AGAIN and RMP_INPROGRESS (transport/transport.h); never exposed to users. */
#ifndef RMP_CORE_H
#define RMP_CORE_H

#include "boot.h"
#include "bsend.h"
#include "comm.h"
#include "ctx.h"
#include "dtype.h"
#include "dynpeer.h"
#include "log.h"
#include "op.h"
#include "p2p_int.h"
#include "progress.h"
#include "request.h"

#endif
