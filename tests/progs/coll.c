/* coll.c — integration test of the collectives, run under `mrun -n N`. Every collective, op
 * and builtin type, counts 0..100000, several roots, in place and not, on COMM_WORLD and on
 * split communicators, checked against a serial reference built from every rank's known
 * inputs (integer-valued, so every reduction order gives the same bits). Also derived types,
 * argument errors, comm dup/split/free, and separation from user p2p traffic.
 * Usage: coll [section...]  (barrier bcast reduce allreduce gather scatter allgather alltoall
 * reduce_scatter derived errors comm separation nonblocking; default all). Rank 0 prints "coll: OK <n> checks". */
#include "coll/coll.h"

/* ---- per-type helpers ----------------------------------------------------------------- */

#define REF_OPS(T)                                                                                 \
    case RMP_MIN:                                                                                  \
        return a < b ? a : b;                                                                      \
    case RMP_MAX:                                                                                  \
        return a > b ? a : b;                                                                      \
    case RMP_LAND:                                                                                 \
        return (T)(a != 0 && b != 0);                                                              \
    case RMP_LOR:                                                                                  \
        return (T)(a != 0 || b != 0);
#define TYPE_INT(T, NAME, DT, FMT, CAST, BYTE)                                                     \
    static T ref_##NAME(rmp_op_t op, T a, T b)                                                     \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return (T)((uint64_t)a + (uint64_t)b);                                                 \
        case RMP_PROD:                                                                             \
            return (T)((uint64_t)a * (uint64_t)b);                                                 \
        case RMP_BAND:                                                                             \
            return (T)(a & b);                                                                     \
        case RMP_BOR:                                                                              \
            return (T)(a | b);                                                                     \
        case RMP_BXOR:                                                                             \
            return (T)(a ^ b);                                                                     \
            REF_OPS(T)                                                                             \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    TYPE_COMMON(T, NAME, DT, FMT, CAST, false, BYTE)
