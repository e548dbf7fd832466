/* coll_check.c — RMP_CHECK_COLLECTIVES=1: before its own steps, every collective's schedule
 * compares the ranks' signatures (coll_sig_t: the collective, root, bytes per block, op and
 * base type), and a mismatch fails the job with one line naming two ranks and their
 * arguments, instead of a hang or a wrong result.
 *
 * The comparison is a dissemination allreduce (ceil(log2 n) rounds of one 64-byte message,
 * like the barrier) of a summary of a set of signatures: `first`, the one of the set's lowest
 * rank, and `diff`, the lowest-ranked one that differs from `first`. Two summaries combine
 * exactly (the merged set's first is the lower of the two firsts; its diff is the lowest
 * ranked of the candidates that differ from it, and each side's candidate is its first or,
 * when that equals the new first, its diff), and combining is idempotent, as dissemination
 * needs. So every rank ends with rank 0's signature and the first rank that disagrees.
 * The messages use the collective's own tag ahead of its steps: ranks in different
 * collectives at the same point (a barrier against an allreduce) still meet here, and
 * messages from one sender match in order, so a peer that went on to the collective's steps
 * never mixes them up with the check's. Every rank must run with the same setting. */
#include <stdio.h>
#include <string.h>

#include "coll.h"
#include "hang.h"

