/* fuzz-sources: runtime/p2p/wire.c */
/* fuzz_proto.c — libFuzzer target for the protocol packets a rank receives from a peer (over
 * shm rings, verbs SRQ buffers or self): wire_parse (PKT_RMA's shapes too), the sequence check, the rendezvous
 * cookie lookup and the DATA bounds check, i.e. what core_deliver and rendezvous.c run before
 * trusting a byte. Input: packets, each a 2-byte little-endian length and that many bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#define NREQ 4

/* The requests a rank may have on its rndv_active list: two sends waiting for CTS/FIN, two
 * receives expecting DATA, each with its own receive buffer of exactly xfer_len bytes. */
static struct rmp_request reqs[NREQ];

static void reqs_reset(void)
{
    static const int peer[NREQ] = {1, 2, 1, 2};
    static const req_kind_t kind[NREQ] = {REQ_SEND, REQ_SEND, REQ_RECV, REQ_RECV};
    static const req_state_t state[NREQ] = {RS_RNDV_WAIT_FIN, RS_RNDV_WAIT_FIN, RS_RECV_DATA,
                                            RS_RECV_DATA};
    static const size_t xfer[NREQ] = {0, 0, 100, 4096};
    for (int i = 0; i < NREQ; i++) {
        free(reqs[i].buf);
        reqs[i] = (struct rmp_request){
            .kind = kind[i], .state = state[i], .peer_world = peer[i], .xfer_len = xfer[i]};
        reqs[i].buf = xfer[i] ? malloc(xfer[i]) : NULL;
        reqs[i].next = i + 1 < NREQ ? &reqs[i + 1] : NULL;
    }
}

/* What req_lookup gives for a cookie, in this target's small table: cookies 0..NREQ-1 name
 * its requests (so that the fuzzer reaches the accepted paths too), any other names none, as
 * the real table answers for a handle that is not live. */
static struct rmp_request *req_of(uint64_t v)
{
    return v < NREQ ? &reqs[v] : NULL;
}

/* Read every payload byte: ASan reports it if the parser let it point outside the packet. */
static unsigned touch(const void *p, size_t n)
{
    unsigned s = 0;
    for (size_t i = 0; i < n; i++)
        s += ((const volatile uint8_t *)p)[i];
    return s;
}

static void one_packet(const uint8_t *bytes, size_t len, int src, uint32_t *next_seq)
{
    uint8_t *pkt = malloc(len ? len : 1); /* exactly len bytes: overreads are caught */
    if (!pkt)
        return;
    memcpy(pkt, bytes, len);
    wire_pkt_t p;
    if (wire_parse(pkt, len, &p) || wire_check_seq(&p, next_seq)) {
        free(pkt);
        return;
    }
    if ((const uint8_t *)p.payload < pkt || p.paylen > len ||
        (const uint8_t *)p.payload + p.paylen != pkt + len)
        abort();
    touch(p.payload, p.paylen);
    if (p.type == PKT_EAGER && p.h.m.len != p.paylen)
        abort();
    if (p.type == PKT_RMA) { /* what am.c relies on once wire_parse said yes */
        const pkt_rma_t *h = &p.h.rma;
        bool data = h->kind == PKT_RMA_PUT || h->kind == PKT_RMA_DATA ||
                    (h->kind == PKT_RMA_ACC && !(h->flags & PKT_RMA_F_NODATA));
        size_t datalen = p.paylen; /* the data after an accumulate's piece list */
        if (h->kind == PKT_RMA_ACC && (h->flags & PKT_RMA_F_PIECES)) {
            size_t list = (size_t)h->pad * sizeof(pkt_rma_piece_t);
            if (h->pad == 0 || list > p.paylen)
                abort();
            datalen -= list;
        }
        if (h->kind == 0 || h->kind >= PKT_RMA_NKINDS || (data && h->len != datalen) ||
            (h->kind == PKT_RMA_CAS && (h->len == 0 || p.paylen != 2 * h->len)) ||
            (!data && h->kind != PKT_RMA_CAS && datalen) ||
            ((h->kind == PKT_RMA_ACC || h->kind == PKT_RMA_CAS) &&
             (h->base == DT_NONE || h->base >= DT_NBUILTIN)))
            abort();
    }
    struct rmp_request *r = NULL;
    if (p.type == PKT_CTS || p.type == PKT_FIN) {
        r = req_of(p.h.ctl.sreq);
        if (!wire_req_expects(r, src, REQ_SEND, RS_RNDV_WAIT_FIN))
            r = NULL;
        if (r && (r->kind != REQ_SEND || r->peer_world != src))
            abort();
        if (r) /* rndv_on_ctl untracks it: a second CTS/FIN for it is refused */
            r->state = RS_STREAM;
    } else if (p.type == PKT_DATA) {
        r = req_of(p.h.data.rreq);
        if (wire_req_expects(r, src, REQ_RECV, RS_RECV_DATA) && !wire_data_fits(p.h.data.off, p.paylen, r->xfer_len, r->xfer_done)) {
            memcpy((char *)r->buf + p.h.data.off, p.payload, p.paylen); /* as rndv_on_data */
            r->xfer_done += p.paylen;
            if (r->xfer_done == r->xfer_len)
                r->state = RS_NONE;
        }
    }
    free(pkt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    reqs_reset();
    uint32_t next_seq[3] = {0, 0, 0};
    while (size >= 3) {
        size_t len = (size_t)data[0] | (size_t)data[1] << 8;
        int src = data[2] % 3; /* ranks 0..2: some requests wait on others */
        data += 3, size -= 3;
        if (len > size)
            len = size;
        one_packet(data, len, src, &next_seq[src]);
        data += len, size -= len;
    }
    return 0;
}
