/* rma_am_big.c — what active messages must do beyond rma_ops' small blocks (run it under
 * RMP_RMA_PATH=am; it passes on any path):
 *   big      puts, gets and accumulates of BIG ints, several times what one packet carries,
 *            through a strided target type (every other int): split into pieces that land in
 *            order, untouched ints between them stay as they were
 *   acc      every rank accumulates SUM into rank 0's BIG counters at once, and
 *            get_accumulate reads them back in the same epoch: they end exact
 *   mutex    every rank, NLOCK times, locks rank 0 exclusively, reads a counter, adds one,
 *            writes it back, unlocks: the lock excludes, nobody is starved (the counter ends at
 *            n * NLOCK)
 * Prints "rma_am_big: OK". */
#include "progs.h"

enum { BIG = 200000, NLOCK = 30 };

static int n, me;

static void big(rmp_win_t win, int32_t *mem, rmp_datatype_t every2)
{
    int right = (me + 1) % n, left = (me + n - 1) % n;
    int32_t *src = malloc(sizeof(int32_t) * BIG), *back = malloc(sizeof(int32_t) * BIG);
    if (!src || !back)
        FAIL("out of memory");
    for (int i = 0; i < BIG; i++)
        src[i] = me * 1000003 + i;
    for (int i = 0; i < 2 * BIG; i++)
        mem[i] = -1;
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_lock_all(0, win));
    CHECK(rmp_put(src, BIG, RMP_INT32, right, 0, 1, every2, win));
    CHECK(rmp_win_flush(right, win));
    MUST(rmp_barrier(RMP_COMM_WORLD)); /* every put landed */
    for (int i = 0; i < BIG; i++) {
        if (mem[2 * i] != left * 1000003 + i || mem[2 * i + 1] != -1) {
            FAIL("put from %d: int %d is %d, between it %d", left, i, mem[2 * i],
                 mem[2 * i + 1]);
            break;
        }
    }
    CHECK(rmp_get(back, BIG, RMP_INT32, right, 0, 1, every2, win));
    CHECK(rmp_win_flush(right, win));
    if (memcmp(back, src, sizeof(int32_t) * BIG))
        FAIL("get from %d differs from what was put there", right);
    CHECK(rmp_win_unlock_all(win));
    free(src);
    free(back);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

static void acc(rmp_win_t win, int32_t *mem)
{
    int32_t *one = malloc(sizeof(int32_t) * BIG), *seen = malloc(sizeof(int32_t) * BIG);
    if (!one || !seen)
        FAIL("out of memory");
    for (int i = 0; i < BIG; i++)
        one[i] = i % 7 + 1;
    for (int i = 0; i < 2 * BIG; i++)
        mem[i] = 0;
    MUST(rmp_barrier(RMP_COMM_WORLD));
    CHECK(rmp_win_lock(RMP_LOCK_SHARED, 0, 0, win));
    CHECK(rmp_accumulate(one, BIG, RMP_INT32, 0, 0, BIG, RMP_INT32, RMP_SUM, win));
    CHECK(rmp_get_accumulate(NULL, 0, RMP_INT32, seen, BIG, RMP_INT32, 0, 0, BIG, RMP_INT32,
                             RMP_NO_OP, win));
    CHECK(rmp_win_unlock(0, win));
    for (int i = 0; i < BIG; i++)
        if (seen[i] < one[i] || seen[i] > n * one[i] || seen[i] % one[i]) {
            FAIL("get_accumulate after my add saw %d at %d", seen[i], i);
            break;
        }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (me == 0)
        for (int i = 0; i < BIG; i++)
            if (mem[i] != n * one[i]) {
                FAIL("counter %d is %d, not %d", i, mem[i], n * one[i]);
                break;
            }
    free(one);
    free(seen);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

static void mutex(rmp_win_t win, int32_t *mem)
{
    mem[0] = 0;
    MUST(rmp_barrier(RMP_COMM_WORLD));
    for (int k = 0; k < NLOCK; k++) {
        int32_t v = -1;
        CHECK(rmp_win_lock(RMP_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(rmp_get(&v, 1, RMP_INT32, 0, 0, 1, RMP_INT32, win));
        CHECK(rmp_win_flush(0, win));
        v++;
        CHECK(rmp_put(&v, 1, RMP_INT32, 0, 0, 1, RMP_INT32, win));
        CHECK(rmp_win_unlock(0, win));
    }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (me == 0 && mem[0] != n * NLOCK)
        FAIL("counter under the exclusive lock is %d, not %d: an update was lost", mem[0],
             n * NLOCK);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &n);
    prog_rank = me;
    rmp_datatype_t every2;
    MUST(rmp_type_vector(BIG, 1, 2, RMP_INT32, &every2));
    MUST(rmp_type_commit(&every2));
    void *base;
    rmp_win_t win;
    phase("rma_am_big: allocate", 60);
    MUST(rmp_win_allocate(sizeof(int32_t) * 2 * BIG, sizeof(int32_t), RMP_COMM_WORLD, &base,
                          &win));
    int32_t *mem = base;
    phase("rma_am_big: big", 120);
    big(win, mem, every2);
    phase("rma_am_big: acc", 120);
    acc(win, mem);
    phase("rma_am_big: mutex", 120);
    mutex(win, mem);
    phase("rma_am_big: free", 60);
    MUST(rmp_win_free(&win));
    CHECK(rmp_type_free(&every2));
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_am_big: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
