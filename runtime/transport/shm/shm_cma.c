/* shm_cma.c — shm's single-copy path: the CMA probe at wire-up, the rkeys of rendezvous
 * buffers, gets with process_vm_readv, and the large sends both sides copy (shm_coop.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "transport/shm/shm_cma.h"

#include "transport/shm/shm_tp.h"

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
void shm_cma_probe(shm_tp_t *s, shm_peer_t *p)
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
int shm_mem_reg(tp_t *tp, int peer, void *buf, size_t len, tp_rkey_t *rkey,
                       void **memh_p)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = shm_peer_of(s, peer);
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

int shm_mem_dereg(tp_t *tp, void *memh)
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
    shm_tp_ring(a->s, a->p);
}

/* My large sends' receivers started copying: take chunks from the back (shm_progress). */
int shm_coop_help_mine(shm_tp_t *s)
{
    coop_arg_t a = {s, NULL};
    shm_coop_io_t io = {.read = coop_read, .write = coop_write, .alive = coop_alive,
                        .kick = coop_kick, .arg = &a};
    return shm_coop_help(&s->coop, &io);
}

int shm_get(tp_t *tp, int peer, void *dst, size_t len, const tp_rkey_t *rkey, size_t off,
                   void *cookie)
{
    shm_tp_t *s = (shm_tp_t *)tp;
    shm_peer_t *p = shm_peer_of(s, peer);
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
                              ? shm_coop_slot(shm_seg_coop(s, p->seg), rkey->key[2]) : NULL;
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
