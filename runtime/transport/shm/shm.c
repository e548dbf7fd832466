/* shm.c — the shared-memory transport for ranks on one node. Each rank owns one POSIX segment
 * of a fixed size whatever the node's size: an incoming multi-producer queue fed by every local
 * peer (shm_queue.c) and a few outgoing SPSC "fast rings" (shm_ring.c) handed to the peers it
 * sends to most; plus a doorbell to wake it when it sleeps (shm_bell.c) and CMA
 * (process_vm_readv) for single-copy rendezvous. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "transport/blob.h"
#include "transport/shm/shm_bell.h"
#include "transport/shm/shm_cma.h"
#include "transport/shm/shm_coll.h"
#include "transport/shm/shm_coop.h"
#include "transport/shm/shm_queue.h"
#include "transport/shm/shm_ring.h"
#include "transport/shm/shm_rma.h"
#include "transport/shm/shm_seg.h"
#include "transport/shm/shm_wake.h"
#include "transport/transport.h"

#define SHM_MAGIC 0x34306d6873706d72ull /* "rmpshm04" */
#define SHM_RING_DEFAULT (256u << 10)
#define SHM_QUEUE_DEFAULT (1u << 20) /* the incoming queue, at least (see shm_open_tp) */
#define SHM_FAST_RINGS 4           /* outgoing fast rings per rank (see shm_send) */
#define SHM_FAST_AFTER 16          /* records to a peer through its queue before a fast ring */
#define SHM_FROM_FAST 0x80000000u  /* queue record's `from` flag: "my fast ring to you is..." */
#define SHM_LOCAL_MAX (1 << 24)    /* local ranks a queue record's `from` can name */
#define SHM_EAGER_DEFAULT (16u << 10)
#define SHM_POLL_BUDGET 16         /* records per fast ring per progress call: fairness */
#define SHM_QUEUE_BUDGET 64        /* records from the queue per progress call */
#define SHM_CMA_CHUNK (64u << 20)  /* bytes per process_vm_readv call */
#define SHM_NAME_MAX 144          /* "/rmp." tag "-r" rank ".l" 16 hex digits, and a NUL */
#define SHM_ABANDON_WAIT_MS 500    /* see shm_abandon: only a dead or stuck peer costs it */
#define SHM_VANISHED_WAIT_MS 10000 /* see seg_open_peer: only a job being ended costs it */
#define SHM_SETTLE_MS 2            /* first stage of a futex sleep after fence-less sends */
#define SHM_DRAIN_EVERY 32         /* futex sleeps between two reads of the doorbell */

/* Start of every segment. `sleeping` is alone on its line: the owner writes it only around
 * blocking, senders read it after every send. It is also the futex the owner blocks on
 * (shm_wake.h: SHM_WAKE_FUTEX or SHM_WAKE_BELL says how to wake it, AWAKE that it runs). The
 * header is followed by the owner's incoming queue, then its SHM_FAST_RINGS outgoing fast
 * rings, then the slots of its large sends (shm_coop.h), then its collective area
 * (shm_coll.h). The size does not depend on the number of
 * local ranks: n ranks use n segments, not n rings each. */
typedef struct shm_seg_hdr {
    _Alignas(64) atomic_uint sleeping; /* owner is about to block (shm_wake.h's values) */
    _Alignas(64) atomic_int mapped;   /* ranks that mapped it (creator included) */
    int32_t pid;                      /* owner: CMA target and probe value */
    uint32_t nlocal;                  /* local_size, as a consistency check */
    uint64_t magic;
    uint64_t queue_cap;               /* data bytes of the queue */
    uint64_t ring_cap;                /* data bytes of each fast ring */
    uint64_t ring_stride;             /* bytes from one fast ring to the next */
    uint32_t nfast;                   /* fast rings */
} shm_seg_hdr_t;

/* The flags are shared between processes: that needs address-free, lock-free atomics. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "shm needs lock-free int atomics");

#define SHM_HDR_BYTES ((sizeof(shm_seg_hdr_t) + 63) & ~(size_t)63)

/* The modex blob: only the used prefix of name[] is published. */
typedef struct shm_blob {
    uint64_t hdr_addr;  /* segment address in its owner, for the CMA probe */
    uint64_t seg_bytes;
    char bell[SHM_BELL_NAME]; /* the owner's doorbell (random: see shm_bell.c) */
    char name[SHM_NAME_MAX];
} shm_blob_t;

typedef struct shm_peer {
    int world;
    int32_t pid;
    shm_seg_hdr_t *seg;   /* the peer's segment (mine when it is me) */
    size_t seg_bytes;
    uint64_t hdr_addr;    /* seg's address in the peer */
    shm_queue_t outq;     /* its queue, in its segment: I am one of the producers */
    shm_ring_t out;       /* my fast ring to it, in my segment (ctl NULL: none yet) */
    shm_ring_t in;        /* its fast ring to me, in its segment (ctl NULL: none yet) */
    uint32_t queued;      /* records sent to it through its queue (up to SHM_FAST_AFTER) */
    struct sockaddr_un bell;
    socklen_t bell_len;
    char seg_name[SHM_NAME_MAX]; /* "" until known: unlinked if the job is abandoned */
    bool cma_ok;          /* probe passed and no get refused since */
    bool broken;          /* its fast ring held garbage: not read any more */
} shm_peer_t;

