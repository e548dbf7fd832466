/* wire.h — the checks of protocol packets that come from another process (whatever the
 * transport; the modex blobs are checked in transport/blob.c). Pure functions, bytes in and a
 * verdict out, so that the fuzz targets in tests/fuzz run exactly the checks the runtime runs. */
#ifndef RMP_WIRE_H
#define RMP_WIRE_H

#include "protocol.h"

/* One arrival, parsed. The header is a copy: a peer that scribbles on shared memory after the
 * check cannot change what was checked. */
typedef struct wire_pkt {
    uint8_t type; /* PKT_* */
    union {
        pkt_match_t m; /* EAGER; RTS starts with it too */
        pkt_rts_t rts;
        pkt_ctl_t ctl; /* CTS, FIN, CANCEL, CANCELLED */
        pkt_data_t data;
        pkt_rma_t rma;
    } h;
    const void *payload; /* EAGER, DATA, RMA: the bytes after the header, inside the packet */
    size_t paylen;
} wire_pkt_t;

/* Parse a packet of len bytes. NULL if well formed (*p filled), else what is wrong with it: a
 * static string for the error message. A well-formed EAGER carries exactly h.m.len bytes. */
const char *wire_parse(const void *data, size_t len, wire_pkt_t *p);

/* A well-formed RMA packet (a known kind; payload as its kind says: PUT and DATA exactly len
 * bytes, ACC len bytes or none with PKT_RMA_F_NODATA (after `pad` pkt_rma_piece_t with
 * PKT_RMA_F_PIECES), CAS twice len, the others none; ACC and
 * CAS name a builtin element type). Whether its range fits a window, its element size divides
 * len, its op suits the type: am.c's checks, which know the window. */

/* EAGER and RTS carry the sender's per-pair sequence number: NULL and ++*next if it is the
 * one expected, else a reason (*next unchanged). Other packets pass. */
const char *wire_check_seq(const wire_pkt_t *p, uint32_t *next);

/* Whether r, the live request a peer's cookie names (a handle of ours it echoes, looked up by
 * req_lookup), is one that packet may act on: it waits on world rank `src`, with `kind`, in
 * `state`, not done yet. A late, duplicated, forged or corrupt cookie fails this. */
bool wire_req_expects(const struct rmp_request *r, int src, req_kind_t kind, req_state_t state);

/* A DATA fragment of len bytes at offset off, for a receive of xfer_len bytes of which
 * xfer_done arrived: NULL if it lies inside and, as fragments never overlap, fits what is
 * still missing; else a reason. */
const char *wire_data_fits(uint64_t off, size_t len, size_t xfer_len, size_t xfer_done);

#endif
