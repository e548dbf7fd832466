/* fuzz-sources: runtime/transport/shm/shm_ring.c */
/* fuzz_shm_ring.c — libFuzzer target for the shm wire: a ring whose producer is another
 * process. The input is a program of operations on one ring: honest writes and reads, and
 * what a hostile or corrupt peer can do to the shared memory (set head, set tail, scribble on
 * record headers). Checked: no access outside the ring's memory (ASan; the ring is allocated
 * with its exact footprint), every record handed out lies inside the data area, and while
 * nobody scribbled, records come out whole and in order. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "transport/shm/shm_ring.h"

#define FIFO_MAX 256

/* Byte i of the record with sequence number seq: lets a reader check what it got. */
static uint8_t pattern(uint32_t seq, size_t i)
{
    return (uint8_t)(seq * 31u + i * 7u + 1u);
}

typedef struct fz {
    void *mem;
    shm_ring_t prod, cons;
    size_t cap;
    bool hostile; /* the shared memory was scribbled: contents no longer checked */
    bool broken;  /* peek said corrupt: the transport stops reading (shm.c: p->broken) */
    uint32_t wseq, rseq;
    size_t fifo[FIFO_MAX]; /* lengths written and not read yet, by sequence number */
} fz_t;

static uint64_t take(const uint8_t **d, size_t *n, size_t bytes)
{
    uint64_t v = 0;
    for (size_t i = 0; i < bytes && *n; i++, (*d)++, (*n)--)
        v |= (uint64_t) * *d << (8 * i);
    return v;
}

static void op_write(fz_t *f, size_t len)
{
    if (f->wseq - f->rseq >= FIFO_MAX)
        return;
    uint8_t buf[SHM_RING_MIN * 2];
    if (len > sizeof(buf))
        len = sizeof(buf);
    for (size_t i = 0; i < len; i++)
        buf[i] = pattern(f->wseq, i);
    size_t hl = len < 32 ? len : 32; /* split as the core does: header, then payload */
    int rc = shm_ring_try_write(&f->prod, buf, hl, buf + hl, len - hl);
    if (rc == SHM_RING_OK)
        f->fifo[f->wseq++ % FIFO_MAX] = len;
    else if (rc == SHM_RING_TOOBIG && len <= shm_ring_max_record(f->cap))
        abort();
}

static void op_read(fz_t *f, bool release)
{
    if (f->broken)
        return;
    const void *p;
    size_t len;
    int rc = shm_ring_peek(&f->cons, &p, &len);
    if (rc == SHM_RING_CORRUPT) {
        if (!f->hostile) /* an honest producer never makes the ring look corrupt */
            abort();
        f->broken = true;
        return;
    }
    if (rc != SHM_RING_READY)
        return;
    const uint8_t *b = p, *data = f->cons.data;
    if (b < data || len > f->cap || b + len > data + f->cap)
        abort();
    unsigned sum = 0;
    for (size_t i = 0; i < len; i++)
        sum += ((const volatile uint8_t *)b)[i];
    (void)sum;
    if (!f->hostile) {
        if (f->rseq == f->wseq || len != f->fifo[f->rseq % FIFO_MAX])
            abort();
        for (size_t i = 0; i < len; i++)
            if (b[i] != pattern(f->rseq, i))
                abort();
    }
    if (release) {
        shm_ring_release(&f->cons);
        f->rseq++;
    }
}

static void run(fz_t *f, const uint8_t *d, size_t n)
{
    shm_ring_ctl_t *ctl = f->mem;
    while (n) {
        uint8_t op = (uint8_t)take(&d, &n, 1);
        switch (op % 8) {
        case 0:
        case 1:
            op_write(f, (size_t)take(&d, &n, 2) % (f->cap / 2));
            break;
        case 2:
        case 3:
            op_read(f, true);
            break;
        case 4: /* peek twice before release: the same record */
            op_read(f, false);
            break;
        case 5: /* hostile: head moves by a signed amount */
            atomic_store(&ctl->head, atomic_load(&ctl->head) + (uint64_t)(int16_t)take(&d, &n, 2));
            f->hostile = true;
            break;
        case 6: { /* hostile: 8 bytes anywhere in the data area (record headers included) */
            size_t off = (size_t)take(&d, &n, 2) % (f->cap - 7);
            uint64_t v = take(&d, &n, 8);
            memcpy(f->cons.data + off, &v, 8);
            f->hostile = true;
            break;
        }
        default: /* hostile consumer, seen by the producer: tail moves */
            atomic_store(&ctl->tail, atomic_load(&ctl->tail) + (uint64_t)(int16_t)take(&d, &n, 2));
            f->hostile = true;
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_t f = {.cap = SHM_RING_MIN << (size ? data[0] % 3 : 0)};
    if (size)
        data++, size--;
    size_t bytes = shm_ring_footprint(f.cap);
    f.mem = aligned_alloc(SHM_RING_ALIGN, bytes);
    if (!f.mem)
        return 0;
    memset(f.mem, 0, bytes);
    shm_ring_init(f.mem, f.cap);
    /* A peer may have scribbled the indices before we attach: attach must refuse garbage. */
    if (size && data[0] & 0x80) {
        shm_ring_ctl_t *ctl = f.mem;
        data++, size--;
        atomic_store(&ctl->head, take(&data, &size, 2));
        atomic_store(&ctl->tail, take(&data, &size, 2));
        ctl->cap = (ctl->cap ^ take(&data, &size, 1) << 6) & (4 * f.cap - 1);
        f.hostile = true;
        if (shm_ring_attach(&f.cons, f.mem, f.cap, false) ||
            shm_ring_attach(&f.prod, f.mem, f.cap, true)) {
            free(f.mem);
            return 0;
        }
    } else if (shm_ring_attach(&f.cons, f.mem, f.cap, false) ||
               shm_ring_attach(&f.prod, f.mem, f.cap, true)) {
        abort();
    }
    run(&f, data, size);
    free(f.mem);
    return 0;
}
