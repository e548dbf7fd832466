/* visibility.h — force-included (-include) first in every object of librmp-mpi, which is
 * compiled with -fvisibility=hidden: what mpi.h declares (the MPI_* calls) is exported, the
 * layer's own helpers (rmpi_*) stay inside the library. */
#pragma GCC visibility push(default)
#include "rmp/mpi.h"
#pragma GCC visibility pop
