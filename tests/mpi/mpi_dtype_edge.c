/* mpi_dtype_edge.c — datatype edge cases of issue 33, at n = 1 and 2 (rank 0 sends to rank 1
 * where there are two): an indexed type whose first block is empty, element counts above
 * INT_MAX, MPI_LOGICAL1..8 and the optional types not available, and handles (types, infos,
 * groups, ops, communicators) created and freed by the ten thousand: reused, never
 * inheriting a name, a key or an attribute, types created at a flat cost (printed only). */
#include <limits.h>
#include <stdint.h>
#include <time.h>

#include "mpicheck.h"

/* Ten ints 1..10, packed and unpacked through one element of type into zeros: the ints at
 * the positions `want` marks (1) come back, the rest stay 0. */
static void check_roundtrip(MPI_Datatype type, const int want[10], const char *what)
{
    int buf[10], size, pos = 0;
    char packed[64];
    for (int i = 0; i < 10; i++)
        buf[i] = i + 1;
    CHECK(MPI_Pack_size(1, type, MPI_COMM_SELF, &size));
    CHECK(MPI_Pack(buf, 1, type, packed, (int)sizeof packed, &pos, MPI_COMM_SELF));
    memset(buf, 0, sizeof buf);
    int upos = 0;
    CHECK(MPI_Unpack(packed, pos, &upos, buf, 1, type, MPI_COMM_SELF));
    EXPECT_INT(upos, pos);
    for (int i = 0; i < 10; i++)
        if (buf[i] != (want[i] ? i + 1 : 0))
            FAIL("%s: int %d is %d after pack/unpack, expected %d", what, i, buf[i],
                 want[i] ? i + 1 : 0);
}

/* The same type from rank 0 to rank 1, and broadcast: exact ints at the type's places. */
static void check_moved(MPI_Datatype type, const int want[10], const char *what)
{
    int size, buf[10];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 10; i++)
        buf[i] = mc_rank == 0 ? 100 + i : -1;
    if (size > 1 && mc_rank == 0)
        CHECK(MPI_Send(buf, 1, type, 1, 7, MPI_COMM_WORLD));
    if (size > 1 && mc_rank == 1) {
        CHECK(MPI_Recv(buf, 1, type, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < 10; i++)
            if (buf[i] != (want[i] ? 100 + i : -1))
                FAIL("%s: received int %d is %d", what, i, buf[i]);
    }
    for (int i = 0; i < 10; i++)
        buf[i] = mc_rank == 0 ? 200 + i : -1;
    CHECK(MPI_Bcast(buf, 1, type, 0, MPI_COMM_WORLD));
    for (int i = 0; i < 10; i++)
        if (buf[i] != (want[i] || mc_rank == 0 ? 200 + i : -1))
            FAIL("%s: broadcast int %d is %d", what, i, buf[i]);
}

/* {0, 4, 0} ints at {far, 2, far}: the ints 2..5 (MPICH's indexed_misc), also as the first
 * member of a struct with an int at 8, and as hindexed at byte displacements. */
static void test_leading_zero(void)
{
    static const int four[10] = {0, 0, 1, 1, 1, 1, 0, 0, 0, 0};
    static const int five[10] = {0, 0, 1, 1, 1, 1, 0, 0, 1, 0};
    int len[3] = {0, 4, 0}, disp[3] = {INT_MAX, 2, INT_MAX}, blk[2] = {1, 1};
    MPI_Aint adisp[3] = {PTRDIFF_MAX, 2 * sizeof(int), PTRDIFF_MAX}, lb, ext;
    MPI_Aint sdisp[2] = {0, 8 * sizeof(int)};
    MPI_Datatype type, st, types[2];
    for (int h = 0; h < 2; h++) {
        if (h == 0)
            CHECK(MPI_Type_indexed(3, len, disp, MPI_INT, &type));
        else
            CHECK(MPI_Type_create_hindexed(3, len, adisp, MPI_INT, &type));
        CHECK(MPI_Type_commit(&type));
        CHECK(MPI_Type_get_extent(type, &lb, &ext));
        EXPECT_INT(lb, 2 * sizeof(int));
        EXPECT_INT(ext, 4 * sizeof(int));
        check_roundtrip(type, four, h ? "hindexed {0,4,0}" : "indexed {0,4,0}");
        check_moved(type, four, h ? "hindexed {0,4,0}" : "indexed {0,4,0}");
        types[0] = type;
        types[1] = MPI_INT;
        CHECK(MPI_Type_create_struct(2, blk, sdisp, types, &st));
        CHECK(MPI_Type_commit(&st));
        check_roundtrip(st, five, "struct of {0,4,0} and an int");
        check_moved(st, five, "struct of {0,4,0} and an int");
        CHECK(MPI_Type_free(&st));
        CHECK(MPI_Type_free(&type));
    }
}

