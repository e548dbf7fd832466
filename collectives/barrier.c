/* barrier.c — dissemination barrier: in round k every rank signals rank+2^k and waits for
 * rank-2^k, so after ceil(log2 n) rounds everyone has heard, indirectly, from everyone. */
#include "coll.h"

int rmp_barrier(rmp_comm_t comm)
{
    coll_t cl;
    int err = coll_comm(comm, &cl);
    if (err)
        return err;
    coll_start(&cl);
    /* Rounds need no tag of their own: within one barrier each round has a distinct peer. */
    for (int k = 1; k < cl.size && !err; k <<= 1)
        err = coll_sendrecv(&cl, NULL, 0, (cl.rank + k) % cl.size, NULL, 0,
                            (cl.rank - k + cl.size) % cl.size);
    return err;
}
