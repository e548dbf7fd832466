/* rma_cases.c — one-sided cases found by MPICH's RMA suite, each checked exactly:
 *   zero      count 0 and a zero-size type (contiguous(0, int), any count) with every
 *             operation: success, and not one byte of the target changes
 *   shared0   allocate_shared where odd ranks give 0 bytes: shared_query says size 0 and a
 *             NULL base for them
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

/* ---- shared0 ---- */

static void t_shared0(void)
{
    int32_t *mine;
    rmp_win_t win;
    ptrdiff_t sz = me % 2 ? 0 : 16;
    MUST(rmp_win_allocate_shared(sz, 4, RMP_COMM_WORLD, (void **)&mine, &win));
    for (int r = 0; r < n; r++) {
        ptrdiff_t s = -1;
        int du = 0;
        void *b = NULL;
        CHECK(rmp_win_shared_query(win, r, &s, &du, &b));
        EXPECT(s == (r % 2 ? 0 : 16) && du == 4, "shared0 %d: size %td unit %d", r, s, du);
        EXPECT((r % 2 == 0) == (b != NULL), "shared0 %d: base %p for size %td", r, b, s);
    }
    CHECK(rmp_win_free(&win));
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
    if (!*only || strstr(only, "shared0")) {
        phase("rma_cases shared0", 60);
        t_shared0();
    }
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_cases: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
