/* table.c — what every file of io/ leans on: the table of open files (handle -> file),
 * the mapping of the file system's errno to rmp codes with the detail kept for the message,
 * and the agreement of all ranks on one code. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

static struct {
    pthread_mutex_t lock;
    io_file_t **f; /* f[h - 1] */
    int n;
} io_tab = {.lock = PTHREAD_MUTEX_INITIALIZER};

static __thread char io_detail[512];
static __thread int io_last_errno;

int io_errno_last(void)
{
    return io_last_errno;
}

const char *rmp_file_error_detail(void)
{
    return io_detail;
}

int io_errno(int err, const char *what, const char *path)
{
    io_last_errno = err;
    snprintf(io_detail, sizeof io_detail, "%s %s: %s (errno %d)", what, path ? path : "",
             strerror(err), err);
    switch (err) {
    case ENOENT:
        return RMP_ERR_NO_SUCH_FILE;
    case EEXIST:
        return RMP_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return RMP_ERR_ACCESS;
    case ENOSPC:
    case EFBIG:
        return RMP_ERR_NO_SPACE;
    case EDQUOT:
        return RMP_ERR_QUOTA;
    case EROFS:
        return RMP_ERR_READ_ONLY;
    case ETXTBSY:
    case EBUSY:
        return RMP_ERR_FILE_IN_USE;
    case ENAMETOOLONG:
    case ENOTDIR:
    case EISDIR:
    case ELOOP:
        return RMP_ERR_BAD_FILE;
    case ENOMEM:
        return RMP_ERR_NO_MEM;
    default:
        return RMP_ERR_IO;
    }
}

int io_agree(rmp_comm_t comm, int rc)
{
    int all = rc;
    int e = rmp_allreduce(&rc, &all, 1, RMP_INT, RMP_MIN, comm);
    return e != RMP_SUCCESS ? e : all;
}

io_file_t *io_file_get(rmp_file_t fh)
{
    io_file_t *f = NULL;
    pthread_mutex_lock(&io_tab.lock);
    if (fh >= 1 && fh <= io_tab.n)
        f = io_tab.f[fh - 1];
    pthread_mutex_unlock(&io_tab.lock);
    return f;
}

int io_file_put(io_file_t *f, rmp_file_t *fh)
{
    int rc = RMP_SUCCESS;
    pthread_mutex_lock(&io_tab.lock);
    int h = 0;
    while (h < io_tab.n && io_tab.f[h])
        h++;
    if (h == io_tab.n) {
        io_file_t **p = realloc(io_tab.f, (size_t)(io_tab.n + 16) * sizeof *p);
        if (!p) {
            rc = RMP_ERR_NO_MEM;
        } else {
            memset(p + io_tab.n, 0, 16 * sizeof *p);
            io_tab.f = p;
            io_tab.n += 16;
        }
    }
    if (rc == RMP_SUCCESS) {
        io_tab.f[h] = f;
        *fh = h + 1;
    }
    pthread_mutex_unlock(&io_tab.lock);
    return rc;
}

void io_file_drop(rmp_file_t fh)
{
    pthread_mutex_lock(&io_tab.lock);
    if (fh >= 1 && fh <= io_tab.n)
        io_tab.f[fh - 1] = NULL;
    pthread_mutex_unlock(&io_tab.lock);
}