typedef struct shm_tp {
    tp_t base;
    int me, nlocal;
    int *local_of;        /* world rank -> local index, -1 off-node */
    shm_peer_t *peers;    /* by local index */
    shm_seg_hdr_t *seg;   /* mine */
    int seg_fd;           /* mine, flocked (shared) while I live: see seg_dir; -1: none */
    size_t seg_bytes, ring_cap, queue_cap;
    shm_queue_t inq;      /* my queue: I consume */
    bool inq_broken;      /* it held garbage: not read any more */
    int nfast_used;       /* my fast rings handed out so far (never taken back) */
    int *hot;             /* local indices of the peers with a fast ring to me */
    int nhot;
    shm_bell_t bell;      /* my doorbell */
    shm_coll_t *coll;     /* the collective backend (offload table) */
    shm_coop_t coop;      /* my large sends that receivers may copy with my help */
    int32_t *pids;        /* by local index, 0 until known: whose doorbell rings count */
    bool stranger_said;   /* a stranger's datagram was reported (once is enough) */
    bool cma;             /* RMP_CMA != 0 */
    bool coop_on;         /* RMP_SHM_COOP != 0: large sends offer the receiver help */
    bool fence;           /* bell_ring fences (oversubscribed ranks sleep often) */
    bool futex;           /* shm_wait may block on a futex (shm_wake_usable at open) */
    bool armed_bell;      /* armed for a core that polls the doorbell (shm_arm) */
    bool settled;         /* the short first stage of this futex sleep is over */
    bool drain_due;       /* read the doorbell at disarm (a futex sleep does now and then) */
    unsigned sleeps;      /* futex sleeps: the doorbell is drained every SHM_DRAIN_EVERY */
    unsigned rr;          /* first fast ring polled next time */
    bool in_progress;     /* inside shm_progress */
    bool wired;           /* shm_wireup mapped every local segment */
    struct shm_tp *next_live; /* shm_live: the instances open in this process */
    char tag[SHM_TAG_BYTES];
    shm_blob_t blob;
    size_t blob_len;
} shm_tp_t;

/* Where the parts of a segment are: fixed by the sizes the mapper expects (checked against
 * the header when a peer's segment is mapped), never by what the header says alone. */
static void *seg_queue(shm_seg_hdr_t *seg)
{
    return (char *)seg + SHM_HDR_BYTES;
}

static shm_ring_ctl_t *seg_fast(shm_tp_t *s, shm_seg_hdr_t *seg, int i)
{
    return (shm_ring_ctl_t *)((char *)seg + SHM_HDR_BYTES + shm_queue_footprint(s->queue_cap) +
                              (size_t)i * shm_ring_footprint(s->ring_cap));
}

static size_t seg_size(size_t queue_cap, size_t ring_cap, int nlocal)
{
    return SHM_HDR_BYTES + shm_queue_footprint(queue_cap) +
           SHM_FAST_RINGS * shm_ring_footprint(ring_cap) + shm_coop_area_bytes() +
           shm_coll_area_bytes(nlocal);
}

static void *seg_coop(shm_tp_t *s, shm_seg_hdr_t *seg)
{
    return (char *)seg + s->seg_bytes - shm_coll_area_bytes(s->nlocal) - shm_coop_area_bytes();
}

static void *seg_coll(shm_tp_t *s, shm_seg_hdr_t *seg)
{
    return (char *)seg + s->seg_bytes - shm_coll_area_bytes(s->nlocal);
}

static shm_peer_t *peer_of(shm_tp_t *s, int world)
{
    if (world < 0 || world >= s->base.env->size || s->local_of[world] < 0)
        return NULL;
    return &s->peers[s->local_of[world]];
}

/* ---- the segment ------------------------------------------------------------------------ */

/* Map a ring's pages into this process now, writable. Otherwise the first pass over a ring
 * takes a page fault every 4 KiB (every 64 small messages), and faults are dear in a VM: the
 * first few thousand messages of a job ran at twice the steady latency. Best effort: an old
 * kernel without MADV_POPULATE_WRITE just faults lazily. */
static void prefault(shm_tp_t *s, void *addr, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    if (madvise(addr, len, MADV_POPULATE_WRITE) && errno != EINVAL)
        tp_verbose(&s->base, "shm: prefaulting %zu bytes: %s", len, strerror(errno));
#else
    (void)s, (void)addr, (void)len;
#endif
}

