/* shm_rma.c — shm's one-sided data movers (transport/rma.h) for the ranks of one node:
 * write and read are CMA (process_vm_writev/readv) into any memory the peer exposed, since a
 * key is just (address, pid, length): nothing to pin; window segments (seg_alloc/seg_map) are
 * files in /dev/shm made like shm's own segments, which the ranks then load and store
 * directly. No atomics: a CPU atomic in a mapped segment is what the RMA layer uses on one
 * node (its RMA_DIRECT domain), and CMA cannot be atomic. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "transport/shm/shm_bell.h"
#include "transport/shm/shm_cma.h"
#include "transport/shm/shm_rma.h"
#include "transport/shm/shm_seg.h"

#define RMA_CMA_CHUNK (64u << 20) /* bytes per process_vm_* call */
#define RMA_SEG_NAME 176          /* "/rmp." tag "-r" rank ".l" 16 hex digits, and a NUL */

/* Key layout of exposed memory: addr = its address in the owner, key[0] = owner's pid,
 * key[1] = its length (the bound every write and read is checked against). Of a segment:
 * addr = the random part of its name, key[0] = its length. */

typedef struct rma_seg {
    void *ptr;
    size_t len; /* mapped bytes (page multiple) */
    int fd;     /* the creator's, flocked while it lives (mrun's sweep); -1 for a mapper */
    char name[RMA_SEG_NAME];
} rma_seg_t;

static bool same_node(const tp_env_t *env, int peer)
{
    if (peer == env->rank)
        return true;
    return env->node[peer] >= 0 && env->node[peer] == env->node[env->rank];
}

static bool shm_rma_reach(tp_t *tp, int peer)
{
    /* RMP_CMA=0 turns CMA off for messages; it does for one-sided traffic too (then the
     * layer above uses active messages) */
    return peer >= 0 && peer < tp->env->size && tp->env->use_cma && same_node(tp->env, peer);
}

static int shm_rma_expose(tp_t *tp, void *base, size_t len, tp_rkey_t *key, void **exph)
{
    memset(key, 0, sizeof(*key));
    key->addr = (uint64_t)(uintptr_t)base;
    key->key[0] = (uint64_t)getpid();
    key->key[1] = len;
    *exph = NULL; /* nothing registered: nothing to undo */
    return RMP_SUCCESS;
}

static void shm_rma_unexpose(tp_t *tp, void *exph)
{
}

/* One CMA transfer, in chunks, resuming after partial ones (page boundaries). */
static int cma(tp_t *tp, int peer, bool wr, void *local, size_t len, const tp_rkey_t *key,
               uint64_t off)
{
    if (!tp->env->use_cma)
        return RMP_ERR_NOT_SUPPORTED;
    if (off > key->key[1] || len > key->key[1] - off) {
        tp_error(tp, "shm: one-sided %s of %zu bytes at offset %" PRIu64 " of rank %d's %" PRIu64
                 "-byte memory", wr ? "write" : "read", len, off, peer, key->key[1]);
        return RMP_ERR_RMA_RANGE;
    }
    int e = shm_cma_copy((pid_t)key->key[0], local, key->addr + off, len, RMA_CMA_CHUNK, wr);
    if (!e)
        return RMP_SUCCESS;
    if (e == ESRCH)
        return RMP_ERR_PEER;
    tp_verbose(tp, "shm: one-sided CMA with rank %d refused: %s", peer, strerror(e));
    return RMP_ERR_NOT_SUPPORTED; /* EPERM (ptrace policy), EFAULT: the layer falls back */
}

static int shm_rma_write(tp_t *tp, int peer, const void *src, size_t len, const tp_rkey_t *key,
                         uint64_t off, tp_rma_cb_t *cb)
{
    return cma(tp, peer, true, (void *)src, len, key, off);
}

static int shm_rma_read(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *key,
                        uint64_t off, tp_rma_cb_t *cb)
{
    return cma(tp, peer, false, dst, len, key, off);
}

static int shm_rma_atomic(tp_t *tp, int peer, tp_amo_t op, uint64_t operand, uint64_t compare,
                          uint64_t *result, const tp_rkey_t *key, uint64_t off, tp_rma_cb_t *cb)
{
    return RMP_ERR_NOT_SUPPORTED;
}

static void seg_name(const tp_t *tp, int owner, uint64_t rnd, char *name)
{
    char tag[SHM_TAG_BYTES];
    shm_job_tag(tp->env->nspace, tag);
    snprintf(name, RMA_SEG_NAME, "/rmp.%s-r%d.l%016" PRIx64, tag, owner, rnd);
}

static size_t page_round(size_t len)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    return len ? (len + pg - 1) / pg * pg : pg;
}