/* The ints 1..10; one element of type at &buf[at] packed must give want[0..n-1], unpacked
 * into zeros must put them back where they came from and nothing else; sent from rank 0 to
 * rank 1, the same. */
static void check_backwards(MPI_Datatype type, int at, const int *want, int n, const char *what)
{
    int buf[10], packed[10], pos = 0, size, wsize;
    for (int i = 0; i < 10; i++)
        buf[i] = i + 1;
    CHECK(MPI_Type_size(type, &size));
    EXPECT_INT(size, n * (int)sizeof(int));
    CHECK(MPI_Pack(&buf[at], 1, type, packed, (int)sizeof packed, &pos, MPI_COMM_SELF));
    EXPECT_INT(pos, n * (int)sizeof(int));
    for (int i = 0; i < n && i < 10; i++)
        if (packed[i] != want[i])
            FAIL("%s: packed int %d is %d, expected %d", what, i, packed[i], want[i]);
    int back[10] = {0}, upos = 0, kept = 0;
    CHECK(MPI_Unpack(packed, pos, &upos, &back[at], 1, type, MPI_COMM_SELF));
    for (int i = 0; i < 10; i++) {
        kept += back[i] != 0;
        if (back[i] != 0 && back[i] != i + 1)
            FAIL("%s: unpacked int %d is %d", what, i, back[i]);
    }
    EXPECT_INT(kept, n);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize > 1 && mc_rank == 0)
        CHECK(MPI_Send(&buf[at], 1, type, 1, 9, MPI_COMM_WORLD));
    if (wsize > 1 && mc_rank == 1) {
        memset(back, 0, sizeof back);
        CHECK(MPI_Recv(&back[at], 1, type, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (int i = 0; i < 10; i++)
            if (back[i] != 0 && back[i] != i + 1)
                FAIL("%s: received int %d is %d", what, i, back[i]);
    }
}

/* Types built on one of negative extent (an int resized to extent -4: each next element one
 * int lower): bounds by the standard's formulas, bytes walked backwards. */
static void test_negative_extent(void)
{
    MPI_Datatype back, t;
    MPI_Aint lb, ext;
    const int I = (int)sizeof(int);
    CHECK(MPI_Type_create_resized(MPI_INT, 0, -I, &back));
    CHECK(MPI_Type_contiguous(3, back, &t)); /* ints at 0, -1, -2 */
    CHECK(MPI_Type_commit(&t));
    CHECK(MPI_Type_get_extent(t, &lb, &ext));
    EXPECT_INT(lb, -2 * I); /* the least lb of an element; ub the greatest ub: -1 int */
    EXPECT_INT(ext, I);
    CHECK(MPI_Type_get_true_extent(t, &lb, &ext));
    EXPECT_INT(lb, -2 * I);
    EXPECT_INT(ext, 3 * I);
    check_backwards(t, 2, (const int[]){3, 2, 1}, 3, "contiguous(3) of extent -4");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_vector(2, 2, 3, back, &t)); /* blocks at 0 and -3 ints, each going down */
    CHECK(MPI_Type_commit(&t));
    check_backwards(t, 4, (const int[]){5, 4, 2, 1}, 4, "vector(2, 2, 3) of extent -4");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_vector(2, 2, -3, back, &t)); /* blocks at 0 and +3 ints */
    CHECK(MPI_Type_commit(&t));
    check_backwards(t, 1, (const int[]){2, 1, 5, 4}, 4, "vector(2, 2, -3) of extent -4");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_create_hvector(2, 3, 4 * I, back, &t)); /* at 0 and +4 ints */
    CHECK(MPI_Type_commit(&t));
    check_backwards(t, 2, (const int[]){3, 2, 1, 7, 6, 5}, 6, "hvector(2, 3, 16) of extent -4");
    CHECK(MPI_Type_free(&t));
    int len[2] = {2, 1}, disp[2] = {5, 1};
    CHECK(MPI_Type_indexed(2, len, disp, back, &t)); /* ints 5, 6 then 1 below the origin */
    CHECK(MPI_Type_commit(&t));
    check_backwards(t, 9, (const int[]){5, 4, 9}, 3, "indexed of extent -4");
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_dup(back, &t));
    CHECK(MPI_Type_get_extent(t, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, -I);
    CHECK(MPI_Type_free(&t));
    CHECK(MPI_Type_free(&back));
}

