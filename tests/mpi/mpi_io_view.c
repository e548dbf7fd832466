/* mpi_io_view.c — file views against a serial reference: interleaved vectors, a 2-D subarray
 * per rank, a block-cyclic darray, a resized filetype with a negative lower bound; get_view,
 * get_type_extent; external32 byte for byte; a registered data representation; atomic mode
 * with overlapping writers (every int one writer's, never a mix). */
#include <stdint.h>

#include "mpi_io.h"

static int nranks;

/* Everyone writes its part of a global int array through filetype ft (disp 0) with write_all;
 * then the file must equal want[0..n). */
static void check_file(const char *what, MPI_File fh, const int *want, int n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    int *v = calloc((size_t)n, sizeof *v);
    CHECK(MPI_File_read_at_all(fh, 0, v, n, MPI_INT, MPI_STATUS_IGNORE));
    for (int i = 0; i < n; i++)
        if (v[i] != want[i]) {
            FAIL("%s: int %d is %d, expected %d", what, i, v[i], want[i]);
            break;
        }
    free(v);
}

static MPI_File open_new(const char *name)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path(name), MPI_MODE_RDWR | MPI_MODE_CREATE |
                        MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    return fh;
}

/* write mine (n ints valued base + i) through ft, read it back through the same view */
static void write_view(MPI_File fh, MPI_Datatype ft, MPI_Offset disp, int n, int base)
{
    int *b = malloc((size_t)n * sizeof *b), *r = calloc((size_t)n, sizeof *r);
    for (int i = 0; i < n; i++)
        b[i] = base + i;
    CHECK(MPI_File_set_view(fh, disp, MPI_INT, ft, "native", MPI_INFO_NULL));
    CHECK(MPI_File_write_all(fh, b, n, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
    CHECK(MPI_File_read_all(fh, r, n, MPI_INT, MPI_STATUS_IGNORE));
    if (memcmp(r, b, (size_t)n * sizeof *b))
        FAIL("read back through the view differs (base %d)", base);
    free(b);
    free(r);
}

/* ranks interleave blocks of 2 ints: a vector resized to the stride */
static void t_vector(void)
{
    enum { B = 8 }; /* blocks per rank */
    MPI_File fh = open_new("vector");
    MPI_Datatype two, ft;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_create_resized(two, 0, (MPI_Aint)(2 * 4 * nranks), &ft);
    MPI_Type_commit(&ft);
    write_view(fh, ft, (MPI_Offset)mc_rank * 8, 2 * B, mc_rank * 1000);
    int n = 2 * B * nranks, *want = malloc((size_t)n * sizeof *want);
    for (int i = 0; i < n; i++) {
        int blk = i / 2, r = blk % nranks;
        want[i] = r * 1000 + (blk / nranks) * 2 + i % 2;
    }
    check_file("vector", fh, want, n);
    /* get_view: a new handle for the derived filetype, the builtin etype as is */
    MPI_Offset disp;
    MPI_Datatype et, f2;
    char rep[MPI_MAX_DATAREP_STRING];
    CHECK(MPI_File_set_view(fh, 4, MPI_INT, ft, "native", MPI_INFO_NULL));
    CHECK(MPI_File_get_view(fh, &disp, &et, &f2, rep));
    EXPECT_INT(disp, 4);
    EXPECT_INT(et, MPI_INT);
    if (strcmp(rep, "native"))
        FAIL("get_view datarep %s", rep);
    MPI_Aint lb, ext, fext;
    MPI_Type_get_extent(f2, &lb, &ext);
    EXPECT_INT(ext, 8 * nranks);
    MPI_Type_free(&f2);
    CHECK(MPI_File_get_type_extent(fh, ft, &fext));
    EXPECT_INT(fext, 8 * nranks);
    /* a filetype not made of whole etypes: MPI_ERR_ARG; a bad datarep */
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_INT, "native", MPI_INFO_NULL),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL),
                 MPI_ERR_UNSUPPORTED_DATAREP);
    MPI_Type_free(&two);
    MPI_Type_free(&ft);
    free(want);
    CHECK(MPI_File_close(&fh));
}

