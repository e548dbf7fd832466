/* mpi_io_nbc.c — nonblocking collective I/O that runs while the program computes: the bytes
 * of iwrite_at_all / iwrite_all / split collectives against the blocking write_at_all of the
 * same data, several i-collectives outstanding on one file and on two, completed in another
 * order and by Test loops, reads back, the buffer left alone after completion. A small
 * cb_buffer_size makes every access many rounds of the two-phase schedule. Run with and
 * without RMP_PROGRESS_THREAD. */
#include "mpi_io.h"

enum { B = 8, NB = 48 }; /* blocks of B ints, NB per rank, interleaved over the ranks */
static int nranks;

static int pat(int tag, int r, int i)
{
    return tag * 1000000 + r * 10000 + i;
}

/* The interleaved view: my blocks of B ints, one in every nranks (two-phase aggregates). */
static MPI_Datatype view_type(void)
{
    MPI_Datatype v, t;
    MPI_Type_vector(NB, B, B * nranks, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, (MPI_Aint)NB * B * nranks * (MPI_Aint)sizeof(int), &t);
    MPI_Type_commit(&t);
    MPI_Type_free(&v);
    return t;
}

static MPI_File open_view(const char *name, MPI_Datatype ft)
{
    MPI_File fh;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "4096"); /* many rounds */
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path(name), MPI_MODE_RDWR | MPI_MODE_CREATE, info,
                        &fh));
    MPI_Info_free(&info);
    CHECK(MPI_File_set_view(fh, (MPI_Offset)mc_rank * B * (MPI_Offset)sizeof(int), MPI_INT, ft,
                            "native", MPI_INFO_NULL));
    return fh;
}

static void fill(int *b, int n, int tag)
{
    for (int i = 0; i < n; i++)
        b[i] = pat(tag, mc_rank, i);
}