/* Counts set in elements of a type of 3 * INT_MAX chars: Get_count 1, Get_elements
 * MPI_UNDEFINED (above INT_MAX), _x the basic elements; a partial element counts its chars. */
static void test_large_counts(void)
{
    MPI_Datatype big, v;
    MPI_Status st;
    MPI_Count x;
    int c, e;
    CHECK(MPI_Type_contiguous(INT_MAX, MPI_CHAR, &big));
    CHECK(MPI_Type_vector(3, 1, 2, big, &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Status_set_elements_x(&st, v, 1));
    CHECK(MPI_Get_count(&st, v, &c));
    CHECK(MPI_Get_elements(&st, v, &e));
    CHECK(MPI_Get_elements_x(&st, v, &x));
    EXPECT_INT(c, 1);
    EXPECT_INT(e, MPI_UNDEFINED);
    EXPECT_INT(x, 3LL * INT_MAX);
    CHECK(MPI_Status_set_elements_x(&st, MPI_CHAR, 2LL * INT_MAX + 5));
    CHECK(MPI_Get_count(&st, v, &c));
    CHECK(MPI_Get_elements_x(&st, v, &x));
    EXPECT_INT(c, MPI_UNDEFINED);
    EXPECT_INT(x, 2LL * INT_MAX + 5);
    CHECK(MPI_Get_count(&st, MPI_CHAR, &c));
    EXPECT_INT(c, MPI_UNDEFINED);
    CHECK(MPI_Status_set_elements_x(&st, MPI_CHAR, 6));
    CHECK(MPI_Get_elements(&st, v, &e));
    EXPECT_INT(e, 6);
    CHECK(MPI_Type_free(&v));
    CHECK(MPI_Type_free(&big));
}

/* A type freed while one built on it lives keeps its layout (new types do not take its
 * handle); freed with it, its handle comes back first, as in MPICH and Open MPI, which
 * MPICH's indexed_misc relies on. */
static void test_reuse(void)
{
    static const int want[10] = {1, 1, 0, 0, 0, 1, 1, 0, 0, 0};
    MPI_Datatype a, b, c[8];
    CHECK(MPI_Type_contiguous(2, MPI_INT, &a));
    CHECK(MPI_Type_vector(2, 1, 5, MPI_INT, &b)); /* replaced below: its handle is free */
    CHECK(MPI_Type_free(&b));
    CHECK(MPI_Type_create_hvector(2, 1, 5 * sizeof(int), a, &b));
    CHECK(MPI_Type_commit(&b));
    MPI_Datatype a_was = a;
    CHECK(MPI_Type_free(&a));
    for (int i = 0; i < 8; i++) {
        CHECK(MPI_Type_contiguous(3, MPI_CHAR, &c[i]));
        if (c[i] == a_was)
            FAIL("a new type took the handle of a freed type still in use");
    }
    check_roundtrip(b, want, "hvector over a freed contiguous");
    check_moved(b, want, "hvector over a freed contiguous");
    for (int i = 0; i < 8; i++)
        CHECK(MPI_Type_free(&c[i]));
    MPI_Datatype b_was = b;
    CHECK(MPI_Type_free(&b));
    CHECK(MPI_Type_contiguous(1, MPI_INT, &a));
    if (a != a_was && a != b_was)
        FAIL("a new type did not reuse the handles just freed");
    CHECK(MPI_Type_free(&a));
}

/* MPI_LOGICAL1..8: own handles and names, their sizes, the logical ops across the ranks
 * (rank r holds r % 2 and 1: LAND 0 unless alone, LOR 1, LXOR of the odd ranks' count),
 * LOGICAL1 and LOGICAL4 refusing MPI_SUM as MPI_LOGICAL does. */
static void test_logicals(void)
{
    static const MPI_Datatype ts[4] = {MPI_LOGICAL1, MPI_LOGICAL2, MPI_LOGICAL4, MPI_LOGICAL8};
    static const char *const names[4] = {"MPI_LOGICAL1", "MPI_LOGICAL2", "MPI_LOGICAL4",
                                         "MPI_LOGICAL8"};
    int size, nodd;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nodd = size / 2;
    for (int i = 0; i < 4; i++) {
        int sz, len, w = 1 << i;
        char name[MPI_MAX_OBJECT_NAME];
        if (ts[i] == MPI_DATATYPE_NULL || ts[i] == MPI_LOGICAL || (i > 0 && ts[i] == ts[i - 1]))
            FAIL("%s is not a handle of its own", names[i]);
        CHECK(MPI_Type_size(ts[i], &sz));
        EXPECT_INT(sz, w);
        CHECK(MPI_Type_get_name(ts[i], name, &len));
        if (strcmp(name, names[i]))
            FAIL("the name of %s is '%s'", names[i], name);
        unsigned char in[2][8] = {{0}}, out[3][8];
        in[0][0] = (unsigned char)(mc_rank % 2); /* little-endian: the low byte first */
        in[1][0] = 1;
        MPI_Op ops[3] = {MPI_LAND, MPI_LOR, MPI_LXOR};
        for (int k = 0; k < 3; k++) {
            memset(out[k], 0x55, sizeof out[k]);
            CHECK(MPI_Allreduce(in[0], out[k], 1, ts[i], ops[k], MPI_COMM_WORLD));
        }
        long long want[3] = {0, nodd > 0, nodd % 2}; /* rank 0 holds 0: LAND 0 */
        for (int k = 0; k < 3; k++) {
            long long got = 0;
            memcpy(&got, out[k], (size_t)w);
            if (got != want[k])
                FAIL("%s: logical op %d gives %lld, expected %lld", names[i], k, got, want[k]);
        }
        if (i == 0 || i == 2) {
            int rc = MPI_Reduce_local(in[0], in[1], 1, ts[i], MPI_SUM);
            int cls = -1;
            MPI_Error_class(rc, &cls);
            EXPECT_INT(cls, MPI_ERR_OP);
        }
    }
}

/* The optional Fortran types with no C type of their layout: MPI_DATATYPE_NULL, and
 * Type_match_size gives what exists (long double for 16-byte reals, none for integers). */
static void test_optional_types(void)
{
    MPI_Datatype none[5] = {MPI_REAL2, MPI_REAL16, MPI_COMPLEX4, MPI_COMPLEX32, MPI_INTEGER16};
    for (int i = 0; i < 5; i++)
        if (none[i] != MPI_DATATYPE_NULL)
            FAIL("optional type %d is not MPI_DATATYPE_NULL", i);
    MPI_Datatype t = MPI_DATATYPE_NULL;
    int rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 16, &t), cls = -1;
    MPI_Error_class(rc, &cls);
    EXPECT_INT(cls, MPI_ERR_ARG);
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, (int)sizeof(long double), &t));
    if (t != MPI_LONG_DOUBLE)
        FAIL("Type_match_size(REAL, %d) is not MPI_LONG_DOUBLE", (int)sizeof(long double));
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
    if (t != MPI_INTEGER8)
        FAIL("Type_match_size(INTEGER, 8) is not MPI_INTEGER8");
}