/* a ROWS x (COLS * nranks) C-order array, rank r owning columns [r*COLS, r*COLS + COLS);
 * then the same with a block-cyclic darray over the columns */
static void t_subarray_darray(void)
{
    enum { ROWS = 6, COLS = 5 };
    int gs[2] = {ROWS, COLS * nranks}, ss[2] = {ROWS, COLS}, st[2] = {0, COLS * mc_rank};
    int n = ROWS * COLS * nranks, *want = malloc((size_t)n * sizeof *want);
    MPI_Datatype ft;
    MPI_Type_create_subarray(2, gs, ss, st, MPI_ORDER_C, MPI_INT, &ft);
    MPI_Type_commit(&ft);
    MPI_File fh = open_new("subarray");
    write_view(fh, ft, 0, ROWS * COLS, mc_rank * 1000);
    for (int i = 0; i < n; i++) {
        int row = i / gs[1], col = i % gs[1], r = col / COLS;
        want[i] = r * 1000 + row * COLS + col % COLS;
    }
    check_file("subarray", fh, want, n);
    MPI_Type_free(&ft);
    CHECK(MPI_File_close(&fh));
    /* darray: columns dealt cyclically by 1 over the ranks (Fortran order: rows fastest) */
    int dist[2] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
    int darg[2] = {MPI_DISTRIBUTE_DFLT_DARG, 1}, ps[2] = {1, nranks};
    MPI_Type_create_darray(nranks, mc_rank, 2, gs, dist, darg, ps, MPI_ORDER_FORTRAN, MPI_INT,
                           &ft);
    MPI_Type_commit(&ft);
    fh = open_new("darray");
    write_view(fh, ft, 0, ROWS * COLS, mc_rank * 1000);
    for (int i = 0; i < n; i++) {
        int col = i / ROWS, row = i % ROWS, r = col % nranks, mycol = col / nranks;
        want[i] = r * 1000 + mycol * ROWS + row;
    }
    check_file("darray", fh, want, n);
    MPI_Type_free(&ft);
    CHECK(MPI_File_close(&fh));
    free(want);
}

/* lb = -4: each tile's int sits 4 bytes after the tile's lower bound */
static void t_negative_lb(void)
{
    enum { K = 10 };
    MPI_Datatype ft;
    MPI_Type_create_resized(MPI_INT, -4, (MPI_Aint)(4 * nranks), &ft);
    MPI_Type_commit(&ft);
    MPI_File fh = open_new("neglb");
    write_view(fh, ft, 4 * (MPI_Offset)mc_rank, K, mc_rank * 1000);
    int n = K * nranks, *want = malloc((size_t)n * sizeof *want);
    for (int i = 0; i < n; i++)
        want[i] = (i % nranks) * 1000 + i / nranks;
    check_file("negative lb", fh, want, n);
    MPI_Type_free(&ft);
    free(want);
    CHECK(MPI_File_close(&fh));
}

