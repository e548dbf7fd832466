/* mpi_io.h — what the MPI-IO test programs share: a fresh directory per run (rank 0's pid,
 * broadcast; removed at the end), file names in it, and the expected error class of a call. */
#ifndef RMP_TEST_MPI_IO_H
#define RMP_TEST_MPI_IO_H

#include <dirent.h>
#include <sys/stat.h>

#include "mpicheck.h"

static char io_dir[256];

static void io_dir_make(void)
{
    int pid = (int)getpid();
    MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
    const char *tmp = getenv("TMPDIR");
    snprintf(io_dir, sizeof io_dir, "%s/rmp-io-%d", tmp && *tmp ? tmp : "/tmp", pid);
    if (mc_rank == 0 && mkdir(io_dir, 0700) != 0)
        FAIL("mkdir %s", io_dir);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void io_dir_remove(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (mc_rank != 0)
        return;
    DIR *d = opendir(io_dir);
    struct dirent *e;
    char p[600];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", io_dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(io_dir);
}

/* A file name in the run's directory. */
static const char *io_path(const char *name)
{
    static char p[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(p[k], sizeof p[k], "%s/%s", io_dir, name);
    return p[k];
}

/* call must fail with error class cls. */
#define EXPECT_CLASS(call, cls)                                                                \
    do {                                                                                       \
        int rc_ = (call), c_ = -1;                                                             \
        MPI_Error_class(rc_, &c_);                                                             \
        if (c_ != (cls))                                                                       \
            FAIL("%s:%d: %s gave class %d (code %d), expected %s (%d)", __FILE__, __LINE__,    \
                 #call, c_, rc_, #cls, cls);                                                   \
    } while (0)

#endif