static int shm_rma_seg_alloc(tp_t *tp, size_t len, void **ptr, tp_rkey_t *key, void **segh)
{
    rma_seg_t *g = calloc(1, sizeof(*g));
    char hex[17];
    if (!g)
        return RMP_ERR_NO_MEM;
    /* the random part: see seg_create in shm.c (a predictable name can be taken first) */
    int e = shm_bell_random_hex(hex, 16);
    if (e) {
        free(g);
        tp_error(tp, "shm: getrandom: %s", strerror(e));
        return RMP_ERR_TRANSPORT;
    }
    hex[16] = '\0';
    uint64_t rnd = strtoull(hex, NULL, 16);
    seg_name(tp, tp->env->rank, rnd, g->name);
    g->len = page_round(len);
    bool named;
    const char *what;
    g->fd = shm_seg_new_fd(tp, g->name, &named, &what);
    if (g->fd < 0) {
        tp_error(tp, "%s for %s: %s", what, g->name, strerror(errno));
        free(g);
        return RMP_ERR_TRANSPORT;
    }
    what = "ftruncate";
    e = ftruncate(g->fd, (off_t)g->len) ? errno : 0;
    if (!e) { /* reserve the pages: a full tmpfs fails here, not with SIGBUS at first touch */
        what = "posix_fallocate";
        e = posix_fallocate(g->fd, 0, (off_t)g->len);
        e = e == EOPNOTSUPP || e == EINVAL ? 0 : e;
    }
    if (!e) {
        what = "mmap";
        g->ptr = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, 0);
        e = g->ptr == MAP_FAILED ? errno : 0;
        if (e)
            g->ptr = NULL;
    }
    if (!e && !named) {
        what = "naming";
        int dir = shm_seg_dir();
        e = dir < 0 ? errno : shm_seg_link(g->fd, dir, g->name + 1);
        if (dir >= 0)
            close(dir);
    }
    if (e) {
        tp_error(tp, "shm: %s window segment %s (%zu bytes): %s (is /dev/shm large enough?)",
                 what, g->name, g->len, strerror(e));
        if (g->ptr)
            munmap(g->ptr, g->len);
        if (named)
            shm_unlink(g->name);
        close(g->fd);
        free(g);
        return e == ENOMEM || e == ENOSPC ? RMP_ERR_NO_MEM : RMP_ERR_TRANSPORT;
    }
    memset(key, 0, sizeof(*key));
    key->addr = rnd;
    key->key[0] = g->len;
    *ptr = g->ptr;
    *segh = g;
    return RMP_SUCCESS;
}

static int shm_rma_seg_map(tp_t *tp, int peer, const tp_rkey_t *key, size_t len, void **ptr,
                           void **segh)
{
    if (!same_node(tp->env, peer) || key->key[0] != page_round(len))
        return RMP_ERR_ARG;
    rma_seg_t *g = calloc(1, sizeof(*g));
    if (!g)
        return RMP_ERR_NO_MEM;
    g->fd = -1;
    g->len = key->key[0];
    seg_name(tp, peer, key->addr, g->name);
    int fd = shm_open(g->name, O_RDWR | O_CLOEXEC, 0);
    struct stat st;
    int e = fd < 0 ? errno : fstat(fd, &st) ? errno : (uint64_t)st.st_size != g->len ? EINVAL : 0;
    if (!e) {
        g->ptr = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        e = g->ptr == MAP_FAILED ? errno : 0;
    }
    if (fd >= 0)
        close(fd);
    if (e) {
        tp_error(tp, "shm: mapping rank %d's window segment %s: %s", peer, g->name, strerror(e));
        free(g);
        return RMP_ERR_TRANSPORT;
    }
    *ptr = g->ptr;
    *segh = g;
    return RMP_SUCCESS;
}

static void shm_rma_seg_free(tp_t *tp, void *segh)
{
    rma_seg_t *g = segh;
    if (!g)
        return;
    munmap(g->ptr, g->len);
    if (g->fd >= 0) { /* mine: the name goes (ENOENT: nothing left to remove) */
        shm_unlink(g->name);
        close(g->fd);
    }
    free(g);
}

const tp_rma_ops_t shm_rma_ops = {
    .caps = 0,
    .reach = shm_rma_reach,
    .expose = shm_rma_expose,
    .unexpose = shm_rma_unexpose,
    .write = shm_rma_write,
    .read = shm_rma_read,
    .atomic = shm_rma_atomic,
    .seg_alloc = shm_rma_seg_alloc,
    .seg_map = shm_rma_seg_map,
    .seg_free = shm_rma_seg_free,
};
