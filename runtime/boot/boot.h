/* boot.h — starting and ending the runtime: holding it (init.c: rmp_init and sessions), the
 * PMIx bootstrap and modex (bootstrap.c), rmp_finalize's barrier (fin_barrier.c), and the
 * core's side of the transports (transports.c: open, wire-up, close, the upcalls they make). */
#ifndef RMP_BOOT_H
#define RMP_BOOT_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

/* ---- Holding the runtime (init.c): rmp_init and sessions ---- */
/* Start it, or count one more holder of the running one (*provided: its level). */
int rt_hold(int required, int *provided);
/* One holder less; the last one finalizes (collective over the job, as rmp_finalize). */
int rt_release(void);
/* Sessions (session.c): RMP_SUCCESS when s is a live session; the index of a process set's
 * name in "mpi://WORLD", "mpi://SELF", "rmp://node" (case does not matter: MPICH's
 * session_self asks for "mpi://self"), or -1. */
int session_check(rmp_session_t s);
int session_pset_index(const char *name);

/* ---- Bootstrap (bootstrap.c) ---- */
int boot_init(rmp_ctx_t *c);
int boot_put(rmp_ctx_t *c, const char *key, const void *blob, size_t len);
int boot_fence(rmp_ctx_t *c);   /* commit + fence collecting the modex */
int boot_barrier(rmp_ctx_t *c); /* fence without data */
/* A rank whose start-up failure is the consequence of another rank's (that rank says why):
 * under mrun, waits up to a second for mrun to end it, so that mrun and the program of the
 * rank that explains are the only ones to speak. Returns at once under other launchers. */
void boot_await_end(rmp_ctx_t *c);
int boot_get(rmp_ctx_t *c, int peer, const char *key, const void **blob_p, size_t *len_p);
/* Ends the job: code is what the program passed to rmp_abort (reported to mrun), status what
 * the launcher and this process's exit report (rmp_abort's mapping). Never returns. */
void boot_abort(rmp_ctx_t *c, int code, int status, const char *msg);
/* Tells the launcher (mrun) that this rank's errors from now on follow world rank peer's
 * failure, so that the job's failure is blamed on the peer. */
void boot_peer_failed(rmp_ctx_t *c, int peer);
void boot_finalize(rmp_ctx_t *c);
/* fin_barrier.c: rmp_finalize's barrier over the transports, progressing while it waits (lock
 * NOT held): every rank entered rmp_finalize when it returns. A failed peer's error, after
 * the rounds went on without it. */
int fin_barrier(rmp_ctx_t *c);
/* node[w] = world rank w's node id (tp_env_t.node says what -1 means). */
void boot_node_map(rmp_ctx_t *c, int *node);
/* Peer's modex blob published by transport `name` (valid until rmp_finalize). */
int core_modex_get(rmp_ctx_t *c, int peer, const char *name, const void **blob_p,
                   size_t *len_p);

/* ---- A spawn's children through the launcher's PMIx server (spawn_pmix.c) ---- */
typedef struct boot_app {
    const char *cmd;
    char *const *argv; /* argv[0] first, NULL-terminated */
    char *const *env;  /* VAR=VALUE the children get on top of the launcher's environment */
    const char *cwd;   /* NULL: the launcher's */
    int maxprocs;
} boot_app_t;
/* PMIx_Spawn of one app: the children's namespace in nspace. RMP_ERR_SPAWN, said with the
 * server's name and PMIx's status, when the server refuses (or there is none: a singleton). */
int boot_spawn(rmp_ctx_t *c, const boot_app_t *app, char *nspace, size_t len);

/* ---- The transports (transports.c): the core's side of transport/transport.h ---- */
/* Routes (which transport may serve which peer: decided here, once), environments, open and
 * publish in the modex. */
int tps_open(rmp_ctx_t *c);
/* After the modex fence: every transport's wireup, then each peer's transport. */
int tps_wireup(rmp_ctx_t *c);
/* Lock held: open a transport after init (dynamic peers' sock), with no routes of the world;
 * it joins c->tps (closed with the others). */
int tps_open_late(rmp_ctx_t *c, const tp_ops_t *ops, tp_t **tp_p);
void tps_close(rmp_ctx_t *c, bool orderly);
/* rmp_abort: only what would outlive the process (tp_ops_t.abandon). */
void tps_abandon(rmp_ctx_t *c);

/* ---- Upcalls from the transports (through transports.c's tp_upcalls_t) ---- */
/* An arrival from world rank src (protocol.c). */
void core_deliver(rmp_ctx_t *c, int src, const void *data, size_t len);
/* An asynchronous get() finished (rendezvous.c). */
void core_get_done(rmp_ctx_t *c, void *cookie, int status);
/* A peer failed: fail everything pending with it (fault.c). */
void core_peer_failed(rmp_ctx_t *c, int peer, int status, const char *why);
/* A wait at now_us (monotonic us) that outlived a peer's failure by FAULT_GRACE_S: the job
 * cannot end by itself, this rank ends it (fault.c; does not return then). */
void fault_wait_check(rmp_ctx_t *c, double now_us);

#endif
