/* dynpeer.h — processes of other jobs met after init: their world ids (dynpeer.c), the ports
 * this process opened (dynport.c) and the names it published (dynname.c). */
#ifndef RMP_DYNPEER_H
#define RMP_DYNPEER_H

#include <stddef.h>
#include <sys/types.h>

#include "ctx.h"

/* ---- Dynamic peers (dynpeer.c): processes of other jobs met after init ---- */
/* My endpoint's address (opens the sock transport on first call); lock NOT held. */
int dyn_my_addr(rmp_ctx_t *c, char *addr, size_t len);
/* Lock held: the world id of the process at endpoint addr, made if new (-1: no room). */
int dyn_peer_locked(rmp_ctx_t *c, const char *addr);
/* Lock held: communicators naming the ids of world[0..n-1] come (+1) or go (-1); a dynamic
 * peer that no communicator names any more is let go (its connections closed). */
void dyn_ref_locked(rmp_ctx_t *c, const int *world, int n, int delta);
/* A dynamic peer's endpoint address as its modex blob (core_modex_get for ids >= size). */
int dyn_modex_get(rmp_ctx_t *c, int peer, const void **blob_p, size_t *len_p);
void dyn_fini(rmp_ctx_t *c);
/* Ports (dynport.c; lock NOT held): a listening socket named by a port name of the form
 * DYN_PORT_PREFIX<socket path>, at most RMP_MAX_PORT_NAME bytes with its NUL. */
#define DYN_PORT_PREFIX "rmp-port:unix:"
int dyn_port_open(rmp_ctx_t *c, char *name);
int dyn_port_close(rmp_ctx_t *c, const char *name);
/* The listening socket of my open port `name`, or -1 (RMP_ERR_PORT: not one of mine). */
int dyn_port_fd(rmp_ctx_t *c, const char *name);
/* The socket path a port name carries, or NULL when the name is not a port name. */
const char *dyn_port_path(const char *name);
void dyn_port_fini(rmp_ctx_t *c);
void dyn_name_fini(rmp_ctx_t *c); /* unpublishes what this process published */
/* A spawned job's launcher (comm/spawn.c), reaped at teardown (bounded). */
void dyn_child_add(rmp_ctx_t *c, pid_t pid);
void dyn_port_abandon(rmp_ctx_t *c); /* rmp_abort: their names go, nothing else */
/* Close them all; orderly: every peer passed the rmp_finalize barrier (else abandon first). */

#endif
