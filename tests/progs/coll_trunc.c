/* coll_trunc.c — collectives where one rank's block does not fit the receivers' slots, or
 * falls short of them (the ranks' counts disagree either way): every rank must return (never
 * hang), with exactly the documented code (RMP_ERR_TRUNCATE on the ranks whose data path met
 * the odd block, RMP_SUCCESS elsewhere), the data that fits must be exact, nothing may be
 * written past a buffer, and the next collective must work.
 * The algorithms come from RMP_COLL_GATHER, _SCATTER, _ALLGATHER, _ALLTOALL and _BCAST, which
 * must name one (the expected codes depend on it). Each case runs blocking and nonblocking,
 * with small (eager) and large (rendezvous) blocks, with the odd rank being the root (or rank
 * n-1) and a leaf of the binomial trees. Rank 0 prints "coll_trunc: OK n=N cases=K". */
#include "progs.h"

#define GUARD 16         /* sentinel elements after every receive buffer */
#define SENTINEL (-7)

static int me, n, cases;
static const char *a_gather, *a_scatter, *a_allgather, *a_alltoall, *a_bcast;

static const char *forced(const char *var)
{
    const char *v = getenv(var);
    if (!v || !*v || !strcmp(v, "auto")) {
        FAIL("%s must name an algorithm (the expected results depend on it)", var);
        exit(1);
    }
    return v;
}

static int32_t val(int src, int dst, int e)
{
    return (int32_t)(src * 1000003 + dst * 1009 + e);
}

/* A receive buffer of `len` elements plus the guard, all sentinel. */
static int32_t *rbuf(size_t len)
{
    int32_t *b = malloc((len + GUARD) * sizeof(int32_t));
    if (!b) {
        FAIL("out of memory");
        exit(1);
    }
    for (size_t i = 0; i < len + GUARD; i++)
        b[i] = SENTINEL;
    return b;
}

static void check_guard(const int32_t *b, size_t len, const char *what)
{
    for (size_t i = len; i < len + GUARD; i++)
        if (b[i] != SENTINEL) {
            FAIL("%s: written past the buffer (element %zu of %zu)", what, i, len);
            return;
        }
}

/* `cnt` elements of slot `slot` (of `stride` elements) are val(src, dst, 0..cnt-1). */
static void check_slot(const int32_t *b, int slot, int stride, int cnt, int src, int dst,
                       const char *what)
{
    for (int e = 0; e < cnt; e++) {
        int32_t got = b[(size_t)slot * stride + e], want = val(src, dst, e);
        if (got != want) {
            FAIL("%s: slot %d element %d is %d, expected %d", what, slot, e, got, want);
            return;
        }
    }
}

static int wait_rc(int rc, rmp_request_t *r)
{
    return rc ? rc : rmp_wait(r, RMP_STATUS_IGNORE);
}

/* The collective that follows every case: a sum over the world, then a barrier. */
static void after(const char *what)
{
    int32_t x = me + 1, sum = 0;
    int rc = rmp_allreduce(&x, &sum, 1, RMP_INT32, RMP_SUM, RMP_COMM_WORLD);
    if (rc || sum != n * (n + 1) / 2)
        FAIL("%s: the next allreduce returned %d with %d (expected %d)", what, rc, sum,
             n * (n + 1) / 2);
    CHECK(rmp_barrier(RMP_COMM_WORLD));
}

static void expect_rc(int rc, int want, const char *what)
{
    if (rc != want)
        FAIL("%s: returned %d (%s), expected %d (%s)", what, rc, rmp_strerror(rc), want,
             rmp_strerror(want));
    cases++;
}

/* The virtual rank of a leaf as deep in the binomial tree as possible (odd: no children). */
static int leaf_vr(void)
{
    return (n - 1) % 2 ? n - 1 : n - 2 > 0 ? n - 2 : 1;
}

/* True if rank r is on the binomial path from (virtual rank) vr up to the root, vr excluded. */
static bool on_path(int vr, int root, int r)
{
    while (vr) {
        vr -= vr & -vr;
        if ((vr + root) % n == r)
            return true;
    }
    return false;
}

