/* async.c — nonblocking and split-collective I/O. An independent i-call is prepared at once
 * (checks, pointers moved, runs), then its pread/pwrite run on the I/O threads (pool.c) while
 * the program computes; its request is a generalized request the worker completes. A
 * collective i-call agrees on its plan in the call, then its rounds run in progress and its
 * file work on the I/O threads (coll_run.c); a split collective's begin is one. */
#include <stdlib.h>
#include <string.h>

#include "io.h"

typedef struct io_job {
    io_task_t task; /* first: the task is the job */
    io_op_t op;
    rmp_request_t req;
    rmp_status_t st;
    int rc;
} io_job_t;

/* The I/O of an independent job, then its request complete; the file may be closed from
 * then on. */
static void io_job_done(io_task_t *t)
{
    io_job_t *j = (io_job_t *)t;
    io_file_t *f = j->op.f;
    io_op_run(&j->op);
    j->rc = io_op_finish(&j->op, &j->st);
    __atomic_sub_fetch(&f->busy, 1, __ATOMIC_SEQ_CST);
    rmp_grequest_complete(j->req);
}

static int job_query(void *extra, rmp_status_t *status)
{
    io_job_t *j = extra;
    status->count = j->st.count;
    status->cancelled = 0;
    status->source = status->tag = RMP_UNDEFINED;
    return j->rc;
}

static int job_free(void *extra)
{
    free(extra);
    return RMP_SUCCESS;
}

static int job_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return RMP_SUCCESS; /* I/O under way is not cancelled (MPI allows that) */
}

/* A collective job's end (on an I/O thread): conversion, status, the job freed. */
static int coll_job_done(void *arg, rmp_status_t *st)
{
    io_job_t *j = arg;
    io_file_t *f = j->op.f;
    int rc = io_op_finish(&j->op, st);
    st->source = st->tag = RMP_UNDEFINED;
    __atomic_sub_fetch(&f->busy, 1, __ATOMIC_SEQ_CST);
    free(j);
    return rc;
}

static int coll_start(io_job_t *j, rmp_request_t *req)
{
    io_file_t *f = j->op.f;
    __atomic_add_fetch(&f->busy, 1, __ATOMIC_SEQ_CST);
    int rc = io_coll_post(&j->op, coll_job_done, j, req);
    if (rc != RMP_SUCCESS) { /* every rank's failure, before the request existed */
        j->op.rc = rc;
        io_op_finish(&j->op, NULL);
        __atomic_sub_fetch(&f->busy, 1, __ATOMIC_SEQ_CST);
        free(j);
    }
    return rc;
}

int rmp_file_iaccess(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                     int64_t count, rmp_datatype_t type, int is_write, int coll,
                     rmp_request_t *req)
{
    if (!req)
        return RMP_ERR_ARG;
    io_job_t *j = calloc(1, sizeof *j);
    if (!j)
        return RMP_ERR_NO_MEM;
    int rc = io_op_prepare(&j->op, fh, pos, offset, buf, count, type, is_write, coll);
    if (rc == RMP_SUCCESS && j->op.coll)
        return coll_start(j, req);
    if (rc == RMP_SUCCESS)
        rc = rmp_grequest_start(job_query, job_free, job_cancel, j, &j->req);
    if (rc != RMP_SUCCESS) {
        if (j->op.f)
            io_op_finish(&j->op, NULL);
        free(j);
        return rc;
    }
    __atomic_add_fetch(&j->op.f->busy, 1, __ATOMIC_SEQ_CST);
    *req = j->req;
    j->task.fn = io_job_done;
    if (io_pool_submit(&j->task) != RMP_SUCCESS) /* no thread: do it here */
        io_job_done(&j->task);
    return RMP_SUCCESS;
}

int rmp_file_split_begin(rmp_file_t fh, rmp_io_pos_t pos, rmp_offset_t offset, void *buf,
                         int64_t count, rmp_datatype_t type, int is_write)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    int rc = io_agree(f->comm, f->split ? RMP_ERR_REQUEST : RMP_SUCCESS);
    if (rc != RMP_SUCCESS)
        return rc; /* MPI: one split collective at a time on a file */
    f->split = true;
    f->split_buf = buf;
    f->split_req = RMP_REQUEST_NULL;
    f->split_rc = rmp_file_iaccess(fh, pos, offset, buf, count, type, is_write, 1,
                                   &f->split_req);
    return f->split_rc == RMP_ERR_NO_MEM ? f->split_rc : RMP_SUCCESS;
}

int rmp_file_split_end(rmp_file_t fh, void *buf, int is_write, rmp_status_t *status)
{
    (void)is_write;
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!f->split || f->split_buf != buf)
        return RMP_ERR_REQUEST; /* no begin, or another buffer than the begin's */
    f->split = false;
    rmp_status_t st = {0};
    int rc = f->split_rc;
    if (rc == RMP_SUCCESS)
        rc = rmp_wait(&f->split_req, &st);
    if (status)
        *status = st;
    return rc;
}
