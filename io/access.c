/* access.c — every blocking data access (read/write x explicit offset, individual pointer,
 * shared pointer, ordered; independent or collective): the checks, the start position, the
 * memory data in the file's representation, the view's runs, then independent I/O (rw.c) or
 * the collective engine (io_coll.h). Also seek and get_position. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core.h"
#include "io.h"

/* The checks that need no other rank. */
static int acc_check(io_file_t *f, rmp_io_pos_t pos, rmp_offset_t offset, const void *buf,
                     int64_t count, rmp_datatype_t type, int is_write)
{
    const dtype_t *t = dtype_get(type, true);
    if (count < 0)
        return RMP_ERR_COUNT;
    if (!t)
        return RMP_ERR_TYPE;
    if (count > 0 && !dtype_buf_ok(buf, t))
        return RMP_ERR_BUFFER;
    if (is_write && (f->amode & RMP_FMODE_RDONLY))
        return RMP_ERR_READ_ONLY;
    if (!is_write && (f->amode & RMP_FMODE_WRONLY))
        return RMP_ERR_ACCESS;
    if ((f->amode & RMP_FMODE_SEQUENTIAL) && (pos == RMP_IO_AT || pos == RMP_IO_INDIV))
        return RMP_ERR_NOT_SUPPORTED;
    if (pos == RMP_IO_AT && offset < 0)
        return RMP_ERR_ARG;
    int rc = io_rep_same_size(&f->view, type);
    if (rc != RMP_SUCCESS)
        return rc;
    if (((int64_t)t->size * count) % f->view.esize != 0)
        return RMP_ERR_IO; /* MPI: whole etypes only (ROMIO's class) */
    return RMP_SUCCESS;
}

/* The start of this rank's access, in etypes; n etypes of its own. Ordered: the shared
 * pointer, then the ranks in order (one allgather of the counts). */
static int acc_start(io_file_t *f, rmp_io_pos_t pos, rmp_offset_t offset, int64_t n,
                     int64_t *start)
{
    if (pos == RMP_IO_AT) {
        *start = offset;
        return RMP_SUCCESS;
    }
    if (pos == RMP_IO_INDIV) {
        *start = f->pos;
        return RMP_SUCCESS;
    }
    if (pos == RMP_IO_SHARED)
        return io_shared_fetch_add(f, n, start);
    int64_t *all = malloc((size_t)f->size * sizeof *all), base = 0, total = 0, before = 0;
    if (!all)
        return RMP_ERR_NO_MEM; /* (the other ranks then fail in the agreement after) */
    int rc = rmp_allgather(&n, 1, RMP_INT64_T, all, 1, RMP_INT64_T, f->comm);
    for (int r = 0; r < f->size && rc == RMP_SUCCESS; r++) {
        before += r < f->rank ? all[r] : 0;
        total += all[r];
    }
    free(all);
    if (rc == RMP_SUCCESS && f->rank == 0)
        rc = io_shared_fetch_add(f, total, &base);
    int e = rmp_bcast(&base, 1, RMP_INT64_T, 0, f->comm);
    *start = base + before;
    return rc != RMP_SUCCESS ? rc : e;
}

/* The memory side: the data in the file's representation (write), or where the file's bytes
 * land before conversion (read). */
static int acc_mem(io_op_t *op)
{
    io_file_t *f = op->f;
    if (op->is_write)
        return io_rep_to_file(&f->view, op->buf, op->count, op->type, &op->data, &op->len,
                              &op->owned);
    const dtype_t *t = dtype_get(op->type, true);
    op->len = (int64_t)t->size * op->count;
    op->owned = !(f->view.rep == IO_REP_NATIVE && t->contig);
    op->data = op->owned ? malloc(op->len ? (size_t)op->len : 1) : op->buf;
    return op->data ? RMP_SUCCESS : RMP_ERR_NO_MEM;
}

/* The bytes of a collective read that lay before the end of the file (the engine fills the
 * rest with zeros): the status count. */