static int seg_create(shm_tp_t *s)
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
    s->seg_bytes = seg_size(s->queue_cap, s->ring_cap, s->nlocal);

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
    prefault(s, s->seg, s->seg_bytes); /* my queue and fast rings: fixed size, all used */

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
    shm_queue_init(seg_queue(h), s->queue_cap); /* over fresh, zeroed pages */
    for (int i = 0; i < SHM_FAST_RINGS; i++)
        shm_ring_init(seg_fast(s, h, i), s->ring_cap);
    shm_coop_attach(&s->coop, seg_coop(s, h)); /* zeroed pages: idle slots */
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
static int peer_learn(shm_tp_t *s, int i, shm_blob_t *b)
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
static int seg_map_peer(shm_tp_t *s, int i, const shm_blob_t *b)
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
    prefault(s, m, (size_t)sysconf(_SC_PAGESIZE));
    p->seg = m;
    p->seg_bytes = b->seg_bytes;
    p->hdr_addr = b->hdr_addr;
    if (p->seg->magic != SHM_MAGIC || p->seg->nlocal != (uint32_t)s->nlocal ||
        p->seg->queue_cap != s->queue_cap || p->seg->ring_cap != s->ring_cap ||
        p->seg->ring_stride != s->seg->ring_stride || p->seg->nfast != SHM_FAST_RINGS ||
        shm_queue_attach(&p->outq, seg_queue(p->seg), s->queue_cap, true)) {
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

/* ---- the doorbell ----------------------------------------------------------------------- */

/* @rmp-bell.<32 random hex digits>, published in my modex blob: why a random name, and why
 * strangers' datagrams are only counted, is told at the top of shm_bell.c. */
static int bell_open(shm_tp_t *s)
{
    const char *what = "";
    int e = shm_bell_open(&s->bell, &what);
    if (e) {
        tp_error(&s->base, "shm: doorbell: %s: %s (out of file descriptors? see ulimit -n)",
                 what, strerror(e));
        return RMP_ERR_TRANSPORT;
    }
    memcpy(s->blob.bell, s->bell.name, sizeof(s->blob.bell));
    /* The futex is the cheaper wakeup (shm_wait); a kernel or seccomp profile that refuses it
     * leaves the doorbell alone, which every rank keeps anyway (for a core that also waits on
     * other transports' descriptors). Each rank decides for itself: the word says which. */
    s->futex = shm_wake_usable(&s->seg->sleeping);
    if (!s->futex)
        tp_verbose(&s->base, "shm: futex refused (%s): sleeping on the doorbell only",
                   strerror(errno));
    return RMP_SUCCESS;
}

/* Called after a record is published to p: wake p if it announced a sleep (shm_wake_poke).
 * Why no wakeup is lost is told at the top of shm_wake.c (Dekker's pattern: the sender's fence
 * here pairs with the sleeper's in shm_wake_announce).
 *
 * The sender's fence waits for its store of head to reach the receiver, which is polling
 * that line: a full cache-line transfer per message (msgrate 3.1 M/s with it, 4.5 M/s without
 * on this machine). So the fence is kept only where sleeping is frequent (oversubscribed
 * ranks). Without it, the one race left is a receiver arming within the fraction of a
 * microsecond in which a store sits in the sender's store buffer; the receiver's sleep covers
 * it: a first stage of a few ms, then a second announcement and look at the rings that sees
 * the record, and only then the long sleep (shm_wait here, block() in progress.c). A record
 * published after that finds the announcement long visible, so it wakes the sleeper. */
static void bell_ring(shm_tp_t *s, shm_peer_t *p)
{
    if (s->fence)
        atomic_thread_fence(memory_order_seq_cst);
    if (shm_wake_poke(&p->seg->sleeping) == SHM_WAKE_BELL)
        shm_bell_ring(&s->bell, &p->bell, p->bell_len);
}

/* ---- CMA -------------------------------------------------------------------------------- */

static const char *cma_hint(int e)
{
    if (e == EPERM)
        return " (kernel.yama.ptrace_scope > 0, or a container without CAP_SYS_PTRACE)";
    if (e == ENOSYS)
        return " (process_vm_readv blocked, e.g. by a seccomp profile)";
    return "";
}

/* Read the peer's pid out of its own segment header at its address in its own process:
 * success means CMA works between us, with the permissions real transfers will need. */
static void cma_probe(shm_tp_t *s, shm_peer_t *p)
{
    int32_t seen = 0;
    struct iovec l = {&seen, sizeof(seen)};
    struct iovec r = {(void *)(uintptr_t)(p->hdr_addr + offsetof(shm_seg_hdr_t, pid)),
                      sizeof(seen)};
    ssize_t n = process_vm_readv(p->pid, &l, 1, &r, 1, 0);
    int e = n < 0 ? errno : 0;
    p->cma_ok = n == (ssize_t)sizeof(seen) && seen == p->pid;
    if (p->cma_ok)
        tp_verbose(&s->base, "shm: CMA to rank %d works", p->world);
    else
        tp_verbose(&s->base, "shm: CMA to rank %d refused (%s%s); rendezvous copies "
                   "through the rings", p->world, e ? strerror(e) : "read back wrong data",
                   cma_hint(e));
}

static int cma_copy(pid_t pid, char *mine, uint64_t theirs, size_t n, bool write)
{
    return shm_cma_copy(pid, mine, theirs, n, SHM_CMA_CHUNK, write);
}

/* A large send may be copied by both sides (shm_coop.h): offered when CMA works both ways
 * between us and the ranks are not oversubscribed (then the sender's core is the receiver's,
 * or another rank's, and its help would only take turns with them). */
static int shm_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey,
                       void **memh_p)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = peer_of(s, peer);
    /* Nothing to pin: a peer reads our pages with process_vm_readv, given pid and address. */
    memset(rkey, 0, sizeof(*rkey));
    rkey->addr = (uint64_t)(uintptr_t)buf;
    rkey->key[0] = (uint64_t)getpid();
    rkey->key[1] = len;
    if (p && p != &s->peers[s->me] && p->cma_ok && s->cma && s->coop_on &&
        len >= SHM_COOP_MIN && !tp->env->oversubscribed)
        rkey->key[2] = shm_coop_offer(&s->coop, buf, len, s->local_of[peer]);
    if (memh_p)
        *memh_p = (void *)(uintptr_t)rkey->key[2];
    return RMP_SUCCESS;
}

static int shm_mem_dereg(tp_t *tp, void *memh)
{
    shm_coop_withdraw(&((shm_tp_t *)tp)->coop, (uint64_t)(uintptr_t)memh);
    return RMP_SUCCESS;
}

/* The copies of shm_coop, over CMA. */
typedef struct coop_arg {
    shm_tp_t *s;
    shm_peer_t *p; /* the other side */
} coop_arg_t;

static int coop_read(void *arg, char *dst, uint64_t src, size_t n)
{
    return cma_copy(((coop_arg_t *)arg)->p->pid, dst, src, n, false);
}

static int coop_write(void *arg, int peer, uint64_t dst, const char *src, size_t n)
{
    shm_tp_t *s = ((coop_arg_t *)arg)->s;
    if (peer < 0 || peer >= s->nlocal || peer == s->me || !s->peers[peer].cma_ok)
        return EINVAL; /* a slot is bound to its receiver at offer: never so */
    return cma_copy(s->peers[peer].pid, (char *)src, dst, n, true);
}

static int coop_alive(void *arg)
{
    return kill(((coop_arg_t *)arg)->p->pid, 0) && errno == ESRCH ? ESRCH : 0;
}

static void coop_kick(void *arg)
{
    coop_arg_t *a = arg;
    bell_ring(a->s, a->p);
}

/* My large sends' receivers started copying: take chunks from the back (shm_progress). */
static int coop_help(shm_tp_t *s)
{
    coop_arg_t a = {s, NULL};
    shm_coop_io_t io = {.read = coop_read, .write = coop_write, .alive = coop_alive,
                        .kick = coop_kick, .arg = &a};
    return shm_coop_help(&s->coop, &io);
}

