/* shm_cma.h — one copy between this process's memory and another's with CMA
 * (process_vm_readv / process_vm_writev), for the rendezvous (shm.c, shm_coop.c's chunks) and
 * the one-sided operations (shm_rma.c). */
#ifndef RMP_SHM_CMA_H
#define RMP_SHM_CMA_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Copy n bytes between mine and process pid's address theirs (write: mine into theirs), at
 * most `chunk` bytes per call, carrying on after the partial copies that page boundaries
 * cause. 0, or the errno value of the call that failed (ESRCH: the process is gone). */
static inline int shm_cma_copy(pid_t pid, char *mine, uint64_t theirs, size_t n, size_t chunk,
                               bool write)
{
    while (n) {
        size_t c = n < chunk ? n : chunk;
        struct iovec l = {mine, c}, r = {(void *)(uintptr_t)theirs, c};
        ssize_t k = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                          : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (k > 0) {
            mine += k;
            theirs += (uint64_t)k;
            n -= (size_t)k;
            continue;
        }
        int e = k < 0 ? errno : EIO;
        if (e != EINTR)
            return e;
    }
    return 0;
}

#endif
