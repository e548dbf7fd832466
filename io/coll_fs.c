/* io/coll_fs.c — the engine's POSIX side: whole pread/pwrite transfers, the byte-range lock
 * of a read-modify-write, the file system's block size, the sieving decision, and the
 * independent path (each rank its own runs). A failure is printed with path and errno. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "coll.h"
#include "core.h"

/* One error line naming the file (its path from /proc: the engine only holds the fd), the
 * same detail for rmp_file_error_detail, and the rmp code of errno. */
static int fs_fail(int fd, const char *call, int64_t len, int64_t off, int err, int is_write)
{
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t k = readlink(link, path, sizeof(path) - 1);
    path[k > 0 ? k : 0] = '\0';
    core_error(&rmp_ctx, "collective I/O: %s of %lld bytes at offset %lld of %s (fd %d) "
               "failed: %s (errno %d)", call, (long long)len, (long long)off,
               k > 0 ? path : "?", fd, strerror(err), err);
    int rc = io_errno(err, call, k > 0 ? path : "?");
    return err == EBADF && is_write ? RMP_ERR_READ_ONLY : rc; /* a read-only descriptor */
}

int coll_fs_write(int fd, const char *buf, int64_t len, int64_t off)
{
    for (int64_t done = 0; done < len;) {
        size_t chunk = (size_t)(len - done < (1 << 30) ? len - done : (1 << 30));
        ssize_t k = pwrite(fd, buf + done, chunk, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) /* 0: nothing written yet no error; the device is full */
            return fs_fail(fd, "pwrite", len, off, k < 0 ? errno : ENOSPC, 1);
        done += k;
    }
    return RMP_SUCCESS;
}

int coll_fs_read(int fd, char *buf, int64_t len, int64_t off)
{
    int64_t done = 0;
    while (done < len) {
        size_t chunk = (size_t)(len - done < (1 << 30) ? len - done : (1 << 30));
        ssize_t k = pread(fd, buf + done, chunk, (off_t)(off + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return fs_fail(fd, "pread", len, off, errno, 0);
        if (k == 0) /* the end of the file: what lies past it reads as zeros */
            break;
        done += k;
    }
    memset(buf + done, 0, (size_t)(len - done));
    return RMP_SUCCESS;
}

int64_t coll_fs_block(int fd)
{
    struct statfs sf;
    if (fstatfs(fd, &sf) != 0)
        return 0; /* no alignment: domains still work, only less well placed */
    return sf.f_bsize > 0 ? (int64_t)sf.f_bsize : 0;
}

int coll_fs_lock(int fd, int64_t off, int64_t len, int lock)
{
    struct flock fl = {.l_type = lock ? F_WRLCK : F_UNLCK, .l_whence = SEEK_SET,
                       .l_start = (off_t)off, .l_len = (off_t)len};
    int rc;
    while ((rc = fcntl(fd, F_OFD_SETLKW, &fl)) != 0 && errno == EINTR)
        ;
    if (rc != 0 && lock) /* a file system without locks: sieve unlocked, as MPI allows in
                          * non-atomic mode (only concurrent independent writers could clash) */
        core_verbose(&rmp_ctx, "io: no byte-range lock on fd %d (%s): sieving unlocked", fd,
                     strerror(errno));
    return rc;
}

/* Holes between segments: read-modify-write of the whole extent costs the extent twice, writing
 * around them one request per segment (reads: once, against a request per segment). */
int coll_sieve(int sw, int is_write, int64_t extent, int64_t covered, size_t nseg)
{
    if (nseg <= 1 || sw == IOH_DISABLE)
        return 0;
    if (sw == IOH_ENABLE)
        return 1;
    int64_t extra = is_write ? 2 * extent - covered : extent - covered;
    int64_t saved = COLL_SYSCALL_BYTES * (int64_t)(is_write ? nseg - 2 : nseg - 1);
    return extra < saved;
}

int coll_fs_independent(int fd, const io_run_t *runs, size_t n, int is_write)
{
    for (size_t i = 0; i < n; i++) {
        int rc = is_write ? coll_fs_write(fd, runs[i].mem, runs[i].len, runs[i].off)
                          : coll_fs_read(fd, runs[i].mem, runs[i].len, runs[i].off);
        if (rc)
            return rc;
    }
    return RMP_SUCCESS;
}
