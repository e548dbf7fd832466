/* rmp/rmp_dynamic.h — dynamic processes: ports, connect/accept, join, spawn.
 * Part of the native API: programs include <rmp.h>, which includes this. */
#ifndef RMP_API_DYNAMIC_H
#define RMP_API_DYNAMIC_H

/* ---- Dynamic processes (issue 37): ports, connect/accept, join ----
 * A port is a listening socket in the user's private directory ($TMPDIR or /tmp, rmp-<uid>,
 * mode 0700); its name, "rmp-port:unix:<socket path>", is how another job of the same user on
 * this machine reaches it (both ends check the other's user: another user cannot connect). The
 * intercommunicator's traffic goes over such sockets between the processes. */
#define RMP_MAX_PORT_NAME 256
/* A new port; port_name gets its name (RMP_MAX_PORT_NAME bytes). info: hints, none read. */
int rmp_open_port(rmp_info_t info, char *port_name);
/* RMP_ERR_PORT when port_name is not a port this process opened (or is closed already). */
int rmp_close_port(const char *port_name);
/* Collective over the intracommunicator comm; port_name is read at root only. An
 * intercommunicator to the group that called rmp_comm_connect on that port, or RMP_ERR_PORT
 * on every rank of comm (not my port, nobody came within the timeout: info key "timeout" in
 * seconds, else RMP_PORT_TIMEOUT). */
int rmp_comm_accept(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                    rmp_comm_t *newcomm);
/* The other side: RMP_ERR_PORT on every rank of comm when the name is not a port name, the
 * port is closed or another user's, or nobody accepted in time. */
int rmp_comm_connect(const char *port_name, rmp_info_t info, int root, rmp_comm_t comm,
                     rmp_comm_t *newcomm);
/* An intercommunicator between this process and the one at the other end of the connected
 * stream socket fd (each calls it): the two swap port names over fd, the lower accepts. */
int rmp_comm_join(int fd, rmp_comm_t *intercomm);
/* Starts maxprocs copies of command (argv: its arguments, NULL-terminated, or NULL) as a new
 * job of their own (a child mrun, in the process group of the root: a parent that ends takes
 * its children with it), and returns the intercommunicator to them. Collective over comm;
 * command, argv, maxprocs and info are read at root only. info keys: "wdir" (the children's
 * directory), "path" (':'-separated directories searched for command before $PATH), "host"
 * (only this machine: "localhost" or its name), "soft" (the counts allowed, MPI triplets as "1:8:2,16": rmp
 * starts the largest one allowed, the children left out get RMP_ERR_SPAWN in errcodes),
 * "timeout" (seconds the children may take to connect, else RMP_PORT_TIMEOUT) and
 * "rmp_env" ("VAR=VALUE" entries separated by newlines, set in the children's environment);
 * "file" and "arch" give RMP_ERR_SPAWN, any other key is ignored (MPI-4.0 10.3.4). errcodes
 * (maxprocs entries, or NULL): each child's outcome, on every rank. RMP_ERR_SPAWN on every rank of comm when the children cannot be started,
 * with one line naming the command. The launcher is $RMP_MRUN, else the mrun that started
 * this job, else mrun on $PATH, else the one installed beside librmp. */
int rmp_comm_spawn(const char *command, char *const argv[], int maxprocs, rmp_info_t info,
                   int root, rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[]);
/* Names for ports, shared by every job of this user on this machine (also jobs under separate
 * mruns, or none): a file per service under the private directory of ports, names/<service>,
 * holding the port name. Publishing a service published already replaces it; a process's
 * names are unpublished at its rmp_finalize. service: 1..RMP_MAX_INFO_VAL bytes, no '/'
 * (RMP_ERR_ARG). Lookup of an unknown service: RMP_ERR_NAME; unpublish: RMP_ERR_SERVICE. */
int rmp_publish_name(const char *service, rmp_info_t info, const char *port_name);
int rmp_unpublish_name(const char *service, rmp_info_t info, const char *port_name);
int rmp_lookup_name(const char *service, rmp_info_t info, char *port_name);
/* rmp_comm_spawn of count apps at once, all children in one world (app i's ranks after app
 * i-1's; each child's app number in RMP_APPNUM, MPI_APPNUM's value). argvs and infos may be
 * NULL; errcodes has one entry per child of all apps. */
int rmp_comm_spawn_multiple(int count, char *const commands[], char *const *const argvs[],
                            const int maxprocs[], const rmp_info_t infos[], int root,
                            rmp_comm_t comm, rmp_comm_t *intercomm, int errcodes[]);
/* In a spawned job, the intercommunicator to the parents (its first call is collective over
 * RMP_COMM_WORLD: MPI_Init makes it); elsewhere RMP_COMM_NULL. */
int rmp_comm_get_parent(rmp_comm_t *parent);
/* The processes this job may have in all, spawned children included (MPI_UNIVERSE_SIZE):
 * RMP_UNIVERSE_SIZE, which mrun sets for its ranks (--universe-size N, else the slots it knows
 * of: -H's, else the CPUs, and at least -n), and which spawned jobs inherit; never less than the
 * size of RMP_COMM_WORLD (a singleton or a launcher that does not say: the world). */
int rmp_universe_size(int *size);

#endif
