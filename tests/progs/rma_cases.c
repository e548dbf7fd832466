/* rma_cases.c — one-sided cases found by MPICH's RMA suite, each checked exactly:
 *   zero      count 0 and a zero-size type (contiguous(0, int), any count) with every
 *             operation: success, and not one byte of the target changes
 *   pairs     accumulates of pair types (short_int, double_int: value and index apart in
 *             memory; 2int) with MINLOC and MAXLOC from every rank at once, REPLACE and NO_OP
 *             (get_accumulate, fetch_and_op): the exact winners, each pair read whole
 *   shared0   allocate_shared where odd ranks give 0 bytes: shared_query says size 0 and a
 *             NULL base for them
 *   dynamic   many regions attached at once per rank (more than any fixed table), each
 *             written by a neighbour; then one access spanning adjacent regions (put, get,
 *             accumulate, get_accumulate over all of them), byte-exact
 * Prints "rma_cases: OK". */
#include "progs.h"

static int n, me;

/* ---- zero ---- */

static void t_zero(void)
{
    enum { NI = 8 };
    int32_t *mem, v[NI] = {0}, res[NI], cmp = 0;
    rmp_win_t win;
    rmp_datatype_t none;
    MUST(rmp_type_contiguous(0, RMP_INT32, &none));
    MUST(rmp_type_commit(&none));
    MUST(rmp_win_allocate(NI * 4, 4, RMP_COMM_WORLD, (void **)&mem, &win));
    for (int i = 0; i < NI; i++)
        mem[i] = 100 + i, v[i] = 7, res[i] = -5;
    MUST(rmp_barrier(RMP_COMM_WORLD));
    int t = (me + 1) % n;
    CHECK(rmp_win_lock_all(0, win));
    for (int k = 0; k < 2; k++) {
        rmp_datatype_t ty = k ? none : RMP_INT32;
        int cnt = k ? 5 : 0;
        CHECK(rmp_put(v, cnt, ty, t, 0, cnt, ty, win));
        CHECK(rmp_get(res, cnt, ty, t, 0, cnt, ty, win));
        CHECK(rmp_accumulate(v, cnt, ty, t, 0, cnt, ty, RMP_SUM, win));
        CHECK(rmp_accumulate(v, cnt, ty, t, 0, cnt, ty, RMP_REPLACE, win));
        CHECK(rmp_get_accumulate(v, cnt, ty, res, cnt, ty, t, 0, cnt, ty, RMP_SUM, win));
        CHECK(rmp_get_accumulate(v, cnt, ty, res, cnt, ty, t, 0, cnt, ty, RMP_NO_OP, win));
        if (k) {
            CHECK(rmp_fetch_and_op(v, res, ty, t, 0, RMP_SUM, win));
            CHECK(rmp_compare_and_swap(v, &cmp, res, ty, t, 0, win));
        }
        /* the sides need not agree on the type when nothing moves (MPICH's badrma) */
        CHECK(rmp_accumulate(NULL, 0, RMP_INT32, t, 0, 3, none, RMP_SUM, win));
        CHECK(rmp_get_accumulate(NULL, 0, RMP_INT32, NULL, cnt, ty, t, 0, 4, none, RMP_SUM,
                                 win));
        CHECK(rmp_put(NULL, 2, none, t, 0, 0, RMP_INT32, win));
        rmp_request_t rq;
        CHECK(rmp_raccumulate(v, cnt, ty, t, 0, cnt, ty, RMP_MAX, win, &rq));
        CHECK(rmp_wait(&rq, RMP_STATUS_IGNORE));
    }
    CHECK(rmp_win_unlock_all(win));
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_sync(win));
    for (int i = 0; i < NI; i++)
        EXPECT(mem[i] == 100 + i, "zero: element %d is %d, expected %d", i, mem[i], 100 + i);
    EXPECT(res[0] == -5, "zero: a result buffer got %d", res[0]);
    CHECK(rmp_win_free(&win));
    CHECK(rmp_type_free(&none));
}

/* ---- pairs ---- */

/* The value rank r offers for element k, and the expected winner over all ranks. */
static int offer(int r, int k)
{
    return (r * 5 + k * 3) % 4; /* ties between ranks: the smaller index must win */
}

static void winner(int k, bool max, int *val, int *idx)
{
    *val = offer(0, k), *idx = 0;
    for (int r = 1; r < n; r++) {
        int o = offer(r, k);
        if (max ? o > *val : o < *val)
            *val = o, *idx = r;
    }
}

/* Element 0's index after the MINLOC/MAXLOC round (before any REPLACE). */
static int idx0(bool max)
{
    int val, idx;
    winner(0, max, &val, &idx);
    return idx;
}

