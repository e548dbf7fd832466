/* predef.c — MPI's calls on the predefined types and ops: MPI_Reduce_local, MPI_Op_commutative,
 * MPI_Type_match_size and MPI_Type_create_f90_integer/real/complex. Each is rmp's call; errors
 * are raised on MPI_COMM_WORLD's handler (none of these has a communicator). */
#include "rmpi.h"

int MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_reduce_local(inbuf, inoutbuf, count, datatype, op),
                      __func__);
}

int MPI_Op_commutative(MPI_Op op, int *commute)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_op_commutative(op, commute), __func__);
}

int MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_match_size(typeclass, size, datatype), __func__);
}

int MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_create_f90_integer(r, newtype), __func__);
}

int MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_create_f90_real(p, r, newtype), __func__);
}

int MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_type_create_f90_complex(p, r, newtype), __func__);
}
