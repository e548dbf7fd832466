/* types.c — derived datatypes and the pair reductions across processes: MINLOC/MAXLOC
 * allreduce, reduce (every root) and scan on the five pair types with ties (the smaller index
 * wins); an array of C structs (struct + resized) sent, broadcast and allgathered with the
 * padding left untouched; an indexed type with negative, unordered displacements in a bcast;
 * rmp_get_elements on a message that ends inside a struct. "types: OK" from rank 0. */
#include <stddef.h>

#include "progs.h"

static int me, np;

struct di { double v; int i; };
struct si { short v; int i; };

/* value of rank r in slot k: ties between ranks on purpose (r / 2) */
static double pv(int r, int k) { return (double)((r / 2 + k) % 3) - (k == 2 ? r / 2 : 0); }

static void t_loc(rmp_op_t op)
{
    const char *name = op == RMP_MINLOC ? "minloc" : "maxloc";
    struct di in[3], out[3];
    for (int k = 0; k < 3; k++)
        in[k] = (struct di){pv(me, k), me * 10 + k};
    /* reference: over all ranks, best value, smallest index among equals */
    struct di want[3];
    for (int k = 0; k < 3; k++) {
        want[k] = (struct di){pv(0, k), k};
        for (int r = 1; r < np; r++) {
            double v = pv(r, k);
            bool better = op == RMP_MINLOC ? v < want[k].v : v > want[k].v;
            if (better)
                want[k] = (struct di){v, r * 10 + k};
        }
    }
    CHECK(rmp_allreduce(in, out, 3, RMP_DOUBLE_INT, op, RMP_COMM_WORLD));
    for (int k = 0; k < 3; k++)
        EXPECT(out[k].v == want[k].v && out[k].i == want[k].i,
               "allreduce %s slot %d: %g/%d, expected %g/%d", name, k, out[k].v, out[k].i,
               want[k].v, want[k].i);
    for (int root = 0; root < np; root++) {
        struct di r[3] = {{-1, -1}, {-1, -1}, {-1, -1}};
        CHECK(rmp_reduce(in, r, 3, RMP_DOUBLE_INT, op, root, RMP_COMM_WORLD));
        for (int k = 0; me == root && k < 3; k++)
            EXPECT(r[k].v == want[k].v && r[k].i == want[k].i, "reduce %s to %d slot %d", name,
                   root, k);
    }
    /* the other pairs, one slot each: value me % 2 (ties everywhere), index me */
    struct si s = {(short)(me % 2), me}, so;
    CHECK(rmp_allreduce(&s, &so, 1, RMP_SHORT_INT, op, RMP_COMM_WORLD));
    int wi = op == RMP_MINLOC ? 0 : (np > 1 ? 1 : 0);
    EXPECT(so.v == wi % 2 && so.i == wi, "short_int %s: %d/%d", name, so.v, so.i);
    int two[2] = {me % 2, me}, two_o[2];
    CHECK(rmp_allreduce(two, two_o, 1, RMP_2INT, op, RMP_COMM_WORLD));
    EXPECT(two_o[0] == wi % 2 && two_o[1] == wi, "2int %s: %d/%d", name, two_o[0], two_o[1]);
    struct { long v; int i; } l = {me % 2, me}, lo;
    CHECK(rmp_allreduce(&l, &lo, 1, RMP_LONG_INT, op, RMP_COMM_WORLD));
    EXPECT(lo.v == wi % 2 && lo.i == wi, "long_int %s", name);
    struct { float v; int i; } f = {(float)(me % 2), me}, fo;
    CHECK(rmp_allreduce(&f, &fo, 1, RMP_FLOAT_INT, op, RMP_COMM_WORLD));
    EXPECT(fo.v == (float)(wi % 2) && fo.i == wi, "float_int %s", name);
    /* scan: the best over ranks 0..me */
    struct di sc;
    CHECK(rmp_scan(&in[0], &sc, 1, RMP_DOUBLE_INT, op, RMP_COMM_WORLD));
    struct di ws = {pv(0, 0), 0};
    for (int r = 1; r <= me; r++) {
        double v = pv(r, 0);
        if (op == RMP_MINLOC ? v < ws.v : v > ws.v)
            ws = (struct di){v, r * 10};
    }
    EXPECT(sc.v == ws.v && sc.i == ws.i, "scan %s: %g/%d, expected %g/%d", name, sc.v, sc.i,
           ws.v, ws.i);
    EXPECT_RC(RMP_ERR_OP, rmp_allreduce(in, out, 3, RMP_DOUBLE, op, RMP_COMM_WORLD));
    EXPECT_RC(RMP_ERR_OP, rmp_allreduce(in, out, 3, RMP_DOUBLE_INT, RMP_SUM, RMP_COMM_WORLD));
}

struct rec {
    char c;
    double d;
    int i[3];
};