/* v (every third int from the second, three of them) freed while an operation still uses
 * it: four new types made meanwhile (none may take v's handle while it is held: `was`, or
 * MPI_DATATYPE_NULL not to check), then the operation ends (end) and buf is checked. */
static void freed_meanwhile(MPI_Datatype *v, MPI_Datatype was, void (*end)(void), int *buf,
                            const int want[10], const char *what)
{
    MPI_Datatype others[4];
    CHECK(MPI_Type_free(v));
    for (int i = 0; i < 4; i++) {
        CHECK(MPI_Type_vector(2, 1, 5 + i, MPI_INT, &others[i]));
        if (others[i] == was)
            FAIL("%s: a new type took the handle of a freed type still in use", what);
    }
    end();
    for (int i = 0; i < 10; i++)
        if (buf[i] != want[i])
            FAIL("%s on a freed type: int %d is %d, expected %d", what, i, buf[i], want[i]);
    for (int i = 0; i < 4; i++)
        CHECK(MPI_Type_free(&others[i]));
}

static MPI_Request pending;

static void end_recv(void) /* rank 0 sends once told to */
{
    CHECK(MPI_Send(NULL, 0, MPI_INT, 0, 11, MPI_COMM_WORLD));
    CHECK(MPI_Wait(&pending, MPI_STATUS_IGNORE));
}

