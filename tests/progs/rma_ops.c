/* rma_ops.c — every one-sided operation under every synchronization mode on every window
 * flavor, all ranks at every rank, checked byte for byte:
 *   put       8 ints into the even elements of the origin's block at the target (a vector
 *             target type: noncontiguous), and in the same epoch an accumulate REPLACE into
 *             the odd ones (untouched elements between would show any stray byte)
 *   get       the same elements back through the vector type
 *   acc       every rank adds 1..8 three times to the target's 8 counters (int32: the
 *             accumulate lock) at once: they end exact, n * 3 * (i + 1)
 *   fop       every rank fetch_and_op SUM 1 five times on the target's int64 counter, and
 *             get_accumulate NO_OP reads it: ends at n * 5, every fetched value below that
 * Modes: fence, pscw, lock_excl, lock_shared, lock_all, flush (lock_all + flush per target),
 * req (lock_all + the request forms, each waited for). Flavors: create, allocate,
 * allocate_shared, dynamic (addresses from rmp_get_address). allocate_shared windows are made
 * on the ranks of my node (rmp_comm_split_type RMP_COMM_TYPE_SHARED: a job across nodes
 * refuses them on the world), the others on the world. Prints "rma_ops: OK". */
#include "progs.h"

enum { BLK = 16, NV = 8, NREP = 3, NFOP = 5 };
enum { F_CREATE, F_ALLOCATE, F_SHARED, F_DYNAMIC, NFLAVOR };
enum { M_FENCE, M_PSCW, M_EXCL, M_SHARED, M_LOCKALL, M_FLUSH, M_REQ, NMODE };
static const char *const fname[] = {"create", "allocate", "allocate_shared", "dynamic"};
static const char *const mname[] = {"fence", "pscw", "lock_excl", "lock_shared", "lock_all",
                                    "flush", "req"};

static int n, me; /* in the communicator of the window in use (comm) */
static int world_n, world_me;
static rmp_comm_t comm = RMP_COMM_WORLD;
static rmp_comm_t node; /* the ranks sharing memory with me: allocate_shared windows' comm */
static rmp_datatype_t vec; /* 8 ints, every other one */

typedef struct w {
    rmp_win_t win;
    int32_t *mem;
    int flavor, mode;
    ptrdiff_t *tbase; /* [n] window bases as addresses (dynamic windows' displacements) */
    void *own;
} W;

static int nelem(void)
{
    return n * BLK + NV + 4;
}
static int cidx(void)
{
    return n * BLK;
}
static int fidx(void) /* even: an 8-byte aligned int64 */
{
    return n * BLK + NV;
}

static int32_t P(int o, int t, int i)
{
    return o * 1000 + t * 100 + i + 1;
}
static int32_t Q(int o, int t, int i)
{
    return -(o * 1000 + t * 100 + i + 1);
}

static ptrdiff_t disp(const W *w, int t, int idx)
{
    return w->flavor == F_DYNAMIC ? w->tbase[t] + (ptrdiff_t)idx * 4 : idx;
}

static void init_mem(int32_t *m)
{
    for (int i = 0; i < nelem(); i++)
        m[i] = -7;
    for (int i = 0; i < NV; i++)
        m[cidx() + i] = 0;
    memset(&m[fidx()], 0, 8);
}

static void win_open(W *w, int flavor, int mode)
{
    size_t bytes = (size_t)nelem() * 4;
    void *p = NULL;
    memset(w, 0, sizeof(*w));
    comm = flavor == F_SHARED ? node : RMP_COMM_WORLD;
    rmp_comm_rank(comm, &me);
    rmp_comm_size(comm, &n);
    w->flavor = flavor;
    w->mode = mode;
    switch (flavor) {
    case F_CREATE:
        w->own = w->mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
        init_mem(w->mem);
        MUST(rmp_win_create(w->mem, (ptrdiff_t)bytes, 4, comm, &w->win));
        break;
    case F_ALLOCATE:
        MUST(rmp_win_allocate((ptrdiff_t)bytes, 4, comm, &p, &w->win));
        w->mem = p;
        init_mem(w->mem);
        break;
    case F_SHARED:
        MUST(rmp_win_allocate_shared((ptrdiff_t)bytes, 4, comm, &p, &w->win));
        w->mem = p;
        init_mem(w->mem);
        break;
    default:
        MUST(rmp_win_create_dynamic(comm, &w->win));
        w->own = w->mem = aligned_alloc(64, (bytes + 63) / 64 * 64);
        init_mem(w->mem);
        MUST(rmp_win_attach(w->win, w->mem, (ptrdiff_t)bytes));
    }
    w->tbase = calloc((size_t)n, sizeof(ptrdiff_t));
    ptrdiff_t a;
    MUST(rmp_get_address(w->mem, &a));
    MUST(rmp_allgather(&a, 1, RMP_INT64, w->tbase, 1, RMP_INT64, comm));
    MUST(rmp_barrier(comm)); /* every window initialized before any access */
}