static int shm_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
                   void *cookie)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = peer_of(s, peer);
    if (!p)
        return RMP_ERR_ARG;
    if (!s->cma || !p->cma_ok)
        return RMP_ERR_NOT_SUPPORTED;
    if (off > rkey->key[1] || len > rkey->key[1] - off) {
        tp_error(tp, "shm: get of %zu bytes at offset %zu from rank %d is outside its "
                 "%llu-byte buffer", len, off, peer, (unsigned long long)rkey->key[1]);
        return RMP_ERR_INTERNAL;
    }
    shm_coop_slot_t *sl = off == 0 && len >= SHM_COOP_MIN && p->seg
                              ? shm_coop_slot(seg_coop(s, p->seg), rkey->key[2]) : NULL;
    int e = SHM_COOP_DECLINED;
    if (sl) {
        coop_arg_t a = {s, p};
        shm_coop_io_t io = {.read = coop_read, .write = coop_write, .alive = coop_alive,
                            .kick = coop_kick, .arg = &a};
        e = shm_coop_pull(sl, rkey->key[2], dst, rkey->addr, len, &io);
    }
    if (e == SHM_COOP_DECLINED)
        e = cma_copy(p->pid, dst, rkey->addr + off, len, false);
    if (!e)
        return RMP_SUCCESS;
    if (e == ESRCH) {
        tp_error(tp, "shm: get from rank %d: process %d is gone", peer, (int)p->pid);
        return RMP_ERR_PEER;
    }
    p->cma_ok = false; /* later gets fall back at once */
    tp_verbose(tp, "shm: CMA from rank %d refused: %s%s; copying through the rings "
               "from now on", peer, strerror(e), cma_hint(e));
    return RMP_ERR_NOT_SUPPORTED;
}

/* ---- data path -------------------------------------------------------------------------- */

/* Hand peer p one of my fast rings, if one is left: a record in its queue names the ring, and
 * from then on everything to p goes through the ring. p starts reading the ring only when it
 * reaches that record, after everything I queued before it: order is kept. 0 if p now has a
 * ring; RMP_AGAIN if its queue is full (the caller's record waits too). */
static int fast_offer(shm_tp_t *s, shm_peer_t *p)
{
    uint32_t slot = (uint32_t)s->nfast_used;
    int rc = shm_queue_try_write(&p->outq, (uint32_t)s->me | SHM_FROM_FAST, &slot,
                                 sizeof(slot), NULL, 0);
    if (rc == SHM_QUEUE_AGAIN)
        return RMP_AGAIN;
    if (rc != SHM_QUEUE_OK)
        return rc == SHM_QUEUE_CORRUPT ? RMP_ERR_TRANSPORT : RMP_ERR_INTERNAL;
    shm_ring_attach(&p->out, seg_fast(s, s->seg, (int)slot), s->ring_cap, true); /* mine */
    s->nfast_used++;
    return RMP_SUCCESS;
}

/* Records go through the peer's queue, shared with all its other senders, until this rank has
 * sent SHM_FAST_AFTER to it; then, while any of my SHM_FAST_RINGS rings is left, through a
 * fast ring of our own (no compare-and-swap, and the receiver polls it only because I use it).
 * Either path is bounded: when full, RMP_AGAIN, and the core keeps the packet queued until the
 * receiver makes room (eager back-pressure: see the note at shm_progress). */
static int shm_send(tp_t *tp, int peer, const void *hdr, size_t hdrlen, const void *payload,
                    size_t len)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = peer_of(s, peer);
    if (!p || !p->outq.ctl) /* not on this node, or not wired up */
        return RMP_ERR_ARG;
    int rc;
    if (!p->out.ctl && p->queued >= SHM_FAST_AFTER && s->nfast_used < SHM_FAST_RINGS) {
        rc = fast_offer(s, p);
        if (rc == RMP_AGAIN)
            return rc;
        if (rc != RMP_SUCCESS)
            goto corrupt;
    }
    if (p->out.ctl) {
        rc = shm_ring_try_write(&p->out, hdr, hdrlen, payload, len);
        rc = rc == SHM_RING_OK ? SHM_QUEUE_OK : rc == SHM_RING_AGAIN ? SHM_QUEUE_AGAIN
                                                                    : SHM_QUEUE_TOOBIG;
    } else {
        rc = shm_queue_try_write(&p->outq, (uint32_t)s->me, hdr, hdrlen, payload, len);
        p->queued += rc == SHM_QUEUE_OK && p->queued < SHM_FAST_AFTER;
    }
    if (rc == SHM_QUEUE_AGAIN)
        return RMP_AGAIN;
    if (rc == SHM_QUEUE_CORRUPT)
        goto corrupt;
    if (rc != SHM_QUEUE_OK) {
        tp_error(tp, "shm: send of %zu bytes to rank %d exceeds max_send %zu",
                 hdrlen + len, peer, tp->max_send);
        return RMP_ERR_INTERNAL;
    }
    bell_ring(s, p);
    return RMP_SUCCESS;
corrupt:
    tp_error(tp, "shm: the queue of rank %d holds impossible indices (memory corruption by a "
             "process of this node?); nothing more is sent to it", peer);
    return RMP_ERR_TRANSPORT;
}

/* Deliver up to `budget` records from peer p's fast ring to me. */
static int poll_fast(shm_tp_t *s, shm_peer_t *p, int budget)
{
    int events = 0;
    for (int b = 0; b < budget && !p->broken; b++) {
        const void *data;
        size_t len;
        int rc = shm_ring_peek(&p->in, &data, &len);
        if (rc == SHM_RING_EMPTY)
            break;
        if (rc == SHM_RING_CORRUPT) {
            p->broken = true;
            tp_error(&s->base, "shm: garbage in the ring from rank %d (memory corruption "
                     "in that process?)", p->world);
            tp_peer_failed(&s->base, p->world, RMP_ERR_TRANSPORT, "corrupt shm ring");
            break;
        }
        /* Zero copy: the core copies out before returning; release frees the space. */
        tp_deliver(&s->base, p->world, data, len);
        shm_ring_release(&p->in);
        events++;
    }
    return events;
}

/* My queue held garbage. Any local peer may have written it, and anything queued after it is
 * lost: every local peer fails (RMP_ERR_TRANSPORT on what waits for them), rather than a
 * wrong one being blamed or a receive waiting forever. */
static void queue_broken(shm_tp_t *s, const char *what)
{
    s->inq_broken = true;
    tp_error(&s->base, "shm: %s in my incoming queue (memory corruption by a process of this "
             "node?); every rank of this node is treated as failed", what);
    for (int i = 0; i < s->nlocal; i++)
        if (i != s->me)
            tp_peer_failed(&s->base, s->peers[i].world, RMP_ERR_TRANSPORT, "corrupt shm queue");
}

