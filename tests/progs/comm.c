/* comm.c — communicators: rmp_comm_dup (same group, its own matching context: its messages
 * never match receives on the parent, even with wildcards), rmp_comm_split (even/odd, reversed
 * key, equal keys ordered by old rank, RMP_UNDEFINED -> RMP_COMM_NULL), point-to-point and
 * collectives inside the new communicators, nested dup/split, rmp_comm_free (with a receive
 * posted, with a message never received) and reuse of freed slots. Rank 0 prints "comm: OK n=N". */
#include "progs.h"

static int rank, n;

/* A ring exchange and an allreduce inside c; `world_of` maps c's ranks to world ranks. */
static void exercise(rmp_comm_t c, const int *world_of, const char *what)
{
    int r, size;
    CHECK(rmp_comm_rank(c, &r));
    CHECK(rmp_comm_size(c, &size));
    int right = (r + 1) % size, left = (r + size - 1) % size, got = -1;
    rmp_status_t st;
    CHECK(rmp_sendrecv(&rank, 1, RMP_INT, right, 5, &got, 1, RMP_INT, left, 5, c, &st));
    EXPECT(got == world_of[left] && st.source == left,
           "%s: ring from comm rank %d brought world rank %d (source %d), expected %d", what,
           left, got, st.source, world_of[left]);
    long mine = rank, sum = -1, want = 0;
    for (int i = 0; i < size; i++)
        want += world_of[i];
    CHECK(rmp_allreduce(&mine, &sum, 1, RMP_INT64, RMP_SUM, c));
    EXPECT(sum == want, "%s: allreduce of world ranks %ld, expected %ld", what, sum, want);
    int root_val = r == size - 1 ? 4242 : -1;
    CHECK(rmp_bcast(&root_val, 1, RMP_INT, size - 1, c));
    EXPECT(root_val == 4242, "%s: bcast from the last rank gave %d", what, root_val);
}

static void dup_isolation(void)
{
    rmp_comm_t d;
    int r = -1, size = -1;
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &d));
    CHECK(rmp_comm_rank(d, &r));
    CHECK(rmp_comm_size(d, &size));
    EXPECT(r == rank && size == n, "dup: rank %d size %d, expected %d %d", r, size, rank, n);
    EXPECT(d != RMP_COMM_WORLD && d != RMP_COMM_SELF && d != RMP_COMM_NULL,
           "dup returned the handle %d", d);

    /* Send on the dup first, then on the world, same tag: a wildcard receive on the world
     * must skip the earlier dup message. */
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    int on_dup = 1000 + rank, on_world = 2000 + rank, got = -1, flag = 1;
    rmp_request_t reqs[2];
    rmp_status_t st;
    CHECK(rmp_isend(&on_dup, 1, RMP_INT, right, 9, d, &reqs[0]));
    CHECK(rmp_isend(&on_world, 1, RMP_INT, right, 9, RMP_COMM_WORLD, &reqs[1]));
    CHECK(rmp_recv(&got, 1, RMP_INT, RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &st));
    EXPECT(got == 2000 + left, "wildcard receive on the world got %d, expected %d (a message "
           "of the dup matched the world?)", got, 2000 + left);
    CHECK(rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, RMP_COMM_WORLD, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag == 0, "iprobe on the world sees the dup's message");
    CHECK(rmp_recv(&got, 1, RMP_INT, left, 9, d, &st));
    EXPECT(got == 1000 + left, "receive on the dup got %d, expected %d", got, 1000 + left);
    CHECK(rmp_waitall(2, reqs, RMP_STATUSES_IGNORE));

    int *ident = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        ident[i] = i;
    exercise(d, ident, "dup of the world");
    rmp_comm_t dd; /* a dup of the dup */
    CHECK(rmp_comm_dup(d, &dd));
    exercise(dd, ident, "dup of a dup");
    CHECK(rmp_comm_free(&dd));
    CHECK(rmp_comm_free(&d));
    EXPECT(d == RMP_COMM_NULL, "comm_free left the handle at %d", d);
    free(ident);
}