/* ---- gather: rank x contributes xc elements, the root's slots are C ---- */
static void gather_case(int c, int root, int x, int xc, bool nb)
{
    char what[128];
    snprintf(what, sizeof what, "gather(%s) c=%d root=%d rank %d send=%d%s", a_gather, c, root,
             x, xc, nb ? " nonblocking" : "");
    int sc = me == x ? xc : c;
    int32_t *sb = malloc((size_t)sc * sizeof(int32_t)), *rb = rbuf((size_t)n * c);
    for (int e = 0; e < sc; e++)
        sb[e] = val(me, 0, e);
    rmp_request_t r;
    int rc = nb ? wait_rc(rmp_igather(sb, sc, RMP_INT32, rb, c, RMP_INT32, root, RMP_COMM_WORLD,
                                      &r),
                          &r)
                : rmp_gather(sb, sc, RMP_INT32, rb, c, RMP_INT32, root, RMP_COMM_WORLD);
    bool trunc = me == root;
    if (!strcmp(a_gather, "binomial") && x != root) /* the root and those forwarding it */
        trunc = on_path((x - root + n) % n, root, me);
    expect_rc(rc, trunc ? RMP_ERR_TRUNCATE : RMP_SUCCESS, what);
    if (me == root)
        for (int i = 0; i < n; i++)
            check_slot(rb, i, c, i == x && xc < c ? xc : c, i, 0, what);
    check_guard(rb, me == root ? (size_t)n * c : 0, what);
    free(sb);
    free(rb);
    after(what);
}

/* ---- scatter: the root's slots are sc elements, rank i receives rc_of(i) ---- */
static void scatter_case(int c, int root, int sc, int x, int xc, bool nb)
{
    char what[160];
    snprintf(what, sizeof what, "scatter(%s) c=%d root=%d slots=%d rank %d recv=%d%s",
             a_scatter, c, root, sc, x, xc, nb ? " nonblocking" : "");
    int rcnt = me == x ? xc : c;
    int32_t *sb = NULL, *rb = rbuf((size_t)rcnt);
    if (me == root) {
        sb = malloc((size_t)n * sc * sizeof(int32_t));
        for (int i = 0; i < n; i++)
            for (int e = 0; e < sc; e++)
                sb[(size_t)i * sc + e] = val(root, i, e);
    }
    rmp_request_t r;
    int rc = nb ? wait_rc(rmp_iscatter(sb, sc, RMP_INT32, rb, rcnt, RMP_INT32, root,
                                       RMP_COMM_WORLD, &r),
                          &r)
                : rmp_scatter(sb, sc, RMP_INT32, rb, rcnt, RMP_INT32, root, RMP_COMM_WORLD);
    bool binomial = !strcmp(a_scatter, "binomial"), trunc;
    if (sc > c) /* every slot is longer than every buffer but x's */
        trunc = me != x || xc < sc;
    else /* x's buffer is shorter or longer than what comes */
        trunc = me == x && xc != sc;
    expect_rc(rc, trunc ? RMP_ERR_TRUNCATE : RMP_SUCCESS, what);
    /* what arrived: exact where it fit; a rank that reports the error got the head of its
     * slot when it had it straight from the root (linear, or the root itself) */
    int fit = rcnt < sc ? rcnt : sc;
    if (!trunc || !binomial || me == root)
        check_slot(rb, 0, 0, fit, root, me, what);
    check_guard(rb, (size_t)rcnt, what);
    free(sb);
    free(rb);
    after(what);
}

/* ---- allgather: rank x contributes xc elements, every slot is C ---- */
static void allgather_case(int c, int x, int xc, bool nb)
{
    char what[128];
    snprintf(what, sizeof what, "allgather(%s) c=%d rank %d send=%d%s", a_allgather, c, x, xc,
             nb ? " nonblocking" : "");
    int sc = me == x ? xc : c;
    int32_t *sb = malloc((size_t)sc * sizeof(int32_t)), *rb = rbuf((size_t)n * c);
    for (int e = 0; e < sc; e++)
        sb[e] = val(me, 0, e);
    rmp_request_t r;
    int rc = nb ? wait_rc(rmp_iallgather(sb, sc, RMP_INT32, rb, c, RMP_INT32, RMP_COMM_WORLD,
                                         &r),
                          &r)
                : rmp_allgather(sb, sc, RMP_INT32, rb, c, RMP_INT32, RMP_COMM_WORLD);
    expect_rc(rc, RMP_ERR_TRUNCATE, what); /* every rank receives the odd block */
    for (int i = 0; i < n; i++)
        check_slot(rb, i, c, i == x && xc < c ? xc : c, i, 0, what);
    check_guard(rb, (size_t)n * c, what);
    free(sb);
    free(rb);
    after(what);
}

