/* session.c: the job's footprint on the file system: its PMIx temp dir and the shared-memory
 * segments rmp names after the namespace. mrun removes both however the job ends; a SIGKILLed
 * mrun cannot, so each mrun holds a lock on its dir, and the next one removes the dirs whose
 * lock nobody holds. Segments work the same way: the rank that creates one holds a lock on it
 * until the name is gone (runtime/transport/shm/shm.c, seg_dir), so the next mrun removes the
 * segments of the user that nobody holds a lock on, whichever launcher started their job. */
#include "session.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Present in a job dir only while its mrun holds the flock on the dir: a dir with the marker
 * and a free lock belongs to a dead mrun (a dir without it, to one that is starting). */
#define SESSION_MARKER "mrun.lock"

static const char *tmp_base(void)
{
    const char *base = getenv("TMPDIR");
    return base && *base ? base : "/tmp";
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw);

/* Takes the lock on dir (kept until mrun exits: the fd is never closed) and then marks it. */
static int lock_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
        fprintf(stderr, "mrun: cannot lock temp dir %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int m = openat(fd, SESSION_MARKER, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (m < 0) {
        fprintf(stderr, "mrun: cannot create %s/%s: %s\n", dir, SESSION_MARKER, strerror(errno));
        return -1;
    }
    close(m);
    return 0;
}

/* Removes one dir of a dead mrun, if that is what it is. */
static void sweep_one(int basefd, const char *base, const char *name)
{
    struct stat st;
    if (fstatat(basefd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != getuid() || (st.st_mode & 07777) != 0700)
        return;
    int fd = openat(basefd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    if (faccessat(fd, SESSION_MARKER, F_OK, AT_SYMLINK_NOFOLLOW) == 0 &&
        flock(fd, LOCK_EX | LOCK_NB) == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", base, name);
        if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
            fprintf(stderr, "mrun: cannot remove stale temp dir %s: %s\n", path,
                    strerror(errno));
    }
    close(fd);
}

void session_sweep_stale(void)
{
    const char *base = tmp_base();
    DIR *d = opendir(base);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, "mrun.", 5) == 0 && strlen(e->d_name) == 11)
            sweep_one(dirfd(d), base, e->d_name);
    closedir(d);
}

char *session_tmpdir_create(void)
{
    const char *base = tmp_base();
    char *dir;
    if (asprintf(&dir, "%s/mrun.XXXXXX", base) < 0) {
        fprintf(stderr, "mrun: out of memory\n");
        return NULL;
    }
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mrun: cannot create a temp dir in %s: %s (set TMPDIR to a writable "
                "directory)\n", base, strerror(errno));
        free(dir);
        return NULL;
    }
    if (lock_dir(dir) != 0) {
        session_tmpdir_remove(dir);
        free(dir);
        return NULL;
    }
    return dir;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    if (remove(path) != 0 && errno != ENOENT)
        fprintf(stderr, "mrun: cannot remove %s: %s\n", path, strerror(errno));
    return 0; /* keep going: remove as much as we can */
}

void session_tmpdir_remove(const char *dir)
{
    if (dir && nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0 && errno != ENOENT)
        fprintf(stderr, "mrun: cannot remove temp dir %s: %s\n", dir, strerror(errno));
}

void session_shm_sweep(const char *nspace)
{
    char prefix[300];
    int plen = snprintf(prefix, sizeof prefix, "rmp.%s", nspace);
    DIR *d = opendir("/dev/shm");
    if (!d)
        return; /* no /dev/shm: nothing can have been left there */
    int dfd = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        /* "rmp.mrun-12" must not match the segments of job "mrun-123" */
        if (strncmp(e->d_name, prefix, (size_t)plen) != 0 ||
            isdigit((unsigned char)e->d_name[plen]))
            continue;
        if (unlinkat(dfd, e->d_name, 0) != 0 && errno != ENOENT)
            fprintf(stderr, "mrun: cannot remove /dev/shm/%s: %s\n", e->d_name, strerror(errno));
    }
    closedir(d);
}

/* "rmp.<job>-r<rank>.l<16 hex digits>": a segment whose creator holds a lock on it while it
 * lives (shm.c names them so). Segments of an older rmp end in ".<16 hex digits>" and have no
 * lock: they would all look abandoned, and are left alone. */
static bool shm_locked_kind(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (strncmp(name, "rmp.", 4) != 0 || !dot || dot - name < 4 || dot[1] != 'l' ||
        strlen(dot + 2) != 16)
        return false;
    for (const char *c = dot + 2; *c; c++)
        if (!isxdigit((unsigned char)*c))
            return false;
    return true;
}

/* /dev/shm/<name> if it is a segment of ours whose creator is gone: an rmp name, a regular file
 * of our uid that is not empty (a creator without O_TMPFILE sizes it only after its lock), and
 * nobody holds its lock. Removed under our own exclusive lock: no creator takes one on a file
 * that has a name already. Another user's file is never touched (nor opened for writing). */
static void shm_sweep_one(int dfd, const char *name)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_size > 0 &&
        flock(fd, LOCK_EX | LOCK_NB) == 0 && unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
        fprintf(stderr, "mrun: cannot remove /dev/shm/%s (left by a job that was killed): %s\n",
                name, strerror(errno));
    close(fd);
}

void session_shm_sweep_dead(void)
{
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (shm_locked_kind(e->d_name))
            shm_sweep_one(dirfd(d), e->d_name);
    closedir(d);
}

/* MemAvailable in bytes; 0 if unknown (an old kernel, no /proc). */
static uint64_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

void session_shm_room(int nprocs, char *env, size_t len)
{
    struct statvfs v;
    uint64_t shm_free = statvfs("/dev/shm", &v) ? 0 : (uint64_t)v.f_bavail * v.f_frsize;
    snprintf(env, len, "RMP_MRUN_SHM_ROOM=%d:%d:%" PRIu64 ":%" PRIu64, (int)getpid(), nprocs,
             shm_free, mem_available());
}
