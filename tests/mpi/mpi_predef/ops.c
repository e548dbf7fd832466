/* ops.c — mpi_predef's operations: MPI_Op_commutative, MPI_Reduce_local on derived types and
 * with user ops, and the element counts of the new pair types. */
#include "mpi_predef.h"

/* User ops: an elementwise "a + 2b" (not commutative) over pairs of doubles, and a
 * commutative one. The non-commutative one shows which argument is which. */
static int user_calls;
static MPI_Datatype pair_of_doubles, vec3_of_complex; /* the ops must not call MPI */
static void op_a2b(void *in, void *inout, int *len, MPI_Datatype *type)
{
    double *a = in, *b = inout;
    int n = *len * (*type == pair_of_doubles ? 2 : 1);
    for (int i = 0; i < n; i++)
        b[i] = a[i] + 2 * b[i];
    user_calls++;
}
/* the larger real part wins; on the vector type, elements are 3 complex 2 apart, 5 per span */
static void op_cmax(void *in, void *inout, int *len, MPI_Datatype *type)
{
    double _Complex *a = in, *b = inout;
    bool vec = *type == vec3_of_complex;
    for (int e = 0; e < *len; e++)
        for (int k = 0; k < (vec ? 3 : 1); k++) {
            int i = vec ? e * 5 + 2 * k : e;
            if (__real__ a[i] > __real__ b[i])
                b[i] = a[i];
        }
}

