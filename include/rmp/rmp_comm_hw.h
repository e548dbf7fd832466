/* rmp/rmp_comm_hw.h — splits by hardware resource (MPI-4.0's MPI_COMM_TYPE_HW_GUIDED and
 * _HW_UNGUIDED) beside rmp_comm_split_type. Included by rmp.h. */
#ifndef RMP_COMM_HW_H
#define RMP_COMM_HW_H

#define RMP_COMM_TYPE_HW_GUIDED 2   /* by the resource info "mpi_hw_resource_type" names */
#define RMP_COMM_TYPE_HW_UNGUIDED 3 /* by the largest resource that splits comm */

/* rmp_comm_split_type with hardware types. The one resource rmp knows is the node (its
 * shared memory, "mpi_shared_memory"; under mrun --nodes K a virtual node): HW_GUIDED with
 * info "mpi_hw_resource_type" = "mpi_shared_memory" is RMP_COMM_TYPE_SHARED; another value,
 * or none, gives RMP_COMM_NULL. HW_UNGUIDED gives the node's ranks when that is fewer than
 * comm's (and sets "mpi_hw_resource_type" in info, when info is not RMP_INFO_NULL), else
 * RMP_COMM_NULL: no smaller resource is split by. RMP_COMM_TYPE_SHARED and RMP_UNDEFINED as
 * rmp_comm_split_type (info unused). Collective over comm. */
int rmp_comm_split_type_info(rmp_comm_t comm, int split_type, int key, rmp_info_t info,
                             rmp_comm_t *newcomm);

#endif