static int coll_read_done(io_file_t *f, const io_run_t *runs, size_t n, int64_t *done)
{
    struct stat sb;
    if (fstat(f->fd, &sb) != 0)
        return io_errno(errno, "fstat", f->path);
    int64_t size = (int64_t)sb.st_size;
    *done = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t in = size - runs[i].off;
        *done += in <= 0 ? 0 : in < runs[i].len ? in : runs[i].len;
        if (in < runs[i].len)
            break;
    }
    return RMP_SUCCESS;
}

static bool runs_sorted(const io_run_t *r, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (r[i].off < r[i - 1].off + r[i - 1].len)
            return false;
    return true;
}

static int alone_rw(void *arg)
{
    io_op_t *op = arg;
    return io_runs_rw(op->f, op->runs, op->n, op->is_write, &op->done);
}

/* The start of a collective access: two-phase (io_coll.h) unless alone (nothing to
 * aggregate), a rank's runs overlap (a read-only view may) or the file is in atomic mode
 * (each rank's access then holds its own byte-range lock, which aggregation would split):
 * then each rank alone, and the ranks agree on the status. */
static int coll_begin(io_op_t *op, io_cop_t **cop)
{
    io_file_t *f = op->f;
    int two_phase = f->size > 1 && !f->atomic && runs_sorted(op->runs, op->n), all = 0;
    int rc = rmp_allreduce(&two_phase, &all, 1, RMP_INT, RMP_MIN, f->comm);
    if (rc != RMP_SUCCESS)
        return rc;
    op->alone = !all;
    op->done = 0;
    return io_cop_begin(f->comm, f->fd, op->runs, op->n, op->is_write, &f->hints, f->cseq++,
                        op->alone ? alone_rw : NULL, op, cop);
}

/* The status count of an access that ended with rc. */
static int coll_end(io_op_t *op, int rc)
{
    if (rc != RMP_SUCCESS || op->alone)
        return rc;
    op->done = 0;
    for (size_t i = 0; op->is_write && i < op->n; i++)
        op->done += op->runs[i].len;
    return op->is_write ? rc : coll_read_done(op->f, op->runs, op->n, &op->done);
}

void io_coll_run(io_op_t *op)
{
    io_cop_t *cop;
    op->rc = coll_begin(op, &cop);
    if (op->rc == RMP_SUCCESS)
        op->rc = coll_end(op, io_cop_wait(cop));
}

static int coll_posted_done(void *arg, int status, rmp_status_t *st)
{
    io_op_t *op = arg;
    op->rc = coll_end(op, status);
    return op->then(op->then_arg, st);
}

int io_coll_post(io_op_t *op, int (*then)(void *arg, rmp_status_t *st), void *arg,
                 rmp_request_t *req)
{
    io_cop_t *cop;
    op->then = then, op->then_arg = arg;
    int rc = coll_begin(op, &cop);
    return rc ? rc : io_cop_post(cop, coll_posted_done, op, req);
}

int io_op_prepare(io_op_t *op, rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                  int64_t count, rmp_datatype_t type, int is_write, int coll)
{
    memset(op, 0, sizeof *op);
    io_file_t *f = op->f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    op->coll = coll = coll || pos == RMP_IO_ORDERED;
    *op = (io_op_t){.f = f, .buf = buf, .count = count, .type = type, .is_write = is_write,
                    .coll = coll};
    int rc = acc_check(f, pos, offset, buf, count, type, is_write);
    if (coll)
        rc = io_agree(f->comm, rc); /* one rank's bad argument fails them all, before I/O */
    if (rc != RMP_SUCCESS)
        return rc;
    const dtype_t *t = dtype_get(type, true);
    int64_t n = (int64_t)t->size * count / f->view.esize;
    rc = acc_start(f, pos, offset, n, &op->start);
    if (rc == RMP_SUCCESS && pos == RMP_IO_INDIV)
        f->pos = op->start + n; /* by the amount asked, as ROMIO (a short read included) */
    if (rc == RMP_SUCCESS)
        rc = acc_mem(op);
    if (rc == RMP_SUCCESS && op->len)
        rc = io_view_runs(&f->view, op->start * f->view.esize, op->len, op->data, &op->runs,
                          &op->n);
    if (coll)
        rc = io_agree(f->comm, rc);
    if (rc != RMP_SUCCESS)
        io_op_finish(op, NULL);
    return rc;
}

