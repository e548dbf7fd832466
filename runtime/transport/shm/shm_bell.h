/* shm_bell.h — the shm transport's doorbell: a datagram socket a sleeping rank waits on and its
 * local peers ring after publishing a record. Unpredictable abstract names published through
 * the modex, and a credential filter so that strangers' datagrams are told apart and ignored. */
#ifndef RMP_SHM_BELL_H
#define RMP_SHM_BELL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

/* "rmp-bell." + 32 hex digits (128 random bits) + NUL: the abstract name, without its '\0'. */
#define SHM_BELL_PREFIX "rmp-bell."
#define SHM_BELL_HEX 32
#define SHM_BELL_NAME (sizeof(SHM_BELL_PREFIX) - 1 + SHM_BELL_HEX + 1)

typedef struct shm_bell {
    int fd;                   /* bound, non-blocking, SO_PASSCRED */
    char name[SHM_BELL_NAME]; /* what peers learn from the modex */
    uid_t uid;                /* ours: a datagram from any other uid is a stranger's */
} shm_bell_t;

/* Who sent the first ignored datagram (for one diagnostic line). */
typedef struct shm_bell_stranger {
    pid_t pid;
    uid_t uid;
} shm_bell_stranger_t;

/* nhex (<= 64) random lowercase hex digits from getrandom() and a NUL into out: 0 or errno. */
int shm_bell_random_hex(char *out, size_t nhex);

/* Create the socket and bind it to a fresh random name. 0, or an errno value; *what names the
 * call that failed. */
int shm_bell_open(shm_bell_t *b, const char **what);
void shm_bell_close(shm_bell_t *b);

/* true if `name` (at most SHM_BELL_NAME bytes, from another process) is a well-formed name. */
bool shm_bell_name_valid(const char *name, size_t max);
/* The socket address of a valid name. */
void shm_bell_addr(const char *name, struct sockaddr_un *sa, socklen_t *len);

/* Wake the owner of `to`: never blocks. A full queue (EAGAIN) means it is readable, so its
 * owner wakes anyway; a closed owner (ECONNREFUSED) is finalizing. Neither loses a record. */
void shm_bell_ring(const shm_bell_t *b, const struct sockaddr_un *to, socklen_t len);

/* true if a datagram with these credentials comes from the job: our uid and, when pids is not
 * NULL, one of the n pids (the local ranks' processes). */
bool shm_bell_from_job(pid_t pid, uid_t uid, uid_t my_uid, const int32_t *pids, int n);

/* Read every queued datagram. Returns how many were strangers' (kept out of any decision: a
 * doorbell carries no data, the caller re-checks its rings either way), and the first such
 * sender in *first when it returns > 0. */
int shm_bell_drain(shm_bell_t *b, const int32_t *pids, int n, shm_bell_stranger_t *first);

#endif
