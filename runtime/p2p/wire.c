/* wire.c — the checks of bytes from other processes (see wire.h): what a peer wrote is trusted
 * only after these pass. Fields are read by copy from memory the peer may still be writing,
 * and only the copy is checked and used; nothing here touches runtime state, which is what
 * lets tests/fuzz run it alone. */
#include "wire.h"

#include <string.h>

/* The exact header size of each packet type, 0 for an unknown type. */
static size_t hdr_size(uint8_t type)
{
    switch (type) {
    case PKT_EAGER:
        return sizeof(pkt_match_t);
    case PKT_RTS:
        return sizeof(pkt_rts_t);
    case PKT_CTS:
    case PKT_FIN:
    case PKT_CANCEL:
    case PKT_CANCELLED:
    case PKT_NOT_CANCELLED:
        return sizeof(pkt_ctl_t);
    case PKT_DATA:
        return sizeof(pkt_data_t);
    case PKT_RMA:
        return sizeof(pkt_rma_t);
    default:
        return 0;
    }
}

/* The payload an RMA packet of its kind carries, against what arrived (paylen). len is a
 * peer's 64-bit number: compared by division-free checks that cannot overflow. */
static const char *rma_shape(const pkt_rma_t *h, size_t paylen)
{
    if (h->kind == 0 || h->kind >= PKT_RMA_NKINDS)
        return "unknown one-sided packet kind";
    if ((h->kind == PKT_RMA_ACC || h->kind == PKT_RMA_CAS) &&
        (h->base == DT_NONE || h->base >= DT_NBUILTIN))
        return "one-sided accumulate of no builtin element type";
    bool data = h->kind == PKT_RMA_PUT || h->kind == PKT_RMA_DATA ||
                (h->kind == PKT_RMA_ACC && !(h->flags & PKT_RMA_F_NODATA));
    if (h->kind == PKT_RMA_ACC && (h->flags & PKT_RMA_F_PIECES)) {
        size_t list = (size_t)h->pad * sizeof(pkt_rma_piece_t); /* pad < 2^32: no overflow */
        if (h->pad == 0 || paylen < list)
            return "one-sided accumulate with a piece list that did not arrive";
        paylen -= list;
        if (!data && paylen)
            return "one-sided accumulate without data carrying data";
    }
    if (data && h->len != paylen)
        return "one-sided packet length differs from the bytes that arrived";
    if (h->kind == PKT_RMA_CAS && (h->len == 0 || h->len > paylen / 2 || paylen != 2 * h->len))
        return "compare-and-swap not one element and its comparand";
    /* GET (len: what to read), ACC without data, LOCK, UNLOCK, FLUSH, ACK */
    if (!data && h->kind != PKT_RMA_CAS && paylen)
        return "one-sided control packet longer than its header";
    return NULL;
}

const char *wire_parse(const void *data, size_t len, wire_pkt_t *p)
{
    if (len == 0)
        return "empty packet";
    uint8_t type;
    memcpy(&type, data, 1);
    size_t hl = hdr_size(type);
    if (!hl)
        return "unknown packet type";
    if (len < hl)
        return "packet shorter than its header";
    /* One fixed-size copy per type (inlined by the compiler: this is on every message's path);
     * the rest of *p is left as it was: the runtime reads only the header of p->type. */
    switch (type) {
    case PKT_EAGER:
        memcpy(&p->h.m, data, sizeof(pkt_match_t));
        break;
    case PKT_RTS:
        memcpy(&p->h.rts, data, sizeof(pkt_rts_t));
        break;
    case PKT_CTS:
    case PKT_FIN:
    case PKT_CANCEL:
    case PKT_CANCELLED:
    case PKT_NOT_CANCELLED:
        memcpy(&p->h.ctl, data, sizeof(pkt_ctl_t));
        break;
    case PKT_RMA:
        memcpy(&p->h.rma, data, sizeof(pkt_rma_t));
        break;
    default: /* PKT_DATA: hdr_size knows no other type */
        memcpy(&p->h.data, data, sizeof(pkt_data_t));
        break;
    }
    if (type == PKT_RMA) {
        const char *bad = rma_shape(&p->h.rma, len - hl);
        if (bad)
            return bad;
    }
    if (type == PKT_EAGER && p->h.m.len != len - hl)
        return "eager length differs from the bytes that arrived";
    if (type != PKT_EAGER && type != PKT_DATA && type != PKT_RMA && len != hl)
        return "control packet longer than its header";
    if ((type == PKT_EAGER || type == PKT_RTS) && p->h.m.src < 0)
        return "negative source rank";
    /* The copy read the type byte a second time, and the peer may have changed it in between
     * (shm hands over its shared memory): the header says the type that was checked, so no
     * reader can take an EAGER's 32 bytes for an RTS's and read what was never copied. */
    p->h.m.type = type;
    p->type = type;
    p->payload = (const char *)data + hl;
    p->paylen = len - hl;
    return NULL;
}

const char *wire_check_seq(const wire_pkt_t *p, uint32_t *next)
{
    if (p->type != PKT_EAGER && p->type != PKT_RTS)
        return NULL;
    if (p->h.m.seq != *next)
        return "message out of order";
    ++*next;
    return NULL;
}

bool wire_req_expects(const struct rmp_request *r, int src, req_kind_t kind, req_state_t state)
{
    return r && r->peer_world == src && r->kind == kind && r->state == state &&
           !atomic_load(&r->done);
}

const char *wire_data_fits(uint64_t off, size_t len, size_t xfer_len, size_t xfer_done)
{
    if (xfer_done > xfer_len || len > xfer_len - xfer_done)
        return "DATA beyond the receive";
    if (off > xfer_len || len > xfer_len - off)
        return "DATA outside the receive";
    return NULL;
}
