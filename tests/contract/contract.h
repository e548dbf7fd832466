/* contract.h — the transport contract of runtime/transport/transport.h as cases that every
 * transport must pass, run through its ops table with a real tp_env_t and one forked process
 * per rank (contract.c). tests/unit/test_contract.c runs them against self and shm on the host,
 * tests/vm/run-verbs-suite (case "contract") against verbs through build/.../tests/contract. */
#ifndef RMP_CONTRACT_H
#define RMP_CONTRACT_H

#include <stddef.h>

#include "transport/transport.h"

typedef struct ct ct_t;

enum {
    CT_RANK1_DIES = 1u << 0, /* rank 1 ends itself on purpose (a crash, for the failure cases) */
    CT_TWO_NODES = 1u << 1,  /* 3 ranks; for verbs, the last one on a node of its own and verbs
                              * routed only across nodes, as the core routes with shm present */
};

typedef struct ct_case {
    const char *name;
    int (*run)(ct_t *t);
    int min_ranks; /* 2: needs a peer other than me (not run against self) */
    unsigned flags; /* CT_* */
} ct_case_t;

extern const ct_case_t ct_cases[];
extern const int ct_ncases;

/* The case called name, or NULL. */
const ct_case_t *ct_find(const char *name);

/* The ranks a case runs with against ops: 1 for self, 3 for "order" and CT_TWO_NODES, else 2. */
int ct_default_ranks(const tp_ops_t *ops, const ct_case_t *c);

/* Runs case c against the transport ops with n ranks (n = 1 for self: itself only), each a
 * forked process, within a time limit. 0 if every rank passed; else -1 with the first
 * failure (rank, what) in why. */
int ct_run(const tp_ops_t *ops, int n, const ct_case_t *c, char *why, size_t len);

#endif
