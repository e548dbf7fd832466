/* rw.c — independent I/O of a list of file runs. Runs close together are served by data
 * sieving (ROMIO's ad_read_str/ad_write_str idea): one read of the covering extent, then a
 * pick (reads) or a patch and one write back (writes) under an fcntl byte-range lock, so that
 * the holes other ranks write meanwhile are not overwritten with stale bytes. Atomic mode
 * holds one lock over the whole access. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* A hole larger than this is not worth reading over: the runs are done one by one. */
enum { IO_DS_MAX_HOLE = 256 * 1024 };

int io_lock(io_file_t *f, int64_t off, int64_t len, int type)
{
    struct flock l = {.l_type = (short)type, .l_whence = SEEK_SET, .l_start = (off_t)off,
                      .l_len = (off_t)len};
    while (fcntl(f->fd, F_OFD_SETLKW, &l) != 0)
        if (errno != EINTR)
            return io_errno(errno, "fcntl(F_OFD_SETLKW)", f->path);
    return RMP_SUCCESS;
}

/* All of len bytes at off (short only at the end of the file: *got tells). */
static int io_pread_all(io_file_t *f, char *p, int64_t len, int64_t off, int64_t *got)
{
    int64_t done = 0;
    *got = 0;
    while (done < len) {
        ssize_t r = pread(f->fd, p + done, (size_t)(len - done), (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            *got = done;
            return io_errno(errno, "pread", f->path);
        }
        if (r == 0)
            break;
        done += r;
    }
    *got = done;
    return RMP_SUCCESS;
}

static int io_pwrite_all(io_file_t *f, const char *p, int64_t len, int64_t off)
{
    int64_t done = 0;
    while (done < len) {
        ssize_t r = pwrite(f->fd, p + done, (size_t)(len - done), (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return io_errno(r < 0 ? errno : ENOSPC, "pwrite", f->path);
        done += r;
    }
    return RMP_SUCCESS;
}

/* How many runs from i one sieving window of at most cap bytes covers. */
static size_t io_ds_group(const io_run_t *r, size_t i, size_t n, int64_t cap)
{
    size_t j = i + 1;
    while (j < n && r[j].off + r[j].len - r[i].off <= cap &&
           r[j].off >= r[j - 1].off + r[j - 1].len &&
           r[j].off - (r[j - 1].off + r[j - 1].len) <= IO_DS_MAX_HOLE)
        j++;
    return j - i;
}

static int io_sieve_read(io_file_t *f, const io_run_t *r, size_t k, char *win, int64_t *done,
                         bool *eof)
{
    int64_t start = r[0].off, span = r[k - 1].off + r[k - 1].len - start, got;
    int rc = io_pread_all(f, win, span, start, &got);
    for (size_t i = 0; i < k && rc == RMP_SUCCESS && !*eof; i++) {
        int64_t at = r[i].off - start, take = r[i].len;
        if (at + take > got) {
            take = got > at ? got - at : 0;
            *eof = true;
        }
        memcpy(r[i].mem, win + at, (size_t)take);
        *done += take;
    }
    return rc;
}

static int io_sieve_write(io_file_t *f, const io_run_t *r, size_t k, char *win)
{
    int64_t start = r[0].off, span = r[k - 1].off + r[k - 1].len - start, got;
    int rc = f->atomic ? RMP_SUCCESS : io_lock(f, start, span, F_WRLCK);
    if (rc != RMP_SUCCESS)
        return rc;
    rc = io_pread_all(f, win, span, start, &got);
    if (rc == RMP_SUCCESS && got < span)
        memset(win + got, 0, (size_t)(span - got));
    if (rc == RMP_SUCCESS) { /* past the end: the holes read as 0 */
        for (size_t i = 0; i < k; i++)
            memcpy(win + (r[i].off - start), r[i].mem, (size_t)r[i].len);
        rc = io_pwrite_all(f, win, span, start);
    }
    if (!f->atomic)
        (void)io_lock(f, start, span, F_UNLCK);
    return rc;
}

/* One run, or a sieving window of several. */
static int io_rw_group(io_file_t *f, const io_run_t *r, size_t k, int is_write, char **win,
                       int64_t *done, bool *eof)
{
    if (k == 1 && is_write) {
        *done += r->len;
        return io_pwrite_all(f, r->mem, r->len, r->off);
    }
    if (k == 1) {
        int64_t got;
        int rc = io_pread_all(f, r->mem, r->len, r->off, &got);
        *done += got;
        *eof = got < r->len;
        return rc;
    }
    if (!*win && !(*win = malloc((size_t)(is_write ? f->ind_wr_buf : f->ind_rd_buf))))
        return RMP_ERR_NO_MEM;
    if (!is_write)
        return io_sieve_read(f, r, k, *win, done, eof);
    int rc = io_sieve_write(f, r, k, *win);
    for (size_t i = 0; i < k && rc == RMP_SUCCESS; i++)
        *done += r[i].len;
    return rc;
}

/* Data sieving on this access? Unless romio_ds_read/write says "disable"; writes need a
 * descriptor that can read. */
static bool io_ds_on(const io_file_t *f, int is_write)
{
    if (is_write)
        return f->hints.ds_write != IOH_DISABLE && (fcntl(f->fd, F_GETFL) & O_ACCMODE) == O_RDWR;
    return f->hints.ds_read != IOH_DISABLE;
}

int io_runs_rw(io_file_t *f, io_run_t *runs, size_t n, int is_write, int64_t *done)
{
    *done = 0;
    if (n == 0)
        return RMP_SUCCESS;
    int64_t lo = runs[0].off, hi = runs[0].off + runs[0].len;
    for (size_t i = 1; i < n; i++) { /* a read-only view may step back */
        lo = runs[i].off < lo ? runs[i].off : lo;
        hi = runs[i].off + runs[i].len > hi ? runs[i].off + runs[i].len : hi;
    }
    int rc = f->atomic ? io_lock(f, lo, hi - lo, is_write ? F_WRLCK : F_RDLCK) : RMP_SUCCESS;
    bool ds = io_ds_on(f, is_write), eof = false;
    int64_t cap = is_write ? f->ind_wr_buf : f->ind_rd_buf;
    char *win = NULL;
    for (size_t i = 0; i < n && rc == RMP_SUCCESS && !eof;) {
        size_t k = ds ? io_ds_group(runs, i, n, cap) : 1;
        rc = io_rw_group(f, runs + i, k, is_write, &win, done, &eof);
        i += k;
    }
    free(win);
    if (f->atomic)
        (void)io_lock(f, lo, hi - lo, F_UNLCK);
    return rc;
}
