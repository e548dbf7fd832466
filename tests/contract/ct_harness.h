/* ct_harness.h — what the contract's case files share with its harness (contract.c): the
 * ranks' shared board, a rank's state, and the helpers the cases use. Internal to
 * tests/contract: contract.h is the interface to the runners. */
#ifndef RMP_CT_HARNESS_H
#define RMP_CT_HARNESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "contract.h"

#define CT_MAXR 8
#define CT_BLOB_MAX 4096
#define CT_WAIT_S 30      /* one wait inside a case (an arrival, a barrier, a failure) */
#define CT_RUN_S 120      /* a whole run, all ranks */
#define CT_MAGIC 0x43544d31u

/* What the ranks share: the modex board, a barrier, the verdicts. */
typedef struct ct_board {
    atomic_int arrived;          /* barrier arrivals so far */
    atomic_int abort;            /* a rank failed: the others stop waiting */
    atomic_int dying[CT_MAXR];   /* the rank ends itself on purpose (peer_failed case) */
    atomic_int gone[CT_MAXR];    /* ... and the harness has reaped it */
    atomic_long count;           /* a number one rank tells the others */
    tp_rkey_t keys[CT_MAXR][2];  /* keys the ranks expose (the one-sided cases) */
    atomic_long counts[CT_MAXR]; /* per target: atomic adds the origins made (rma_atomic) */
    size_t bloblen[CT_MAXR];
    unsigned char blob[CT_MAXR][CT_BLOB_MAX];
    char why[CT_MAXR][512];
} ct_board_t;

typedef struct ct_hdr {
    uint32_t magic, type; /* CT_T_* */
    uint32_t src, seq;    /* the sender's own rank and its per-case sequence number */
    uint64_t len;         /* payload bytes after the header */
} ct_hdr_t;

enum { CT_T_DATA = 1, CT_T_RKEY, CT_T_DONE };

typedef struct ct_msg {
    int src;
    size_t len;
    unsigned char *data;
    bool taken;
} ct_msg_t;

struct ct {
    const tp_ops_t *ops;
    tp_t *tp;
    tp_env_t env;
    int rank, size, nbar;
    ct_board_t *board;
    int local_ranks[CT_MAXR], node[CT_MAXR];
    bool route[CT_MAXR], connected[CT_MAXR];
    char nspace[96];
    ct_msg_t *msgs;
    size_t nmsgs, capmsgs;
    void *done_cookie[16];
    int done_status[16], ndone;
    int failed_peer, failed_status;
    bool orderly; /* every rank reaches the closing barrier */
};

/* Record the first failure of this rank (and stop the others): -1. */
__attribute__((format(printf, 2, 3))) int ct_fail(ct_t *t, const char *fmt, ...);

#define CT_CHECK(t, cond, ...)                                                                  \
    do {                                                                                        \
        if (!(cond))                                                                            \
            return ct_fail((t), __VA_ARGS__);                                                   \
    } while (0)

double ct_now(void);
/* Every rank of the case arrives (within CT_WAIT_S): 0, or -1 (failed). */
int ct_barrier(ct_t *t);
/* Send as the core does (connect first, RMP_AGAIN: progress and retry): 0 or -1. */
int ct_send(ct_t *t, int dst, const ct_hdr_t *h, const void *payload);
/* The first arrival of type `type` not taken yet (waiting for it), or NULL (failed). */
const ct_msg_t *ct_take(ct_t *t, uint32_t type);
/* The pattern byte i of message seq from src, and a buffer filled with it. */
unsigned char ct_byte(uint32_t src, uint32_t seq, size_t i);
void ct_fill(unsigned char *p, uint32_t src, uint32_t seq, size_t len);
/* Progress until it reports nothing several times in a row. */
void ct_settle(ct_t *t);
/* Progress until the harness reaped rank (it ended itself on purpose): 0, or -1. */
int ct_wait_gone(ct_t *t, int rank);

/* The one-sided cases (contract_rma.c). */
int ct_case_rma_rw(ct_t *t);
int ct_case_rma_atomic(ct_t *t);
int ct_case_rma_again(ct_t *t);
int ct_case_rma_peer_failed(ct_t *t);

#endif
