/* shm_room.c — whether this node's /dev/shm and memory can hold the job's segments, decided
 * alike by every rank from figures no rank of the job has changed, before anything is made. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "transport/shm/shm_tp.h"

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
int shm_fits(shm_tp_t *s)
{
    const tp_env_t *env = s->base.env;
    uint64_t seg = shm_seg_size(s->queue_cap, s->ring_cap, s->nlocal);
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
