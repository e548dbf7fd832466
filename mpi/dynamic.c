/* dynamic.c — MPI's ports, accept/connect and join over rmp's (comm/port.c). A call
 * with no communicator raises on MPI_COMM_SELF (MPI-4.0 9.3: errors not tied to an object);
 * accept and connect on comm, whose handler the new intercommunicator inherits. */
#include "rmpi.h"

int MPI_Open_port(MPI_Info info, char *port_name)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_open_port(info, port_name), __func__);
}

int MPI_Close_port(const char *port_name)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_close_port(port_name), __func__);
}

/* The outcome rc of a call on comm that made the intercommunicator *newcomm. */
static int made_inter(MPI_Comm comm, int rc, const MPI_Comm *newcomm, const char *call)
{
    if (rc == RMP_SUCCESS)
        rmpi_errh_inherit(comm, *newcomm);
    return rmpi_raise(comm, rc, call);
}

int MPI_Comm_accept(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                    MPI_Comm *newcomm)
{
    return made_inter(comm, rmp_comm_accept(port_name, info, root, comm, newcomm), newcomm,
                      __func__);
}

int MPI_Comm_connect(const char *port_name, MPI_Info info, int root, MPI_Comm comm,
                     MPI_Comm *newcomm)
{
    return made_inter(comm, rmp_comm_connect(port_name, info, root, comm, newcomm), newcomm,
                      __func__);
}

int MPI_Comm_join(int fd, MPI_Comm *intercomm)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_comm_join(fd, intercomm), __func__);
}

/* The n children's codes as MPI's: the call's code where it failed; where it succeeded, the
 * native per-child outcome (MPI_ERR_SPAWN for a child info "soft" left out). */
static void child_codes(int errcodes[], int n, int rc, int code)
{
    for (int i = 0; errcodes && i < n; i++)
        errcodes[i] = rc ? code : rmpi_code(errcodes[i]);
}

int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root,
                   MPI_Comm comm, MPI_Comm *intercomm, int array_of_errcodes[])
{
    int rc = rmp_comm_spawn(command, argv, maxprocs, info, root, comm, intercomm,
                            array_of_errcodes);
    int code = made_inter(comm, rc, intercomm, __func__);
    child_codes(array_of_errcodes, maxprocs, rc, code); /* (maxprocs: the root's) */
    return code;
}

int MPI_Comm_spawn_multiple(int count, char *array_of_commands[], char **array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[],
                            int root, MPI_Comm comm, MPI_Comm *intercomm,
                            int array_of_errcodes[])
{
    int rc = rmp_comm_spawn_multiple(count, array_of_commands,
                                     (char *const *const *)array_of_argv, array_of_maxprocs,
                                     array_of_info, root, comm, intercomm, array_of_errcodes);
    int code = made_inter(comm, rc, intercomm, __func__);
    int n = 0;
    for (int i = 0; array_of_maxprocs && i < count; i++)
        n += array_of_maxprocs[i] > 0 ? array_of_maxprocs[i] : 0;
    child_codes(array_of_errcodes, n, rc, code);
    return code;
}

int MPI_Comm_get_parent(MPI_Comm *parent)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_comm_get_parent(parent), __func__);
}

int MPI_Publish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_publish_name(service_name, info, port_name), __func__);
}

int MPI_Unpublish_name(const char *service_name, MPI_Info info, const char *port_name)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_unpublish_name(service_name, info, port_name),
                      __func__);
}

int MPI_Lookup_name(const char *service_name, MPI_Info info, char *port_name)
{
    return rmpi_raise(MPI_COMM_SELF, rmp_lookup_name(service_name, info, port_name), __func__);
}