/* Peer `from` hands me its fast ring `slot` (a record of 4 bytes). 1: attached (or to retry
 * later: 0 and nothing consumed), -1: garbage. */
static int fast_accept(shm_tp_t *s, uint32_t from, const void *data, size_t len)
{
    uint32_t slot;
    if (from >= (uint32_t)s->nlocal || len != sizeof(slot))
        return -1;
    shm_peer_t *p = &s->peers[from];
    if (!p->seg) /* a peer done with its wire-up before me: map it first (shm_wireup) */
        return 0;
    memcpy(&slot, data, sizeof(slot));
    if (p->in.ctl || slot >= SHM_FAST_RINGS ||
        shm_ring_attach(&p->in, seg_fast(s, p->seg, (int)slot), s->ring_cap, false))
        return -1;
    prefault(s, p->in.ctl, shm_ring_footprint(s->ring_cap)); /* read on every message */
    s->hot[s->nhot++] = (int)from;
    return 1;
}

/* Deliver up to SHM_QUEUE_BUDGET records from my queue. */
static int poll_queue(shm_tp_t *s)
{
    int events = 0;
    for (int b = 0; b < SHM_QUEUE_BUDGET && !s->inq_broken; b++) {
        uint32_t from;
        const void *data;
        size_t len;
        int rc = shm_queue_peek(&s->inq, &from, &data, &len);
        if (rc == SHM_QUEUE_EMPTY)
            break;
        if (rc == SHM_QUEUE_CORRUPT) {
            queue_broken(s, "garbage");
            break;
        }
        if (from & SHM_FROM_FAST) {
            int ok = fast_accept(s, from & ~SHM_FROM_FAST, data, len);
            if (ok == 0)
                break;
            if (ok < 0) {
                queue_broken(s, "an invalid fast-ring offer");
                break;
            }
        } else if (from >= (uint32_t)s->nlocal) {
            queue_broken(s, "a record from no local rank");
            break;
        } else {
            tp_deliver(&s->base, s->peers[from].world, data, len);
        }
        shm_queue_release(&s->inq);
        events++;
    }
    return events;
}

/* Only the peers that handed me a fast ring are polled, plus the one queue: the cost of a
 * progress call follows the peers I hear from, not the node's size.
 *
 * Eager flow control: a sender's records wait in my queue or its ring, both bounded; when
 * they are full the sender gets RMP_AGAIN and the core holds the packet (its send request
 * stays incomplete, as an MPI_Send larger than what the system buffers). Records move from
 * here to the core's unexpected queue whenever I progress, whether or not receives are posted,
 * so a program that is legal under MPI (no reliance on buffering beyond the eager limit) never
 * deadlocks on full shared memory: the space comes back at the receiver's next progress. */
static int shm_progress(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int events = 0;
    /* A nested call (tp_deliver reaching progress) would deliver the record being
     * delivered a second time: it gets nothing instead. */
    if (s->in_progress)
        return 0;
    s->in_progress = true;
    /* Round-robin start and a per-ring budget: one flooding peer cannot starve the others.
     * (The two divisions look like waste in a loop that runs once per turn of every wait, but
     * the same loop without them measured 10 % slower 8-byte ping-pongs, 0.108 against 0.098
     * us: a receiver that polls the next record's line more often takes it from the sender
     * between the stores that write the record. A `pause` in the wait loop gives the same.) */
    for (int k = 0; k < s->nhot; k++)
        events += poll_fast(s, &s->peers[s->hot[(s->rr + (unsigned)k) % (unsigned)s->nhot]],
                            SHM_POLL_BUDGET);
    events += poll_queue(s);
    if (shm_coop_busy(&s->coop)) /* after the rings: a FIN that came withdraws its slot */
        events += coop_help(s);
    if (s->nhot)
        s->rr = (s->rr + 1) % (unsigned)s->nhot;
    s->in_progress = false;
    return events;
}

/* Something may be waiting for me (shm_arm): in my queue or on a fast ring to me. */
static bool shm_pending(shm_tp_t *s)
{
    if (!s->inq_broken && shm_queue_has_data(&s->inq))
        return true;
    if (shm_coll_pending(s->coll))
        return true;
    for (int k = 0; k < s->nhot; k++)
        if (!s->peers[s->hot[k]].broken && shm_ring_has_data(&s->peers[s->hot[k]].in))
            return true;
    return false;
}

/* Local ranks other than me announcing a sleep now (tp_ops_t.asleep): their `sleeping` word
 * is not AWAKE. One line per peer, read only after a slow yield (progress.c). */
static int shm_asleep(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int n = 0;
    for (int i = 0; i < s->nlocal; i++)
        if (i != s->me && s->peers[i].seg &&
            atomic_load_explicit(&s->peers[i].seg->sleeping, memory_order_relaxed) !=
                SHM_WAKE_AWAKE)
            n++;
    return n;
}

static int shm_wait_fd(tp_t *tp)
{
    return ((shm_tp_t *)tp)->bell.fd;
}

/* Announce a sleep woken by `how`, then look at every ring once more (shm_wake.c says why this
 * order): RMP_AGAIN, announcement withdrawn, if a record is already there. */
static int shm_announce(shm_tp_t *s, unsigned how)
{
    shm_wake_announce(&s->seg->sleeping, how);
    if (shm_pending(s)) {
        shm_wake_cancel(&s->seg->sleeping);
        return RMP_AGAIN;
    }
    return RMP_SUCCESS;
}

/* For a core that polls this transport's doorbell along with other descriptors. */
static int shm_arm(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    s->armed_bell = true;
    return shm_announce(s, SHM_WAKE_BELL);
}

/* For a core with nothing else to wait on: announce a futex sleep (the rank that publishes a
 * record for me then wakes exactly me: shm_wake.c). */
static int shm_arm_alone(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    if (!s->futex)
        return RMP_ERR_NOT_SUPPORTED;
    return shm_announce(s, SHM_WAKE_FUTEX);
}

/* Called without the core's lock: touches only the word and what the one sleeping thread owns
 * (settled, sleeps, drain_due, futex). Senders that skip their fence (not oversubscribed: see
 * bell_ring) get a second announcement and look after a short first sleep. */