/* ---- alltoall: rank x sends blocks of 2C elements, every slot is C ---- */
static void alltoall_case(int c, int x, bool nb)
{
    char what[128];
    snprintf(what, sizeof what, "alltoall(%s) c=%d long=%d%s", a_alltoall, c, x,
             nb ? " nonblocking" : "");
    int sc = me == x ? 2 * c : c;
    int32_t *sb = malloc((size_t)n * sc * sizeof(int32_t)), *rb = rbuf((size_t)n * c);
    for (int j = 0; j < n; j++)
        for (int e = 0; e < sc; e++)
            sb[(size_t)j * sc + e] = val(me, j, e);
    rmp_request_t r;
    int rc = nb ? wait_rc(rmp_ialltoall(sb, sc, RMP_INT32, rb, c, RMP_INT32, RMP_COMM_WORLD,
                                        &r),
                          &r)
                : rmp_alltoall(sb, sc, RMP_INT32, rb, c, RMP_INT32, RMP_COMM_WORLD);
    expect_rc(rc, RMP_ERR_TRUNCATE, what); /* every rank receives one of x's long blocks */
    for (int i = 0; i < n; i++)
        check_slot(rb, i, c, c, i, me, what);
    check_guard(rb, (size_t)n * c, what);
    free(sb);
    free(rb);
    after(what);
}

/* ---- bcast: rank x's count is xc, everyone else's c ---- */
static void bcast_case(int c, int root, int x, int xc, bool nb)
{
    char what[128];
    snprintf(what, sizeof what, "bcast(%s) c=%d root=%d rank %d count=%d%s", a_bcast, c, root,
             x, xc, nb ? " nonblocking" : "");
    int cnt = me == x ? xc : c, rootc = x == root ? xc : c;
    int32_t *b = rbuf((size_t)cnt);
    if (me == root)
        for (int e = 0; e < cnt; e++)
            b[e] = val(root, 0, e);
    rmp_request_t r;
    int32_t *arg = cnt ? b : NULL; /* count 0: no buffer at all */
    int rc = nb ? wait_rc(rmp_ibcast(arg, cnt, RMP_INT32, root, RMP_COMM_WORLD, &r), &r)
                : rmp_bcast(arg, cnt, RMP_INT32, root, RMP_COMM_WORLD);
    /* scatter_allgather's root takes part in the ring: it sees chunks of another size too */
    bool trunc = me != root ? cnt != rootc
                            : !strcmp(a_bcast, "scatter_allgather") && x == root && xc != c;
    expect_rc(rc, trunc ? RMP_ERR_TRUNCATE : RMP_SUCCESS, what);
    if (!trunc || !strcmp(a_bcast, "binomial"))
        check_slot(b, 0, 0, cnt < rootc ? cnt : rootc, root, 0, what);
    check_guard(b, (size_t)cnt, what);
    free(b);
    after(what);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &me));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = me;
    a_gather = forced("RMP_COLL_GATHER");
    a_scatter = forced("RMP_COLL_SCATTER");
    a_allgather = forced("RMP_COLL_ALLGATHER");
    a_alltoall = forced("RMP_COLL_ALLTOALL");
    a_bcast = forced("RMP_COLL_BCAST");
    int root = n - 1, leaf = (leaf_vr() + root) % n;
    static const int sizes[] = {6, 6000}; /* eager, rendezvous */
    for (int si = 0; si < 2; si++) {
        int c = sizes[si];
        for (int nb = 0; nb < 2; nb++) {
            phase("gather", 30);
            gather_case(c, root, root, 2 * c, nb);
            gather_case(c, root, leaf, 2 * c, nb);
            gather_case(c, root, root, c / 2, nb); /* short blocks: found by the length */
            gather_case(c, root, leaf, c / 2, nb);
            phase("scatter", 30);
            scatter_case(c, root, 2 * c, root, c, nb); /* the root's slots too long */
            scatter_case(c, root, c, leaf, c / 2, nb);  /* a leaf's buffer too short */
            scatter_case(c, root, c, leaf, 2 * c, nb);  /* a leaf's buffer longer */
            phase("allgather", 30);
            allgather_case(c, root, 2 * c, nb);
            allgather_case(c, leaf, 2 * c, nb);
            allgather_case(c, 0, 2 * c, nb);
            allgather_case(c, 0, c / 2, nb); /* short: my sends pass the error on */
            allgather_case(c, leaf, c / 2, nb);
            phase("alltoall", 30);
            alltoall_case(c, root, nb);
            alltoall_case(c, leaf, nb);
            alltoall_case(c, 0, nb);
            phase("bcast", 30);
            bcast_case(c, root, root, 2 * c, nb); /* the root's message too long */
            if (strcmp(a_bcast, "scatter_allgather")) /* too short (its chunks follow it) */
                bcast_case(c, root, root, c / 2, nb);
            if (!strcmp(a_bcast, "binomial")) {
                bcast_case(c, root, leaf, 2 * c, nb); /* a leaf's buffer longer */
                bcast_case(c, root, leaf, c / 2, nb); /* a leaf's buffer too short */
                bcast_case(c, root, leaf, 0, nb);     /* or none at all */
            }
        }
    }
    phase("finalize", 30);
    MUST(rmp_finalize());
    if (me == 0 && !prog_failures)
        printf("coll_trunc: OK n=%d cases=%d\n", n, cases);
    return prog_exit();
}
