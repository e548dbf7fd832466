/* am.h — what the two halves of the active-message path share: am.c (the origin: operations
 * sent, their answers) and am_target.c (the target: the window registry, applying requests,
 * the lock queue). Runs with the runtime lock held. */
#ifndef RMP_RMA_AM_H
#define RMP_RMA_AM_H

#include "protocol.h"
#include "rma.h"

/* A request packet (anything but ACK and DATA) from world rank src, checked by wire_parse;
 * false: for a window not registered here yet (the runtime keeps it, rma_hook_replay). */
bool am_target_deliver(rmp_ctx_t *c, int src, const pkt_rma_t *h, const void *payload, size_t len);
/* World rank peer failed: its waiting and granted locks go (the others' requests move up). */
void am_target_peer_failed(rmp_ctx_t *c, int peer);
/* Teardown: the registry freed. */
void am_target_fini(void);
/* Window w leaves the registry (rma_am_unregister, am.c, after the origin's half forgot it). */
void am_target_unregister(win_t *w);

/* An answer to world rank dst about request h: ACK with status, or DATA of len bytes at
 * position pos of the origin's buffer (split to what one packet carries). Failures are not
 * reported: a peer that cannot be reached is failing, and its operations with it. */
void am_send_ack(rmp_ctx_t *c, int dst, const pkt_rma_t *h, int status);
void am_send_data(rmp_ctx_t *c, int dst, const pkt_rma_t *h, uint64_t pos, const void *data,
                  size_t len);
/* (am_target.c) Payload bytes one packet to world rank peer can carry (0: no transport
 * reaches it). */
size_t am_max_payload(rmp_ctx_t *c, int peer);

#endif
