/* port.h — the meeting of two groups through a port (port.c), which rmp_comm_accept/connect
 * and rmp_comm_spawn (spawn.c) share. */
#ifndef RMP_PORT_H
#define RMP_PORT_H

#include <stdbool.h>
#include <sys/types.h>

#include "core.h"

/* The launcher of a spawn's children, watched while they are awaited: its end before they
 * connected is RMP_ERR_SPAWN. fd: a pidfd (-1: nothing to watch: a launcher that is not on
 * this machine, whose children are awaited until the timeout); mine: pid is this process's
 * child (its status can be told); what: how to name it. */
typedef struct port_child {
    int fd;
    pid_t pid;
    bool mine;
    const char *what;
} port_child_t;

/* Collective over the intracommunicator comm: the intercommunicator to the group that meets
 * this one on port (read at root), this group accepting or connecting. child (acceptor's root
 * in a spawn, else NULL): the children's launcher. Every rank of comm gets the same outcome. */
int port_meet(const char *port, rmp_info_t info, int root, rmp_comm_t comm, bool acceptor,
              const port_child_t *child, rmp_comm_t *newcomm);

#endif