static void end_coll(void)
{
    CHECK(MPI_Wait(&pending, MPI_STATUS_IGNORE));
}

/* A receive posted on a type freed before its message came (rank 1 from rank 0). */
static void test_pending_recv(void)
{
    int size, buf[10] = {0}, want[10] = {0, 101, 0, 0, 102, 0, 0, 103, 0, 0};
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || mc_rank > 1)
        return;
    MPI_Datatype v;
    if (mc_rank == 0) {
        int out[3] = {101, 102, 103};
        CHECK(MPI_Recv(NULL, 0, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        CHECK(MPI_Send(out, 3, MPI_INT, 1, 12, MPI_COMM_WORLD));
        return;
    }
    CHECK(MPI_Type_vector(3, 1, 3, MPI_INT, &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Irecv(&buf[1], 1, v, 0, 12, MPI_COMM_WORLD, &pending));
    freed_meanwhile(&v, v, end_recv, buf, want, "receive");
}

/* The same for a nonblocking broadcast (an Ibcast on rank > 0 may return only once the root
 * joined, so the broadcast may be over before the free: no handle check). */
static void test_pending_coll(void)
{
    int buf[10] = {0}, want[10] = {0, 201, 0, 0, 202, 0, 0, 203, 0, 0};
    MPI_Datatype v;
    if (mc_rank == 0)
        memcpy(buf, want, sizeof buf);
    CHECK(MPI_Type_vector(3, 1, 3, MPI_INT, &v));
    CHECK(MPI_Type_commit(&v));
    CHECK(MPI_Ibcast(&buf[1], 1, v, 0, MPI_COMM_WORLD, &pending));
    freed_meanwhile(&v, MPI_DATATYPE_NULL, end_coll, buf, want, "broadcast");
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

#define NTYPES 200000
#define NHELD 1000

/* 200,000 types created and freed with NHELD of them alive at any time, each named and given
 * an attribute: handles valid and distinct while alive, a reused one inheriting nothing; the
 * cost of a create in the first and last 10,000 printed (to compare, not asserted). */
static void test_many_types(void)
{
    static MPI_Datatype held[NHELD];
    int kv, flag, len;
    char name[MPI_MAX_OBJECT_NAME];
    void *val;
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kv, NULL));
    double first = 0, last = 0;
    for (int i = 0; i < NTYPES; i++) {
        MPI_Datatype *slot = &held[i % NHELD];
        if (i >= NHELD)
            CHECK(MPI_Type_free(slot));
        double t0 = now_us();
        CHECK(MPI_Type_contiguous(1 + i % 7, MPI_INT, slot));
        double took = now_us() - t0;
        first += i < 10000 ? took : 0;
        last += i >= NTYPES - 10000 ? took : 0;
        CHECK(MPI_Type_get_name(*slot, name, &len));
        CHECK(MPI_Type_get_attr(*slot, kv, &val, &flag));
        if (len != 0 || flag)
            FAIL("type %d (handle %#x) inherited a name '%s' or an attribute (%d)", i,
                 (unsigned)(uintptr_t)*slot, name, flag);
        if (mc_failures > 10)
            break;
        CHECK(MPI_Type_set_name(*slot, "mine"));
        CHECK(MPI_Type_set_attr(*slot, kv, (void *)(intptr_t)i));
    }
    for (int i = 0; i < NHELD; i++) { /* the live ones: distinct, and each its own size */
        int size;
        CHECK(MPI_Type_size(held[i], &size));
        int j = NTYPES - NHELD + i; /* the last one made in this slot of held */
        if (mc_failures <= 10)
            EXPECT_INT(size, (1 + j % 7) * (int)sizeof(int));
        for (int k = 0; k < i; k++)
            if (held[k] == held[i])
                FAIL("live types %d and %d share a handle", k, i);
        CHECK(MPI_Type_free(&held[i]));
    }
    CHECK(MPI_Type_free_keyval(&kv));
    printf("mpi_dtype_edge: rank %d: MPI_Type_contiguous %.2f us each in the first 10000, "
           "%.2f us in the last\n", mc_rank, first / 1e4, last / 1e4);
}

static void my_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

/* The other tables share the handle pool (infos, groups, user ops, communicators): created
 * and freed many times over with some held, each new one valid and starting empty. */
static void test_many_objects(void)
{
    MPI_Info infos[16];
    MPI_Group world, groups[16];
    MPI_Op ops[16];
    int zero = 0, nkeys, len;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < 50000 && mc_failures < 10; i++) {
        int k = i % 16;
        if (i >= 16) {
            CHECK(MPI_Info_free(&infos[k]));
            CHECK(MPI_Group_free(&groups[k]));
            CHECK(MPI_Op_free(&ops[k]));
        }
        CHECK(MPI_Info_create(&infos[k]));
        CHECK(MPI_Info_get_nkeys(infos[k], &nkeys));
        EXPECT_INT(nkeys, 0);
        CHECK(MPI_Info_set(infos[k], "key", "value"));
        CHECK(MPI_Group_incl(world, 1, &zero, &groups[k]));
        CHECK(MPI_Op_create(my_op, i % 2, &ops[k]));
        int commute = -1;
        CHECK(MPI_Op_commutative(ops[k], &commute));
        EXPECT_INT(commute, i % 2);
    }
    for (int k = 0; k < 16; k++) {
        CHECK(MPI_Info_free(&infos[k]));
        CHECK(MPI_Group_free(&groups[k]));
        CHECK(MPI_Op_free(&ops[k]));
    }
    MPI_Group_free(&world);
    for (int i = 0; i < 300 && mc_failures < 10; i++) { /* collective: a few hundred */
        MPI_Comm dup;
        char name[MPI_MAX_OBJECT_NAME];
        CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
        CHECK(MPI_Comm_get_name(dup, name, &len));
        EXPECT_INT(len, 0);
        CHECK(MPI_Comm_set_name(dup, "mine"));
        CHECK(MPI_Comm_free(&dup));
    }
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    test_leading_zero();
    test_large_counts();
    test_negative_extent();
    test_reuse();
    test_pending_recv();
    test_pending_coll();
    test_logicals();
    test_optional_types();
    test_many_types();
    test_many_objects();
    MPI_Finalize();
    return mc_done("mpi_dtype_edge");
}