/* Busy work between start and wait, touching no I/O buffer. */
static double compute(int iters)
{
    volatile double x = 1;
    for (int i = 0; i < iters; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

/* Rank 0 reads both files raw and compares them byte for byte. */
static void same_files(const char *a, const char *b, const char *what)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (mc_rank != 0)
        return;
    FILE *fa = fopen(io_path(a), "rb"), *fb = fopen(io_path(b), "rb");
    size_t n = (size_t)NB * B * (size_t)nranks * 2 * sizeof(int) + 64, ka = 0, kb = 0;
    char *x = calloc(n, 1), *y = calloc(n, 1);
    if (fa)
        ka = fread(x, 1, n, fa);
    if (fb)
        kb = fread(y, 1, n, fb);
    if (!fa || !fb || ka != kb || ka == 0 || memcmp(x, y, ka) != 0)
        FAIL("%s: %s (%zu bytes) and %s (%zu bytes) differ", what, a, ka, b, kb);
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    free(x), free(y);
}

/* iwrite_at_all + compute + wait gives the file write_at_all gives; iread_at_all reads it. */
static void t_same_as_blocking(void)
{
    MPI_Datatype ft = view_type();
    int w[NB * B], r[NB * B];
    MPI_Request rq;
    MPI_Status st;
    int cnt;
    fill(w, NB * B, 1);
    MPI_File fb = open_view("blocking", ft), fi = open_view("nonblocking", ft);
    CHECK(MPI_File_write_at_all(fb, 0, w, NB * B, MPI_INT, &st));
    CHECK(MPI_File_iwrite_at_all(fi, 0, w, NB * B, MPI_INT, &rq));
    compute(200000);
    CHECK(MPI_Wait(&rq, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, NB * B);
    memset(w, 0x5a, sizeof w); /* after completion the buffer is mine again */
    CHECK(MPI_File_sync(fi));
    same_files("blocking", "nonblocking", "iwrite_at_all");
    memset(r, 0, sizeof r);
    CHECK(MPI_File_iread_at_all(fi, 0, r, NB * B, MPI_INT, &rq));
    compute(100000);
    CHECK(MPI_Wait(&rq, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, NB * B);
    for (int i = 0; i < NB * B; i++)
        if (r[i] != pat(1, mc_rank, i)) {
            FAIL("iread_at_all: int %d is %d, expected %d", i, r[i], pat(1, mc_rank, i));
            break;
        }
    CHECK(MPI_File_close(&fb));
    CHECK(MPI_File_close(&fi));
    MPI_Type_free(&ft);
}

/* Three i-collectives on one file and two on another, outstanding together, completed last
 * first (Wait) or by a Test loop; then read back by the individual pointer's iread_all. */
static void t_outstanding(int by_test)
{
    MPI_Datatype ft = view_type();
    enum { K = 3 };
    int w[K + 2][NB * B], r[NB * B];
    MPI_Request rq[K + 2];
    MPI_File f1 = open_view("multi1", ft), f2 = open_view("multi2", ft);
    for (int k = 0; k < K + 2; k++)
        fill(w[k], NB * B, 10 + k);
    /* on f1, three thirds of the view by explicit offsets; on f2, by the pointer */
    for (int k = 0; k < K; k++)
        CHECK(MPI_File_iwrite_at_all(f1, (MPI_Offset)k * NB * B / K, w[k] + k * NB * B / K,
                                     NB * B / K, MPI_INT, &rq[k]));
    CHECK(MPI_File_iwrite_all(f2, w[K], NB * B / 2, MPI_INT, &rq[K]));
    CHECK(MPI_File_iwrite_all(f2, w[K + 1] + NB * B / 2, NB * B / 2, MPI_INT, &rq[K + 1]));
    if (by_test) {
        int all = 0;
        for (long spins = 0; !all; spins++) {
            compute(1000);
            CHECK(MPI_Testall(K + 2, rq, &all, MPI_STATUSES_IGNORE));
        }
    } else {
        for (int k = K + 1; k >= 0; k--) /* the last started first */
            CHECK(MPI_Wait(&rq[k], MPI_STATUS_IGNORE));
    }
    CHECK(MPI_File_sync(f1));
    CHECK(MPI_File_sync(f2));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int f = 0; f < 2; f++) {
        MPI_File fh = f ? f2 : f1;
        memset(r, 0, sizeof r);
        CHECK(MPI_File_seek(fh, 0, MPI_SEEK_SET));
        CHECK(MPI_File_iread_all(fh, r, NB * B, MPI_INT, &rq[0]));
        CHECK(MPI_Wait(&rq[0], MPI_STATUS_IGNORE));
        for (int i = 0; i < NB * B; i++) {
            int k = f ? K + i / (NB * B / 2) : i / (NB * B / K);
            if (r[i] != pat(10 + k, mc_rank, i)) {
                FAIL("outstanding (%s), file %d: int %d is %d, expected %d",
                     by_test ? "testall" : "wait in reverse", f + 1, i, r[i],
                     pat(10 + k, mc_rank, i));
                break;
            }
        }
    }
    CHECK(MPI_File_close(&f1));
    CHECK(MPI_File_close(&f2));
    MPI_Type_free(&ft);
}

/* A split collective: begin, compute, end; the same bytes as the blocking write. */
static void t_split(void)
{
    MPI_Datatype ft = view_type();
    int w[NB * B];
    MPI_Status st;
    int cnt;
    fill(w, NB * B, 1);
    MPI_File fh = open_view("split", ft);
    CHECK(MPI_File_write_at_all_begin(fh, 0, w, NB * B, MPI_INT));
    compute(200000);
    CHECK(MPI_File_write_at_all_end(fh, w, &st));
    MPI_Get_count(&st, MPI_INT, &cnt);
    EXPECT_INT(cnt, NB * B);
    CHECK(MPI_File_sync(fh));
    same_files("blocking", "split", "write_at_all_begin/end");
    CHECK(MPI_File_close(&fh));
    MPI_Type_free(&ft);
}

/* A bad argument on one rank fails the i-collective on every rank, at the call. */
static void t_error_agreed(void)
{
    MPI_File fh;
    MPI_Request rq = MPI_REQUEST_NULL;
    int b[4] = {0};
    CHECK(MPI_File_open(MPI_COMM_WORLD, io_path("err"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                        MPI_INFO_NULL, &fh));
    MPI_Offset off = mc_rank == nranks - 1 ? -1 : 0;
    EXPECT_CLASS(MPI_File_iwrite_at_all(fh, off, b, 4, MPI_INT, &rq), MPI_ERR_ARG);
    CHECK(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    io_dir_make();
    t_same_as_blocking();
    t_outstanding(0);
    t_outstanding(1);
    t_split();
    t_error_agreed();
    io_dir_remove();
    int r = mc_done("mpi_io_nbc");
    MPI_Finalize();
    return r;
}