static int shm_wait_alone(tp_t *tp, int timeout_ms)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    int ms = s->fence || s->settled || timeout_ms <= SHM_SETTLE_MS ? timeout_ms : SHM_SETTLE_MS;
    int e = shm_wake_wait(&s->seg->sleeping, ms);
    if (e == ETIMEDOUT && ms < timeout_ms) {
        s->settled = true;
        return RMP_INPROGRESS;
    }
    /* Nobody of the job rings the doorbell of a futex sleeper, but anyone may: now and then,
     * not at every hand-off (a system call), read what strangers queued there (disarm). */
    s->drain_due = e == ETIMEDOUT || ++s->sleeps % SHM_DRAIN_EVERY == 0;
    if (e && e != ETIMEDOUT && e != EINTR) {
        /* Probed at open, so unexpected: say so once and leave sleeping to the doorbell. */
        s->futex = false;
        tp_error(tp, "shm: futex wait failed: %s; sleeping on the doorbell from now on",
                 strerror(e));
    }
    return RMP_SUCCESS;
}

/* Another thread of this process posted work (lock held): the word goes back to AWAKE, and a
 * thread blocked on it in wait_alone returns (or does not block at all). */
static void shm_wake_alone(tp_t *tp)
{
    (void)shm_wake_poke(&((shm_tp_t *)tp)->seg->sleeping);
}

/* Empty my doorbell's queue, and name the first stranger who rang it (once per job). */
static void bell_drain(shm_tp_t *s)
{
    shm_bell_stranger_t who;
    int n = shm_bell_drain(&s->bell, s->pids, s->nlocal, &who);
    if (n > 0 && !s->stranger_said) {
        s->stranger_said = true;
        tp_error(&s->base, "shm: ignoring datagrams on my doorbell from pid %d (uid %u): not a "
                 "rank of this job (said once; they cannot alter data, only wake me)",
                 (int)who.pid, (unsigned)who.uid);
    }
}

static void shm_disarm(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_wake_cancel(&s->seg->sleeping);
    /* A bell rung after this drain costs one spurious wakeup later, never a lost one; the
     * core polls every ring after this, whoever rang. */
    if (s->armed_bell || s->drain_due)
        bell_drain(s);
    s->armed_bell = s->drain_due = s->settled = false;
}

/* ---- life cycle ------------------------------------------------------------------------- */

/* true once every local rank has mapped every segment I mapped: the last mapper of each has
 * unlinked its name, and an unlink by me can no longer fail a peer's start-up. */
static bool all_mapped(shm_tp_t *s)
{
    for (int i = 0; i < s->nlocal; i++)
        if (!s->peers[i].seg || atomic_load(&s->peers[i].seg->mapped) < s->nlocal)
            return false;
    return true;
}

/* The job will not run to rmp_finalize (rmp_abort, exit without finalize, a failed rmp_init):
 * unlink every segment name of this node's ranks that I know, or a peer the launcher kills
 * before it maps them all leaves them behind (mrun sweeps /dev/shm; other launchers do not).
 * Peers still in their wire-up are given SHM_ABANDON_WAIT_MS to finish mapping first, so that
 * an abort right after rmp_init does not fail their start-up with a vanished name; a failed
 * start (no wire-up here) does not wait: nobody can map all of them any more. Unlink only:
 * safe at any moment, mappings stay valid. */
static void shm_abandon(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    if (!s->peers)
        return;
    struct timespec t0, now, nap = {0, 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    now = t0;
    while (s->wired && !all_mapped(s) &&
           (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000 <
               SHM_ABANDON_WAIT_MS) {
        nanosleep(&nap, NULL);
        clock_gettime(CLOCK_MONOTONIC, &now);
    }
    for (int i = 0; i < s->nlocal; i++) {
        char *name = s->peers[i].seg_name;
        if (name[0] && shm_unlink(name) && errno != ENOENT)
            tp_verbose(tp, "shm: shm_unlink %s: %s", name, strerror(errno));
        name[0] = '\0';
    }
}

/* The instances between open and close (rmp_init and rmp_finalize run on one thread, and
 * atexit handlers after every other thread's last rmp call). */
static shm_tp_t *shm_live;

static void live_remove(shm_tp_t *s)
{
    for (shm_tp_t **pp = &shm_live; *pp; pp = &(*pp)->next_live)
        if (*pp == s) {
            *pp = s->next_live;
            return;
        }
}

/* exit() without rmp_finalize: the names must not outlive the process either. */
static void shm_atexit(void)
{
    for (shm_tp_t *s = shm_live; s; s = s->next_live)
        shm_abandon(&s->base);
}

/* A forked child's exit abandons nothing: the segments are its parent's. */
static void shm_forked(void)
{
    shm_live = NULL;
}

static void shm_atexit_register(void)
{
    if (atexit(shm_atexit))
        fprintf(stderr, "rmp: shm: atexit failed: a rank that exits without rmp_finalize may "
                "leave /dev/shm/rmp.* behind\n");
    if (pthread_atfork(NULL, NULL, shm_forked))
        fprintf(stderr, "rmp: shm: pthread_atfork failed: a child forked by a rank must not "
                "exit through exit()\n");
}

static void shm_close(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    live_remove(s);
    for (int i = 0; s->peers && i < s->nlocal; i++)
        if (i != s->me && s->peers[i].seg)
            munmap(s->peers[i].seg, s->peers[i].seg_bytes);
    if (s->seg) {
        /* Still linked if some peer never mapped it (it failed before wireup). */
        if (atomic_load(&s->seg->mapped) < s->nlocal && shm_unlink(s->blob.name) &&
            errno != ENOENT)
            tp_verbose(tp, "shm: shm_unlink %s: %s", s->blob.name, strerror(errno));
        munmap(s->seg, s->seg_bytes);
    }
    if (s->seg_fd >= 0) /* the lock goes after the name: a sweeper never sees it unlocked */
        close(s->seg_fd);
    shm_bell_close(&s->bell);
    shm_coll_close(s->coll);
    free(s->pids);
    free(s->hot);
    free(s->peers);
    free(s->local_of);
    free(s);
}

/* ---- for the collective backend (shm_coll.h) -------------------------------------------- */

static void *coll_area(tp_t *tp, int w)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = peer_of(s, w);
    if (!p || !p->seg || (w != tp->env->rank && !tp->env->route[w]))
        return NULL;
    return seg_coll(s, p->seg);
}

static void coll_wake(tp_t *tp, int w)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = peer_of(s, w);
    if (p && p->seg && shm_wake_poke(&p->seg->sleeping) == SHM_WAKE_BELL)
        shm_bell_ring(&s->bell, &p->bell, p->bell_len);
}