/* Split by `color` with `key`; checks the new rank and size against a local computation. */
static void split_case(int color, int key, int (*color_of)(int), int (*key_of)(int),
                       const char *what)
{
    rmp_comm_t c;
    CHECK(rmp_comm_split(RMP_COMM_WORLD, color, key, &c));
    if (color == RMP_UNDEFINED) {
        EXPECT(c == RMP_COMM_NULL, "%s: RMP_UNDEFINED gave handle %d", what, c);
        return;
    }
    /* members of my color ordered by (key, world rank) */
    int *members = malloc(sizeof(int) * (size_t)n), m = 0, me = -1;
    for (int k = 0; k < n; k++) {
        if (color_of(k) != color)
            continue;
        int pos = m++;
        while (pos > 0 && (key_of(members[pos - 1]) > key_of(k)))
            members[pos] = members[pos - 1], pos--;
        members[pos] = k;
    }
    for (int i = 0; i < m; i++)
        if (members[i] == rank)
            me = i;
    int r = -1, size = -1;
    CHECK(rmp_comm_rank(c, &r));
    CHECK(rmp_comm_size(c, &size));
    EXPECT(r == me && size == m, "%s: rank %d size %d, expected %d %d", what, r, size, me, m);
    if (r == me && size == m)
        exercise(c, members, what);
    CHECK(rmp_comm_free(&c));
    free(members);
}

static int parity(int r) { return r % 2; }
static int same(int r) { (void)r; return 0; }
static int ident(int r) { return r; }
static int reversed(int r) { return -r; }
static int not_zero(int r) { return r == 0 ? RMP_UNDEFINED : 1; }
static int thirds(int r) { return r / 3; }

static void splits(void)
{
    split_case(parity(rank), rank, parity, ident, "split even/odd");
    split_case(parity(rank), -rank, parity, reversed, "split even/odd, reversed key");
    split_case(0, 0, same, same, "split with equal keys");
    split_case(not_zero(rank), rank, not_zero, ident, "split with rank 0 RMP_UNDEFINED");
    split_case(thirds(rank), -rank, thirds, reversed, "split in groups of 3");

    /* split of a split, and a dup of a split */
    rmp_comm_t half, quarter, hd;
    CHECK(rmp_comm_split(RMP_COMM_WORLD, rank % 2, rank, &half));
    CHECK(rmp_comm_split(half, (rank / 2) % 2, 0, &quarter));
    CHECK(rmp_comm_dup(half, &hd));
    int qs = -1, want = 0;
    for (int k = 0; k < n; k++)
        want += k % 2 == rank % 2 && (k / 2) % 2 == (rank / 2) % 2;
    CHECK(rmp_comm_size(quarter, &qs));
    EXPECT(qs == want, "split of a split: size %d, expected %d", qs, want);
    int hr = -1, hdr = -1;
    CHECK(rmp_comm_rank(half, &hr));
    CHECK(rmp_comm_rank(hd, &hdr));
    EXPECT(hr == rank / 2 && hdr == hr, "dup of a split: rank %d (split %d), expected %d", hdr,
           hr, rank / 2);
    CHECK(rmp_barrier(quarter));
    CHECK(rmp_comm_free(&quarter));
    CHECK(rmp_comm_free(&hd));
    CHECK(rmp_comm_free(&half));
}

/* MPI lets a program free a communicator with a receive still posted: the receive stays
 * pending, and no later communicator may take the freed one's context (the new one, made
 * right after, would otherwise get it, and its message would match the old receive: the
 * receive on the new communicator would then hang). Then a message nobody received on a
 * freed communicator: a later communicator must not find it. */