void t_op_commutative(void)
{
    const MPI_Op builtin[] = {MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,    MPI_BAND,  MPI_BOR,
                              MPI_BXOR, MPI_LAND, MPI_LOR,  MPI_LXOR,   MPI_MINLOC, MPI_MAXLOC};
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        int c = -1;
        CHECK(MPI_Op_commutative(builtin[i], &c));
        EXPECT_INT(c, 1);
    }
    int c = -1;
    CHECK(MPI_Op_commutative(MPI_REPLACE, &c));
    EXPECT_INT(c, 0);
    CHECK(MPI_Op_commutative(MPI_NO_OP, &c));
    EXPECT_INT(c, 0);
    MPI_Op nc, cm;
    CHECK(MPI_Op_create(op_a2b, 0, &nc));
    CHECK(MPI_Op_create(op_cmax, 1, &cm));
    CHECK(MPI_Op_commutative(nc, &c));
    EXPECT_INT(c, 0);
    CHECK(MPI_Op_commutative(cm, &c));
    EXPECT_INT(c, 1);
    MPI_Op stale = nc;
    CHECK(MPI_Op_free(&nc));
    CHECK(MPI_Op_free(&cm));
    expect_class("MPI_Op_commutative(freed op)", MPI_Op_commutative(stale, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(MPI_OP_NULL)", MPI_Op_commutative(MPI_OP_NULL, &c),
                 MPI_ERR_OP);
    expect_class("MPI_Op_commutative(999)", MPI_Op_commutative((MPI_Op)999, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(-3)", MPI_Op_commutative((MPI_Op)-3, &c), MPI_ERR_OP);
    expect_class("MPI_Op_commutative(NULL)", MPI_Op_commutative(MPI_SUM, NULL), MPI_ERR_ARG);
}

/* reduce_local: derived types of one builtin (non-contiguous: gaps stay as they were), the
 * non-contiguous builtin pair MPI_LONG_DOUBLE_INT, and user ops, contiguous or not. */
void t_reduce_local(void)
{
    /* a vector of 3 double complex, stride 2: elements at 0, 2, 4 of each 5-slot span */
    MPI_Datatype vec, cont;
    CHECK(MPI_Type_vector(3, 1, 2, MPI_C_DOUBLE_COMPLEX, &vec));
    CHECK(MPI_Type_commit(&vec));
    vec3_of_complex = vec;
    double _Complex a[10], b[10], want[10];
    for (int i = 0; i < 10; i++) {
        a[i] = (double)(i + 1) + (double)(i % 3) * 1.0i;
        b[i] = (double)(2 - i) + 2.0i;
    }
    memcpy(want, b, sizeof b);
    MPI_Aint lb, ext;
    CHECK(MPI_Type_get_extent(vec, &lb, &ext));
    EXPECT_INT(ext, 5 * (MPI_Aint)sizeof(double _Complex));
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++) {
            int i = e * 5 + 2 * k;
            want[i] = a[i] * b[i];
        }
    CHECK(MPI_Reduce_local(a, b, 2, vec, MPI_PROD));
    for (int i = 0; i < 10; i++)
        if (b[i] != want[i])
            FAIL("Reduce_local(vector of double complex, PROD)[%d] = %g%+gi, expected %g%+gi", i,
                 __real__ b[i], __imag__ b[i], __real__ want[i], __imag__ want[i]);
    expect_class("Reduce_local(vector of complex, MAX)", MPI_Reduce_local(a, b, 2, vec, MPI_MAX),
                 MPI_ERR_OP);

    /* user op on the same non-contiguous type: called on the type's own layout */
    MPI_Op cm;
    CHECK(MPI_Op_create(op_cmax, 1, &cm));
    memcpy(b, want, sizeof b);
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < 3; k++) {
            int i = e * 5 + 2 * k;
            if (__real__ a[i] > __real__ b[i])
                want[i] = a[i];
        }
    CHECK(MPI_Reduce_local(a, b, 2, vec, cm));
    for (int i = 0; i < 10; i++)
        if (b[i] != want[i])
            FAIL("Reduce_local(vector, user max)[%d] = %g%+gi, expected %g%+gi", i, __real__ b[i],
                 __imag__ b[i], __real__ want[i], __imag__ want[i]);
    CHECK(MPI_Op_free(&cm));
    CHECK(MPI_Type_free(&vec));

    /* non-commutative user op, contiguous: inout = in + 2 inout, on the caller's buffers */
    MPI_Op nc;
    CHECK(MPI_Op_create(op_a2b, 0, &nc));
    CHECK(MPI_Type_contiguous(2, MPI_DOUBLE, &cont));
    CHECK(MPI_Type_commit(&cont));
    pair_of_doubles = cont;
    double x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {10, 20, 30, 40, 50, 60};
    user_calls = 0;
    CHECK(MPI_Reduce_local(x, y, 3, cont, nc));
    for (int i = 0; i < 6; i++)
        if (y[i] != x[i] + 20.0 * (i + 1))
            FAIL("Reduce_local(user a+2b)[%d] = %g, expected %g", i, y[i], x[i] + 20.0 * (i + 1));
    if (user_calls < 1)
        FAIL("the user op was not called");
    CHECK(MPI_Reduce_local(x, y, 0, cont, nc)); /* nothing to do */
    CHECK(MPI_Op_free(&nc));

    /* MPI_LONG_DOUBLE_INT is itself not contiguous (padding after the int) */
    struct ldi p[3] = {{1.5L, 4}, {-2.0L, 1}, {7.0L, 3}}, q[3] = {{1.5L, 2}, {-1.0L, 0}, {8.0L, 9}};
    CHECK(MPI_Reduce_local(p, q, 3, MPI_LONG_DOUBLE_INT, MPI_MINLOC));
    if (q[0].v != 1.5L || q[0].i != 2 || q[1].v != -2.0L || q[1].i != 1 || q[2].v != 7.0L ||
        q[2].i != 3)
        FAIL("Reduce_local(LONG_DOUBLE_INT, MINLOC) = {%Lg %d} {%Lg %d} {%Lg %d}", q[0].v, q[0].i,
             q[1].v, q[1].i, q[2].v, q[2].i);

    /* a contiguous type of one builtin reduces as that builtin */
    int iv[4] = {1, 2, 3, 4}, ov[4] = {10, 20, 30, 40};
    CHECK(MPI_Type_free(&cont));
    CHECK(MPI_Type_contiguous(2, MPI_INT, &cont));
    CHECK(MPI_Type_commit(&cont));
    CHECK(MPI_Reduce_local(iv, ov, 2, cont, MPI_SUM));
    for (int i = 0; i < 4; i++)
        EXPECT_INT(ov[i], (i + 1) * 11);

    /* errors */
    MPI_Datatype unc, mixed;
    CHECK(MPI_Type_contiguous(2, MPI_INT, &unc));
    int bl[2] = {1, 1};
    MPI_Aint disp[2] = {0, 8};
    MPI_Datatype mt[2] = {MPI_INT, MPI_DOUBLE};
    CHECK(MPI_Type_create_struct(2, bl, disp, mt, &mixed));
    CHECK(MPI_Type_commit(&mixed));
    char mbuf_in[64] = {0}, mbuf_io[64] = {0};
    expect_class("Reduce_local(count -1)", MPI_Reduce_local(iv, ov, -1, MPI_INT, MPI_SUM),
                 MPI_ERR_COUNT);
    expect_class("Reduce_local(MPI_DATATYPE_NULL)",
                 MPI_Reduce_local(iv, ov, 1, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    expect_class("Reduce_local(type 9999)", MPI_Reduce_local(iv, ov, 1, (MPI_Datatype)9999, MPI_SUM),
                 MPI_ERR_TYPE);
    expect_class("Reduce_local(uncommitted)", MPI_Reduce_local(iv, ov, 1, unc, MPI_SUM),
                 MPI_ERR_TYPE);
    expect_class("Reduce_local(MPI_OP_NULL)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_OP_NULL),
                 MPI_ERR_OP);
    expect_class("Reduce_local(op 999)", MPI_Reduce_local(iv, ov, 1, MPI_INT, (MPI_Op)999),
                 MPI_ERR_OP);
    expect_class("Reduce_local(MPI_REPLACE)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_REPLACE),
                 MPI_ERR_OP);
    expect_class("Reduce_local(MPI_NO_OP)", MPI_Reduce_local(iv, ov, 1, MPI_INT, MPI_NO_OP),
                 MPI_ERR_OP);
    expect_class("Reduce_local(mixed struct, SUM)",
                 MPI_Reduce_local(mbuf_in, mbuf_io, 1, mixed, MPI_SUM), MPI_ERR_OP);
    expect_class("Reduce_local(NULL inbuf)", MPI_Reduce_local(NULL, ov, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(NULL inoutbuf)", MPI_Reduce_local(iv, NULL, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(same buffer)", MPI_Reduce_local(ov, ov, 1, MPI_INT, MPI_SUM),
                 MPI_ERR_BUFFER);
    expect_class("Reduce_local(MPI_IN_PLACE)",
                 MPI_Reduce_local(MPI_IN_PLACE, ov, 1, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    CHECK(MPI_Reduce_local(NULL, NULL, 0, MPI_INT, MPI_SUM)); /* count 0: no buffers needed */
    CHECK(MPI_Type_free(&unc));
    CHECK(MPI_Type_free(&mixed));
    CHECK(MPI_Type_free(&cont));
}

/* MPI_Get_elements counts two basic elements per pair, whatever the index's type. */
void t_elements(void)
{
    static const struct {
        MPI_Datatype t;
        int count, bytes_per, elems;
    } c[] = {
        {MPI_LONG_DOUBLE_INT, 3, (int)sizeof(long double) + 4, 6},
        {MPI_2REAL, 2, 8, 4},
        {MPI_2DOUBLE_PRECISION, 2, 16, 4},
        {MPI_C_DOUBLE_COMPLEX, 3, 16, 3},
        {MPI_C_LONG_DOUBLE_COMPLEX, 2, (int)sizeof(long double _Complex), 2},
        {MPI_LONG_DOUBLE, 4, (int)sizeof(long double), 4},
        {MPI_C_BOOL, 5, 1, 5},
        {MPI_WCHAR, 5, (int)sizeof(wchar_t), 5},
        {MPI_LOGICAL, 5, 4, 5},
    };
    static char sbuf[256], rbuf[256];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        MPI_Status st;
        int n = -1, e = -1;
        CHECK(MPI_Sendrecv(sbuf, c[i].count, c[i].t, 0, 7, rbuf, c[i].count, c[i].t, 0, 7,
                           MPI_COMM_SELF, &st));
        CHECK(MPI_Get_count(&st, c[i].t, &n));
        CHECK(MPI_Get_elements(&st, c[i].t, &e));
        if (n != c[i].count || e != c[i].elems)
            FAIL("type %d: count %d elements %d, expected %d and %d", (int)c[i].t, n, e,
                 c[i].count, c[i].elems);
        /* a message ending after the value of a pair: one more basic element */
        if (c[i].t == MPI_2DOUBLE_PRECISION) {
            CHECK(MPI_Sendrecv(sbuf, 24, MPI_BYTE, 0, 8, rbuf, 2, c[i].t, 0, 8, MPI_COMM_SELF,
                               &st));
            CHECK(MPI_Get_elements(&st, c[i].t, &e));
            EXPECT_INT(e, 3);
        }
    }
}