/* A "<Field>: <n> kB" line of /proc/meminfo in bytes; 0 if unknown (an old kernel, no /proc). */
static uint64_t meminfo(const char *field)
{
    FILE *f = fopen("/proc/meminfo", "re");
    if (!f)
        return 0;
    char line[256], fmt[64];
    snprintf(fmt, sizeof(fmt), "%s: %%" SCNu64 " kB", field);
    uint64_t kb = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, fmt, &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

/* The figures the job's shared memory is judged against: what /dev/shm and the memory held
 * before any rank of the job created a segment, and how many ranks share them (every rank of
 * them needs one segment of the same size). Each rank measuring for itself would see the
 * segments of the peers that started before it: at 256 ranks in a 1.5 GiB /dev/shm, rank 232
 * refused a job that fitted. So:
 * - under mrun, the figures mrun measured before starting any rank (RMP_MRUN_SHM_ROOM, with
 *   mrun's pid: a process a rank starts inherits the variable, not the figures' validity);
 * - under any other launcher, figures no rank can change: the size of /dev/shm and MemTotal.
 *   What other processes use is then not counted: the reservation (seg_create) fails with its
 *   own message if they leave too little.
 * Either way every rank of the node reads the same figures and takes the same decision. */
typedef struct shm_room {
    uint64_t shm, mem;  /* bytes; 0: unknown (not judged) */
    int ranks;          /* ranks sharing them: the machine's under mrun (its virtual nodes
                         * share one /dev/shm), else this node's */
    const char *shm_what, *mem_what;
} shm_room_t;

static void shm_room(shm_tp_t *s, shm_room_t *r)
{
    const char *v = getenv("RMP_MRUN_SHM_ROOM");
    int pid = 0, ranks = 0, end = 0;
    uint64_t shm = 0, mem = 0;
    if (v && sscanf(v, "%d:%d:%" SCNu64 ":%" SCNu64 "%n", &pid, &ranks, &shm, &mem, &end) == 4 &&
        !v[end] && pid == (int)getppid() && ranks >= s->nlocal) {
        *r = (shm_room_t){.shm = shm, .mem = mem, .ranks = ranks, .shm_what = "free",
                          .mem_what = "MemAvailable"};
        return;
    }
    struct statvfs st;
    *r = (shm_room_t){.shm = statvfs("/dev/shm", &st) ? 0 : (uint64_t)st.f_blocks * st.f_frsize,
                      .mem = meminfo("MemTotal"), .ranks = s->nlocal, .shm_what = "in all",
                      .mem_what = "MemTotal"};
}

/* Every rank reserves one segment of a fixed size: n ranks, n segments. Refused here, before
 * anything is created, when the ranks that share /dev/shm need more than half of what it or
 * the memory holds (shm_room: figures no rank of the job has changed). Why half: tmpfs pages
 * are memory that nothing can reclaim while the job runs (no swap here, or little), and the
 * segments are all reserved up front; a job that takes more than half leaves its own ranks'
 * buffers — as large as what they send through the rings, in a program that moves data —
 * and everything else on the node the other half, and a full tmpfs as large as RAM brings
 * the OOM killer onto unrelated processes. Every rank takes the same decision; local rank 0
 * says why, the others fail without a word (their failure is the same). */
static int shm_fits(shm_tp_t *s)
{
    const tp_env_t *env = s->base.env;
    uint64_t seg = seg_size(s->queue_cap, s->ring_cap, s->nlocal);
    if (seg > SIZE_MAX / 2)
        return RMP_ERR_NO_MEM;
    shm_room_t room;
    shm_room(s, &room);
    uint64_t need = (uint64_t)room.ranks * seg; /* ranks <= 2^31, seg <= 2^33: no overflow */
    bool shm_ok = !room.shm || need <= room.shm / 2, mem_ok = !room.mem || need <= room.mem / 2;
    if (shm_ok && mem_ok)
        return RMP_SUCCESS;
    if (s->me != 0) {
        tp_quiet_failure(&s->base);
        return RMP_ERR_NO_MEM;
    }
    tp_explain(&s->base, "shm: the %d ranks on this node need %" PRIu64 " MiB of shared "
               "memory (%d x %" PRIu64 " KiB: a %zu KiB queue, %d rings of %zu KiB each, %zu KiB "
               "of collective buffers), more than half of what %s (%" PRIu64 " MiB %s); lower "
               "RMP_SHM_RING_KB (now %zu) or start fewer ranks per node", room.ranks, need >> 20,
               room.ranks, seg >> 10, s->queue_cap >> 10, SHM_FAST_RINGS, s->ring_cap >> 10,
               shm_coll_area_bytes(s->nlocal) >> 10,
               shm_ok ? "memory holds" : "/dev/shm holds", (shm_ok ? room.mem : room.shm) >> 20,
               shm_ok ? room.mem_what : room.shm_what,
               (env->shm_ring_bytes ? env->shm_ring_bytes : SHM_RING_DEFAULT) >> 10);
    return RMP_ERR_NO_MEM;
}

static int shm_open_tp(const tp_env_t *env, tp_t **tp_p)
{
    shm_tp_t *s = calloc(1, sizeof(*s));
    if (!s)
        return RMP_ERR_NO_MEM;
    s->base.ops = &tp_shm_ops;
    s->base.rma = &shm_rma_ops; /* CMA and window segments (shm_rma.c) */
    s->base.env = env;
    if (env->local_size < 2) {
        tp_verbose(&s->base, "shm: not used: no other rank on this node");
        free(s);
        return RMP_ERR_NOT_SUPPORTED;
    }
    s->bell.fd = -1;
    s->seg_fd = -1;
    s->me = env->local_rank;
    s->nlocal = env->local_size;
    s->cma = env->use_cma;
    s->fence = env->oversubscribed;
    s->ring_cap = shm_ring_capacity(env->shm_ring_bytes ? env->shm_ring_bytes : SHM_RING_DEFAULT);
    /* At least as large as a fast ring: a record that fits one fits the queue too. */
    s->queue_cap = shm_queue_capacity(s->ring_cap > SHM_QUEUE_DEFAULT ? s->ring_cap
                                                                       : SHM_QUEUE_DEFAULT);
    shm_job_tag(env->nspace, s->tag);
    s->next_live = shm_live;
    shm_live = s;
    s->local_of = malloc((size_t)env->size * sizeof(int));
    s->peers = calloc((size_t)s->nlocal, sizeof(shm_peer_t));
    s->pids = calloc((size_t)s->nlocal, sizeof(int32_t));
    s->hot = calloc((size_t)s->nlocal, sizeof(int));
    const char *coll = tp_knob(&s->base, "RMP_SHM_COLL");
    const char *coop = tp_knob(&s->base, "RMP_SHM_COOP");
    s->coop_on = !coop || strcmp(coop, "0");
    static const shm_coll_host_t host = {.area = coll_area, .wake = coll_wake};
    s->coll = shm_coll_open(&s->base, !coll || strcmp(coll, "0"), s->nlocal, &host);
    if (!s->local_of || !s->peers || !s->pids || !s->hot || !s->coll ||
        s->nlocal >= SHM_LOCAL_MAX) {
        shm_close(&s->base);
        return RMP_ERR_NO_MEM;
    }
    for (int w = 0; w < env->size; w++)
        s->local_of[w] = -1;
    for (int i = 0; i < s->nlocal; i++) {
        s->peers[i].world = env->local_ranks[i];
        s->local_of[env->local_ranks[i]] = i;
    }
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    int rc = pthread_once(&once, shm_atexit_register) ? RMP_ERR_INTERNAL : RMP_SUCCESS;
    if (rc == RMP_SUCCESS)
        rc = shm_fits(s);
    if (rc == RMP_SUCCESS)
        rc = seg_create(s);
    if (rc == RMP_SUCCESS)
        rc = bell_open(s);
    if (rc != RMP_SUCCESS) {
        shm_abandon(&s->base); /* names created so far: the job does not start */
        shm_close(&s->base);
        return rc;
    }
    shm_queue_attach(&s->inq, seg_queue(s->seg), s->queue_cap, false); /* laid out above */
    /* To myself: my own queue (the core normally uses `self` instead). */
    shm_peer_t *me = &s->peers[s->me];
    me->seg = s->seg;
    me->seg_bytes = s->seg_bytes;
    me->pid = s->seg->pid;
    me->cma_ok = true;
    shm_bell_addr(s->bell.name, &me->bell, &me->bell_len);
    s->pids[s->me] = me->pid;
    shm_queue_attach(&me->outq, seg_queue(s->seg), s->queue_cap, true);

    size_t qmax = shm_queue_max_record(s->queue_cap), rmax = shm_ring_max_record(s->ring_cap);
    s->base.max_send = qmax < rmax ? qmax : rmax;
    s->base.eager_limit = SHM_EAGER_DEFAULT < s->base.max_send / 2 ? SHM_EAGER_DEFAULT
                                                                   : s->base.max_send / 2;
    s->base.caps = s->cma ? TP_CAP_GET : 0;
    s->base.offload = shm_coll_ops(s->coll);
    tp_verbose(&s->base, "shm: segment %s (%zu bytes: a queue of %zu bytes, %d fast rings of "
               "%zu bytes, collective buffers of %zu bytes for allgather blocks up to %zu), "
               "doorbell @%s, max send %zu, eager limit %zu", s->blob.name, s->seg_bytes,
               s->queue_cap, SHM_FAST_RINGS, s->ring_cap, shm_coll_area_bytes(s->nlocal),
               shm_coll_block_cap(s->nlocal), s->bell.name, s->base.max_send,
               s->base.eager_limit);
    if (!s->cma)
        tp_verbose(&s->base, "shm: CMA disabled by RMP_CMA=0; rendezvous copies through the rings");
    *tp_p = &s->base;
    return RMP_SUCCESS;
}

static int shm_addr_pack(tp_t *tp, const void **blob_p, size_t *len_p)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    *blob_p = &s->blob;
    *len_p = s->blob_len;
    return RMP_SUCCESS;
}