static void freed_with_traffic(void)
{
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    rmp_comm_t d, e;
    rmp_request_t rq = RMP_REQUEST_NULL;
    rmp_status_t st;
    int old = -1, fresh = -1, v = 3000 + rank, flag = 1;
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &d));
    CHECK(rmp_irecv(&old, 1, RMP_INT, left, 11, d, &rq));
    CHECK(rmp_comm_free(&d));
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &e));
    CHECK(rmp_send(&v, 1, RMP_INT, right, 11, e));
    CHECK(rmp_recv(&fresh, 1, RMP_INT, left, 11, e, &st));
    EXPECT(fresh == 3000 + left, "receive on a new communicator got %d, expected %d", fresh,
           3000 + left);
    CHECK(rmp_test(&rq, &flag, &st));
    EXPECT(!flag, "the receive posted on a freed communicator completed (old = %d): it took "
           "a message of a later one", old);
    CHECK(rmp_cancel(&rq));
    CHECK(rmp_wait(&rq, &st));
    EXPECT(st.cancelled == 1, "the receive of a freed communicator was not cancelled");
    CHECK(rmp_comm_free(&e));

    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &d));
    CHECK(rmp_send(&v, 1, RMP_INT, right, 12, d));
    flag = 0;
    for (long spins = 0; !flag && spins < 100000000; spins++) /* it has arrived */
        CHECK(rmp_iprobe(left, 12, d, &flag, RMP_STATUS_IGNORE));
    EXPECT(flag, "the message on the dup never arrived");
    CHECK(rmp_comm_free(&d));
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &e));
    flag = 1;
    CHECK(rmp_iprobe(RMP_ANY_SOURCE, RMP_ANY_TAG, e, &flag, RMP_STATUS_IGNORE));
    EXPECT(!flag, "a new communicator sees a message sent on a freed one");
    CHECK(rmp_barrier(e));
    CHECK(rmp_comm_free(&e));

    /* Persistent requests outlive their communicator's free: they keep working on it, and a
     * new communicator (which may take the freed one's slot) does not take their starts. */
    rmp_request_t pr[2];
    int ps = 4000 + rank, pgot = -1, egot = -1, ev = 5000 + rank;
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &d));
    CHECK(rmp_send_init(&ps, 1, RMP_INT, right, 13, d, &pr[0]));
    CHECK(rmp_recv_init(&pgot, 1, RMP_INT, left, 13, d, &pr[1]));
    CHECK(rmp_comm_free(&d));
    CHECK(rmp_comm_dup(RMP_COMM_WORLD, &e));
    for (int round = 0; round < 3; round++) {
        rmp_request_t er;
        pgot = egot = -1;
        /* the new communicator's receive first: on a shared context it would take the
         * persistent send's message, which is sent first */
        CHECK(rmp_irecv(&egot, 1, RMP_INT, left, 13, e, &er));
        CHECK(rmp_startall(2, pr));
        CHECK(rmp_send(&ev, 1, RMP_INT, right, 13, e));
        CHECK(rmp_wait(&er, RMP_STATUS_IGNORE));
        CHECK(rmp_waitall(2, pr, RMP_STATUSES_IGNORE));
        EXPECT(pgot == 4000 + left && egot == 5000 + left, "round %d: the persistent receive "
               "of a freed communicator got %d (expected %d), the new one's receive %d "
               "(expected %d)", round, pgot, 4000 + left, egot, 5000 + left);
    }
    CHECK(rmp_request_free(&pr[0]));
    CHECK(rmp_request_free(&pr[1]));
    CHECK(rmp_barrier(e));
    CHECK(rmp_comm_free(&e));
}

/* Freed communicators give their slots back: many more dup/free than the handle table. */
static void churn(void)
{
    for (int i = 0; i < 300; i++) {
        rmp_comm_t d;
        int rc = rmp_comm_dup(RMP_COMM_WORLD, &d);
        if (rc != RMP_SUCCESS) {
            FAIL("dup number %d failed: %s", i, rmp_strerror(rc));
            return;
        }
        if (i % 50 == 0)
            CHECK(rmp_barrier(d));
        CHECK(rmp_comm_free(&d));
    }
    /* and COMM_SELF works on its own */
    int x = rank, y = -1;
    CHECK(rmp_sendrecv(&x, 1, RMP_INT, 0, 1, &y, 1, RMP_INT, 0, 1, RMP_COMM_SELF,
                       RMP_STATUS_IGNORE));
    EXPECT(y == rank, "sendrecv on RMP_COMM_SELF: %d", y);
}

int main(int argc, char **argv)
{
    phase("rmp_init", 30);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    prog_rank = rank;
    phase("dup", 30);
    dup_isolation();
    phase("split", 30);
    splits();
    phase("freed with traffic", 30);
    freed_with_traffic();
    phase("dup/free churn", 60);
    churn();
    phase("failure count", 30);
    long mine = prog_failures, all = 0;
    CHECK(rmp_allreduce(&mine, &all, 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD));
    if (rank == 0 && all == 0)
        printf("comm: OK n=%d\n", n);
    phase("rmp_finalize", 30);
    CHECK(rmp_finalize());
    return prog_exit();
}
