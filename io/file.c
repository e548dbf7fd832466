/* file.c — the file object's life: open (every amode check, the create on one rank first),
 * close, delete, size, group, amode, sync, atomicity (the table of handles and the errno
 * mapping are table.c's, below every io file). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"


/* MPI-3.1 13.2.1: exactly one of RDONLY, RDWR, WRONLY; no CREATE or EXCL with RDONLY; no
 * SEQUENTIAL with RDWR; no bits MPI does not define. */
static int io_amode_check(int amode)
{
    int acc = amode & (RMP_FMODE_RDONLY | RMP_FMODE_RDWR | RMP_FMODE_WRONLY);
    if (acc != RMP_FMODE_RDONLY && acc != RMP_FMODE_RDWR && acc != RMP_FMODE_WRONLY)
        return RMP_ERR_AMODE;
    if (acc == RMP_FMODE_RDONLY && (amode & (RMP_FMODE_CREATE | RMP_FMODE_EXCL)))
        return RMP_ERR_AMODE;
    if (acc == RMP_FMODE_RDWR && (amode & RMP_FMODE_SEQUENTIAL))
        return RMP_ERR_AMODE;
    if (amode & ~0x1ff)
        return RMP_ERR_AMODE;
    return RMP_SUCCESS;
}

/* ROMIO's file-system prefixes ("ufs:", "nfs:"...) name the driver; rmp has one. */
static const char *io_strip_prefix(const char *path)
{
    static const char *const fs[] = {"ufs:", "nfs:", "tmpfs:", "lustre:", "gpfs:", "pvfs2:",
                                     "xfs:", "testfs:", "panfs:", "daos:"};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        if (strncmp(path, fs[i], strlen(fs[i])) == 0)
            return path + strlen(fs[i]);
    return path;
}

/* This rank's descriptor. Write-only files are opened read-write when allowed, so that data
 * sieving can read what it writes back around; create (and exclusive create) is done by rank 0
 * before the others open. */
static int io_posix_open(io_file_t *f, bool first)
{
    int acc = f->amode & (RMP_FMODE_RDONLY | RMP_FMODE_RDWR | RMP_FMODE_WRONLY);
    int flags = acc == RMP_FMODE_RDONLY ? O_RDONLY : O_RDWR;
    if (first && (f->amode & RMP_FMODE_CREATE))
        flags |= O_CREAT;
    if (first && (f->amode & RMP_FMODE_EXCL))
        flags |= O_EXCL;
    f->fd = open(f->path, flags | O_CLOEXEC, 0666);
    if (f->fd < 0 && acc == RMP_FMODE_WRONLY && (errno == EACCES || errno == EPERM))
        f->fd = open(f->path, (flags & ~O_RDWR) | O_WRONLY | O_CLOEXEC, 0666);
    if (f->fd < 0)
        return io_errno(errno, "open", f->path);
    struct stat sb;
    if (fstat(f->fd, &sb) == 0 && S_ISDIR(sb.st_mode))
        return io_errno(EISDIR, "open", f->path);
    return RMP_SUCCESS;
}

/* The nodes f's ranks are on (the default number of aggregators depends on it). */
static int io_count_nodes(io_file_t *f)
{
    rmp_comm_t node;
    int rc = rmp_comm_split_type(f->comm, RMP_COMM_TYPE_SHARED, 0, &node);
    if (rc != RMP_SUCCESS)
        return rc;
    int r, leader;
    rmp_comm_rank(node, &r);
    leader = r == 0;
    rmp_comm_free(&node);
    rc = rmp_allreduce(&leader, &f->nnodes, 1, RMP_INT, RMP_SUM, f->comm);
    return rc == RMP_SUCCESS ? io_hints_set(f, RMP_INFO_NULL) : rc;
}

static void io_file_free(io_file_t *f)
{
    if (f->fd >= 0)
        close(f->fd);
    io_view_free(&f->view);
    if (f->info != RMP_INFO_NULL)
        rmp_info_free(&f->info);
    if (f->comm != RMP_COMM_NULL)
        rmp_comm_free(&f->comm);
    free(f->path);
    free(f);
}

/* The checks every rank makes alike (so that all return the same error without talking). */
static int io_open_args(rmp_comm_t comm, const char *path, int amode, rmp_info_t info,
                        rmp_file_t *fh)
{
    int size, rsize;
    if (!fh)
        return RMP_ERR_ARG;
    if (rmp_comm_size(comm, &size) != RMP_SUCCESS)
        return RMP_ERR_COMM;
    if (rmp_comm_remote_size(comm, &rsize) == RMP_SUCCESS)
        return RMP_ERR_COMM; /* an intercommunicator */
    if (info != RMP_INFO_NULL) {
        int n;
        if (rmp_info_get_nkeys(info, &n) != RMP_SUCCESS)
            return RMP_ERR_INFO;
    }
    if (!path || !*io_strip_prefix(path))
        return RMP_ERR_BAD_FILE;
    return io_amode_check(amode);
}