static void rec_fill(struct rec *r, int owner, int k)
{
    memset(r, 0xAB, sizeof(*r)); /* padding too: it must come back untouched */
    r->c = (char)('a' + owner);
    r->d = owner * 1.5 + k;
    for (int j = 0; j < 3; j++)
        r->i[j] = owner * 100 + k * 10 + j;
}

static bool rec_same(const struct rec *a, const struct rec *b)
{
    return a->c == b->c && a->d == b->d && !memcmp(a->i, b->i, sizeof(a->i));
}

static void t_structs(rmp_datatype_t rt)
{
    enum { K = 4 };
    struct rec mine[K], got[K], all[8 * K];
    for (int k = 0; k < K; k++)
        rec_fill(&mine[k], me, k);
    if (np > 1 && me == 0)
        CHECK(rmp_send(mine, K, rt, np - 1, 5, RMP_COMM_WORLD));
    if (np > 1 && me == np - 1) {
        memset(got, 0xCD, sizeof(got));
        rmp_status_t st;
        CHECK(rmp_recv(got, K, rt, 0, 5, RMP_COMM_WORLD, &st));
        for (int k = 0; k < K; k++) {
            struct rec w;
            rec_fill(&w, 0, k);
            EXPECT(rec_same(&got[k], &w), "struct send/recv record %d", k);
            unsigned char pad = ((unsigned char *)&got[k])[1];
            EXPECT(pad == 0xCD, "padding written by recv: %#x", pad);
        }
        int n;
        CHECK(rmp_get_count(&st, rt, &n));
        EXPECT(n == K, "get_count %d", n);
        CHECK(rmp_get_elements(&st, rt, &n));
        EXPECT(n == 5 * K, "get_elements %d", n);
    }
    /* a message that ends inside the second record: 1 + 8 + 12 + 1 + 8 bytes = 7 elements */
    if (np > 1 && me == 0) {
        char raw[30];
        memset(raw, 1, sizeof(raw));
        CHECK(rmp_send(raw, 30, RMP_BYTE, np - 1, 6, RMP_COMM_WORLD));
    }
    if (np > 1 && me == np - 1) {
        rmp_status_t st;
        CHECK(rmp_recv(got, K, rt, 0, 6, RMP_COMM_WORLD, &st));
        int n;
        CHECK(rmp_get_elements(&st, rt, &n));
        EXPECT(n == 7, "get_elements of a partial record: %d", n);
    }
    CHECK(rmp_allgather(mine, K, rt, all, K, rt, RMP_COMM_WORLD));
    for (int r = 0; r < np; r++)
        for (int k = 0; k < K; k++) {
            struct rec w;
            rec_fill(&w, r, k);
            EXPECT(rec_same(&all[r * K + k], &w), "allgather of structs: rank %d record %d", r, k);
        }
}

/* ints at -2, 5, 1 (extents of int32) from the origin, bcast from the last rank */
static void t_indexed(void)
{
    int bl[] = {1, 2, 1}, dp[] = {5, -2, 1};
    rmp_datatype_t t;
    MUST(rmp_type_indexed(3, bl, dp, RMP_INT32, &t));
    MUST(rmp_type_commit(&t));
    int32_t buf[16];
    for (int i = 0; i < 16; i++)
        buf[i] = me == np - 1 ? 1000 + i : -1;
    CHECK(rmp_bcast(buf + 4, 1, t, np - 1, RMP_COMM_WORLD));
    for (int i = 0; i < 16; i++) {
        int off = i - 4;
        bool in = off == 5 || off == -2 || off == -1 || off == 1;
        int32_t w = in || me == np - 1 ? 1000 + i : -1;
        EXPECT(buf[i] == w, "indexed bcast: int %d is %d, expected %d", i, buf[i], w);
    }
    MUST(rmp_type_free(&t));
}

int main(int argc, char **argv)
{
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &me);
    rmp_comm_size(RMP_COMM_WORLD, &np);
    prog_rank = me;
    phase("loc", 60);
    t_loc(RMP_MINLOC);
    t_loc(RMP_MAXLOC);
    phase("structs", 60);
    int bl[] = {1, 1, 3};
    ptrdiff_t dp[] = {offsetof(struct rec, c), offsetof(struct rec, d), offsetof(struct rec, i)};
    rmp_datatype_t ty[] = {RMP_INT8, RMP_DOUBLE, RMP_INT32}, st, rt;
    MUST(rmp_type_create_struct(3, bl, dp, ty, &st));
    MUST(rmp_type_create_resized(st, 0, sizeof(struct rec), &rt));
    MUST(rmp_type_commit(&rt));
    t_structs(rt);
    MUST(rmp_type_free(&rt));
    MUST(rmp_type_free(&st));
    phase("indexed", 60);
    t_indexed();
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    if (me == 0 && !any)
        printf("types: OK\n");
    MUST(rmp_finalize());
    return prog_exit();
}
