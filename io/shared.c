/* shared.c — the shared file pointer: one int64 (in etypes of the view) in a side file beside
 * the file (".<name>.<random tag>.rmpshfp", one per open; in /tmp when that directory cannot
 * be written), read and updated under an fcntl byte-range lock. A lock-protected file rather than an RMA counter:
 * it needs no progress from the other ranks (a rank computing outside rmp does not stall a
 * write_shared), and it works wherever the file's own locks do. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

/* The side file of one open: where = 0 beside the file, 1 in /tmp (named by the file's
 * inode); tag, drawn at random by rank 0, makes it this open's own: two opens of one file (on
 * two communicators, or by two jobs) each have their pointer, and a name another user cannot
 * guess and plant a link at. */
static char *io_shared_path(io_file_t *f, int where, uint64_t tag)
{
    char *p = NULL;
    if (where == 0) {
        const char *slash = strrchr(f->path, '/');
        int dl = slash ? (int)(slash - f->path + 1) : 0;
        if (asprintf(&p, "%.*s.%s.%016llx.rmpshfp", dl, f->path, slash ? slash + 1 : f->path,
                     (unsigned long long)tag) < 0)
            p = NULL;
    } else {
        struct stat sb;
        if (fstat(f->fd, &sb) == 0 &&
            asprintf(&p, "/tmp/.rmpshfp-%lu-%lu-%016llx", (unsigned long)sb.st_dev,
                     (unsigned long)sb.st_ino, (unsigned long long)tag) < 0)
            p = NULL;
    }
    return p;
}

/* Rank 0: a new side file holding 0, O_EXCL on a fresh random tag (never one that exists,
 * never through a link), beside the file or else in /tmp. */
static int io_shared_create(io_file_t *f, int *where, uint64_t *tag)
{
    int err = 0;
    for (*where = 0; *where < 2; (*where)++)
        for (int attempt = 0; attempt < 8; attempt++) {
            if (getrandom(tag, sizeof *tag, 0) != (ssize_t)sizeof *tag)
                return io_errno(errno, "getrandom", f->path);
            char *p = io_shared_path(f, *where, *tag);
            if (!p)
                return RMP_ERR_NO_MEM;
            int fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            err = errno;
            if (fd >= 0) {
                int64_t zero = 0;
                int ok = pwrite(fd, &zero, sizeof zero, 0) == (ssize_t)sizeof zero;
                int rc = ok ? RMP_SUCCESS : io_errno(errno, "pwrite", p);
                if (!ok)
                    unlink(p);
                close(fd);
                free(p);
                return rc;
            }
            free(p);
            if (err != EEXIST)
                break; /* this directory refuses: the next place */
        }
    return io_errno(err, "open (shared file pointer)", f->path);
}

int io_shared_open(io_file_t *f)
{
    int where = 0, rc = RMP_SUCCESS;
    uint64_t tag = 0;
    if (f->rank == 0)
        rc = io_shared_create(f, &where, &tag);
    uint64_t msg[3] = {(uint64_t)(int64_t)rc, (uint64_t)where, tag};
    int e = rmp_bcast(msg, 3, RMP_UINT64, 0, f->comm);
    if (e != RMP_SUCCESS)
        return e;
    if ((int)(int64_t)msg[0] != RMP_SUCCESS)
        return (int)(int64_t)msg[0];
    f->shpath = io_shared_path(f, (int)msg[1], msg[2]);
    if (!f->shpath)
        return RMP_ERR_NO_MEM;
    f->shfd = open(f->shpath, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    return f->shfd >= 0 ? RMP_SUCCESS : io_errno(errno, "open", f->shpath);
}

void io_shared_close(io_file_t *f, bool remove_it)
{
    if (f->shfd >= 0)
        close(f->shfd);
    f->shfd = -1;
    if (remove_it && f->shpath)
        unlink(f->shpath);
    free(f->shpath);
    f->shpath = NULL;
}

static int io_shlock(io_file_t *f, int type)
{
    struct flock l = {.l_type = (short)type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 8};
    while (fcntl(f->shfd, F_OFD_SETLKW, &l) != 0)
        if (errno != EINTR)
            return io_errno(errno, "fcntl(F_OFD_SETLKW)", f->shpath);
    return RMP_SUCCESS;
}

int io_shared_fetch_add(io_file_t *f, int64_t n, int64_t *old)
{
    if (f->shfd < 0)
        return RMP_ERR_IO;
    int rc = io_shlock(f, F_WRLCK);
    if (rc != RMP_SUCCESS)
        return rc;
    int64_t v = 0;
    if (pread(f->shfd, &v, sizeof v, 0) != (ssize_t)sizeof v)
        rc = io_errno(errno ? errno : EIO, "pread", f->shpath);
    *old = v;
    v += n;
    if (rc == RMP_SUCCESS && n && pwrite(f->shfd, &v, sizeof v, 0) != (ssize_t)sizeof v)
        rc = io_errno(errno, "pwrite", f->shpath);
    (void)io_shlock(f, F_UNLCK);
    return rc;
}

int io_shared_set(io_file_t *f, int64_t v)
{
    if (f->shfd < 0)
        return RMP_ERR_IO;
    int rc = io_shlock(f, F_WRLCK);
    if (rc == RMP_SUCCESS && pwrite(f->shfd, &v, sizeof v, 0) != (ssize_t)sizeof v)
        rc = io_errno(errno, "pwrite", f->shpath);
    (void)io_shlock(f, F_UNLCK);
    return rc;
}
