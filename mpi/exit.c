/* exit.c — a program that returns 0 from main (or calls exit(0)) after MPI_Init without
 * calling MPI_Finalize is finalized on its way out, as MPICH tolerates: some benchmarks
 * (OSU's osu_latency_mt) end that way, and mrun would otherwise end the job as failed. The
 * handler runs before rmp's own exit handlers (registered during rmp_init, so run after it).
 * A non-zero status does nothing: the rank failed, and the launcher ends the job as usual. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "rmpi.h"

static void rmpi_exit_finalize(int status, void *arg)
{
    (void)arg;
    int up = 0;
    if (status != 0 || rmp_initialized(&up) != RMP_SUCCESS || !up)
        return;
    int rc = rmp_finalize();
    if (rc != RMP_SUCCESS)
        fprintf(stderr,
                "rmp: exit without MPI_Finalize: finalizing on exit failed (%s); the launcher "
                "will end the job. Call MPI_Finalize before returning from main.\n",
                rmp_strerror(rc));
}

static void rmpi_exit_register_once(void)
{
    if (on_exit(rmpi_exit_finalize, NULL) != 0)
        fprintf(stderr, "rmp: on_exit failed: a program that exits without MPI_Finalize will "
                        "be reported as failed by the launcher\n");
}

void rmpi_exit_register(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, rmpi_exit_register_once);
}