/* external32: big-endian in the file, the values back through the same view */
static void t_external32(void)
{
    MPI_File fh = open_new("ext32");
    int v[2] = {0x01020304, -2}, r[2];
    double d = 1.0, dr = 0;
    MPI_Offset at = (MPI_Offset)mc_rank * 16;
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "external32", MPI_INFO_NULL));
    CHECK(MPI_File_write_at_all(fh, at, v, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(MPI_File_write_at_all(fh, at + 8, &d, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    CHECK(MPI_File_read_at_all(fh, at, r, 2, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(MPI_File_read_at_all(fh, at + 8, &dr, 1, MPI_DOUBLE, MPI_STATUS_IGNORE));
    if (r[0] != v[0] || r[1] != v[1] || dr != 1.0)
        FAIL("external32 read back %x %d %g", r[0], r[1], dr);
    unsigned char raw[16], want[16] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe,
                                       0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK(MPI_File_read_at_all(fh, at, raw, 16, MPI_BYTE, MPI_STATUS_IGNORE));
    if (memcmp(raw, want, 16))
        FAIL("external32 bytes differ: %02x %02x %02x %02x ...", raw[0], raw[1], raw[2], raw[3]);
    /* a long is 8 bytes here and 4 in external32: refused rather than misplaced */
    EXPECT_CLASS(MPI_File_set_view(fh, 0, MPI_LONG, MPI_LONG, "external32", MPI_INFO_NULL),
                 MPI_ERR_UNSUPPORTED_DATAREP);
    CHECK(MPI_File_close(&fh));
}

/* a representation of our own: each int stored plus 7 */
/* position indexes the user's buffer (tiled by t), not the file: one call per access, 0. */
static int plus7_write(void *ub, MPI_Datatype t, int n, void *fb, MPI_Offset pos, void *x)
{
    if (pos != 0)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        ((int *)fb)[i] = ((int *)ub)[i] + 7;
    ++*(int *)x;
    return MPI_SUCCESS;
}
static int plus7_read(void *ub, MPI_Datatype t, int n, void *fb, MPI_Offset pos, void *x)
{
    if (pos != 0)
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        ((int *)ub)[i] = ((int *)fb)[i] - 7;
    return MPI_SUCCESS;
}
static int plus7_extent(MPI_Datatype t, MPI_Aint *e, void *x)
{
    *e = 4;
    return MPI_SUCCESS;
}

static void t_datarep(void)
{
    static int calls;
    CHECK(MPI_Register_datarep("plus7", plus7_read, plus7_write, plus7_extent, &calls));
    EXPECT_CLASS(MPI_Register_datarep("plus7", plus7_read, plus7_write, plus7_extent, &calls),
                 MPI_ERR_DUP_DATAREP);
    MPI_File fh = open_new("plus7");
    int v[3] = {1, 2, 3}, r[3], raw[3];
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "plus7", MPI_INFO_NULL));
    CHECK(MPI_File_write_at(fh, 3 * mc_rank, v, 3, MPI_INT, MPI_STATUS_IGNORE));
    CHECK(MPI_File_read_at(fh, 3 * mc_rank, r, 3, MPI_INT, MPI_STATUS_IGNORE));
    if (r[0] != 1 || r[1] != 2 || r[2] != 3)
        FAIL("plus7 read back %d %d %d", r[0], r[1], r[2]);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK(MPI_File_read_at(fh, 3 * mc_rank, raw, 3, MPI_INT, MPI_STATUS_IGNORE));
    if (raw[0] != 8 || raw[1] != 9 || raw[2] != 10)
        FAIL("plus7 stored %d %d %d", raw[0], raw[1], raw[2]);
    if (calls < 1)
        FAIL("plus7's write function never called");
    CHECK(MPI_File_close(&fh));
}

/* atomic mode: every rank writes the same strided region (its rank in every int) at once;
 * afterwards each write is whole: all ints the same rank's. Repeated to give races a chance. */
static void t_atomic(void)
{
    enum { M = 4096 };
    MPI_File fh = open_new("atomic");
    CHECK(MPI_File_set_atomicity(fh, 1));
    MPI_Datatype ft;
    MPI_Type_vector(M, 1, 2, MPI_INT, &ft); /* holes: the sieving path, under the lock */
    MPI_Type_commit(&ft);
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL));
    int *b = malloc(M * sizeof *b), *r = malloc(M * sizeof *r);
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < M; i++)
            b[i] = mc_rank + 1 + round * 100;
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(MPI_File_write_at(fh, 0, b, M, MPI_INT, MPI_STATUS_IGNORE));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(MPI_File_read_at(fh, 0, r, M, MPI_INT, MPI_STATUS_IGNORE));
        for (int i = 1; i < M; i++)
            if (r[i] != r[0] || r[0] % 100 < 1 || r[0] % 100 > nranks) {
                FAIL("atomic round %d: int %d is %d, int 0 %d", round, i, r[i], r[0]);
                break;
            }
    }
    free(b);
    free(r);
    MPI_Type_free(&ft);
    CHECK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 90);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    io_dir_make();
    t_vector();
    t_subarray_darray();
    t_negative_lb();
    t_external32();
    t_datarep();
    t_atomic();
    io_dir_remove();
    int r = mc_done("mpi_io_view");
    MPI_Finalize();
    return r;
}
