/* guard.h: who may connect to mrun's PMIx server: only sockets that the kernel says belong to
 * mrun's own uid (see guard.c for why and how). */
#ifndef MRUN_GUARD_H
#define MRUN_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

/* Turns the check on, before the PMIx server starts; false if it cannot work in this build
 * (accept is not bound to mrun's own), in which case no job may run. */
bool guard_enable(void);

/* A further check for connections of the right uid, on PMIx's listener thread: admit(fd)
 * false closes the connection before PMIx sees it. NULL: none. */
void guard_set_admit(bool (*admit)(int fd));

/* The uid owning the other end of a connected TCP socket (sock_diag); 0 or an errno. */
int guard_peer_uid(int fd, uid_t *uid);

#endif
