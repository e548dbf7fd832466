/* mpi_dynamic.h — the constants of MPI's dynamic-process calls (issue 37: ports,
 * accept/connect, join and spawn), included by mpi.h before the calls' prototypes (generated
 * from api/mpi.api into mpi_proto.h). */
#ifndef RMP_MPI_DYNAMIC_H
#define RMP_MPI_DYNAMIC_H

#define MPI_MAX_PORT_NAME RMP_MAX_PORT_NAME
#define MPI_ARGV_NULL ((char **)0)
#define MPI_ARGVS_NULL ((char ***)0)
#define MPI_ERRCODES_IGNORE ((int *)0)

#endif
