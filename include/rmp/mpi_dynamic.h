/* mpi_dynamic.h — MPI's dynamic-process calls rmp has (issue 37): ports, accept/connect, join
 * and spawn; included by mpi.h (tools/gen-pmpi gives each its PMPI_ twin). The native calls
 * underneath are rmp.h's rmp_open_port ... rmp_comm_join. */
#ifndef RMP_MPI_DYNAMIC_H
#define RMP_MPI_DYNAMIC_H

#define MPI_MAX_PORT_NAME RMP_MAX_PORT_NAME
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

int MPI_Open_port(MPI_Info info, char *port_name);
int MPI_Close_port(const char *port_name);
int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *newcomm);
int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm);
int MPI_Comm_join(int fd, MPI_Comm *intercomm);
/* rmp_publish_name (rmp.h): the names' scope and where they live. */
int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name);
int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name);
int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name);
/* rmp_comm_spawn (rmp.h) says how the children start, and the info keys. */
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[]);
int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[],
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int array_of_errcodes[]);
/* MPI_COMM_NULL in a process MPI_Comm_spawn did not start. */
int MPI_Comm_get_parent(MPI_Comm *parent);

#endif