static int io_open_local(io_file_t *f, rmp_comm_t comm, const char *path, int amode,
                         rmp_info_t info)
{
    f->fd = f->shfd = -1;
    f->amode = amode;
    f->comm = RMP_COMM_NULL;
    f->info = RMP_INFO_NULL;
    int rc = rmp_comm_dup(comm, &f->comm);
    if (rc != RMP_SUCCESS) {
        f->comm = RMP_COMM_NULL;
        return rc;
    }
    rmp_comm_rank(f->comm, &f->rank);
    rmp_comm_size(f->comm, &f->size);
    f->path = strdup(io_strip_prefix(path));
    if (!f->path)
        return RMP_ERR_NO_MEM;
    rc = io_view_default(&f->view);
    return rc != RMP_SUCCESS ? rc : io_hints_set(f, info);
}

int rmp_file_open(rmp_comm_t comm, const char *path, int amode, rmp_info_t info,
                  rmp_file_t *fh)
{
    int rc = io_open_args(comm, path, amode, info, fh);
    if (rc != RMP_SUCCESS)
        return rc;
    /* every rank the same amode: MPI makes it erroneous otherwise; rmp says so */
    int mm[2] = {amode, -amode}, all[2];
    rc = rmp_allreduce(mm, all, 2, RMP_INT, RMP_MIN, comm);
    if (rc != RMP_SUCCESS)
        return rc;
    if (all[0] != -all[1])
        return RMP_ERR_AMODE;
    io_file_t *f = calloc(1, sizeof *f);
    rc = f ? io_open_local(f, comm, path, amode, info) : RMP_ERR_NO_MEM;
    rc = io_agree(f ? f->comm : comm, rc); /* f->comm failed on no rank, or on all */
    int first = rc, msg[2] = {0, 0};
    if (rc == RMP_SUCCESS && f->rank == 0) {
        first = io_posix_open(f, true);
        msg[0] = first;
        msg[1] = first != RMP_SUCCESS ? io_errno_last() : 0;
    }
    if (rc == RMP_SUCCESS) { /* rank 0's failure, with its errno, for every rank's message */
        rmp_bcast(msg, 2, RMP_INT, 0, f->comm);
        first = msg[0];
        if (f->rank != 0 && first != RMP_SUCCESS && msg[1])
            (void)io_errno(msg[1], "open", f->path);
    }
    rc = first;
    if (rc == RMP_SUCCESS && f->rank != 0)
        rc = io_posix_open(f, false);
    if (first == RMP_SUCCESS) /* f->comm is good on every rank from here */
        rc = io_agree(f->comm, rc);
    if (rc == RMP_SUCCESS)
        rc = io_shared_open(f); /* collective */
    if (first == RMP_SUCCESS)
        rc = io_agree(f->comm, rc);
    if (rc == RMP_SUCCESS)
        rc = io_count_nodes(f);
    if (rc == RMP_SUCCESS && (amode & RMP_FMODE_APPEND)) {
        /* both pointers start at the end (the default view counts bytes) */
        struct stat sb;
        f->pos = fstat(f->fd, &sb) == 0 ? (int64_t)sb.st_size : 0;
        if (f->rank == 0)
            rc = io_shared_set(f, f->pos);
        rc = io_agree(f->comm, rc);
    }
    if (rc == RMP_SUCCESS)
        rc = io_file_put(f, fh);
    if (rc != RMP_SUCCESS && f) {
        io_shared_close(f, f->rank == 0);
        io_file_free(f);
    }
    return rc;
}

int rmp_file_close(rmp_file_t *fh)
{
    io_file_t *f = fh ? io_file_get(*fh) : NULL;
    if (!f)
        return RMP_ERR_FILE;
    if (f->split)
        return RMP_ERR_REQUEST; /* MPI: end the split collective first */
    while (__atomic_load_n(&f->busy, __ATOMIC_SEQ_CST)) {
        /* an I/O thread or a collective's rounds still on it (MPI: erroneous; rmp waits,
         * and a probe makes progress, which the rounds need) */
        int flag;
        (void)rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, f->comm, &flag, NULL);
        sched_yield();
    }
    int rc = RMP_SUCCESS;
    if (f->fd >= 0 && close(f->fd) != 0)
        rc = io_errno(errno, "close", f->path); /* NFS reports a failed write-back here */
    f->fd = -1;
    rc = io_agree(f->comm, rc); /* everyone closed before the file may go */
    if (f->amode & RMP_FMODE_DELETE_ON_CLOSE) { /* gone when close returns, on every rank */
        if (f->rank == 0 && unlink(f->path) != 0 && rc == RMP_SUCCESS)
            rc = io_errno(errno, "unlink", f->path);
        rc = io_agree(f->comm, rc);
    }
    io_shared_close(f, f->rank == 0);
    io_file_drop(*fh);
    io_file_free(f);
    *fh = RMP_FILE_NULL;
    return rc;
}

