/* mpi_coll.c — every collective of mpi.h, blocking and nonblocking (argv[1] "blocking" or
 * "nonblocking"), against values computed serially: each rank's contribution is a known
 * function of (rank, index), so every rank knows what everyone sent. Includes MPI_IN_PLACE
 * and several types and ops. */
#include <stdbool.h>

#include "mpicheck.h"

enum { C = 37 }; /* elements per block: odd, so nothing lines up by accident */

static int nb; /* 1: the I* forms, completed with MPI_Wait */

static int v(int rank, int i)
{
    return (rank + 1) * 100 + i;
}

/* Runs the blocking call, or its nonblocking form followed by MPI_Wait. */
#define COLL(Name, name, ...) MC_COLL(nb, MPI_##Name, MPI_I##name, __VA_ARGS__)

static void check_ints(const char *what, const int *got, const int *want, int n)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            FAIL("%s (%s): element %d is %d, expected %d", what, nb ? "nonblocking" : "blocking",
                 i, got[i], want[i]);
            return;
        }
}

static void t_barrier_bcast(int rank, int size)
{
    if (nb) {
        MPI_Request r;
        CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &r));
        CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
    } else {
        CHECK(MPI_Barrier(MPI_COMM_WORLD));
    }
    for (int root = 0; root < size; root++) {
        int buf[C], want[C];
        for (int i = 0; i < C; i++)
            buf[i] = rank == root ? v(root, i) : -1, want[i] = v(root, i);
        COLL(Bcast, bcast, buf, C, MPI_INT, root, MPI_COMM_WORLD);
        check_ints("bcast", buf, want, C);
    }
    char s[16] = "";
    if (rank == 0)
        strcpy(s, "hello, ranks");
    COLL(Bcast, bcast, s, sizeof s, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (strcmp(s, "hello, ranks") != 0)
        FAIL("bcast of MPI_CHAR gave '%s'", s);
}