static void win_close(W *w)
{
    if (w->flavor == F_DYNAMIC)
        CHECK(rmp_win_detach(w->win, w->mem));
    CHECK(rmp_win_free(&w->win));
    EXPECT(w->win == RMP_WIN_NULL, "win_free left the handle");
    free(w->own);
    free(w->tbase);
    comm = RMP_COMM_WORLD;
    n = world_n, me = world_me;
}

static bool lockish(int mode)
{
    return mode == M_EXCL || mode == M_SHARED;
}

static void epoch_open(W *w)
{
    rmp_group_t g;
    switch (w->mode) {
    case M_FENCE:
        CHECK(rmp_win_fence(0, w->win));
        break;
    case M_PSCW:
        MUST(rmp_comm_group(comm, &g));
        CHECK(rmp_win_post(g, 0, w->win));
        CHECK(rmp_win_start(g, 0, w->win));
        CHECK(rmp_group_free(&g));
        break;
    case M_LOCKALL:
    case M_FLUSH:
    case M_REQ:
        CHECK(rmp_win_lock_all(0, w->win));
        break;
    }
}

static void target_begin(W *w, int t)
{
    if (lockish(w->mode))
        CHECK(rmp_win_lock(w->mode == M_EXCL ? RMP_LOCK_EXCLUSIVE : RMP_LOCK_SHARED, t, 0,
                           w->win));
}

static void target_end(W *w, int t)
{
    if (lockish(w->mode))
        CHECK(rmp_win_unlock(t, w->win));
    else if (w->mode == M_FLUSH)
        CHECK(rmp_win_flush(t, w->win));
}

/* Ends the epoch and makes everyone's updates visible to local loads everywhere. */
static void epoch_close(W *w)
{
    switch (w->mode) {
    case M_FENCE:
        CHECK(rmp_win_fence(RMP_MODE_NOSUCCEED, w->win));
        break;
    case M_PSCW:
        CHECK(rmp_win_complete(w->win));
        CHECK(rmp_win_wait(w->win));
        break;
    case M_LOCKALL:
    case M_FLUSH:
    case M_REQ:
        CHECK(rmp_win_unlock_all(w->win));
        break;
    }
    MUST(rmp_barrier(comm));
    CHECK(rmp_win_sync(w->win));
}

static void waitreq(rmp_request_t *r)
{
    CHECK(rmp_wait(r, RMP_STATUS_IGNORE));
}

static void step_put(W *w)
{
    int32_t src[NV], rep[NV];
    epoch_open(w);
    for (int t = 0; t < n; t++) {
        for (int i = 0; i < NV; i++) {
            src[i] = P(me, t, i);
            rep[i] = Q(me, t, i);
        }
        target_begin(w, t);
        if (w->mode == M_REQ) {
            rmp_request_t a, b;
            CHECK(rmp_rput(src, NV, RMP_INT32, t, disp(w, t, me * BLK), 1, vec, w->win, &a));
            CHECK(rmp_raccumulate(rep, NV, RMP_INT32, t, disp(w, t, me * BLK + 1), 1, vec,
                                  RMP_REPLACE, w->win, &b));
            waitreq(&a);
            waitreq(&b);
        } else {
            CHECK(rmp_put(src, NV, RMP_INT32, t, disp(w, t, me * BLK), 1, vec, w->win));
            CHECK(rmp_accumulate(rep, NV, RMP_INT32, t, disp(w, t, me * BLK + 1), 1, vec,
                                 RMP_REPLACE, w->win));
        }
        target_end(w, t);
    }
    epoch_close(w);
    for (int o = 0; o < n; o++) {
        const int32_t *b = &w->mem[o * BLK];
        for (int i = 0; i < NV; i++) {
            EXPECT(b[2 * i] == P(o, me, i) && b[2 * i + 1] == Q(o, me, i),
                   "%s/%s put: block of rank %d element %d holds %d %d, expected %d %d",
                   fname[w->flavor], mname[w->mode], o, i, b[2 * i], b[2 * i + 1], P(o, me, i),
                   Q(o, me, i));
        }
    }
}

