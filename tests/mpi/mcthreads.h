/* mcthreads.h — the checks of mpicheck.h for threaded MPI test programs: FAIL under a lock,
 * naming the thread (a variable t in scope). Include after mpicheck.h. */
#ifndef MC_THREADS_H
#define MC_THREADS_H

#include <pthread.h>

static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

#define TCHECK(call)                                                                           \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != MPI_SUCCESS) {                                                              \
            pthread_mutex_lock(&fail_mu);                                                      \
            FAIL("thread %d: %s:%d: %s returned %d", t, __FILE__, __LINE__, #call, rc_);       \
            pthread_mutex_unlock(&fail_mu);                                                    \
        }                                                                                      \
    } while (0)

#define TEXPECT(cond, ...)                                                                     \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            pthread_mutex_lock(&fail_mu);                                                      \
            FAIL(__VA_ARGS__);                                                                 \
            pthread_mutex_unlock(&fail_mu);                                                    \
        }                                                                                      \
    } while (0)

#endif