static void t_reduce(int rank, int size)
{
    int out[C], in[C], want[C];
    for (int i = 0; i < C; i++)
        out[i] = v(rank, i);
    int root = size - 1;
    COLL(Reduce, reduce, out, in, C, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
    for (int i = 0; i < C; i++) {
        want[i] = 0;
        for (int r = 0; r < size; r++)
            want[i] += v(r, i);
    }
    if (rank == root)
        check_ints("reduce SUM", in, want, C);
    /* MAX of doubles, in place at the root */
    double d[C];
    for (int i = 0; i < C; i++)
        d[i] = (rank == i % size) ? 1000.5 + i : -(double)rank;
    COLL(Reduce, reduce, rank == 0 ? MPI_IN_PLACE : d, d, C, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int i = 0; i < C; i++)
            if (d[i] != 1000.5 + i && !(size == 1 && d[i] == 1000.5 + i)) {
                FAIL("reduce MAX in place: element %d is %g", i, d[i]);
                break;
            }
}

static void t_allreduce(int rank, int size)
{
    int out[C], in[C], want[C];
    for (int i = 0; i < C; i++)
        out[i] = v(rank, i);
    COLL(Allreduce, allreduce, out, in, C, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < C; i++) {
        want[i] = 0;
        for (int r = 0; r < size; r++)
            want[i] += v(r, i);
    }
    check_ints("allreduce SUM", in, want, C);
    long long p = rank + 2, pw = 1;
    COLL(Allreduce, allreduce, MPI_IN_PLACE, &p, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        pw *= r + 2;
    EXPECT_INT(p, pw);
    unsigned bits = 1u << rank, all = 0;
    COLL(Allreduce, allreduce, &bits, &all, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
    EXPECT_INT(all, (1u << size) - 1);
    int mn = 0, lor = 0, flag = rank == size - 1;
    COLL(Allreduce, allreduce, &rank, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    EXPECT_INT(mn, 0);
    COLL(Allreduce, allreduce, &flag, &lor, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    EXPECT_INT(lor, 1);
}

static void t_gather_scatter(int rank, int size)
{
    int *all = malloc((size_t)size * C * sizeof *all), *want = malloc((size_t)size * C * sizeof *want);
    int mine[C], wmine[C];
    for (int r = 0; r < size; r++)
        for (int i = 0; i < C; i++)
            want[r * C + i] = v(r, i);
    for (int i = 0; i < C; i++)
        mine[i] = v(rank, i);
    for (int root = 0; root < size; root++) {
        memset(all, 0xff, (size_t)size * C * sizeof *all);
        COLL(Gather, gather, mine, C, MPI_INT, all, C, MPI_INT, root, MPI_COMM_WORLD);
        if (rank == root)
            check_ints("gather", all, want, size * C);
        /* scatter what the root has: block r = v(r, .) */
        memcpy(all, want, (size_t)size * C * sizeof *all);
        memset(wmine, 0, sizeof wmine);
        COLL(Scatter, scatter, all, C, MPI_INT, wmine, C, MPI_INT, root, MPI_COMM_WORLD);
        check_ints("scatter", wmine, mine, C);
    }
    memset(all, 0xff, (size_t)size * C * sizeof *all);
    COLL(Allgather, allgather, mine, C, MPI_INT, all, C, MPI_INT, MPI_COMM_WORLD);
    check_ints("allgather", all, want, size * C);
    /* in place: my block already in its slot */
    memset(all, 0xff, (size_t)size * C * sizeof *all);
    memcpy(all + rank * C, mine, sizeof mine);
    COLL(Allgather, allgather, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, C, MPI_INT, MPI_COMM_WORLD);
    check_ints("allgather in place", all, want, size * C);
    free(all);
    free(want);
}

/* alltoall: block for p from r is v(r, p * C + i). */
static void t_alltoall(int rank, int size)
{
    size_t n = (size_t)size * C;
    int *out = malloc(n * sizeof *out), *in = malloc(n * sizeof *in), *want = malloc(n * sizeof *want);
    for (int p = 0; p < size; p++)
        for (int i = 0; i < C; i++) {
            out[p * C + i] = v(rank, p * C + i);
            want[p * C + i] = v(p, rank * C + i);
        }
    COLL(Alltoall, alltoall, out, C, MPI_INT, in, C, MPI_INT, MPI_COMM_WORLD);
    check_ints("alltoall", in, want, size * C);
    free(out);
    free(in);
    free(want);
}

/* reduce_scatter with counts 1, 2, ... and the block form with C each. */
static void t_reduce_scatter(int rank, int size)
{
    int *counts = malloc((size_t)size * sizeof *counts), total = 0, first = 0;
    for (int r = 0; r < size; r++) {
        counts[r] = r + 1;
        if (r < rank)
            first += counts[r];
        total += counts[r];
    }
    int *out = malloc((size_t)(total > size * C ? total : size * C) * sizeof *out);
    int in[C + 64], want[C + 64];
    for (int i = 0; i < total; i++)
        out[i] = v(rank, i);
    COLL(Reduce_scatter, reduce_scatter, out, in, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < counts[rank]; i++) {
        want[i] = 0;
        for (int r = 0; r < size; r++)
            want[i] += v(r, first + i);
    }
    check_ints("reduce_scatter", in, want, counts[rank]);
    for (int i = 0; i < size * C; i++)
        out[i] = v(rank, i);
    COLL(Reduce_scatter_block, reduce_scatter_block, out, in, C, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < C; i++) {
        want[i] = 0;
        for (int r = 0; r < size; r++)
            want[i] += v(r, rank * C + i);
    }
    check_ints("reduce_scatter_block", in, want, C);
    free(counts);
    free(out);
}

/* Several nonblocking collectives in flight at once, completed together. */
static void t_overlapped(int rank, int size)
{
    if (!nb)
        return;
    int a = rank, sa = -1, b = rank * 2, mb = -1;
    MPI_Request r[3];
    CHECK(MPI_Iallreduce(&a, &sa, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]));
    CHECK(MPI_Iallreduce(&b, &mb, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[1]));
    CHECK(MPI_Ibarrier(MPI_COMM_WORLD, &r[2]));
    CHECK(MPI_Waitall(3, r, MPI_STATUSES_IGNORE));
    EXPECT_INT(sa, size * (size - 1) / 2);
    EXPECT_INT(mb, 2 * (size - 1));
}

/* MPI lets ranks describe one broadcast with different types of the same signature (MPICH's
 * DTPools bcast tests): the root sends N contiguous ints, the others receive them through a
 * vector (every other int, forwards or backwards), and the other way round; sizes from small
 * to large (the offloaded and the software paths). Gaps stay untouched. */
static void t_bcast_mixed_types(int rank, int size)
{
    static const int ns[] = {1, 7, 1000, 70000};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        int *flat = malloc(sizeof(int) * (size_t)n), *wide = malloc(sizeof(int) * 2 * (size_t)n);
        for (int dir = 0; dir < 2; dir++)
            for (int root = 0; root < size; root += size > 2 ? size - 1 : 1) {
                MPI_Datatype vec;
                /* stride 2 forwards, or -2 from the far end (the blocks go backwards) */
                CHECK(MPI_Type_vector(n, 1, dir ? -2 : 2, MPI_INT, &vec));
                CHECK(MPI_Type_commit(&vec));
                int *origin = dir ? wide + 2 * (n - 1) : wide;
                bool contig_here = (rank == root) == (k % 2 == 0);
                for (int i = 0; i < n; i++)
                    flat[i] = rank == root ? v(root, i) : -1;
                for (int i = 0; i < 2 * n; i++)
                    wide[i] = -7;
                if (rank == root && !contig_here)
                    for (int i = 0; i < n; i++)
                        origin[(dir ? -2 : 2) * i] = v(root, i);
                if (contig_here)
                    COLL(Bcast, bcast, flat, n, MPI_INT, root, MPI_COMM_WORLD);
                else
                    COLL(Bcast, bcast, origin, 1, vec, root, MPI_COMM_WORLD);
                for (int i = 0; i < n && rank != root; i++) {
                    int got = contig_here ? flat[i] : origin[(dir ? -2 : 2) * i];
                    if (got != v(root, i)) {
                        FAIL("bcast of %d ints, root %d %s, mixed types (%s): element %d is %d",
                             n, root, dir ? "backwards" : "forwards", nb ? "nb" : "blocking",
                             i, got);
                        break;
                    }
                }
                for (int i = 0; !contig_here && rank != root && i < n - 1; i++)
                    if (origin[(dir ? -2 : 2) * i + (dir ? -1 : 1)] != -7) {
                        FAIL("bcast into a vector wrote a gap (%d ints)", n);
                        break;
                    }
                CHECK(MPI_Type_free(&vec));
            }
        free(flat);
        free(wide);
    }
}

int main(int argc, char **argv)
{
    nb = argc > 1 && strcmp(argv[1], "nonblocking") == 0;
    int size = mc_init_size(&argc, &argv, 100);
    t_barrier_bcast(mc_rank, size);
    t_reduce(mc_rank, size);
    t_allreduce(mc_rank, size);
    t_gather_scatter(mc_rank, size);
    t_alltoall(mc_rank, size);
    t_reduce_scatter(mc_rank, size);
    t_overlapped(mc_rank, size);
    t_bcast_mixed_types(mc_rank, size);
    CHECK(MPI_Finalize());
    return mc_done(nb ? "mpi_coll nonblocking" : "mpi_coll blocking");
}
