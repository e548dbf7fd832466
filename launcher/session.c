/* session.c: the job's footprint on the file system: its PMIx temp dir and the shared-memory
 * segments rmp names after the namespace. mrun removes both however the job ends. */
#include "session.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *session_tmpdir_create(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
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
