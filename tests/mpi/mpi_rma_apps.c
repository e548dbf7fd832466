/* mpi_rma_apps.c — what programs build with MPI's one-sided calls, through mpi.h, each checked
 * exactly: a distributed counter (MPI_Fetch_and_op: every value handed out once), a spin lock
 * made of MPI_Compare_and_swap guarding a read-modify-write done with Get and Put, a linked
 * list that every rank appends to on a dynamic window (nodes attached as they are made, the
 * tail found with Fetch_and_op/Compare_and_swap on addresses), a 1-D halo exchange with
 * Put + fence over several steps, and a shared-memory window whose neighbours' memory is
 * loaded and stored directly (MPI_Win_shared_query, MPI_Win_sync), and Win_shared_query on
 * the other flavors (MPI-4): a rank's memory where it is mapped here, else none.
 * "mpi_rma_apps: rank R OK". */
#include "mpicheck.h"

static int rank, size;

/* Rank 0 holds a counter; every rank takes ROUNDS tickets. */
static void counter(void)
{
    enum { ROUNDS = 50 };
    long *ctr;
    MPI_Win win;
    CHECK(MPI_Win_allocate(rank == 0 ? sizeof(long) : 0, sizeof(long), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &ctr, &win));
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        *ctr = 0;
        CHECK(MPI_Win_unlock(0, win));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    long got[ROUNDS], one = 1;
    CHECK(MPI_Win_lock_all(0, win));
    for (int i = 0; i < ROUNDS; i++) {
        CHECK(MPI_Fetch_and_op(&one, &got[i], MPI_LONG, 0, 0, MPI_SUM, win));
        CHECK(MPI_Win_flush(0, win));
    }
    CHECK(MPI_Win_unlock_all(win));
    for (int i = 1; i < ROUNDS; i++)
        if (got[i] <= got[i - 1])
            FAIL("counter: ticket %d is %ld after %ld", i, got[i], got[i - 1]);
    long *all = rank == 0 ? malloc(sizeof(long) * ROUNDS * size) : NULL;
    CHECK(MPI_Gather(got, ROUNDS, MPI_LONG, all, ROUNDS, MPI_LONG, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        char *seen = calloc(ROUNDS * size, 1);
        for (int i = 0; i < ROUNDS * size; i++) {
            if (all[i] < 0 || all[i] >= ROUNDS * size || seen[all[i]]++)
                FAIL("counter: ticket %ld handed out twice or out of range", all[i]);
        }
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        EXPECT_INT(*ctr, ROUNDS * size);
        CHECK(MPI_Win_unlock(0, win));
        free(seen);
        free(all);
    }
    CHECK(MPI_Win_free(&win));
}

/* A CAS spin lock at rank 0's int 0 guards the non-atomic update of int 1 (Get, add, Put). */
static void cas_lock(void)
{
    enum { ROUNDS = 20 };
    int *mem;
    MPI_Win win;
    CHECK(MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem,
                           &win));
    CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
    mem[0] = mem[1] = 0;
    CHECK(MPI_Win_unlock(rank, win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Win_lock_all(0, win));
    int me = rank + 1, free_ = 0, old, v;
    for (int i = 0; i < ROUNDS; i++) {
        for (int spins = 0;; spins++) {
            CHECK(MPI_Compare_and_swap(&me, &free_, &old, MPI_INT, 0, 0, win));
            CHECK(MPI_Win_flush(0, win));
            if (old == 0)
                break;
            if (old < 1 || old > size) {
                FAIL("cas lock: holder %d", old);
                break;
            }
        }
        CHECK(MPI_Get(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
        CHECK(MPI_Win_flush(0, win));
        v++;
        CHECK(MPI_Put(&v, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
        CHECK(MPI_Win_flush(0, win));
        CHECK(MPI_Compare_and_swap(&free_, &me, &old, MPI_INT, 0, 0, win));
        CHECK(MPI_Win_flush(0, win));
        if (old != me)
            FAIL("cas lock: released a lock held by %d", old);
    }
    CHECK(MPI_Win_unlock_all(win));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        CHECK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        EXPECT_INT(mem[0], 0);
        EXPECT_INT(mem[1], ROUNDS * size);
        CHECK(MPI_Win_unlock(0, win));
    }
    CHECK(MPI_Win_free(&win));
}

/* A singly linked list on a dynamic window: a node is {value, next rank, next address}; the
 * head is a fixed node at rank 0 and the tail pointer {rank, address} lives at rank 0 too,
 * swapped (Get then Put) under rank 0's exclusive lock; the appender then links the old tail
 * to its node with a Put of {rank, address}. Every rank appends NODES nodes, each attached
 * first; rank 0 then walks the list and checks each rank's nodes come in their order. */
typedef struct node {
    long value;
    long next_rank; /* -1: none */
    MPI_Aint next_addr;
} node_t;

static void linked_list(void)
{
    enum { NODES = 8 };
    MPI_Win win;
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    node_t *mine = malloc(sizeof(node_t) * NODES);
    node_t *head = malloc(sizeof(node_t));
    long *tail = malloc(2 * sizeof(long)); /* rank 0: {rank, address} of the last node */
    CHECK(MPI_Win_attach(win, head, sizeof(node_t)));
    CHECK(MPI_Win_attach(win, tail, 2 * sizeof(long)));
    MPI_Aint head_addr, tail_addr;
    CHECK(MPI_Get_address(head, &head_addr));
    CHECK(MPI_Get_address(tail, &tail_addr));
    *head = (node_t){-1, -1, 0};
    tail[0] = 0;
    tail[1] = (long)head_addr;
    /* Everyone needs rank 0's head and tail addresses. */
    CHECK(MPI_Bcast(&head_addr, 1, MPI_AINT, 0, MPI_COMM_WORLD));
    CHECK(MPI_Bcast(&tail_addr, 1, MPI_AINT, 0, MPI_COMM_WORLD));
    for (int i = 0; i < NODES; i++) {
        mine[i] = (node_t){rank * 1000 + i, -1, 0};
        CHECK(MPI_Win_attach(win, &mine[i], sizeof(node_t)));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NODES; i++) {
        MPI_Aint me_addr;
        CHECK(MPI_Get_address(&mine[i], &me_addr));
        long newtail[2] = {rank, (long)me_addr}, old[2];
        /* Swap the tail under rank 0's exclusive lock, then link the old tail to me. */
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        CHECK(MPI_Get(old, 2, MPI_LONG, 0, tail_addr, 2, MPI_LONG, win));
        CHECK(MPI_Win_flush(0, win));
        CHECK(MPI_Put(newtail, 2, MPI_LONG, 0, tail_addr, 2, MPI_LONG, win));
        CHECK(MPI_Win_unlock(0, win));
        long link[2] = {rank, (long)me_addr};
        MPI_Aint at = (MPI_Aint)old[1] + (MPI_Aint)offsetof(node_t, next_rank);
        CHECK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, (int)old[0], 0, win));
        CHECK(MPI_Put(link, 2, MPI_LONG, (int)old[0], at, 2, MPI_LONG, win));
        CHECK(MPI_Win_unlock((int)old[0], win));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
        int *count = calloc(size, sizeof(int)), total = 0;
        node_t cur;
        long r = 0;
        MPI_Aint a = head_addr;
        CHECK(MPI_Win_lock_all(0, win));
        for (;;) {
            CHECK(MPI_Get(&cur, sizeof cur, MPI_BYTE, (int)r, a, sizeof cur, MPI_BYTE, win));
            CHECK(MPI_Win_flush((int)r, win));
            if (cur.value >= 0) {
                int owner = (int)(cur.value / 1000), idx = (int)(cur.value % 1000);
                if (owner < 0 || owner >= size || idx != count[owner]) {
                    FAIL("linked list: node %ld out of order (rank %d has %d so far)",
                         cur.value, owner, owner >= 0 && owner < size ? count[owner] : -1);
                    break;
                }
                count[owner]++;
                total++;
            }
            if (cur.next_rank < 0 || total > NODES * size)
                break;
            r = cur.next_rank;
            a = cur.next_addr;
        }
        CHECK(MPI_Win_unlock_all(win));
        EXPECT_INT(total, NODES * size);
        free(count);
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    for (int i = 0; i < NODES; i++)
        CHECK(MPI_Win_detach(win, &mine[i]));
    CHECK(MPI_Win_detach(win, head));
    CHECK(MPI_Win_detach(win, tail));
    CHECK(MPI_Win_free(&win));
    free(mine);
    free(head);
    free(tail);
}

/* A ring of cells, each rank owning W of them plus a halo cell at both ends: every step puts
 * my edge cells into my neighbours' halos, then averages; checked against a serial run. */
static void halo(void)
{
    enum { W = 6, STEPS = 10 };
    double *u;
    MPI_Win win;
    CHECK(MPI_Win_allocate((W + 2) * sizeof(double), sizeof(double), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &u, &win));
    int left = (rank + size - 1) % size, right = (rank + 1) % size, n = W * size;
    for (int i = 0; i < W; i++)
        u[1 + i] = (rank * W + i) % 7;
    double *ref = malloc(n * sizeof(double)), *nref = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        ref[i] = i % 7;
    CHECK(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    for (int s = 0; s < STEPS; s++) {
        CHECK(MPI_Put(&u[1], 1, MPI_DOUBLE, left, W + 1, 1, MPI_DOUBLE, win));
        CHECK(MPI_Put(&u[W], 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win));
        CHECK(MPI_Win_fence(0, win));
        double nu[W];
        for (int i = 0; i < W; i++)
            nu[i] = (u[i] + u[i + 1] + u[i + 2]) / 3.0;
        for (int i = 0; i < W; i++)
            u[1 + i] = nu[i];
        CHECK(MPI_Win_fence(0, win)); /* my stores before the next step's puts */
        for (int i = 0; i < n; i++)
            nref[i] = (ref[(i + n - 1) % n] + ref[i] + ref[(i + 1) % n]) / 3.0;
        memcpy(ref, nref, n * sizeof(double));
    }
    CHECK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < W; i++)
        if (u[1 + i] != ref[rank * W + i]) {
            FAIL("halo: cell %d = %.17g, expected %.17g", rank * W + i, u[1 + i],
                 ref[rank * W + i]);
            break;
        }
    free(ref);
    free(nref);
    CHECK(MPI_Win_free(&win));
}

/* Shared memory: each rank writes its part with stores, then reads its right neighbour's
 * part through the pointer MPI_Win_shared_query gives (the parts are contiguous in rank
 * order), with MPI_Win_sync + barrier between, in a lock_all epoch (MPI's unified pattern). */
static void shared(void)
{
    enum { K = 5 };
    MPI_Comm node;
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int nr, ns;
    MPI_Comm_rank(node, &nr);
    MPI_Comm_size(node, &ns);
    int *mine;
    MPI_Win win;
    /* Rank 1 of the node gives nothing, to check the queries around an empty part. */
    MPI_Aint sz = nr == 1 ? 0 : K * sizeof(int);
    CHECK(MPI_Win_allocate_shared(sz, sizeof(int), MPI_INFO_NULL, node, &mine, &win));
    int *flavor, flag;
    CHECK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
    if (!flag || *flavor != MPI_WIN_FLAVOR_SHARED)
        FAIL("shared: MPI_WIN_CREATE_FLAVOR %d (flag %d)", flag ? *flavor : -1, flag);
    CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    for (int i = 0; nr != 1 && i < K; i++)
        mine[i] = nr * 100 + i;
    CHECK(MPI_Win_sync(win));
    CHECK(MPI_Barrier(node));
    CHECK(MPI_Win_sync(win));
    for (int r = 0; r < ns; r++) {
        MPI_Aint qs = -1;
        int du = -1;
        int *p = NULL;
        CHECK(MPI_Win_shared_query(win, r, &qs, &du, &p));
        EXPECT_INT(qs, r == 1 ? 0 : K * (int)sizeof(int));
        EXPECT_INT(du, sizeof(int));
        for (int i = 0; r != 1 && p && i < K; i++)
            if (p[i] != r * 100 + i) {
                FAIL("shared: rank %d's [%d] = %d, expected %d", r, i, p[i], r * 100 + i);
                break;
            }
        if (r == 0 && p != NULL && ns > 1 && nr == 0 && p != mine)
            FAIL("shared: rank 0's query gives %p, its own base is %p", (void *)p,
                 (void *)mine);
    }
    /* MPI_PROC_NULL: the first part with memory, rank 0's. */
    MPI_Aint qs;
    int du, *p0 = NULL, *pn = NULL;
    CHECK(MPI_Win_shared_query(win, 0, &qs, &du, &p0));
    CHECK(MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &du, &pn));
    if (p0 != pn)
        FAIL("shared: MPI_PROC_NULL query gives %p, rank 0's is %p", (void *)pn, (void *)p0);
    if (ns > 2) { /* contiguous: rank 2's part follows rank 0's (rank 1's is empty) */
        int *p2 = NULL;
        CHECK(MPI_Win_shared_query(win, 2, &qs, &du, &p2));
        if (p2 != p0 + K)
            FAIL("shared: rank 2's part at %p, expected %p", (void *)p2, (void *)(p0 + K));
    }
    /* A store into my right neighbour's part, seen by it after sync + barrier. */
    int right = (nr + 1) % ns, *pr = NULL;
    CHECK(MPI_Win_shared_query(win, right, &qs, &du, &pr));
    CHECK(MPI_Barrier(node));
    if (right != 1)
        pr[K - 1] = -nr;
    CHECK(MPI_Win_sync(win));
    CHECK(MPI_Barrier(node));
    CHECK(MPI_Win_sync(win));
    if (nr != 1)
        EXPECT_INT(mine[K - 1], ns == 1 ? 0 : -((nr + ns - 1) % ns));
    CHECK(MPI_Win_unlock_all(win));
    CHECK(MPI_Win_free(&win));
    CHECK(MPI_Comm_free(&node));
}

/* MPI-4: Win_shared_query on every flavor. My own part is always mine (base, size, disp
 * unit); another rank's is its memory where this process maps it (an allocate window on one
 * node may) and otherwise 0 bytes at NULL (a create window's peers, a dynamic window). A part
 * that is mapped holds exactly what its rank stored. */
static void query_flavor(MPI_Win win, const char *what, const int *mine, MPI_Aint bytes,
                         int mapped_peers)
{
    for (int r = 0; r < size; r++) {
        MPI_Aint qs = -1;
        int du = -1, *p = (int *)&qs;
        CHECK(MPI_Win_shared_query(win, r, &qs, &du, &p));
        if (r == rank && (qs != bytes || p != (bytes ? mine : NULL) || du != sizeof(int)))
            FAIL("%s: my own query gives %ld bytes at %p (unit %d), expected %ld at %p", what,
                 (long)qs, (void *)p, du, (long)bytes, (void *)mine);
        if (r != rank && (qs ? qs != bytes || !p : p != NULL))
            FAIL("%s: rank %d's query gives %ld bytes at %p", what, r, (long)qs, (void *)p);
        if (r != rank && qs && !mapped_peers)
            FAIL("%s: rank %d's memory is not mapped here, yet %ld bytes", what, r, (long)qs);
        for (int i = 0; r != rank && p && i < 4; i++)
            if (p[i] != r * 10 + i) {
                FAIL("%s: rank %d's [%d] = %d, expected %d", what, r, i, p[i], r * 10 + i);
                break;
            }
    }
}

static void query_every_flavor(void)
{
    int cbuf[4], *abuf;
    MPI_Win cw, aw, dw;
    for (int i = 0; i < 4; i++)
        cbuf[i] = rank * 10 + i;
    CHECK(MPI_Win_create(cbuf, sizeof cbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cw));
    CHECK(MPI_Win_allocate(sizeof cbuf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &abuf, &aw));
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dw));
    CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, aw));
    memcpy(abuf, cbuf, sizeof cbuf);
    CHECK(MPI_Win_sync(aw));
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    CHECK(MPI_Win_sync(aw));
    query_flavor(cw, "create", cbuf, sizeof cbuf, 0);
    query_flavor(aw, "allocate", abuf, sizeof cbuf, 1);
    CHECK(MPI_Win_unlock_all(aw));
    for (int r = 0; r < size; r++) {
        MPI_Aint qs = -1;
        int du = -1;
        void *p = &qs;
        CHECK(MPI_Win_shared_query(dw, r == 0 ? MPI_PROC_NULL : r, &qs, &du, &p));
        if (qs != 0 || p != NULL)
            FAIL("dynamic: rank %d's query gives %ld bytes at %p", r, (long)qs, p);
    }
    CHECK(MPI_Win_free(&dw));
    CHECK(MPI_Win_free(&aw));
    CHECK(MPI_Win_free(&cw));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 80);
    rank = mc_rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counter();
    cas_lock();
    linked_list();
    halo();
    shared();
    query_every_flavor();
    MPI_Finalize();
    return mc_done("mpi_rma_apps");
}
