/* pcontrol.c — MPI_Pcontrol (MPI-3.1 14.2.4): the call a program makes to steer a profiling
 * tool linked ahead of librmp-mpi; the library itself ignores it ("MPI libraries themselves
 * make no use of this routine, and simply return immediately to the user code"). */
#include "rmpi.h"

int MPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
