/* shm_segment.c — a rank's own segment (created, reserved, laid out, named) and the mapping of
 * its local peers' segments, checked against what the modex said; the last mapper unlinks. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "transport/blob.h"

#include "transport/shm/shm_tp.h"

/* Map a ring's pages into this process now, writable. Otherwise the first pass over a ring
 * takes a page fault every 4 KiB (every 64 small messages), and faults are dear in a VM: the
 * first few thousand messages of a job ran at twice the steady latency. Best effort: an old
 * kernel without MADV_POPULATE_WRITE just faults lazily. */
void shm_prefault(shm_tp_t *s, void *addr, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    if (madvise(addr, len, MADV_POPULATE_WRITE) && errno != EINVAL)
        tp_verbose(&s->base, "shm: prefaulting %zu bytes: %s", len, strerror(errno));
#else
    (void)s, (void)addr, (void)len;
#endif
}

int shm_seg_create(shm_tp_t *s)
{
    const tp_env_t *env = s->base.env;
    char *name = s->blob.name, rnd[17];
    /* The random part: in a sticky, world-writable /dev/shm, a predictable name is one that
     * another user can create first (O_EXCL then refuses the job). The job prefix stays for
     * mrun's sweep after a crash; peers learn the whole name from the modex. */
    int re = shm_bell_random_hex(rnd, sizeof(rnd) - 1);
    if (re) {
        tp_error(&s->base, "shm: getrandom: %s", strerror(re));
        return RMP_ERR_TRANSPORT;
    }
    /* ".l": a segment whose creator holds its lock (seg_dir); mrun's sweep removes no other
     * kind (an older rmp's segments have no lock: to it they would all look abandoned). */
    snprintf(name, SHM_NAME_MAX, "/rmp.%s-r%d.l%s", s->tag, env->rank, rnd);
    s->seg_bytes = shm_seg_size(s->queue_cap, s->ring_cap, s->nlocal);

    bool named;
    const char *what;
    int fd = shm_seg_new_fd(&s->base, name, &named, &what);
    if (fd < 0) {
        int e = errno;
        tp_error(&s->base, "%s for %s: %s (%s)", what, name, strerror(e),
                 "is /dev/shm mounted and writable?");
        return RMP_ERR_TRANSPORT;
    }
    s->seg_fd = fd;
    /* Reserve the pages now: on a full tmpfs, a lazily backed mapping would SIGBUS at first
     * touch instead of failing here with a message. */
    what = "ftruncate";
    int e = ftruncate(fd, (off_t)s->seg_bytes) ? errno : 0;
    if (!e) {
        what = "posix_fallocate";
        e = posix_fallocate(fd, 0, (off_t)s->seg_bytes);
        e = e == EOPNOTSUPP || e == EINVAL ? 0 : e; /* cannot reserve: go on lazily */
    }
    if (e) {
        tp_error(&s->base, "%s %s: %s (is /dev/shm mounted and large enough? %zu bytes needed; "
                 "a smaller RMP_SHM_RING_KB lowers it)", what, name, strerror(e),
                 s->seg_bytes);
        goto fail;
    }
    s->seg = mmap(NULL, s->seg_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (s->seg == MAP_FAILED) {
        s->seg = NULL;
        tp_error(&s->base, "mmap %s (%zu bytes): %s", name, s->seg_bytes, strerror(errno));
        goto fail;
    }
    shm_prefault(s, s->seg, s->seg_bytes); /* my queue and fast rings: fixed size, all used */

    shm_seg_hdr_t *h = s->seg;
    atomic_init(&h->sleeping, 0);
    atomic_init(&h->mapped, 1); /* me */
    h->pid = (int32_t)getpid();
    h->nlocal = (uint32_t)s->nlocal;
    h->magic = SHM_MAGIC;
    h->queue_cap = s->queue_cap;
    h->ring_cap = s->ring_cap;
    h->ring_stride = shm_ring_footprint(s->ring_cap);
    h->nfast = SHM_FAST_RINGS;
    shm_queue_init(shm_seg_queue(h), s->queue_cap); /* over fresh, zeroed pages */
    for (int i = 0; i < SHM_FAST_RINGS; i++)
        shm_ring_init(shm_seg_fast(s, h, i), s->ring_cap);
    shm_coop_attach(&s->coop, shm_seg_coop(s, h)); /* zeroed pages: idle slots */
    if (!named) { /* ready: now it gets its name */
        int dir = shm_seg_dir();
        e = dir < 0 ? errno : shm_seg_link(fd, dir, name + 1);
        if (dir >= 0)
            close(dir);
        if (e) {
            tp_error(&s->base, "shm: naming %s: %s (is /dev/shm mounted and writable?)", name,
                     strerror(e));
            munmap(s->seg, s->seg_bytes);
            s->seg = NULL;
            close(fd);
            s->seg_fd = -1;
            return RMP_ERR_TRANSPORT;
        }
    }

    s->blob.hdr_addr = (uint64_t)(uintptr_t)h;
    s->blob.seg_bytes = s->seg_bytes;
    s->blob_len = offsetof(shm_blob_t, name) + strlen(name) + 1;
    memcpy(s->peers[s->me].seg_name, name, SHM_NAME_MAX);
    return RMP_SUCCESS;
fail:
    close(fd);
    s->seg_fd = -1;
    if (named)
        shm_unlink(name);
    return RMP_ERR_TRANSPORT;
}

/* Read local peer i's blob from the modex (bytes from another process: checked): its segment
 * name, size and address, and its doorbell. Names are learned for every peer before any is
 * mapped, so that an abandoned start can unlink them all (shm_abandon). */
int shm_peer_learn(shm_tp_t *s, int i, shm_blob_t *b)
{
    shm_peer_t *p = &s->peers[i];
    const void *data;
    size_t len;
    memset(b, 0, sizeof(*b));
    if (tp_modex_get(&s->base, p->world, &data, &len) != RMP_SUCCESS ||
        blob_str_check(data, len, offsetof(shm_blob_t, name), sizeof(*b))) {
        tp_error(&s->base, "shm: no valid address from local rank %d in the modex (is it running "
                 "the same rmp?)", p->world);
        return RMP_ERR_TRANSPORT;
    }
    memcpy(b, data, len);
    if (!shm_bell_name_valid(b->bell, sizeof(b->bell)) || strncmp(b->name, "/rmp.", 5) ||
        strchr(b->name + 1, '/')) {
        tp_error(&s->base, "shm: malformed address from local rank %d in the modex (is it running "
                 "the same rmp?)", p->world);
        return RMP_ERR_TRANSPORT;
    }
    memcpy(p->seg_name, b->name, sizeof(p->seg_name));
    shm_bell_addr(b->bell, &p->bell, &p->bell_len);
    return RMP_SUCCESS;
}

/* A segment that vanished after its owner published it was unlinked by a rank that is ending
 * the job without rmp_finalize (shm_abandon: after SHM_ABANDON_WAIT_MS, a rank still wiring
 * up finds it gone). The launcher is about to end this process too: wait for that instead of
 * failing rmp_init first, which would make this rank, not the one that ended the job, look
 * like the cause. Bounded: if nothing ends it, the open fails as it would have. */
static int seg_open_peer(const char *name)
{
    int fd = shm_open(name, O_RDWR, 0);
    for (int ms = 0; fd < 0 && errno == ENOENT && ms < SHM_VANISHED_WAIT_MS; ms += 10) {
        struct timespec nap = {0, 10 * 1000000};
        nanosleep(&nap, NULL);
        errno = ENOENT;
    }
    return fd;
}

/* Map local peer i's segment, attach to its queue as a producer, count myself as a mapper.
 * Its fast rings are attached later, if it hands me one (shm_progress). */
int shm_seg_map_peer(shm_tp_t *s, int i, const shm_blob_t *b)
{
    shm_peer_t *p = &s->peers[i];
    int fd = seg_open_peer(b->name);
    if (fd < 0) {
        tp_error(&s->base, "shm_open %s (rank %d's segment): %s", b->name, p->world,
                 strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    struct stat st;
    if (fstat(fd, &st) || (uint64_t)st.st_size != b->seg_bytes || b->seg_bytes != s->seg_bytes) {
        tp_error(&s->base, "shm: segment %s of rank %d has the wrong size", b->name, p->world);
        close(fd);
        return RMP_ERR_TRANSPORT;
    }
    void *m = mmap(NULL, b->seg_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED) {
        tp_error(&s->base, "mmap %s (rank %d's segment): %s", b->name, p->world, strerror(errno));
        return RMP_ERR_TRANSPORT;
    }
    /* Its first page (header, queue indices), faulted in for writing before the first read:
     * a read fault maps up to 64 KiB around it (the kernel's fault-around), pages I never use,
     * which made each rank's RSS grow by 64 KiB per local peer. The rest of its segment is
     * faulted in by my writes, page by page. */
    shm_prefault(s, m, (size_t)sysconf(_SC_PAGESIZE));
    p->seg = m;
    p->seg_bytes = b->seg_bytes;
    p->hdr_addr = b->hdr_addr;
    if (p->seg->magic != SHM_MAGIC || p->seg->nlocal != (uint32_t)s->nlocal ||
        p->seg->queue_cap != s->queue_cap || p->seg->ring_cap != s->ring_cap ||
        p->seg->ring_stride != s->seg->ring_stride || p->seg->nfast != SHM_FAST_RINGS ||
        shm_queue_attach(&p->outq, shm_seg_queue(p->seg), s->queue_cap, true)) {
        tp_error(&s->base, "shm: segment %s of rank %d does not match mine (same rmp build and "
                 "RMP_SHM_RING_KB on every rank?)", b->name, p->world);
        return RMP_ERR_TRANSPORT;
    }
    p->pid = p->seg->pid;
    s->pids[i] = p->pid;
    /* No prefault here: I touch only the part of its queue my records land in. */

    /* The last of the local_size mappers unlinks: from then on nothing is left in /dev/shm,
     * whoever crashes later; the mappings keep the memory alive. */
    if (atomic_fetch_add(&p->seg->mapped, 1) + 1 == s->nlocal && shm_unlink(b->name) &&
        errno != ENOENT)
        tp_verbose(&s->base, "shm: shm_unlink %s: %s", b->name, strerror(errno));
    return RMP_SUCCESS;
}
