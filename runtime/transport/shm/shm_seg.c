/* shm_seg.c — files in /dev/shm that other local ranks of the job map: their names (the job's
 * tag, which mrun's sweep knows) and their creation, locked and named atomically. Shared by
 * shm's own segments (shm.c) and the one-sided window segments (shm_rma.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include "transport/shm/shm_seg.h"

/* The job's part of every name: nspace limited to [A-Za-z0-9_.-] (mrun cleans up after a crash
 * by the prefix rmp.<nspace>). An absurdly long nspace keeps its start plus a hash. */
void shm_job_tag(const char *nspace, char *tag)
{
    size_t n = strlen(nspace), keep = n <= SHM_TAG_MAX ? n : 40;
    for (size_t i = 0; i < keep; i++) {
        char c = nspace[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '.' || c == '-';
        tag[i] = ok ? c : '_';
    }
    tag[keep] = '\0';
    if (keep < n) {
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (size_t i = 0; i < n; i++)
            h = (h ^ (unsigned char)nspace[i]) * 1099511628211ull;
        sprintf(tag + keep, "~%016llx", (unsigned long long)h);
    }
}

/* Whose segment is it, and is its job alive? A name in /dev/shm may outlive its job: the
 * ranks and their launcher can all be SIGKILLed between a segment's creation and the moment
 * the last local rank maps it (then its name is unlinked: seg_map_peer). So the creator holds
 * a shared flock on its segment for as long as it lives, taken before the name appears; the
 * next mrun of the user removes the names nobody holds a lock on (launcher/session.c). A lock
 * needs no pid, no clock and no namespace to prove a job dead, and the names keep their random
 * part (see seg_create in shm.c). */
int shm_seg_dir(void)
{
    return open("/dev/shm", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Gives the unnamed, locked file fd its name in dir (linkat: the name appears atomically, with
 * the lock already held; EEXIST as O_EXCL would). Through /proc/self/fd, which needs no
 * privilege (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH: tried second). */
int shm_seg_link(int fd, int dir, const char *name)
{
    char self[40];
    snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, self, dir, name, AT_SYMLINK_FOLLOW) == 0)
        return 0;
    if (errno != ENOENT)
        return errno;
    return linkat(fd, "", dir, name, AT_EMPTY_PATH) ? errno : 0;
}

/* An fd for a new segment named `name` (in /dev/shm), locked: O_TMPFILE, named once ready
 * (*named false) — else, where the file system has no O_TMPFILE, created by name and locked at
 * once: a sweeper skips a file of size 0, so the instant before the lock is safe too. */
int shm_seg_new_fd(tp_t *tp, const char *name, bool *named, const char **what)
{
    *named = false;
    *what = "open /dev/shm";
    int dir = shm_seg_dir(), fd = -1;
    if (dir >= 0) {
        *what = "O_TMPFILE in /dev/shm";
        fd = openat(dir, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        int e = errno;
        close(dir);
        errno = e;
    }
    if (fd < 0 && (dir < 0 || errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        tp_verbose(tp, "shm: %s: %s; creating %s by name", *what, strerror(errno), name);
        *what = "shm_open";
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        *named = fd >= 0;
    }
    if (fd >= 0 && flock(fd, LOCK_SH)) {
        int e = errno;
        *what = "flock";
        if (*named)
            shm_unlink(name);
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