int rmp_file_delete(const char *path, rmp_info_t info)
{
    if (!path || !*io_strip_prefix(path))
        return RMP_ERR_BAD_FILE;
    if (info != RMP_INFO_NULL) {
        int n;
        if (rmp_info_get_nkeys(info, &n) != RMP_SUCCESS)
            return RMP_ERR_INFO;
    }
    if (unlink(io_strip_prefix(path)) != 0)
        return io_errno(errno, "unlink", io_strip_prefix(path));
    return RMP_SUCCESS;
}

/* size: the same on every rank (else RMP_ERR_ARG on all), a writable file. */
static int io_size_args(io_file_t *f, rmp_offset_t size)
{
    int64_t mm[2] = {size, -size}, all[2];
    int rc = rmp_allreduce(mm, all, 2, RMP_INT64_T, RMP_MIN, f->comm);
    if (rc != RMP_SUCCESS)
        return rc;
    if (size < 0 || all[0] != -all[1])
        return RMP_ERR_ARG;
    if (f->amode & RMP_FMODE_RDONLY)
        return RMP_ERR_READ_ONLY;
    if (f->amode & RMP_FMODE_SEQUENTIAL)
        return RMP_ERR_NOT_SUPPORTED;
    return RMP_SUCCESS;
}

int rmp_file_set_size(rmp_file_t fh, rmp_offset_t size)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int rc = io_size_args(f, size);
    if (rc == RMP_SUCCESS && f->rank == 0 && ftruncate(f->fd, (off_t)size) != 0)
        rc = io_errno(errno, "ftruncate", f->path);
    return io_agree(f->comm, rc);
}

int rmp_file_preallocate(rmp_file_t fh, rmp_offset_t size)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int rc = io_size_args(f, size);
    if (rc == RMP_SUCCESS && f->rank == 0 && size > 0) {
        int e = posix_fallocate(f->fd, 0, (off_t)size); /* grows only, as MPI asks */
        if (e != 0)
            rc = io_errno(e, "posix_fallocate", f->path);
    }
    return io_agree(f->comm, rc);
}

int rmp_file_get_size(rmp_file_t fh, rmp_offset_t *size)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!size)
        return RMP_ERR_ARG;
    struct stat sb;
    if (fstat(f->fd, &sb) != 0)
        return io_errno(errno, "fstat", f->path);
    *size = (rmp_offset_t)sb.st_size;
    return RMP_SUCCESS;
}

int rmp_file_get_group(rmp_file_t fh, rmp_group_t *group)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    return group ? rmp_comm_group(f->comm, group) : RMP_ERR_ARG;
}

int rmp_file_comm(rmp_file_t fh, rmp_comm_t *comm)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!comm)
        return RMP_ERR_ARG;
    *comm = f->comm;
    return RMP_SUCCESS;
}

int rmp_file_get_amode(rmp_file_t fh, int *amode)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!amode)
        return RMP_ERR_ARG;
    *amode = f->amode;
    return RMP_SUCCESS;
}

int rmp_file_sync(rmp_file_t fh)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int rc = RMP_SUCCESS;
    if (f->amode & RMP_FMODE_RDONLY)
        rc = RMP_SUCCESS; /* nothing of ours to flush; still collective */
    else if (fsync(f->fd) != 0)
        rc = io_errno(errno, "fsync", f->path);
    return io_agree(f->comm, rc);
}

int rmp_file_set_atomicity(rmp_file_t fh, int flag)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int mm[2] = {!!flag, -!!flag}, all[2];
    int rc = rmp_allreduce(mm, all, 2, RMP_INT, RMP_MIN, f->comm);
    if (rc != RMP_SUCCESS)
        return rc;
    if (all[0] != -all[1])
        return RMP_ERR_ARG;
    f->atomic = !!flag;
    return RMP_SUCCESS;
}

int rmp_file_get_atomicity(rmp_file_t fh, int *flag)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!flag)
        return RMP_ERR_ARG;
    *flag = f->atomic;
    return RMP_SUCCESS;
}