static const char *const kind_names[CK_NKINDS] = {
    [CK_NONE] = "a collective", [CK_BARRIER] = "barrier", [CK_BCAST] = "bcast",
    [CK_REDUCE] = "reduce", [CK_ALLREDUCE] = "allreduce", [CK_GATHER] = "gather",
    [CK_GATHERV] = "gatherv", [CK_SCATTER] = "scatter", [CK_SCATTERV] = "scatterv",
    [CK_ALLGATHER] = "allgather", [CK_ALLGATHERV] = "allgatherv", [CK_ALLTOALL] = "alltoall",
    [CK_ALLTOALLV] = "alltoallv", [CK_ALLTOALLW] = "alltoallw",
    [CK_REDUCE_SCATTER] = "reduce_scatter", [CK_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
    [CK_SCAN] = "scan", [CK_EXSCAN] = "exscan", [CK_NEIGHBOR] = "a neighbourhood collective",
};

const char *coll_kind_name(int kind)
{
    return kind > CK_NONE && kind < CK_NKINDS ? kind_names[kind] : NULL;
}

/* A user op's handle is local to its rank (ranks may create ops in any order): the check
 * compares only that the op is a user one. */
#define SIG_USER_OP (-2)

typedef struct ck_entry {
    int32_t rank; /* comm rank; -1: none */
    int32_t pad;
    coll_sig_t sig;
} ck_entry_t;

typedef struct ck_sum {
    ck_entry_t first, diff;
} ck_sum_t;

typedef struct ck_run {
    ck_sum_t acc, in; /* mine so far; a peer's, received this round */
    comm_t *comm;
    int tag;
} ck_run_t;

static bool sig_equal(const coll_sig_t *a, const coll_sig_t *b)
{
    return a->kind == b->kind && a->root == b->root && a->op == b->op && a->base == b->base &&
           a->bytes == b->bytes;
}

/* The lower ranked of a and b that differs from f (rank -1: none). */
static ck_entry_t lower_differing(const ck_entry_t *a, const ck_entry_t *b, const ck_entry_t *f)
{
    bool ua = a->rank >= 0 && !sig_equal(&a->sig, &f->sig);
    bool ub = b->rank >= 0 && !sig_equal(&b->sig, &f->sig);
    if (ua && (!ub || a->rank < b->rank))
        return *a;
    if (ub)
        return *b;
    return (ck_entry_t){.rank = -1};
}

static int ck_merge(void *arg)
{
    ck_run_t *k = arg;
    ck_sum_t *a = &k->acc, *b = &k->in;
    ck_entry_t first = b->first.rank < a->first.rank ? b->first : a->first;
    /* each side's lowest entry differing from first: its own first, else its diff */
    const ck_entry_t *ca = sig_equal(&a->first.sig, &first.sig) ? &a->diff : &a->first;
    const ck_entry_t *cb = sig_equal(&b->first.sig, &first.sig) ? &b->diff : &b->first;
    a->diff = lower_differing(ca, cb, &first);
    a->first = first;
    return RMP_SUCCESS;
}

static const char *const op_names[] = {NULL, "RMP_SUM", "RMP_PROD", "RMP_MIN", "RMP_MAX",
                                       "RMP_BAND", "RMP_BOR", "RMP_BXOR", "RMP_LAND",
                                       "RMP_LOR", "RMP_MINLOC", "RMP_MAXLOC"};

/* "allreduce (4 bytes per block, root -, op RMP_SUM on RMP_INT32)" */
static void sig_text(const coll_sig_t *s, char *buf, size_t len)
{
    const char *name = coll_kind_name(s->kind);
    size_t used = (size_t)snprintf(buf, len, "%s (", name ? name : "an unknown collective");
    if (s->bytes >= 0)
        used += (size_t)snprintf(buf + used, len - used, "%lld bytes per block",
                                 (long long)s->bytes);
    else
        used += (size_t)snprintf(buf + used, len - used, "counts per rank");
    if (s->root >= 0 && used < len)
        used += (size_t)snprintf(buf + used, len - used, ", root %d", (int)s->root);
    if (s->op != RMP_OP_NULL && used < len) {
        char tn[RMP_MAX_OBJECT_NAME] = "";
        int tl;
        if (s->base <= 0 || rmp_type_get_name(s->base, tn, &tl) != RMP_SUCCESS)
            tn[0] = '\0';
        char on[24];
        snprintf(on, sizeof(on), "op %d", (int)s->op);
        bool named = s->op > 0 && s->op < (int)(sizeof(op_names) / sizeof(*op_names));
        used += (size_t)snprintf(buf + used, len - used, ", %s%s%s",
                                 named                          ? op_names[s->op]
                                 : s->op == SIG_USER_OP ? "a user op"
                                                                : on,
                                 tn[0] ? " on " : "", tn);
    }
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

/* After the last round: a mismatch ends the job. The communicator's rank 0 says so and ends
 * it (every rank knows the same two signatures); the others fail the call meanwhile, so that
 * none of them runs a collective its peers do not. */
static int ck_verdict(void *arg)
{
    ck_run_t *k = arg;
    if (k->acc.diff.rank < 0)
        return RMP_SUCCESS;
    if (k->comm->rank != 0)
        return RMP_ERR_ARG;
    char cn[160], a[200], b[200], msg[700];
    hang_comm_name(k->comm, cn, sizeof(cn));
    sig_text(&k->acc.first.sig, a, sizeof(a));
    sig_text(&k->acc.diff.sig, b, sizeof(b));
    snprintf(msg, sizeof(msg), "collective mismatch on %s, collective seq %d "
             "(RMP_CHECK_COLLECTIVES): rank %d called %s but rank %d called %s", cn, k->tag,
             (int)k->acc.first.rank, a, (int)k->acc.diff.rank, b);
    rmp_ctx_t *c = &rmp_ctx;
    core_error(c, "%s", msg);
    tps_abandon(c);
    boot_abort(c, 1, 1, msg);
    return RMP_ERR_ARG; /* not reached */
}

void coll_check_build(sched_t *s, const coll_t *cl)
{
    ck_run_t *k = sched_tmp(s, sizeof(*k));
    if (!k)
        return; /* sched_post reports it */
    memset(k, 0, sizeof(*k));
    k->acc.first = (ck_entry_t){.rank = cl->rank, .sig = cl->sig};
    if (cl->sig.op != RMP_OP_NULL && op_is_user(cl->sig.op))
        k->acc.first.sig.op = SIG_USER_OP;
    k->acc.diff.rank = -1;
    k->comm = cl->comm;
    k->tag = cl->tag;
    int n = cl->size, me = cl->rank;
    for (int d = 1; d < n; d <<= 1) {
        if (d > 1)
            sched_local(s, ck_merge, k); /* last round's arrival, before sending on */
        sched_send(s, (me + d) % n, &k->acc, sizeof(k->acc));
        sched_recv(s, (me - d + n) % n, &k->in, sizeof(k->in));
        sched_round(s);
    }
    sched_checked(s, sched_rounds(s));
    if (n > 1)
        sched_local(s, ck_merge, k);
    sched_local(s, ck_verdict, k);
}
