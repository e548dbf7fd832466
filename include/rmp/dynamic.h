/* rmp/dynamic.h — what a job knows of the processes it may still start (dynamic processes,
 * beside rmp_comm_spawn in rmp.h). Included by rmp.h. */
#ifndef RMP_DYNAMIC_H
#define RMP_DYNAMIC_H

/* The processes this job may have in all, spawned children included (MPI_UNIVERSE_SIZE):
 * RMP_UNIVERSE_SIZE, which mrun sets for its ranks (--universe-size N, else the slots it knows
 * of: -H's, else the CPUs, and at least -n), and which spawned jobs inherit; never less than the
 * size of RMP_COMM_WORLD (a singleton or a launcher that does not say: the world). */
int rmp_universe_size(int *size);

#endif