#define TYPE_REAL(T, NAME, DT)                                                                     \
    static T ref_##NAME(rmp_op_t op, T a, T b)                                                     \
    {                                                                                              \
        switch (op) {                                                                              \
        case RMP_SUM:                                                                              \
            return a + b;                                                                          \
        case RMP_PROD:                                                                             \
            return a * b;                                                                          \
            REF_OPS(T)                                                                             \
        }                                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    TYPE_COMMON(T, NAME, DT, "%g", double, true, false)
#define TYPE_COMMON(T, NAME, DT, FMT, CAST, REAL, BYTE)                                            \
    static void set_##NAME(void *b, size_t i, int64_t v)                                           \
    {                                                                                              \
        ((T *)b)[i] = (T)v;                                                                        \
    }                                                                                              \
    static void comb_##NAME(rmp_op_t op, void *acc, size_t i, const void *in, size_t j)            \
    {                                                                                              \
        ((T *)acc)[i] = ref_##NAME(op, ((const T *)in)[j], ((T *)acc)[i]);                         \
    }                                                                                              \
    static void fmt_##NAME(const void *b, size_t i, char *o, size_t n)                             \
    {                                                                                              \
        snprintf(o, n, FMT, (CAST)((const T *)b)[i]);                                              \
    }                                                                                              \
    const tinfo_t t_##NAME = {DT,   #NAME,      sizeof(T),   REAL,                                 \
                                     BYTE, set_##NAME, comb_##NAME, fmt_##NAME};

TYPE_INT(int8_t, int8, RMP_INT8, "%" PRId64, int64_t, false)
TYPE_INT(int16_t, int16, RMP_INT16, "%" PRId64, int64_t, false)
TYPE_INT(int32_t, int32, RMP_INT32, "%" PRId64, int64_t, false)
TYPE_INT(int64_t, int64, RMP_INT64, "%" PRId64, int64_t, false)
TYPE_INT(uint8_t, uint8, RMP_UINT8, "%" PRIu64, uint64_t, false)
TYPE_INT(uint16_t, uint16, RMP_UINT16, "%" PRIu64, uint64_t, false)
TYPE_INT(uint32_t, uint32, RMP_UINT32, "%" PRIu64, uint64_t, false)
TYPE_INT(uint64_t, uint64, RMP_UINT64, "%" PRIu64, uint64_t, false)
TYPE_INT(uint8_t, byte, RMP_BYTE, "%" PRIu64, uint64_t, true)
TYPE_REAL(float, float, RMP_FLOAT)
TYPE_REAL(double, double, RMP_DOUBLE)

const tinfo_t *const types[] = {&t_int8,   &t_int16,  &t_int32, &t_int64,  &t_uint8, &t_uint16,
                                 &t_uint32, &t_uint64, &t_float, &t_double, &t_byte};
const size_t ntypes = sizeof(types) / sizeof(types[0]);
static const char *op_names[] = {"-",    "sum", "prod", "min",  "max",
                                 "band", "bor", "bxor", "land", "lor"};

bool op_valid(const tinfo_t *t, rmp_op_t op)
{
    bool bitwise = op == RMP_BAND || op == RMP_BOR || op == RMP_BXOR;
    return t->byte ? bitwise : !(t->real && bitwise);
}

/* ---- inputs, checks, reporting ------------------------------------------------------- */
struct coll_state g;

uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The input of contributor `who` at index i: small integers (products of 9 stay exact in a
 * float), plenty of zeros for the logical ops, all bits for the bitwise ones. */
int64_t gen(int who, size_t i, rmp_op_t op)
{
    uint64_t h = mix(g.salt * 0x100000001b3ull ^ mix((uint64_t)who * 1000003u + i));
    switch (op) {
    case RMP_PROD:
        return (int64_t)(h % 5) - 2;
    case RMP_LAND:
    case RMP_LOR:
        return h % 3 == 0 ? 0 : (int64_t)(h % 99) - 49;
    case RMP_BAND:
    case RMP_BOR:
    case RMP_BXOR:
        return (int64_t)h;
    default:
        return (int64_t)(h % 2001) - 1000;
    }
}

void fill(const tinfo_t *t, void *buf, size_t n, int who, rmp_op_t op)
{
    for (size_t i = 0; i < n; i++)
        t->set(buf, i, gen(who, i, op));
}

void fail(const what_t *w, size_t i, const char *got, const char *want)
{
    g.failed = 1;
    if (g.printed++ < 20)
        printf("coll: FAIL %s %s %s count=%d root=%d rank=%d index=%zu got=%s want=%s "
               "comm=%s inplace=%d\n",
               w->coll, w->t ? w->t->name : "-", op_names[w->op], w->count, w->root, w->rank, i,
               got, want, g.comm_name, w->in_place);
}

void expect_rc(const what_t *w, int rc)
{
    if (rc != RMP_SUCCESS) {
        char got[64];
        snprintf(got, sizeof(got), "rc=%d(%s)", rc, rmp_strerror(rc));
        fail(w, 0, got, "rc=0");
    }
}

/* Compare n elements of got (starting at element go) with want; one check per call. */
void expect(const what_t *w, const void *got, size_t go, const void *want, size_t n)
{
    g.checks++;
    const tinfo_t *t = w->t;
    for (size_t i = 0; i < n; i++) {
        if (memcmp((const char *)got + (go + i) * t->size, (const char *)want + i * t->size,
                   t->size) != 0) {
            char gs[48], ws[48];
            t->fmt(got, go + i, gs, sizeof(gs));
            t->fmt(want, i, ws, sizeof(ws));
            fail(w, go + i, gs, ws);
            return;
        }
    }
}

/* The reduction of every rank's input, folded serially. */
void reference(const tinfo_t *t, rmp_op_t op, int nranks, size_t n, void *want, void *tmp)
{
    fill(t, want, n, 0, op);
    for (int r = 1; r < nranks; r++) {
        fill(t, tmp, n, r, op);
        for (size_t i = 0; i < n; i++)
            t->combine(op, want, i, tmp, i);
    }
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "coll: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* ---- main ------------------------------------------------------------------------------ */
static bool selected(int argc, char **argv, const char *name)
{
    if (argc < 2)
        return true;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0 || strcmp(argv[i], "all") == 0)
            return true;
    return false;
}

static void run_on(const tcomm_t *c, int argc, char **argv, int index)
{
    g.comm_name = c->name;
    g.salt = (uint64_t)index << 32; /* split groups of different sizes make different calls */
    if (selected(argc, argv, "barrier"))
        run_barrier(c);
    if (selected(argc, argv, "bcast"))
        run_bcast(c);
    if (selected(argc, argv, "reduce"))
        run_reductions(c, false);
    if (selected(argc, argv, "allreduce"))
        run_reductions(c, true);
    for (kind_t k = K_GATHER; k <= K_ALLTOALL; k++)
        if (selected(argc, argv, kind_names[k]))
            run_moves(c, k);
    if (selected(argc, argv, "reduce_scatter"))
        run_reduce_scatter(c);
    if (selected(argc, argv, "derived"))
        run_derived(c);
    if (selected(argc, argv, "errors"))
        run_errors(c);
}

/* COMM_WORLD, even/odd ranks, and everyone in reversed order (key = -rank). */
static int make_comms(tcomm_t *cs)
{
    int me = g.wrank;
    cs[0] = (tcomm_t){RMP_COMM_WORLD, "world", me, g.wsize};
    cs[1] = (tcomm_t){RMP_COMM_NULL, "even-odd", -1, -1};
    cs[2] = (tcomm_t){RMP_COMM_NULL, "reversed", -1, -1};
    if (rmp_comm_split(RMP_COMM_WORLD, me % 2, me, &cs[1].comm) ||
        rmp_comm_split(RMP_COMM_WORLD, 0, -me, &cs[2].comm)) {
        printf("coll: FAIL comm_split - - count=0 root=-1 rank=%d index=0 got=error want=ok\n", me);
        return 1;
    }
    for (int i = 1; i < 3; i++) {
        rmp_comm_rank(cs[i].comm, &cs[i].rank);
        rmp_comm_size(cs[i].comm, &cs[i].size);
    }
    g.comm_name = "split";
    expect_int("split-even-odd-rank", cs[1].rank, me / 2);
    expect_int("split-even-odd-size", cs[1].size, (g.wsize + 1 - me % 2) / 2);
    expect_int("split-reversed-rank", cs[2].rank, g.wsize - 1 - me);
    return 3;
}

/* Collectives outside rmp_init..rmp_finalize: RMP_ERR_NOT_INITIALIZED, nothing else. */
static int check_uninit(const char *when)
{
    int32_t x = 0, y[16];
    rmp_comm_t c = RMP_COMM_WORLD;
    int rcs[] = {rmp_barrier(c),
                 rmp_bcast(&x, 1, RMP_INT32, 0, c),
                 rmp_reduce(&x, y, 1, RMP_INT32, RMP_SUM, 0, c),
                 rmp_allreduce(&x, y, 1, RMP_INT32, RMP_SUM, c),
                 rmp_gather(&x, 1, RMP_INT32, y, 1, RMP_INT32, 0, c),
                 rmp_scatter(y, 1, RMP_INT32, &x, 1, RMP_INT32, 0, c),
                 rmp_allgather(&x, 1, RMP_INT32, y, 1, RMP_INT32, c),
                 rmp_alltoall(y, 1, RMP_INT32, y + 8, 1, RMP_INT32, c),
                 rmp_comm_dup(c, &c),
                 rmp_comm_split(c, 0, 0, &c),
                 rmp_comm_free(&c)};
    for (size_t i = 0; i < sizeof(rcs) / sizeof(rcs[0]); i++)
        if (rcs[i] != RMP_ERR_NOT_INITIALIZED) {
            printf("coll: FAIL uninitialized - - count=0 root=-1 rank=%d index=%zu got=%d "
                   "want=%d (%s)\n",
                   g.wrank, i, rcs[i], RMP_ERR_NOT_INITIALIZED, when);
            return 1;
        }
    return 0;
}

int main(int argc, char **argv)
{
    g.wrank = -1;
    if (check_uninit("before rmp_init"))
        return 1;
    int rc = rmp_init(&argc, &argv);
    if (rc != RMP_SUCCESS) {
        printf("coll: FAIL rmp_init: %s\n", rmp_strerror(rc));
        return 1;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rmp_comm_rank(RMP_COMM_WORLD, &g.wrank);
    rmp_comm_size(RMP_COMM_WORLD, &g.wsize);
    tcomm_t cs[3];
    int ncomms = make_comms(cs);
    for (int i = 0; i < ncomms; i++)
        run_on(&cs[i], argc, argv, i);
    g.comm_name = "world";
    g.salt = (uint64_t)ncomms << 32;
    if (selected(argc, argv, "comm"))
        run_comm();
    if (selected(argc, argv, "separation"))
        run_separation();
    if (selected(argc, argv, "nonblocking"))
        run_nonblocking(cs, ncomms);
    for (int i = 1; i < ncomms; i++)
        rmp_comm_free(&cs[i].comm);

    /* everyone's verdict, so rank 0 says OK only when every rank passed */
    int64_t mine[2] = {g.failed, g.checks}, all[2] = {1, 0};
    rmp_allreduce(&mine[0], &all[0], 1, RMP_INT64, RMP_MAX, RMP_COMM_WORLD);
    rmp_allreduce(&mine[1], &all[1], 1, RMP_INT64, RMP_SUM, RMP_COMM_WORLD);
    if (g.wrank == 0 && all[0] == 0)
        printf("coll: OK %" PRId64 " checks\n", all[1]);
    rmp_finalize();
    if (check_uninit("after rmp_finalize"))
        return 1;
    return all[0] == 0 ? 0 : 1;
}
