/* port.h — the meeting of two groups through a port (port.c), which rmp_comm_accept/connect
 * and rmp_comm_spawn (spawn.c) share. */
#ifndef RMP_PORT_H
#define RMP_PORT_H

#include <stdbool.h>
#include <sys/types.h>

#include "core.h"

/* Collective over the intracommunicator comm: the intercommunicator to the group that meets
 * this one on port (read at root), this group accepting or connecting. child (acceptor's root,
 * else 0): a process whose end before the other group came is RMP_ERR_SPAWN (spawn's
 * launcher). Every rank of comm gets the same outcome. */
int port_meet(const char *port, rmp_info_t info, int root, rmp_comm_t comm, bool acceptor,
              pid_t child, rmp_comm_t *newcomm);

#endif
