/* wire.c — the checks of bytes from other processes (see wire.h): what a peer wrote is trusted
 * only after these pass. Each field is read once, by copy, from memory the peer may still be
 * writing; nothing here touches runtime state, which is what lets tests/fuzz run it alone. */
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
        return sizeof(pkt_ctl_t);
    case PKT_DATA:
        return sizeof(pkt_data_t);
    default:
        return 0;
    }
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
    memset(p, 0, sizeof(*p));
    p->type = type;
    memcpy(&p->h, data, hl);
    p->payload = (const char *)data + hl;
    p->paylen = len - hl;
    switch (type) {
    case PKT_EAGER:
        if (p->h.m.len != p->paylen)
            return "eager length differs from the bytes that arrived";
        break;
    case PKT_RTS:
    case PKT_CTS:
    case PKT_FIN:
        if (p->paylen)
            return "control packet longer than its header";
        break;
    default:
        break;
    }
    if ((type == PKT_EAGER || type == PKT_RTS) && p->h.m.src < 0)
        return "negative source rank";
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