#define PAIR_TEST(NAME, VT, DT)                                                             \
    static void t_pair_##NAME(bool max)                                                         \
    {                                                                                          \
        enum { NI = 6 };                                                                       \
        typedef struct { VT v; int i; } pair_t;                                                \
        pair_t *mem, mine[NI], res[NI], one, old;                                              \
        rmp_win_t win;                                                                         \
        MUST(rmp_win_allocate(NI * (ptrdiff_t)sizeof(pair_t), sizeof(pair_t), RMP_COMM_WORLD,  \
                              (void **)&mem, &win));                                           \
        for (int k = 0; k < NI; k++) {                                                         \
            mem[k].v = (VT)(max ? -1000 : 1000), mem[k].i = 1000;                               \
            mine[k].v = (VT)offer(me, k), mine[k].i = me;                                       \
        }                                                                                      \
        MUST(rmp_barrier(RMP_COMM_WORLD));                                                     \
        CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, win));                                       \
        CHECK(rmp_accumulate(mine, NI, DT, 0, 0, NI, DT, max ? RMP_MAXLOC : RMP_MINLOC, win)); \
        CHECK(rmp_win_unlock(0, win));                                                         \
        MUST(rmp_barrier(RMP_COMM_WORLD));                                                     \
        /* every rank reads the whole array back with NO_OP: the winners */                    \
        CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, win));                                       \
        CHECK(rmp_get_accumulate(NULL, 0, DT, res, NI, DT, 0, 0, NI, DT, RMP_NO_OP, win));     \
        CHECK(rmp_win_unlock(0, win));                                                         \
        for (int k = 0; k < NI; k++) {                                                         \
            int val, idx;                                                                      \
            winner(k, max, &val, &idx);                                                        \
            EXPECT(res[k].v == (VT)val && res[k].i == idx,                                     \
                   #NAME " %s element %d: (%g, %d), expected (%d, %d)",                        \
                   max ? "maxloc" : "minloc", k, (double)res[k].v, res[k].i, val, idx);        \
        }                                                                                      \
        MUST(rmp_barrier(RMP_COMM_WORLD));                                                     \
        /* REPLACE pairs by fetch_and_op from every rank on one element: each old value is a  \
         * whole pair some rank wrote (value == index), never half of two */                   \
        one.v = (VT)me, one.i = me;                                                            \
        CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, win));                                       \
        for (int rep = 0; rep < 20; rep++) {                                                   \
            CHECK(rmp_fetch_and_op(&one, &old, DT, 0, 0, RMP_REPLACE, win));                   \
            CHECK(rmp_win_flush(0, win));                                                      \
            EXPECT((rep == 0 && old.i == idx0(max)) || old.v == (VT)old.i,                     \
                   #NAME " replace: a torn pair (%g, %d)", (double)old.v, old.i);             \
        }                                                                                      \
        CHECK(rmp_win_unlock(0, win));                                                         \
        MUST(rmp_barrier(RMP_COMM_WORLD));                                                     \
        if (me == 0) {                                                                         \
            CHECK(rmp_win_sync(win));                                                          \
            EXPECT(mem[0].v == (VT)mem[0].i && mem[0].i >= 0 && mem[0].i < n,                  \
                   #NAME " replace: ends (%g, %d)", (double)mem[0].v, mem[0].i);               \
        }                                                                                      \
        CHECK(rmp_win_free(&win));                                                             \
    }

PAIR_TEST(short_int, short, RMP_SHORT_INT)
PAIR_TEST(double_int, double, RMP_DOUBLE_INT)
PAIR_TEST(two_int, int, RMP_2INT)

/* ---- shared0 ---- */

static void t_shared0(void)
{
    int32_t *mine;
    rmp_win_t win;
    rmp_comm_t node; /* allocate_shared needs ranks that share memory */
    int ln, lme;
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, 0, &node));
    rmp_comm_rank(node, &lme);
    rmp_comm_size(node, &ln);
    ptrdiff_t sz = lme % 2 ? 0 : 16;
    MUST(rmp_win_allocate_shared(sz, 4, node, (void **)&mine, &win));
    for (int r = 0; r < ln; r++) {
        ptrdiff_t s = -1;
        int du = 0;
        void *b = NULL;
        CHECK(rmp_win_shared_query(win, r, &s, &du, &b));
        EXPECT(s == (r % 2 ? 0 : 16) && du == 4, "shared0 %d: size %td unit %d", r, s, du);
        EXPECT((r % 2 == 0) == (b != NULL), "shared0 %d: base %p for size %td", r, b, s);
    }
    CHECK(rmp_win_free(&win));
    CHECK(rmp_comm_free(&node));
}

/* ---- dynamic ---- */

