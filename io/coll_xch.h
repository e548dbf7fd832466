/* io/coll_xch.h — the state of one collective access's exchange (coll_exchange.c runs the
 * rounds, coll_xch.c sets it up, moves the bytes of a round and frees it). */
#ifndef RMP_IO_COLL_XCH_H
#define RMP_IO_COLL_XCH_H

#include "coll.h"

typedef struct walk { /* a sorted list of pieces, walked window after window */
    io_run_t *p;
    size_t n, cur;
} walk_t;

typedef struct span { /* one list's pieces [a, b) in a window [lo, hi): bytes of them */
    size_t a, b;
    int64_t bytes, lo, hi;
} span_t;

typedef struct xch {
    const coll_plan_t *pl;
    io_run_t *mine_runs;  /* my runs cut at the domain boundaries (mem: where they are) */
    io_run_t *their_runs; /* aggregator: every rank's pieces in my domain (no mem) */
    walk_t *mine;         /* [naggs] my pieces of each domain */
    walk_t *theirs;       /* [size] each rank's pieces of my domain */
    span_t *to;           /* [naggs] this round: my pieces in domain d's window */
    span_t *from;         /* [size] this round: rank s's pieces in my window */
    int64_t wlo, whi;     /* my window this round (aggregator) */
    char *cbuf;           /* the collective buffer: byte o of the window at cbuf[o - wlo] */
    char *ab, *rb;        /* packed pieces: the aggregator's side, the rank's side */
    int64_t (*seg)[2];    /* coverage of my window: merged [start, end) */
    rmp_request_t *reqs;  /* [size + naggs] */
    int readable;         /* the fd can read: holes of a write may be sieved */
    int locked;           /* a sieving write holds its byte-range lock */
    int st;               /* my first failure: no more I/O, but the rounds' messages go on */
} xch_t;

/* coll_xch.c */
int xch_split(xch_t *x, io_run_t *runs, size_t n);
int xch_announce(xch_t *x);
int xch_buffers(xch_t *x);
int xch_post(xch_t *x, int agg);
void xch_unpack(xch_t *x, int agg);
void xch_free(xch_t *x);

/* coll_exchange.c */
void xch_round_walk(xch_t *x, int64_t r);
/* Bytes of pieces p[a, b) clipped to [lo, hi); with flat, copies them between their place
 * (win + (o - lo) when win, else their memory) and flat (packed in order, or by offset when
 * flat_win), towards flat when to_flat. */
int64_t xch_move(const io_run_t *p, size_t a, size_t b, int64_t lo, int64_t hi, char *win,
                 char *flat, int flat_win, int to_flat);
/* The place of the window's bytes when they are one piece (sent or received there without
 * packing), else NULL. */
char *xch_direct(const io_run_t *p, size_t a, size_t b, int64_t lo, char *win);

#endif
