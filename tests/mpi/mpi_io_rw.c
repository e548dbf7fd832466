/* mpi_io_rw.c — MPI-IO data access against a serial reference: every positioning (explicit
 * offset, individual pointer, shared pointer, ordered) blocking, nonblocking, collective and
 * split; status counts (a read past the end too); noncontiguous memory and MPI_BOTTOM. The
 * bytes of the file are read back raw (an etype-byte view from 0) and compared exactly. */
#include "mpi_io.h"

enum { N = 64 };
static int nranks;

static MPI_File open_rw(const char *name)
{
    MPI_File fh;
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path(name), MPI_MODE_RDWR | MPI_MODE_CREATE,
                        MPI_INFO_NULL, &fh));
    return fh;
}

/* The whole file, as ints (n of them expected), read by every rank through a plain view. */
static int *read_all_ints(MPI_File fh, int n)
{
    int *v = calloc((size_t)n + 1, sizeof *v);
    MPI_Status st;
    int cnt;
    CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    CHECK(MPI_File_read_at(fh, 0, v, n + 1, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, n); /* one int asked past the end: not there */
    return v;
}

/* rank r's i-th int of a pattern */
static int pat(int r, int i)
{
    return r * 100000 + i;
}

static void fill(int *b, int n, int r, int first)
{
    for (int i = 0; i < n; i++)
        b[i] = pat(r, first + i);
}

/* Explicit offsets, each form: rank r owns ints [r*N, r*N + N). */
static void t_explicit(void)
{
    int b[N], cnt;
    MPI_Status st;
    MPI_Request rq;
    for (int form = 0; form < 4; form++) {
        MPI_File fh = open_rw("explicit");
        fill(b, N, mc_rank, 0);
        MPI_Offset off = (MPI_Offset)mc_rank * N * (MPI_Offset)sizeof(int);
        if (form == 0) {
            CHECK(MPI_File_write_at(fh, off, b, N / 2, MPI_INT, &st));
            CHECK(MPI_File_write_at(fh, off + N / 2 * 4, b + N / 2, N / 2, MPI_INT, &st));
        } else if (form == 1) {
            CHECK(MPI_File_write_at_all(fh, off, b, N, MPI_INT, &st));
        } else if (form == 2) {
            CHECK(MPI_File_iwrite_at(fh, off, b, N, MPI_INT, &rq));
            CHECK(MPI_Wait(&rq, &st));
        } else {
            CHECK(MPI_File_write_at_all_begin(fh, off, b, N, MPI_INT));
            CHECK(MPI_File_write_at_all_end(fh, b, &st));
        }
        MPI_Get_count(&st, MPI_INT, &cnt);
        EXPECT_INT(cnt, form == 0 ? N / 2 : N);
        CHECK(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(MPI_File_sync(fh));
        int *v = read_all_ints(fh, N * nranks);
        for (int i = 0; i < N * nranks; i++)
            if (v[i] != pat(i / N, i % N)) {
                FAIL("explicit form %d: int %d is %d, expected %d", form, i, v[i],
                     pat(i / N, i % N));
                break;
            }
        free(v);
        /* read back my part by each read form */
        int r[N];
        memset(r, 0, sizeof r);
        if (form == 0)
            CHECK(MPI_File_read_at(fh, off, r, N, MPI_INT, &st));
        else if (form == 1)
            CHECK(MPI_File_read_at_all(fh, off, r, N, MPI_INT, &st));
        else if (form == 2) {
            CHECK(MPI_File_iread_at(fh, off, r, N, MPI_INT, &rq));
            CHECK(MPI_Wait(&rq, &st));
        } else {
            CHECK(MPI_File_read_at_all_begin(fh, off, r, N, MPI_INT));
            CHECK(MPI_File_read_at_all_end(fh, r, &st));
        }
        if (memcmp(r, b, sizeof r))
            FAIL("explicit form %d: read back differs", form);
        CHECK(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (mc_rank == 0)
            MPI_File_delete(io_path("explicit"), MPI_INFO_NULL);
    }
}

/* Individual pointers through a view of my own block; seek, get_position, byte offsets. */
static void t_individual(void)
{
    MPI_File fh = open_rw("indiv");
    int b[N], r[N];
    MPI_Offset pos, byte;
    MPI_Request rq;
    MPI_Status st;
    fill(b, N, mc_rank, 0);
    CHECK(MPI_File_set_view(fh, (MPI_Offset)mc_rank * N * 4, MPI_INT, MPI_INT, "native",
                            MPI_INFO_NULL));
    CHECK(MPI_File_write(fh, b, 10, MPI_INT, &st));
    CHECK(MPI_File_get_position(fh, &pos));
    EXPECT_INT(pos, 10);
    CHECK(MPI_File_iwrite(fh, b + 10, 10, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    CHECK(MPI_File_write_all(fh, b + 20, 20, MPI_INT, &st));
    CHECK(MPI_File_iwrite_all(fh, b + 40, 10, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    CHECK(MPI_File_write_all_begin(fh, b + 50, N - 50, MPI_INT));
    CHECK(MPI_File_write_all_end(fh, b + 50, &st));
    CHECK(MPI_File_get_position(fh, &pos));
    EXPECT_INT(pos, N);
    CHECK(MPI_File_get_byte_offset(fh, 5, &byte));
    EXPECT_INT(byte, (MPI_Offset)mc_rank * N * 4 + 20);
    CHECK(MPI_File_seek(fh, -N, MPI_SEEK_CUR));
    CHECK(MPI_File_read(fh, r, 10, MPI_INT, &st));
    CHECK(MPI_File_iread(fh, r + 10, 10, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    CHECK(MPI_File_read_all(fh, r + 20, 20, MPI_INT, &st));
    CHECK(MPI_File_iread_all(fh, r + 40, 10, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    CHECK(MPI_File_read_all_begin(fh, r + 50, N - 50, MPI_INT));
    CHECK(MPI_File_read_all_end(fh, r + 50, &st));
    if (memcmp(r, b, sizeof r))
        FAIL("individual pointers: read back differs");
    EXPECT_CLASS(MPI_File_seek(fh, -1, MPI_SEEK_SET), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_File_seek(fh, 0, 12345), MPI_ERR_ARG);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_seek(fh, 0, MPI_SEEK_END)); /* the view is my block onwards */
    CHECK(MPI_File_get_position(fh, &pos));
    EXPECT_INT(pos, (MPI_Offset)(nranks - mc_rank) * N);
    CHECK(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    fh = open_rw("indiv");
    int *v = read_all_ints(fh, N * nranks);
    for (int i = 0; i < N * nranks; i++)
        if (v[i] != pat(i / N, i % N)) {
            FAIL("individual: int %d is %d", i, v[i]);
            break;
        }
    free(v);
    CHECK(MPI_File_close(&fh));
}

/* Shared pointer: every rank's block lands once, whole; ordered: in rank order. */
static void t_shared(void)
{
    enum { K = 16 };
    MPI_File fh = open_rw("shared");
    int b[K], cnt;
    MPI_Offset pos;
    MPI_Status st;
    MPI_Request rq;
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    fill(b, K, mc_rank, 0);
    CHECK(MPI_File_write_shared(fh, b, K / 2, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, K / 2);
    CHECK(MPI_File_iwrite_shared(fh, b + K / 2, K / 2, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_get_position_shared(fh, &pos));
    EXPECT_INT(pos, (MPI_Offset)nranks * K);
    int *seen = calloc((size_t)nranks, sizeof *seen), *v = read_all_ints(fh, nranks * K);
    for (int blk = 0; blk < 2 * nranks; blk++) {
        int r = v[blk * K / 2] / 100000, first = v[blk * K / 2] % 100000;
        for (int i = 0; i < K / 2; i++)
            if (r >= nranks || v[blk * K / 2 + i] != pat(r, first + i))
                FAIL("shared: block %d torn at %d", blk, i);
        if (r < nranks)
            seen[r]++;
    }
    for (int r = 0; r < nranks; r++)
        if (seen[r] != 2)
            FAIL("shared: rank %d's blocks seen %d times", r, seen[r]);
    free(v);
    /* ordered: rank order from the shared pointer's place */
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CHECK(MPI_File_write_ordered(fh, b, K, MPI_INT, &st));
    CHECK(MPI_File_write_ordered_begin(fh, b, K, MPI_INT));
    CHECK(MPI_File_write_ordered_end(fh, b, &st));
    CHECK(MPI_File_get_position_shared(fh, &pos));
    EXPECT_INT(pos, 2 * (MPI_Offset)nranks * K);
    v = read_all_ints(fh, 2 * nranks * K);
    for (int i = 0; i < 2 * nranks * K; i++)
        if (v[i] != pat(i / K % nranks, i % K)) {
            FAIL("ordered: int %d is %d", i, v[i]);
            break;
        }
    free(v);
    int r[K];
    CHECK(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    CHECK(MPI_File_read_ordered(fh, r, K, MPI_INT, &st));
    if (memcmp(r, b, sizeof r))
        FAIL("read_ordered: my block differs");
    CHECK(MPI_File_read_ordered_begin(fh, r, K, MPI_INT));
    CHECK(MPI_File_read_ordered_end(fh, r, &st));
    if (memcmp(r, b, sizeof r))
        FAIL("read_ordered_begin: my block differs");
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CHECK(MPI_File_iread_shared(fh, r, K, MPI_INT, &rq));
    CHECK(MPI_Wait(&rq, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, K);
    if (r[1] != r[0] + 1)
        FAIL("iread_shared: not a block");
    free(seen);
    CHECK(MPI_File_close(&fh));
}

/* Noncontiguous memory (every other int) and MPI_BOTTOM with absolute addresses. */
/* Every rank opens one file on MPI_COMM_SELF at once, over and over (as HDF5's t_chunk_alloc
 * reads a file's size): each open has its own shared pointer, so one rank's write_shared does
 * not move another's, and no open fails because another rank's close removed a side file
 * (they shared one name before: "no such file" at n = 4). */
static void t_self_opens(void)
{
    MPI_File fh;
    if (mc_rank == 0) {
        CHECK(MPI_File_open(MPI_COMM_SELF, io_path("selfopen"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                            MPI_INFO_NULL, &fh));
        CHECK(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int it = 0; it < 20; it++) {
        MPI_Offset pos = -1;
        int mode = it % 2 ? MPI_MODE_RDONLY : MPI_MODE_RDWR;
        CHECK(MPI_File_open(MPI_COMM_SELF, io_path("selfopen"), mode, MPI_INFO_NULL, &fh));
        CHECK(MPI_File_get_position_shared(fh, &pos));
        EXPECT_INT((int)pos, 0);
        if (mode == MPI_MODE_RDWR) { /* my own pointer moves by my own writes only */
            int v[3] = {mc_rank, it, 7};
            CHECK(MPI_File_write_shared(fh, v, 3, MPI_INT, MPI_STATUS_IGNORE));
            CHECK(MPI_File_get_position_shared(fh, &pos));
            EXPECT_INT((int)pos, 12);
        }
        CHECK(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void t_memtypes(void)
{
    MPI_File fh = open_rw("mem");
    int b[2 * N], r[N];
    MPI_Datatype every2;
    MPI_Type_vector(N, 1, 2, MPI_INT, &every2);
    MPI_Type_commit(&every2);
    for (int i = 0; i < 2 * N; i++)
        b[i] = i % 2 ? -1 : pat(mc_rank, i / 2);
    MPI_Offset off = (MPI_Offset)mc_rank * N * 4;
    CHECK(MPI_File_write_at_all(fh, off, b, 1, every2, MPI_STATUS_IGNORE));
    MPI_Aint a;
    MPI_Get_address(r, &a);
    MPI_Datatype abs;
    int len = N;
    MPI_Type_create_hindexed(1, &len, &a, MPI_INT, &abs);
    MPI_Type_commit(&abs);
    CHECK(MPI_File_read_at_all(fh, off, MPI_BOTTOM, 1, abs, MPI_STATUS_IGNORE));
    for (int i = 0; i < N; i++)
        if (r[i] != pat(mc_rank, i)) {
            FAIL("memtypes: int %d is %d", i, r[i]);
            break;
        }
    memset(b, 0, sizeof b);
    CHECK(MPI_File_read_at(fh, off, b, 1, every2, MPI_STATUS_IGNORE));
    for (int i = 0; i < 2 * N; i++)
        if (b[i] != (i % 2 ? 0 : pat(mc_rank, i / 2))) {
            FAIL("memtypes: strided read, int %d is %d", i, b[i]);
            break;
        }
    MPI_Type_free(&every2);
    MPI_Type_free(&abs);
    CHECK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 90);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    io_dir_make();
    t_explicit();
    t_individual();
    t_shared();
    t_memtypes();
    t_self_opens();
    io_dir_remove();
    int r = mc_done("mpi_io_rw");
    MPI_Finalize();
    return r;
}
