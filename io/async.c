/* async.c — nonblocking and split-collective I/O. An independent i-call is prepared at once
 * (checks, pointers moved, runs), then its pread/pwrite run on a small pool of I/O threads
 * while the program computes; the request is a generalized request that the worker
 * completes. Collective i-calls and split collectives do their collective part in the call
 * (the two-phase exchange needs the other ranks' progress), and complete at once. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

enum { IO_WORKERS = 2 };

typedef struct io_job {
    io_op_t op;
    rmp_request_t req;
    rmp_status_t st;
    int rc;
    struct io_job *next;
} io_job_t;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t more;
    io_job_t *head, *tail;
    int started;
} io_pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER};

/* The I/O of a job, then its request complete; the file may be closed from then on. */
static void io_job_done(io_job_t *j)
{
    io_file_t *f = j->op.f;
    io_op_run(&j->op);
    j->rc = io_op_finish(&j->op, &j->st);
    __atomic_sub_fetch(&f->busy, 1, __ATOMIC_SEQ_CST);
    rmp_grequest_complete(j->req);
}

static void *io_worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&io_pool.lock);
        while (!io_pool.head)
            pthread_cond_wait(&io_pool.more, &io_pool.lock);
        io_job_t *j = io_pool.head;
        io_pool.head = j->next;
        if (!io_pool.head)
            io_pool.tail = NULL;
        pthread_mutex_unlock(&io_pool.lock);
        io_job_done(j);
    }
    return NULL;
}

/* Start the workers once (lock held). */
static int io_pool_start(void)
{
    for (; io_pool.started < IO_WORKERS; io_pool.started++) {
        pthread_t t;
        if (pthread_create(&t, NULL, io_worker, NULL) != 0)
            return io_pool.started ? RMP_SUCCESS : RMP_ERR_NO_MEM;
        pthread_detach(t);
    }
    return RMP_SUCCESS;
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
    if (j->op.coll) { /* its collective part now, on this thread */
        io_job_done(j);
        return RMP_SUCCESS;
    }
    pthread_mutex_lock(&io_pool.lock);
    rc = io_pool_start();
    if (rc == RMP_SUCCESS) {
        if (io_pool.tail)
            io_pool.tail->next = j;
        else
            io_pool.head = j;
        io_pool.tail = j;
        pthread_cond_signal(&io_pool.more);
    }
    pthread_mutex_unlock(&io_pool.lock);
    if (rc != RMP_SUCCESS) /* no thread: do it here */
        io_job_done(j);
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
    memset(&f->split_st, 0, sizeof f->split_st);
    f->split_rc = rmp_file_access(fh, pos, offset, buf, count, type, is_write, 1, &f->split_st);
    return f->split_rc == RMP_ERR_NO_MEM ? f->split_rc : RMP_SUCCESS;
}

int rmp_file_split_end(rmp_file_t fh, void *buf, int is_write, rmp_status_t *status)
{
    io_file_t *f = io_file_get(fh);
    if (!f)
        return RMP_ERR_FILE;
    if (!f->split || f->split_buf != buf)
        return RMP_ERR_REQUEST; /* no begin, or another buffer than the begin's */
    f->split = false;
    if (status)
        *status = f->split_st;
    return f->split_rc;
}
