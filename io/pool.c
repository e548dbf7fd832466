/* io/pool.c — the I/O threads: a small pool that runs the file system's side of nonblocking
 * I/O (an independent i-call's pread/pwrite, a collective's aggregator writes and reads)
 * while the program computes. Threads, not io_uring: see bench/README.md's I/O section. */
#include <pthread.h>

#include "io.h"

enum { IO_WORKERS = 2 };

static struct {
    pthread_mutex_t lock;
    pthread_cond_t more;
    io_task_t *head, *tail;
    int started;
} io_pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER};

static void *io_worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&io_pool.lock);
        while (!io_pool.head)
            pthread_cond_wait(&io_pool.more, &io_pool.lock);
        io_task_t *t = io_pool.head;
        io_pool.head = t->next;
        if (!io_pool.head)
            io_pool.tail = NULL;
        pthread_mutex_unlock(&io_pool.lock);
        t->fn(t); /* t may be freed by the time it returns */
    }
    return NULL;
}

/* Start the workers once (lock held): RMP_SUCCESS when at least one runs. */
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

int io_pool_submit(io_task_t *t)
{
    t->next = NULL;
    pthread_mutex_lock(&io_pool.lock);
    int rc = io_pool_start();
    if (rc == RMP_SUCCESS) {
        if (io_pool.tail)
            io_pool.tail->next = t;
        else
            io_pool.head = t;
        io_pool.tail = t;
        pthread_cond_signal(&io_pool.more);
    }
    pthread_mutex_unlock(&io_pool.lock);
    return rc;
}
