/* env.c — MPI's environment calls (init, finalize, thread level, abort, clocks, names and
 * versions, memory) over rmp's. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rmpi.h"

/* The thread that initialized, for MPI_Is_thread_main: written once by init, before any other
 * thread may call MPI (MPI's rule), read after. */
static pthread_t rmpi_main_thread;
static atomic_bool rmpi_main_known;

static void rmpi_note_main(void)
{
    rmpi_main_thread = pthread_self();
    atomic_store(&rmpi_main_known, true);
}

/* A spawned job meets its parents in MPI_Init (collective over the world), so that
 * MPI_Comm_get_parent is local as MPI says. */
static int rmpi_meet_parent(void)
{
    rmp_comm_t parent;
    return rmp_comm_get_parent(&parent);
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = rmp_init(argc, argv);
    if (rc == RMP_SUCCESS) {
        rmpi_note_main();
        rmpi_exit_register();
        rc = rmpi_meet_parent();
    }
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    if (!provided)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    int rc = rmp_init_thread(argc, argv, required, provided);
    if (rc == RMP_SUCCESS) {
        rmpi_note_main();
        rmpi_exit_register();
        rc = rmpi_meet_parent();
    }
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* MPI_COMM_SELF's attributes are deleted first (MPI-3.1 8.7.1: libraries hook their cleanup
 * there), then MPI_COMM_WORLD's. */
int MPI_Finalize(void)
{
    int up = 0;
    if (rmp_initialized(&up) == RMP_SUCCESS && up) {
        int code = rmpi_attr_finalize();
        if (code != MPI_SUCCESS)
            return rmpi_raise_code(MPI_COMM_WORLD, code, __func__);
    }
    return rmpi_raise(MPI_COMM_WORLD, rmp_finalize(), __func__);
}

int MPI_Initialized(int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_initialized(flag), __func__);
}

int MPI_Finalized(int *flag)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_finalized(flag), __func__);
}

int MPI_Query_thread(int *provided)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_query_thread(provided), __func__);
}

int MPI_Is_thread_main(int *flag)
{
    int up = 0;
    int rc = rmp_initialized(&up);
    if (rc == RMP_SUCCESS && !up)
        rc = RMP_ERR_NOT_INITIALIZED;
    if (rc == RMP_SUCCESS && !flag)
        rc = RMP_ERR_ARG;
    if (rc != RMP_SUCCESS)
        return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
    *flag = atomic_load(&rmpi_main_known) && pthread_equal(rmpi_main_thread, pthread_self());
    return MPI_SUCCESS;
}

/* rmp ends the whole job whatever comm is (MPI allows that). */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
    return rmpi_raise(comm, rmp_abort(comm, errorcode), __func__);
}

double MPI_Wtime(void)
{
    return rmp_wtime();
}

double MPI_Wtick(void)
{
    return rmp_wtick();
}

int MPI_Get_processor_name(char *name, int *resultlen)
{
    if (!name || !resultlen)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    if (gethostname(name, MPI_MAX_PROCESSOR_NAME) != 0) {
        perror("rmp: MPI_Get_processor_name: gethostname");
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_OTHER, __func__);
    }
    name[MPI_MAX_PROCESSOR_NAME - 1] = '\0'; /* gethostname need not terminate a cut name */
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

/* Callable before MPI_Init and after MPI_Finalize, like the standard says. */
int MPI_Get_version(int *version, int *subversion)
{
    if (!version || !subversion)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int MPI_Get_library_version(char *version, int *resultlen)
{
    if (!version || !resultlen)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING,
                     "rmp %s (MPI %d.%d subset through rmp/mpi.h)", rmp_get_version(NULL, NULL, NULL),
                     MPI_VERSION, MPI_SUBVERSION);
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

/* rmp registers memory on demand, so any memory serves: MPI_Alloc_mem is malloc. */
int MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    if (rmpi_info_check(info) != MPI_SUCCESS) /* hints: any valid info, none used */
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_INFO, __func__);
    if (size < 0 || !baseptr)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    void *p = malloc(size ? (size_t)size : 1);
    if (!p)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_NO_MEM, __func__);
    memcpy(baseptr, &p, sizeof p); /* baseptr is a void ** passed as void * */
    return MPI_SUCCESS;
}

int MPI_Free_mem(void *base)
{
    free(base);
    return MPI_SUCCESS;
}
