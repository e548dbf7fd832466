/* io/coll_xch.h — the state of one collective access's exchange (coll_exchange.c runs the
 * rounds, coll_xch.c sets it up, moves the bytes of a round and frees it). */
#ifndef RMP_IO_COLL_XCH_H
#define RMP_IO_COLL_XCH_H

#include <stdatomic.h>

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
    struct rmp_request **reqs; /* [size + naggs], posted with the runtime lock held */
    struct comm *cm;      /* the file's communicator, and the tag of this access's messages */
    int tag;
    int readable;         /* the fd can read: holes of a write may be sieved */
    int locked;           /* a sieving write holds its byte-range lock */
    int st;               /* my first failure: no more I/O, but the rounds' messages go on */
} xch_t;

/* One collective access from io_cop_begin to its end (coll_access.c builds it, coll_run.c
 * runs it): the plan and exchange of two-phase, or each rank's own I/O; the step it is at;
 * the file work handed to the I/O threads (fs); the agreement on the outcome. */
struct io_cop {
    coll_plan_t pl;
    xch_t x;
    int two_phase;
    io_alone_fn *alone; /* not two-phase: alone(alone_arg), or else the runs one by one */
    void *alone_arg;
    io_run_t *runs;
    size_t n;
    int step;
    int64_t round;
    int agg;            /* I aggregate a window this round */
    atomic_int fs;      /* COP_FS_*: the file work of the step */
    int fs_phase;
    io_task_t task;
    struct rmp_request **wreqs; /* the requests the step waits for */
    int nw;
    struct rmp_request **areqs; /* the agreement's [size] */
    int *votes;         /* rank 0: every rank's status */
    int st;             /* my status (two-phase: x.st) */
    int agreed;
    int moved;          /* steps taken in this call of cop_advance: progress events */
    io_cop_done_fn *done;
    void *done_arg;
    struct rmp_request *req; /* io_cop_post's */
};
enum { COP_FS_IDLE, COP_FS_ASKED, COP_FS_RUNNING, COP_FS_DONE };
enum { COP_ROUND, COP_POST, COP_XCH, COP_NEXT, COP_ALONE, COP_AGREE, COP_AGREE_UP,
       COP_AGREE_END, COP_END };
void cop_free(io_cop_t *c);

/* coll_xch.c */
int xch_split(xch_t *x, io_run_t *runs, size_t n);
int xch_announce(xch_t *x);
int xch_buffers(xch_t *x);
/* Post the round's messages (runtime lock held): how many are in x->reqs. */
int xch_post(xch_t *x, int agg);
void xch_unpack(xch_t *x, int agg);
void xch_free(xch_t *x);

/* coll_exchange.c: the set-up (collective, every rank), the aggregator's file access of a
 * round (phase 0 before the messages, 1 after), and the walk of a round. */
int xch_setup(xch_t *x, const coll_plan_t *p, io_run_t *runs, size_t n);
void xch_fs_round(xch_t *x, int phase);
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