static int shm_wireup(tp_t *tp)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_blob_t *blobs = calloc((size_t)s->nlocal, sizeof(shm_blob_t));
    if (!blobs)
        return RMP_ERR_NO_MEM;
    int rc = RMP_SUCCESS;
    for (int i = 0; i < s->nlocal && rc == RMP_SUCCESS; i++)
        if (i != s->me)
            rc = peer_learn(s, i, &blobs[i]);
    for (int i = 0; i < s->nlocal && rc == RMP_SUCCESS; i++) {
        if (i == s->me)
            continue;
        rc = seg_map_peer(s, i, &blobs[i]);
        if (rc == RMP_SUCCESS && s->cma)
            cma_probe(s, &s->peers[i]);
    }
    free(blobs);
    s->wired = rc == RMP_SUCCESS;
    return rc;
}

const tp_ops_t tp_shm_ops = {
    .name = "shm",
    .open = shm_open_tp,
    .addr_pack = shm_addr_pack,
    .wireup = shm_wireup,
    .connect = tp_no_connect,
    .send = shm_send,
    .mem_reg = shm_mem_reg,
    .mem_dereg = shm_mem_dereg,
    .get = shm_get,
    .progress = shm_progress,
    .wait_fd = shm_wait_fd,
    .arm = shm_arm,
    .disarm = shm_disarm,
    .arm_alone = shm_arm_alone,
    .wait_alone = shm_wait_alone,
    .wake_alone = shm_wake_alone,
    .asleep = shm_asleep,
    .close = shm_close,
    .abandon = shm_abandon,
};
