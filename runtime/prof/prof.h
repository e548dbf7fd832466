/* prof.h — RMP_PROFILE inside the runtime: the per-rank and per-thread counters (prof.c), the
 * one gather at rmp_finalize, and the report rank 0 writes from it (prof_report.c: profile.json
 * and summary.txt; prof_html.c: report.html). With the profile off the message path pays one
 * test of c->prof, NULL. */
#ifndef RMP_RT_PROF_H
#define RMP_RT_PROF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rmp.h"

enum { PROF_EAGER, PROF_RNDV, PROF_RDMA, PROF_ONESIDED, PROF_NPROTO };
#define PROF_NBUCKETS 48   /* log2 message-size buckets: 0, 1, 2-3, 4-7, ... */
#define PROF_MAX_COMMS 64  /* communicators a rank's collectives are counted on (more: "other") */
#define PROF_ALG_LEN 48

typedef struct prof_call {
    uint64_t calls, ns, bytes;
} prof_call_t;

typedef struct prof_comm {
    uint32_t ctx_id;       /* the communicator's context id (the same on all its ranks) */
    int32_t size;
    uint64_t calls, ns, bytes;
    char algs[PROF_ALG_LEN]; /* the algorithm settings its collectives ran under */
} prof_comm_t;

/* What one rank sends to rank 0 at finalize: fixed part, then [size][PROF_NPROTO] messages
 * and bytes to each peer. */
typedef struct prof_blob {
    uint64_t magic;
    int32_t rank, size, node, nthreads;
    uint64_t wall_ns;      /* rmp_init .. the gather */
    uint32_t sample, pad;  /* the calls' times are estimated from 1 call in sample */
    uint64_t hist[PROF_NBUCKETS];
    prof_call_t call[RMP_PROF_MAX_CALLS];
    prof_comm_t comm[PROF_MAX_COMMS + 1]; /* the last: every communicator past the table */
    uint64_t peer[][PROF_NPROTO][2]; /* [peer][proto]{messages, bytes} */
} prof_blob_t;
#define PROF_MAGIC 0x726d7070726f6631ull

/* The rank's own state (c->prof while recording). */
typedef struct prof {
    prof_blob_t *me;       /* its counters, in the form they are sent */
    size_t blob_len;
    char dir[4096];        /* where rank 0 writes */
    const char *const *names; /* the binding's call names (rmp_prof_enter) */
    uint64_t tsc0, ns0;    /* at start: ticks and ns, to turn ticks into ns */
    uint64_t (*base)[4];   /* each peer's msgs, bytes, rndv msgs, rndv bytes sent at start */
    uint32_t sample;       /* 1 call in sample is timed (but collectives: every one) */
    double clock_ns;       /* what one clock read cost at start */
} prof_t;

struct rmp_ctx;
/* At rmp_init, after wire-up: starts recording if RMP_PROFILE says so. */
int prof_init(struct rmp_ctx *c);
/* At rmp_finalize, first (every rank): stops, gathers to rank 0, which writes the report. */
void prof_finish(struct rmp_ctx *c);
/* A one-sided transfer of len bytes to world rank peer, lock held. */
void prof_msg(prof_t *p, int peer, int proto, uint64_t len);
/* A message of len bytes sent, lock held: its size and its call's bytes (the messages and
 * bytes per peer are the runtime's own counters, peer_t's, read at the fold). */
void prof_size(prof_t *p, uint64_t len);
/* A collective's algorithm setting (collectives/coll.c: "ALLREDUCE=auto"). */
void prof_alg(const char *coll, const char *alg);

/* What rank 0 holds after the gather: blob[r] NULL for a rank whose data never came. */
typedef struct prof_job {
    int size, missing;
    prof_blob_t **blob;
    const char *const *names;
    const struct rmp_ctx *c;
    double write_s;
    double clock_ns;       /* rank 0's cost of a clock read */
} prof_job_t;
/* prof_report.c: the three files into dir; 0, or -1 with the reason in why. */
int prof_write(const prof_job_t *j, const char *dir, char *why, size_t len);
void prof_json(const prof_job_t *j, FILE *f);
void prof_summary(const prof_job_t *j, FILE *f);
/* prof_html.c */
void prof_html(const prof_job_t *j, FILE *f);
/* Bucket of a message length (0 -> 0, 1 -> 1, 2..3 -> 2, ...). */
static inline int prof_bucket(uint64_t len)
{
    int b = len ? 64 - __builtin_clzll(len) : 0;
    return b < PROF_NBUCKETS ? b : PROF_NBUCKETS - 1;
}

#endif
