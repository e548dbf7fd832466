/* fuzz-sources: runtime/transport/shm/shm_queue.c */
/* fuzz_shm_queue.c — libFuzzer target for the shm transport's incoming queue: two producers
 * (two handles, as two ranks) and one consumer, driven by a program of operations that mixes
 * honest writes and reads with what a hostile or corrupt local peer can do to the shared
 * memory (move head or tail, scribble anywhere in the data area, records' marks included).
 * Checked: no access outside the queue's memory (ASan: allocated with its exact footprint),
 * every record handed out lies inside the data area, nothing loops (libFuzzer's timeout),
 * and while nobody scribbled, records come out whole, in order, with their producer's word. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "transport/shm/shm_queue.h"

#define FIFO_MAX 256

static uint8_t pattern(uint32_t seq, size_t i)
{
    return (uint8_t)(seq * 31u + i * 7u + 1u);
}

typedef struct fz {
    void *mem;
    shm_queue_t prod[2], cons;
    size_t cap;
    bool hostile; /* the shared memory was scribbled: contents no longer checked */
    bool broken;  /* peek said corrupt: the transport stops reading (shm.c: inq_broken) */
    uint32_t wseq, rseq;
    size_t fifo[FIFO_MAX]; /* lengths written and not read yet, by sequence number */
    uint32_t who[FIFO_MAX]; /* and which producer wrote each */
} fz_t;

static uint64_t take(const uint8_t **d, size_t *n, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && *n; i++, (*d)++, (*n)--)
        v |= (uint64_t) * *d << (8 * i);
    return v;
}

static void op_write(fz_t *f, int p, size_t len)
{
    if (f->wseq - f->rseq >= FIFO_MAX)
        return;
    uint8_t buf[SHM_QUEUE_MIN * 2];
    if (len > sizeof(buf))
        len = sizeof(buf);
    for (size_t i = 0; i < len; i++)
        buf[i] = pattern(f->wseq, i);
    size_t hl = len < 32 ? len : 32;
    int rc = shm_queue_try_write(&f->prod[p], (uint32_t)p, buf, hl, buf + hl, len - hl);
    if (rc == SHM_QUEUE_OK) {
        f->who[f->wseq % FIFO_MAX] = (uint32_t)p;
        f->fifo[f->wseq++ % FIFO_MAX] = len;
    } else if ((rc == SHM_QUEUE_TOOBIG && len <= shm_queue_max_record(f->cap)) ||
               (rc == SHM_QUEUE_CORRUPT && !f->hostile)) {
        abort();
    }
}

static void op_read(fz_t *f, bool release)
{
    if (f->broken)
        return;
    uint32_t from;
    const void *p;
    size_t len;
    int rc = shm_queue_peek(&f->cons, &from, &p, &len);
    if (rc == SHM_QUEUE_CORRUPT) {
        if (!f->hostile)
            abort();
        f->broken = true;
        return;
    }
    if (rc != SHM_QUEUE_READY) {
        if (!f->hostile && f->rseq != f->wseq) /* honest records are published at once */
            abort();
        return;
    }
    const uint8_t *b = p, *data = f->cons.data;
    if (b < data || len > f->cap || b + len > data + f->cap)
        abort();
    unsigned sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += ((const volatile uint8_t *)b)[i];
    (void)sum;
    if (!f->hostile) {
        if (f->rseq == f->wseq || len != f->fifo[f->rseq % FIFO_MAX] ||
            from != f->who[f->rseq % FIFO_MAX])
            abort();
        for (size_t i = 0; i < len; i++)
            if (b[i] != pattern(f->rseq, i))
                abort();
    }
    if (release) {
        shm_queue_release(&f->cons);
        f->rseq++;
    }
}

static void run(fz_t *f, const uint8_t *d, size_t n)
{
    shm_queue_ctl_t *ctl = f->mem;
    while (n) {
        uint8_t op = (uint8_t)take(&d, &n, 1);
        switch (op % 8) {
        case 0:
        case 1:
            op_write(f, op % 2 == 0 ? (op >> 3) & 1 : 1, (size_t)take(&d, &n, 2) % (f->cap / 2));
            break;
        case 2:
        case 3:
            op_read(f, true);
            break;
        case 4:
            op_read(f, false);
            break;
        case 5: /* hostile producer: head moves by a signed amount */
            atomic_store(&ctl->head, atomic_load(&ctl->head) + (uint64_t)(int16_t)take(&d, &n, 2));
            f->hostile = true;
            break;
        case 6: { /* hostile: 8 bytes anywhere in the data area (marks and headers included) */
            size_t off = (size_t)take(&d, &n, 2) % (f->cap - 7);
            uint64_t v = take(&d, &n, 8);
            if (op & 0x80) /* a plausible mark: the complement of a nearby position */
                v = ~(atomic_load(&ctl->tail) + (v & 0x3fc0));
            memcpy(f->cons.data + off, &v, 8);
            f->hostile = true;
            break;
        }
        default: /* hostile consumer, seen by the producers: tail moves */
            atomic_store(&ctl->tail, atomic_load(&ctl->tail) + (uint64_t)(int16_t)take(&d, &n, 2));
            f->hostile = true;
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_t f = {.cap = SHM_QUEUE_MIN << (size ? data[0] % 3 : 0)};
    if (size)
        data++, size--;
    size_t bytes = shm_queue_footprint(f.cap);
    f.mem = aligned_alloc(SHM_QUEUE_ALIGN, bytes);
    if (!f.mem)
        return 0;
    memset(f.mem, 0, bytes);
    shm_queue_init(f.mem, f.cap);
    if (size && data[0] & 0x80) { /* a peer scribbled the indices before we attach */
        shm_queue_ctl_t *ctl = f.mem;
        data++, size--;
        atomic_store(&ctl->head, take(&data, &size, 2));
        atomic_store(&ctl->tail, take(&data, &size, 2));
        ctl->cap = (ctl->cap ^ take(&data, &size, 1) << 6) & (4 * f.cap - 1);
        f.hostile = true;
        if (shm_queue_attach(&f.cons, f.mem, f.cap, false) ||
            shm_queue_attach(&f.prod[0], f.mem, f.cap, true) ||
            shm_queue_attach(&f.prod[1], f.mem, f.cap, true)) {
            free(f.mem);
            return 0;
        }
    } else if (shm_queue_attach(&f.cons, f.mem, f.cap, false) ||
               shm_queue_attach(&f.prod[0], f.mem, f.cap, true) ||
               shm_queue_attach(&f.prod[1], f.mem, f.cap, true)) {
        abort();
    }
    run(&f, data, size);
    free(f.mem);
    return 0;
}