void io_op_run(io_op_t *op)
{
    if (op->coll)
        io_coll_run(op);
    else
        op->rc = io_runs_rw(op->f, op->runs, op->n, op->is_write, &op->done);
}

int io_op_finish(io_op_t *op, rmp_status_t *status)
{
    int rc = op->rc;
    if (rc == RMP_SUCCESS && !op->is_write && op->owned)
        rc = io_rep_from_file(&op->f->view, op->data, op->done, op->buf, op->count, op->type);
    if (op->owned)
        free(op->data);
    free(op->runs);
    op->data = NULL;
    op->runs = NULL;
    if (status) {
        status->count = rc == RMP_SUCCESS ? (size_t)op->done : 0;
        status->cancelled = 0;
    }
    return rc;
}

int rmp_file_access(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                    int64_t count, rmp_datatype_t type, int is_write, int coll,
                    rmp_status_t *status)
{
    io_op_t op;
    int rc = io_op_prepare(&op, fh, pos, offset, buf, count, type, is_write, coll);
    if (rc != RMP_SUCCESS)
        return rc;
    io_op_run(&op);
    return io_op_finish(&op, status);
}

int rmp_file_seek(rmp_file_t fh, rmp_offset_t offset, int whence)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (f->amode & RMP_FMODE_SEQUENTIAL)
        return RMP_ERR_NOT_SUPPORTED;
    int64_t to;
    if (whence == RMP_SEEK_SET) {
        to = offset;
    } else if (whence == RMP_SEEK_CUR) {
        to = f->pos + offset;
    } else if (whence == RMP_SEEK_END) {
        int64_t end;
        int rc = io_view_end(f, &end);
        if (rc != RMP_SUCCESS)
            return rc;
        to = end + offset;
    } else {
        return RMP_ERR_ARG;
    }
    if (to < 0)
        return RMP_ERR_ARG;
    f->pos = to;
    return RMP_SUCCESS;
}

int rmp_file_get_position(rmp_file_t fh, rmp_offset_t *offset)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!offset)
        return RMP_ERR_ARG;
    *offset = f->pos;
    return RMP_SUCCESS;
}

int rmp_file_seek_shared(rmp_file_t fh, rmp_offset_t offset, int whence)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int64_t cur = 0, to = offset;
    int rc = RMP_SUCCESS;
    if (whence == RMP_SEEK_CUR)
        rc = io_shared_fetch_add(f, 0, &cur);
    else if (whence == RMP_SEEK_END)
        rc = io_view_end(f, &cur);
    else if (whence != RMP_SEEK_SET)
        rc = RMP_ERR_ARG;
    to += cur;
    if (rc == RMP_SUCCESS && to < 0)
        rc = RMP_ERR_ARG;
    /* every rank the same offset and whence (MPI: collective with the same arguments) */
    int64_t mm[2] = {to, -to}, all[2];
    int e = rmp_allreduce(mm, all, 2, RMP_INT64_T, RMP_MIN, f->comm);
    if (rc == RMP_SUCCESS && (e != RMP_SUCCESS || all[0] != -all[1]))
        rc = e != RMP_SUCCESS ? e : RMP_ERR_ARG;
    rc = io_agree(f->comm, rc);
    if (rc == RMP_SUCCESS && f->rank == 0)
        rc = io_shared_set(f, to);
    return io_agree(f->comm, rc);
}

int rmp_file_get_position_shared(rmp_file_t fh, rmp_offset_t *offset)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!offset)
        return RMP_ERR_ARG;
    int64_t v;
    int rc = io_shared_fetch_add(f, 0, &v);
    if (rc == RMP_SUCCESS)
        *offset = v;
    return rc;
}
