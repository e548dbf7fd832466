/* bootstrap.c — the PMIx client side: who am I, who shares my node, and the modex (each
 * transport's address blob: Put, Commit, one Fence, then Get per peer). Without a launcher
 * PMIx_Init fails and the program runs as a singleton of size 1. */
#include <pmix.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"

typedef struct boot_val {
    struct boot_val *next;
    pmix_value_t *val;
} boot_val_t;

typedef struct boot {
    pmix_proc_t me;
    boot_val_t *vals; /* values handed out by boot_get, released at finalize */
} boot_t;

static int get_u32(boot_t *b, pmix_rank_t rank, const char *key, uint32_t *out)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, rank);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&p, key, NULL, 0, &v) != PMIX_SUCCESS || !v)
        return RMP_ERR_BOOTSTRAP;
    int rc = RMP_SUCCESS;
    if (v->type == PMIX_UINT32)
        *out = v->data.uint32;
    else if (v->type == PMIX_UINT16)
        *out = v->data.uint16;
    else if (v->type == PMIX_PROC_RANK)
        *out = v->data.rank;
    else
        rc = RMP_ERR_BOOTSTRAP;
    PMIX_VALUE_RELEASE(v);
    return rc;
}

/* PMIX_LOCAL_PEERS: "0,1,2,3" — the world ranks on my node, in local-rank order. */
static int read_local_peers(rmp_ctx_t *c, boot_t *b)
{
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, PMIX_RANK_WILDCARD);
    pmix_value_t *v = NULL;
    if (PMIx_Get(&p, PMIX_LOCAL_PEERS, NULL, 0, &v) != PMIX_SUCCESS || !v ||
        v->type != PMIX_STRING) {
        if (v)
            PMIX_VALUE_RELEASE(v);
        core_error(c, "PMIx gave no PMIX_LOCAL_PEERS: is the launcher PMIx-compliant?");
        return RMP_ERR_BOOTSTRAP;
    }
    c->local_ranks = malloc(sizeof(int) * (size_t)c->size);
    c->local_size = 0;
    c->local_rank = -1;
    char *save = NULL, *s = strdup(v->data.string);
    for (char *t = strtok_r(s, ",", &save); t && c->local_ranks; t = strtok_r(NULL, ",", &save)) {
        int r = atoi(t);
        if (r < 0 || r >= c->size || c->local_size >= c->size)
            continue;
        if (r == c->rank)
            c->local_rank = c->local_size;
        c->local_ranks[c->local_size++] = r;
    }
    free(s);
    PMIX_VALUE_RELEASE(v);
    if (!c->local_ranks || c->local_rank < 0) {
        core_error(c, "PMIX_LOCAL_PEERS does not list my rank");
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

static int singleton(rmp_ctx_t *c)
{
    c->singleton = true;
    c->rank = 0;
    c->size = 1;
    snprintf(c->nspace, sizeof(c->nspace), "singleton-%d", (int)getpid());
    c->local_ranks = malloc(sizeof(int));
    if (!c->local_ranks)
        return RMP_ERR_NO_MEM;
    c->local_ranks[0] = 0;
    c->local_rank = 0;
    c->local_size = 1;
    return RMP_SUCCESS;
}

int boot_init(rmp_ctx_t *c)
{
    boot_t *b = calloc(1, sizeof(*b));
    if (!b)
        return RMP_ERR_NO_MEM;
    c->boot = b;
    /* No launcher: PMIx_Init fails quickly (no server to reach) — run as a singleton. */
    if (!getenv("PMIX_NAMESPACE") && !getenv("PMIX_SERVER_URI41") &&
        !getenv("PMIX_SERVER_URI4") && !getenv("PMIX_SERVER_URI3") &&
        !getenv("PMIX_SERVER_URI2") && !getenv("PMIX_SERVER_URI21"))
        return singleton(c);
    pmix_status_t st = PMIx_Init(&b->me, NULL, 0);
    if (st != PMIX_SUCCESS) {
        core_verbose(c, "PMIx_Init: %s: running as a singleton", PMIx_Error_string(st));
        return singleton(c);
    }
    c->rank = (int)b->me.rank;
    snprintf(c->nspace, sizeof(c->nspace), "%s", b->me.nspace);
    uint32_t size;
    if (get_u32(b, PMIX_RANK_WILDCARD, PMIX_JOB_SIZE, &size) != RMP_SUCCESS) {
        core_error(c, "PMIx gave no PMIX_JOB_SIZE");
        return RMP_ERR_BOOTSTRAP;
    }
    c->size = (int)size;
    return read_local_peers(c, b);
}

int boot_put(rmp_ctx_t *c, const char *key, const void *blob, size_t len)
{
    if (c->singleton)
        return RMP_SUCCESS;
    pmix_value_t v;
    PMIX_VALUE_CONSTRUCT(&v);
    v.type = PMIX_BYTE_OBJECT;
    v.data.bo.bytes = (char *)blob;
    v.data.bo.size = len;
    pmix_status_t st = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Put(%s): %s", key, PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

static int fence(rmp_ctx_t *c, bool collect)
{
    boot_t *b = c->boot;
    pmix_proc_t all;
    PMIX_LOAD_PROCID(&all, b->me.nspace, PMIX_RANK_WILDCARD);
    pmix_info_t info;
    bool yes = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
    pmix_status_t st = PMIx_Fence(&all, 1, collect ? &info : NULL, collect ? 1 : 0);
    PMIX_INFO_DESTRUCT(&info);
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Fence: %s (a rank died during start-up?)", PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return RMP_SUCCESS;
}

int boot_fence(rmp_ctx_t *c)
{
    if (c->singleton)
        return RMP_SUCCESS;
    pmix_status_t st = PMIx_Commit();
    if (st != PMIX_SUCCESS) {
        core_error(c, "PMIx_Commit: %s", PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    return fence(c, true);
}

int boot_barrier(rmp_ctx_t *c)
{
    return c->singleton ? RMP_SUCCESS : fence(c, false);
}

int boot_get(rmp_ctx_t *c, int peer, const char *key, const void **blob_p, size_t *len_p)
{
    boot_t *b = c->boot;
    if (c->singleton)
        return RMP_ERR_BOOTSTRAP;
    pmix_proc_t p;
    PMIX_LOAD_PROCID(&p, b->me.nspace, (pmix_rank_t)peer);
    pmix_value_t *v = NULL;
    pmix_status_t st = PMIx_Get(&p, key, NULL, 0, &v);
    if (st != PMIX_SUCCESS || !v || v->type != PMIX_BYTE_OBJECT) {
        if (v)
            PMIX_VALUE_RELEASE(v);
        core_error(c, "PMIx_Get(%s of rank %d): %s", key, peer, PMIx_Error_string(st));
        return RMP_ERR_BOOTSTRAP;
    }
    boot_val_t *bv = malloc(sizeof(*bv));
    if (!bv) {
        PMIX_VALUE_RELEASE(v);
        return RMP_ERR_NO_MEM;
    }
    *bv = (boot_val_t){.next = b->vals, .val = v};
    b->vals = bv;
    *blob_p = v->data.bo.bytes;
    *len_p = v->data.bo.size;
    return RMP_SUCCESS;
}

void boot_abort(rmp_ctx_t *c, int code, const char *msg)
{
    boot_t *b = c->boot;
    fflush(stdout);
    fflush(stderr);
    /* PMIx_Abort may return (Slurm does): the caller exits regardless. */
    if (b && !c->singleton)
        PMIx_Abort(code, msg, NULL, 0);
    _exit(code);
}

void boot_finalize(rmp_ctx_t *c)
{
    boot_t *b = c->boot;
    if (!b)
        return;
    for (boot_val_t *v = b->vals, *n; v; v = n) {
        n = v->next;
        PMIX_VALUE_RELEASE(v->val);
        free(v);
    }
    if (!c->singleton)
        PMIx_Finalize(NULL, 0);
    free(b);
    c->boot = NULL;
}

int core_modex_get(rmp_ctx_t *c, int peer, const char *name, const void **blob_p,
                   size_t *len_p)
{
    char key[64];
    snprintf(key, sizeof(key), "rmp.%s", name);
    return boot_get(c, peer, key, blob_p, len_p);
}