static void step_get(W *w)
{
    int32_t dst[NV];
    epoch_open(w);
    for (int t = 0; t < n; t++) {
        memset(dst, 0x55, sizeof(dst));
        target_begin(w, t);
        if (w->mode == M_REQ) {
            rmp_request_t a;
            CHECK(rmp_rget(dst, NV, RMP_INT32, t, disp(w, t, me * BLK + 1), 1, vec, w->win, &a));
            waitreq(&a);
        } else {
            CHECK(rmp_get(dst, NV, RMP_INT32, t, disp(w, t, me * BLK + 1), 1, vec, w->win));
        }
        target_end(w, t);
        if (w->mode == M_FENCE || w->mode == M_PSCW || w->mode == M_LOCKALL)
            continue; /* the data is there at the epoch's end: checked below */
        for (int i = 0; i < NV; i++)
            EXPECT(dst[i] == Q(me, t, i), "%s/%s get from %d element %d: %d, expected %d",
                   fname[w->flavor], mname[w->mode], t, i, dst[i], Q(me, t, i));
    }
    epoch_close(w);
    if (w->mode == M_FENCE || w->mode == M_PSCW || w->mode == M_LOCKALL) {
        /* one more round, checked after the epoch (one buffer per target) */
        int32_t *all = malloc(sizeof(int32_t) * NV * (size_t)n);
        epoch_open(w);
        for (int t = 0; t < n; t++)
            CHECK(rmp_get(&all[t * NV], NV, RMP_INT32, t, disp(w, t, me * BLK), 1, vec, w->win));
        epoch_close(w);
        for (int t = 0; t < n; t++)
            for (int i = 0; i < NV; i++)
                EXPECT(all[t * NV + i] == P(me, t, i),
                       "%s/%s get from %d element %d: %d, expected %d", fname[w->flavor],
                       mname[w->mode], t, i, all[t * NV + i], P(me, t, i));
        free(all);
    }
}

static void step_acc(W *w)
{
    int32_t v[NV];
    for (int i = 0; i < NV; i++)
        v[i] = i + 1;
    epoch_open(w);
    for (int t = 0; t < n; t++) {
        target_begin(w, t);
        for (int k = 0; k < NREP; k++) {
            if (w->mode == M_REQ) {
                rmp_request_t a;
                CHECK(rmp_raccumulate(v, NV, RMP_INT32, t, disp(w, t, cidx()), NV, RMP_INT32,
                                      RMP_SUM, w->win, &a));
                waitreq(&a);
            } else {
                CHECK(rmp_accumulate(v, NV, RMP_INT32, t, disp(w, t, cidx()), NV, RMP_INT32,
                                     RMP_SUM, w->win));
            }
        }
        target_end(w, t);
    }
    epoch_close(w);
    for (int i = 0; i < NV; i++)
        EXPECT(w->mem[cidx() + i] == n * NREP * (i + 1),
               "%s/%s accumulate: counter %d is %d, expected %d", fname[w->flavor],
               mname[w->mode], i, w->mem[cidx() + i], n * NREP * (i + 1));
}

static void step_fop(W *w)
{
    int64_t one = 1, got = -1, seen = -1;
    epoch_open(w);
    for (int t = 0; t < n; t++) {
        target_begin(w, t);
        for (int k = 0; k < NFOP; k++) {
            if (w->mode == M_REQ) {
                rmp_request_t a;
                CHECK(rmp_rget_accumulate(&one, 1, RMP_INT64, &got, 1, RMP_INT64, t,
                                          disp(w, t, fidx()), 1, RMP_INT64, RMP_SUM, w->win,
                                          &a));
                waitreq(&a);
            } else {
                CHECK(rmp_fetch_and_op(&one, &got, RMP_INT64, t, disp(w, t, fidx()), RMP_SUM,
                                       w->win));
            }
            if (w->mode != M_FENCE && w->mode != M_PSCW && w->mode != M_LOCKALL) {
                if (w->mode != M_REQ) /* the result is there once flushed */
                    CHECK(rmp_win_flush(t, w->win));
                EXPECT(got >= 0 && got < n * NFOP, "%s/%s fetch_and_op from %d got %lld",
                       fname[w->flavor], mname[w->mode], t, (long long)got);
            }
        }
        CHECK(rmp_get_accumulate(NULL, 0, RMP_INT64, &seen, 1, RMP_INT64, t, disp(w, t, fidx()),
                                 1, RMP_INT64, RMP_NO_OP, w->win));
        target_end(w, t);
    }
    epoch_close(w);
    int64_t f;
    memcpy(&f, &w->mem[fidx()], 8);
    EXPECT(f == n * NFOP, "%s/%s fetch_and_op: counter %lld, expected %d", fname[w->flavor],
           mname[w->mode], (long long)f, n * NFOP);
    EXPECT(seen >= NFOP && seen <= n * NFOP, "%s/%s get_accumulate NO_OP read %lld",
           fname[w->flavor], mname[w->mode], (long long)seen);
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &world_me);
    rmp_comm_size(RMP_COMM_WORLD, &world_n);
    n = world_n, me = world_me;
    prog_rank = me;
    MUST(rmp_comm_split_type(RMP_COMM_WORLD, RMP_COMM_TYPE_SHARED, 0, &node));
    MUST(rmp_type_vector(NV, 1, 2, RMP_INT32, &vec));
    MUST(rmp_type_commit(&vec));
    char what[96];
    for (int f = 0; f < NFLAVOR; f++)
        for (int m = 0; m < NMODE; m++) {
            snprintf(what, sizeof(what), "rma_ops %s/%s", fname[f], mname[m]);
            phase(what, 60);
            W w;
            win_open(&w, f, m);
            step_put(&w);
            step_get(&w);
            step_acc(&w);
            step_fop(&w);
            win_close(&w);
        }
    CHECK(rmp_type_free(&vec));
    CHECK(rmp_comm_free(&node));
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("rma_ops: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
