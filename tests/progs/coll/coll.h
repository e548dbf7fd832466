/* coll.h — what the files of the coll program share: the builtin types with their serial
 * reference (coll.c), the inputs every rank can compute for every other, the checks and their
 * report, the communicators under test, and each file's sections, called from main. */
#ifndef RMP_TEST_COLL_H
#define RMP_TEST_COLL_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rmp.h"

typedef struct tinfo {
    rmp_datatype_t dt;
    const char *name;
    size_t size;
    bool real, byte;
    void (*set)(void *b, size_t i, int64_t v);
    void (*combine)(rmp_op_t op, void *acc, size_t i, const void *in, size_t j);
    void (*fmt)(const void *b, size_t i, char *out, size_t len);
} tinfo_t;

extern const tinfo_t t_int8, t_int16, t_int32, t_int64, t_uint8, t_uint16, t_uint32, t_uint64,
    t_float, t_double, t_byte;
extern const tinfo_t *const types[];
extern const size_t ntypes;
#define NTYPES ntypes
bool op_valid(const tinfo_t *t, rmp_op_t op);

struct coll_state {
    int wrank, wsize;
    long checks;
    int failed, printed;
    uint64_t salt; /* advanced identically on every rank: each call gets fresh data */
    const char *comm_name;
};
extern struct coll_state g;

typedef struct what {
    const char *coll;
    const tinfo_t *t;
    rmp_op_t op;
    int count, root, rank, in_place;
} what_t;

typedef struct tcomm {
    rmp_comm_t comm;
    const char *name;
    int rank, size;
} tcomm_t;

uint64_t mix(uint64_t x);
int64_t gen(int who, size_t i, rmp_op_t op);
void fill(const tinfo_t *t, void *buf, size_t n, int who, rmp_op_t op);
void fail(const what_t *w, size_t i, const char *got, const char *want);
void expect_rc(const what_t *w, int rc);
void expect(const what_t *w, const void *got, size_t go, const void *want, size_t n);
void reference(const tinfo_t *t, rmp_op_t op, int nranks, size_t n, void *want, void *tmp);
void *xmalloc(size_t n);

/* builtin.c */
typedef enum { K_GATHER, K_SCATTER, K_ALLGATHER, K_ALLTOALL } kind_t;
extern const char *const kind_names[];
void run_barrier(const tcomm_t *c);
void run_bcast(const tcomm_t *c);
void run_reductions(const tcomm_t *c, bool all);
void run_moves(const tcomm_t *c, kind_t kind);
void run_reduce_scatter(const tcomm_t *c);
void run_derived(const tcomm_t *c); /* derived.c */
void run_errors(const tcomm_t *c);  /* errors.c */
void expect_int(const char *what, long got, long want); /* comm.c */
void run_comm(void);
void run_separation(void);
void run_nonblocking(const tcomm_t *cs, int ncomms); /* nonblocking.c */

#endif