static void t_dynamic(void)
{
    enum { NR = 300, RB = 64, NS = 3, SB = 4096 };
    rmp_win_t win;
    MUST(rmp_win_create_dynamic(RMP_COMM_WORLD, &win));
    char **reg = calloc(NR, sizeof(char *));
    ptrdiff_t *addr = calloc(NR, sizeof(ptrdiff_t)), *theirs = calloc(NR, sizeof(ptrdiff_t));
    for (int i = 0; i < NR; i++) {
        reg[i] = calloc(1, RB);
        MUST(rmp_win_attach(win, reg[i], RB));
        MUST(rmp_get_address(reg[i], &addr[i]));
    }
    /* one buffer attached as NS adjacent regions */
    int64_t *span = aligned_alloc(64, NS * SB);
    memset(span, 0, NS * SB);
    for (int s = 0; s < NS; s++)
        MUST(rmp_win_attach(win, (char *)span + s * SB, SB));
    ptrdiff_t sa, tsa;
    MUST(rmp_get_address(span, &sa));
    int t = (me + 1) % n, from = (me + n - 1) % n;
    MUST(rmp_sendrecv(addr, NR, RMP_INT64, from, 1, theirs, NR, RMP_INT64, t, 1,
                      RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    MUST(rmp_sendrecv(&sa, 1, RMP_INT64, from, 2, &tsa, 1, RMP_INT64, t, 2, RMP_COMM_WORLD,
                      RMP_STATUS_IGNORE));
    enum { NE = NS * SB / 8 };
    int64_t *v = malloc(NS * SB), *back = malloc(NS * SB), *old = malloc(NS * SB);
    for (int i = 0; i < NE; i++)
        v[i] = (int64_t)me * 1000000 + i;
    CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, t, 0, win));
    for (int i = 0; i < NR; i++) {
        int32_t x = me * 1000 + i;
        CHECK(rmp_put(&x, 1, RMP_INT32, t, theirs[i] + 8, 1, RMP_INT32, win));
    }
    CHECK(rmp_put(v, NE, RMP_INT64, t, tsa, NE, RMP_INT64, win));
    CHECK(rmp_win_flush(t, win));
    CHECK(rmp_get(back, NE, RMP_INT64, t, tsa, NE, RMP_INT64, win));
    CHECK(rmp_win_flush(t, win));
    CHECK(rmp_accumulate(v, NE, RMP_INT64, t, tsa, NE, RMP_INT64, RMP_SUM, win));
    CHECK(rmp_get_accumulate(v, NE, RMP_INT64, old, NE, RMP_INT64, t, tsa, NE, RMP_INT64,
                             RMP_SUM, win));
    CHECK(rmp_win_unlock(t, win));
    int bad = 0;
    for (int i = 0; i < NE && bad < 3; i++)
        if (back[i] != v[i] || old[i] != 2 * v[i]) {
            FAIL("dynamic span: element %d got %lld then %lld, expected %lld and %lld", i,
                 (long long)back[i], (long long)old[i], (long long)v[i], (long long)(2 * v[i]));
            bad++;
        }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_sync(win));
    for (int i = 0; i < NR && bad < 6; i++) {
        int32_t x;
        memcpy(&x, reg[i] + 8, 4);
        if (x != from * 1000 + i) {
            FAIL("dynamic: region %d holds %d, expected %d", i, x, from * 1000 + i);
            bad++;
        }
    }
    for (int i = 0; i < NE && bad < 9; i++)
        if (span[i] != 3 * ((int64_t)from * 1000000 + i)) {
            FAIL("dynamic span: my element %d is %lld", i, (long long)span[i]);
            bad++;
        }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    for (int i = 0; i < NR; i++) {
        CHECK(rmp_win_detach(win, reg[i]));
        free(reg[i]);
    }
    for (int s = 0; s < NS; s++)
        CHECK(rmp_win_detach(win, (char *)span + s * SB));
    CHECK(rmp_win_free(&win));
    free(span), free(v), free(back), free(old), free(reg), free(addr), free(theirs);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    prog_rank = me;
    const char *only = argc > 1 ? argv[1] : "";
    if (!*only || strstr(only, "zero")) {
        phase("rma_cases zero", 60);
        t_zero();
    }
    if (!*only || strstr(only, "pairs")) {
        phase("rma_cases pairs", 60);
        /* active messages carry whole elements per piece: a pair whose value and index lie
         * apart in memory (short_int, double_int) is not supported there yet (RMP_ERR_TYPE) */
        const char *path = getenv("RMP_RMA_PATH");
        bool am = path && !strcmp(path, "am");
        for (int max = 0; max < 2; max++) {
            if (!am) {
                t_pair_short_int(max);
                t_pair_double_int(max);
            }
            t_pair_two_int(max);
        }
    }
    if (!*only || strstr(only, "shared0")) {
        phase("rma_cases shared0", 60);
        t_shared0();
    }
    if (!*only || strstr(only, "dynamic")) {
        phase("rma_cases dynamic", 60);
        t_dynamic();
    }
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_cases: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
