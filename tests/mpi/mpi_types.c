/* mpi_types.c — mpi.h's derived datatypes (indexed, hindexed with a negative displacement,
 * struct, resized to send arrays of a C struct), MPI_Type_get_extent, MPI_Get_count and
 * MPI_Get_elements, around a ring of ranks and in collectives: exact values, and gaps (the
 * struct's padding, the holes of an indexed type) left untouched on the receiving side. */
#include <stddef.h>

#include "mpicheck.h"

typedef struct particle {
    double x;
    int id;
    char tag; /* then padding up to sizeof: never written by a receive */
} particle_t;

static particle_t particle(int r, int i)
{
    particle_t p;
    memset(&p, 0, sizeof p);
    p.x = r + i / 4.0, p.id = 100 * r + i, p.tag = (char)('a' + (r + i) % 26);
    return p;
}

/* The struct type and its resized form (extent sizeof(particle_t)). */
static void particle_types(MPI_Datatype *bare, MPI_Datatype *resized)
{
    int lens[3] = {1, 1, 1};
    MPI_Aint displs[3] = {offsetof(particle_t, x), offsetof(particle_t, id),
                          offsetof(particle_t, tag)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
    MPI_Aint lb = -1, ext = -1;
    CHECK(MPI_Type_create_struct(3, lens, displs, types, bare));
    CHECK(MPI_Type_get_extent(*bare, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, sizeof(particle_t)); /* padded as C pads the struct */
    CHECK(MPI_Type_create_resized(*bare, 0, sizeof(particle_t), resized));
    CHECK(MPI_Type_commit(resized));
    CHECK(MPI_Type_get_extent(*resized, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, sizeof(particle_t));
    int sz = -1;
    CHECK(MPI_Type_size(*resized, &sz));
    EXPECT_INT(sz, sizeof(double) + sizeof(int) + 1);
}

/* The received particle must equal the sent one, padding still 0xEE. */
static void check_particle(const char *what, const particle_t *got, int r, int i)
{
    particle_t want = particle(r, i);
    const unsigned char *raw = (const unsigned char *)got;
    if (got->x != want.x || got->id != want.id || got->tag != want.tag)
        FAIL("%s: particle %d of rank %d is (%g, %d, %c), expected (%g, %d, %c)", what, i, r,
             got->x, got->id, got->tag, want.x, want.id, want.tag);
    for (size_t b = offsetof(particle_t, tag) + 1; b < sizeof *got; b++)
        if (raw[b] != 0xEE) {
            FAIL("%s: padding byte %zu of particle %d was written (0x%02x)", what, b, i, raw[b]);
            return;
        }
}

enum { NP = 5 };

static void t_struct(int rank, int size)
{
    MPI_Datatype bare, pt;
    particle_types(&bare, &pt);
    particle_t out[NP], in[NP];
    for (int i = 0; i < NP; i++)
        out[i] = particle(rank, i);
    memset(in, 0xEE, sizeof in);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Status st;
    CHECK(MPI_Sendrecv(out, NP, pt, next, 3, in, NP, pt, prev, 3, MPI_COMM_WORLD, &st));
    for (int i = 0; i < NP; i++)
        check_particle("sendrecv of a struct array", &in[i], prev, i);
    int n = -1;
    CHECK(MPI_Get_count(&st, pt, &n));
    EXPECT_INT(n, NP);
    CHECK(MPI_Get_elements(&st, pt, &n));
    EXPECT_INT(n, 3 * NP); /* double, int, char per particle */

    /* Allgatherv of 1 + rank % 3 particles per rank, in a buffer of resized elements. */
    int counts[8], displs[8], at = 0;
    for (int r = 0; r < size; r++)
        counts[r] = 1 + r % 3, displs[r] = at, at += counts[r];
    particle_t all[8 * 3];
    memset(all, 0xEE, sizeof all);
    CHECK(MPI_Allgatherv(out, counts[rank], pt, all, counts, displs, pt, MPI_COMM_WORLD));
    for (int r = 0; r < size; r++)
        for (int i = 0; i < counts[r]; i++)
            check_particle("allgatherv of a struct array", &all[displs[r] + i], r, i);
    CHECK(MPI_Type_free(&pt));
    CHECK(MPI_Type_free(&bare));
}

/* Indexed: blocks {2, 1, 3} at displacements {5, 0, 9}, out of order. */
static void t_indexed(int rank, int size)
{
    int lens[3] = {2, 1, 3}, displs[3] = {5, 0, 9};
    MPI_Datatype ix;
    CHECK(MPI_Type_indexed(3, lens, displs, MPI_INT, &ix));
    CHECK(MPI_Type_commit(&ix));
    MPI_Aint lb = -1, ext = -1;
    CHECK(MPI_Type_get_extent(ix, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, 12 * sizeof(int));
    int src[12], packed[6], back[12];
    for (int i = 0; i < 12; i++)
        src[i] = 1000 * rank + i, back[i] = -1;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    /* Sent as the indexed type, received as 6 contiguous ints: type order, not memory. */
    CHECK(MPI_Sendrecv(src, 1, ix, next, 4, packed, 6, MPI_INT, prev, 4, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    int order[6] = {5, 6, 0, 9, 10, 11};
    for (int k = 0; k < 6; k++)
        EXPECT_INT(packed[k], 1000 * prev + order[k]);
    /* And back into the indexed layout: the holes keep -1. */
    CHECK(MPI_Sendrecv(packed, 6, MPI_INT, prev, 5, back, 1, ix, next, 5, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (int i = 0; i < 12; i++) {
        int in_block = i == 0 || i == 5 || i == 6 || i >= 9;
        EXPECT_INT(back[i], in_block ? 1000 * rank + i : -1);
    }
    CHECK(MPI_Type_free(&ix));
}

/* Hindexed with a negative displacement: two doubles at +16 and -8 bytes from the origin. */
static void t_hindexed(int rank, int size)
{
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {2 * sizeof(double), -(MPI_Aint)sizeof(double)};
    MPI_Datatype hx;
    CHECK(MPI_Type_create_hindexed(2, lens, displs, MPI_DOUBLE, &hx));
    CHECK(MPI_Type_commit(&hx));
    MPI_Aint lb = 0, ext = 0;
    CHECK(MPI_Type_get_extent(hx, &lb, &ext));
    EXPECT_INT(lb, -(MPI_Aint)sizeof(double));
    EXPECT_INT(ext, 4 * sizeof(double));
    double a[5], got[2] = {0, 0};
    for (int i = 0; i < 5; i++)
        a[i] = rank * 10 + i;
    int root = size - 1;
    double *origin = &a[2]; /* a[4] then a[1] */
    CHECK(MPI_Bcast(origin, 1, hx, root, MPI_COMM_WORLD));
    got[0] = a[4], got[1] = a[1];
    if (got[0] != root * 10 + 4 || got[1] != root * 10 + 1)
        FAIL("bcast of a hindexed type: (%g, %g), expected (%d, %d)", got[0], got[1], root * 10 + 4,
             root * 10 + 1);
    if (a[0] != rank * 10 || a[2] != rank * 10 + 2 || a[3] != rank * 10 + 3)
        FAIL("bcast of a hindexed type wrote outside its blocks");
    CHECK(MPI_Type_free(&hx));
}

/* Get_count and Get_elements of a pair type: 6 ints received as MPI_2INT are 3 pairs of 2
 * basic elements each; 5 ints are not a whole number of pairs. */
static void t_elements(void)
{
    int six[6] = {1, 2, 3, 4, 5, 6}, in[8];
    MPI_Status st;
    CHECK(MPI_Sendrecv(six, 6, MPI_INT, 0, 6, in, 4, MPI_2INT, 0, 6, MPI_COMM_SELF, &st));
    int n = -2;
    CHECK(MPI_Get_count(&st, MPI_2INT, &n));
    EXPECT_INT(n, 3);
    CHECK(MPI_Get_elements(&st, MPI_2INT, &n));
    EXPECT_INT(n, 6);
    EXPECT_INT(in[5], 6);
    CHECK(MPI_Sendrecv(six, 5, MPI_INT, 0, 7, in, 4, MPI_2INT, 0, 7, MPI_COMM_SELF, &st));
    CHECK(MPI_Get_count(&st, MPI_2INT, &n));
    EXPECT_INT(n, MPI_UNDEFINED);
    CHECK(MPI_Get_elements(&st, MPI_INT, &n));
    EXPECT_INT(n, 5);
    CHECK(MPI_Get_elements(&st, MPI_DOUBLE, &n)); /* 20 bytes: not whole doubles */
    EXPECT_INT(n, MPI_UNDEFINED);
}

/* MPI_ERRORS_RETURN codes of the datatype and op calls. */
static void t_errors(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_SUM;
    int lens[1] = {1};
    MPI_Aint displs[1] = {0};
    MPI_Datatype types[1] = {(MPI_Datatype)999};
    int rc = MPI_Type_create_struct(1, lens, displs, types, &t);
    EXPECT_INT(rc, MPI_ERR_TYPE);
    rc = MPI_Type_indexed(1, lens, (int[1]){0}, MPI_DATATYPE_NULL, &t);
    EXPECT_INT(rc, MPI_ERR_TYPE);
    rc = MPI_Type_get_extent((MPI_Datatype)999, &displs[0], &displs[0]);
    EXPECT_INT(rc, MPI_ERR_TYPE);
    rc = MPI_Op_free(&op);
    EXPECT_INT(rc, MPI_ERR_OP);
    EXPECT_INT(op, MPI_SUM);
    rc = MPI_Op_create(NULL, 1, &op);
    EXPECT_INT(rc, MPI_ERR_ARG);
}

/* The struct {int, char}: extent 8 as in C (padded to the int's alignment), so that an array
 * of them travels through MPI_Type_contiguous with every element where C puts it; the padding
 * bytes are not data (size 5) and stay untouched on the receiving side. */
typedef struct ic {
    int i;
    char c;
} ic_t;

static void t_struct_padding(int rank, int size)
{
    enum { N = 10 };
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(ic_t, i), offsetof(ic_t, c)}, lb = -1, ext = -1;
    MPI_Datatype types[2] = {MPI_INT, MPI_CHAR}, st, arr;
    CHECK(MPI_Type_create_struct(2, lens, displs, types, &st));
    CHECK(MPI_Type_get_extent(st, &lb, &ext));
    EXPECT_INT(lb, 0);
    EXPECT_INT(ext, sizeof(ic_t));
    int sz = -1;
    CHECK(MPI_Type_size(st, &sz));
    EXPECT_INT(sz, sizeof(int) + 1);
    CHECK(MPI_Type_contiguous(N, st, &arr));
    CHECK(MPI_Type_commit(&arr));
    CHECK(MPI_Type_get_extent(arr, &lb, &ext));
    EXPECT_INT(ext, N * sizeof(ic_t));
    ic_t out[N], in[N];
    memset(out, 0, sizeof out);
    memset(in, 0xEE, sizeof in);
    for (int k = 0; k < N; k++)
        out[k].i = 1000 * rank + k, out[k].c = (char)('a' + k);
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    CHECK(MPI_Sendrecv(out, 1, arr, to, 7, in, 1, arr, from, 7, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE));
    for (int k = 0; k < N; k++) {
        if (in[k].i != 1000 * from + k || in[k].c != (char)('a' + k))
            FAIL("struct {int, char}: got s[%d] = {%d, %c}; expected {%d, %c}", k, in[k].i,
                 in[k].c, 1000 * from + k, 'a' + k);
        const unsigned char *raw = (const unsigned char *)&in[k];
        for (size_t b = offsetof(ic_t, c) + 1; b < sizeof(ic_t); b++)
            if (raw[b] != 0xEE)
                FAIL("struct {int, char}: padding byte %zu of s[%d] written", b, k);
    }
    CHECK(MPI_Type_free(&arr));
    CHECK(MPI_Type_free(&st));
}

int main(int argc, char **argv)
{
    int size = mc_init_size(&argc, &argv, 60);
    if (size > 8) {
        FAIL("mpi_types runs at n = 1..8, not %d", size);
        return 1;
    }
    t_struct(mc_rank, size);
    t_struct_padding(mc_rank, size);
    t_indexed(mc_rank, size);
    t_hindexed(mc_rank, size);
    t_elements();
    t_errors();
    CHECK(MPI_Finalize());
    return mc_done("mpi_types");
}
