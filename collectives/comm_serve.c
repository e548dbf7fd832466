/* comm_serve.c — the collectives comm/ runs (comm/comm_coll.h): comm/ sits below this layer
 * and never calls up, so this file fills its table when the library is loaded, before any
 * call can make a communicator. A file of its own: the collectives it names call coll.c, and
 * nothing calls this one (no knot). */
#include "coll.h"

__attribute__((constructor)) static void coll_serve_comm(void)
{
    comm_coll = (comm_coll_ops_t){.barrier = rmp_barrier, .bcast = rmp_bcast,
                                  .allreduce = rmp_allreduce, .gather = rmp_gather,
                                  .allgather = rmp_allgather, .alltoall = rmp_alltoall,
                                  .alltoallv = rmp_alltoallv,
                                  .comm_free = coll_offload_comm_free};
}
