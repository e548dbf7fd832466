/* io_coll.c — the two-phase collective I/O engine (io/coll_*.c) alone, through its one entry
 * io_coll_access: each case writes runs from every rank (interleaved, empty ranks, one rank
 * holding all, runs larger than the collective buffer, unaligned, holes over old bytes) under
 * several hints, then rank 0 checks the whole file byte for byte against a serial reference
 * and every rank reads its runs back collectively. Failures of the file system (a read-only
 * descriptor) and bad runs must come back as the same code on every rank.
 * Usage: io_coll DIR [die] (DIR: the file system to test, tmpfs or a disk). Prints
 * "io_coll: OK n=N". With "die", rank 1 exits while the others are in the first write. */
#include <fcntl.h>
#include <sys/stat.h>

#include "../../io/io.h"
#include "progs.h"

enum { K_INTERLEAVED, K_EMPTY, K_ONE, K_BIG, K_HOLES, K_UNALIGNED };

typedef struct tcase {
    const char *name;
    int kind;
    int64_t block;   /* K_INTERLEAVED: the bytes of one run */
    io_hints_t hints;
    int64_t prefill; /* bytes of 0xEE the file holds before (the holes' old bytes) */
} tcase_t;

static int rank, size, die;

static unsigned char pat(int64_t o)
{
    return (unsigned char)(o * 131 + (o >> 9) + 7);
}

/* The runs rank r writes in case c (out may be NULL: just count). */
static size_t gen_runs(const tcase_t *c, int r, io_run_t *out)
{
    size_t n = 0;
#define RUN(o, l)                                                                              \
    do {                                                                                       \
        if (out)                                                                               \
            out[n] = (io_run_t){(o), (l), NULL};                                               \
        n++;                                                                                   \
    } while (0)
    switch (c->kind) {
    case K_INTERLEAVED: /* rank r owns every size-th block */
        for (int i = 0; i < 8; i++)
            RUN((i * size + r) * c->block, c->block);
        break;
    case K_EMPTY: /* odd ranks have nothing; even ones interleave */
        if (r % 2 == 0)
            for (int i = 0; i < 6; i++)
                RUN((i * ((size + 1) / 2) + r / 2) * 100, 100);
        break;
    case K_ONE: /* the last rank holds everything, with holes of 500 between runs */
        if (r == size - 1)
            for (int i = 0; i < 20; i++)
                RUN(i * 1500 + 5, 1000);
        break;
    case K_BIG: /* 10000-byte runs against a 4096-byte buffer, at an odd start */
        for (int i = 0; i < 4; i++)
            RUN((i * size + r) * 10000 + 3, 10000);
        break;
    case K_HOLES: /* 32 of every 64 bytes written: the rest keeps the old bytes */
        for (int i = 0; i < 50; i++)
            RUN((i * size + r) * 64 + 16, 32);
        break;
    case K_UNALIGNED: /* one contiguous run per rank, odd sizes, back to back */
        RUN(13 + (int64_t)r * 5000 + (int64_t)r * (r - 1) / 2, 5000 + r);
        break;
    }
#undef RUN
    return n;
}

/* My runs with memory filled with (write) or cleared for (read) the pattern. */
static io_run_t *my_runs(const tcase_t *c, size_t *n, int fill_pat)
{
    *n = gen_runs(c, rank, NULL);
    io_run_t *runs = calloc(*n + 1, sizeof(io_run_t));
    gen_runs(c, rank, runs);
    for (size_t i = 0; i < *n; i++) {
        runs[i].mem = malloc((size_t)runs[i].len);
        for (int64_t k = 0; k < runs[i].len; k++)
            runs[i].mem[k] = fill_pat ? (char)pat(runs[i].off + k) : 0x55;
    }
    return runs;
}

static void free_runs(io_run_t *runs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(runs[i].mem);
    free(runs);
}

/* Rank 0: the file against the serial reference (old bytes, then every rank's runs). */
static void check_file(const tcase_t *c, int fd)
{
    int64_t end = c->prefill;
    for (int r = 0; r < size; r++) {
        size_t n = gen_runs(c, r, NULL);
        io_run_t *runs = calloc(n + 1, sizeof(io_run_t));
        gen_runs(c, r, runs);
        for (size_t i = 0; i < n; i++)
            end = runs[i].off + runs[i].len > end ? runs[i].off + runs[i].len : end;
        free(runs);
    }
    unsigned char *ref = malloc((size_t)end + 1), *got = malloc((size_t)end + 1);
    memset(ref, 0, (size_t)end);
    memset(ref, 0xEE, (size_t)c->prefill);
    for (int r = 0; r < size; r++) {
        size_t n = gen_runs(c, r, NULL);
        io_run_t *runs = calloc(n + 1, sizeof(io_run_t));
        gen_runs(c, r, runs);
        for (size_t i = 0; i < n; i++)
            for (int64_t k = 0; k < runs[i].len; k++)
                ref[runs[i].off + k] = pat(runs[i].off + k);
        free(runs);
    }
    struct stat st;
    EXPECT(fstat(fd, &st) == 0 && st.st_size == end, "%s: file size %lld, expected %lld",
           c->name, (long long)st.st_size, (long long)end);
    ssize_t k = pread(fd, got, (size_t)end, 0);
    EXPECT(k == end, "%s: read %zd of %lld bytes", c->name, k, (long long)end);
    for (int64_t i = 0; k == end && i < end; i++)
        if (got[i] != ref[i]) {
            FAIL("%s: byte %lld is 0x%02x, expected 0x%02x", c->name, (long long)i, got[i],
                 ref[i]);
            break;
        }
    free(ref), free(got);
}

static int open_fresh(const char *path, const tcase_t *c)
{
    if (rank == 0) {
        int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
        if (fd < 0) {
            FAIL("open %s: %s", path, strerror(errno));
            exit(1);
        }
        char *old = malloc((size_t)c->prefill + 1);
        memset(old, 0xEE, (size_t)c->prefill);
        EXPECT(pwrite(fd, old, (size_t)c->prefill, 0) == c->prefill, "prefill failed");
        free(old);
        close(fd);
    }
    MUST(rmp_barrier(RMP_COMM_WORLD));
    int fd = open(path, O_RDWR);
    if (fd < 0) {
        FAIL("open %s: %s", path, strerror(errno));
        exit(1);
    }
    return fd;
}

/* The same code on every rank, and the one expected. */
static void expect_everywhere(const char *what, int rc, int want)
{
    int *all = malloc((size_t)size * sizeof(int));
    MUST(rmp_allgather(&rc, 1, RMP_INT, all, 1, RMP_INT, RMP_COMM_WORLD));
    for (int r = 0; r < size; r++)
        EXPECT(all[r] == want, "%s: rank %d got %d (%s), expected %d (%s)", what, r, all[r],
               rmp_strerror(all[r]), want, rmp_strerror(want));
    free(all);
}

static void run_case(const char *path, const tcase_t *c)
{
    phase(c->name, 120);
    int fd = open_fresh(path, c);
    size_t n;
    io_run_t *runs = my_runs(c, &n, 1);
    if (die) { /* the file goes with the job: unlinked while open */
        MUST(rmp_barrier(RMP_COMM_WORLD));
        if (rank == 0)
            unlink(path);
        MUST(rmp_barrier(RMP_COMM_WORLD));
        if (rank == 1)
            _exit(3);
    }
    expect_everywhere(c->name, io_coll_access(RMP_COMM_WORLD, fd, runs, n, 1, &c->hints),
                      RMP_SUCCESS);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (rank == 0)
        check_file(c, fd);
    free_runs(runs, n);
    runs = my_runs(c, &n, 0);
    expect_everywhere(c->name, io_coll_access(RMP_COMM_WORLD, fd, runs, n, 0, &c->hints),
                      RMP_SUCCESS);
    for (size_t i = 0; i < n; i++)
        for (int64_t k = 0; k < runs[i].len; k++)
            if ((unsigned char)runs[i].mem[k] != pat(runs[i].off + k)) {
                FAIL("%s: read back byte %lld is 0x%02x, expected 0x%02x", c->name,
                     (long long)(runs[i].off + k), (unsigned char)runs[i].mem[k],
                     pat(runs[i].off + k));
                i = n;
                break;
            }
    free_runs(runs, n);
    close(fd);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

#define H_CB .romio_cb_write = IOH_ENABLE, .romio_cb_read = IOH_ENABLE
#define H_NOCB .romio_cb_write = IOH_DISABLE, .romio_cb_read = IOH_DISABLE
static const tcase_t cases[] = {
    {"interleaved 1 B", K_INTERLEAVED, 1, {0}, 0},
    {"interleaved 7 B, 4 KiB buffer", K_INTERLEAVED, 7, {H_CB, .cb_buffer_size = 4096}, 0},
    {"interleaved 4099 B", K_INTERLEAVED, 4099, {0}, 0},
    {"interleaved 4099 B, cb disabled", K_INTERLEAVED, 4099, {H_NOCB}, 0},
    {"interleaved 100 B over old bytes, 1 aggregator", K_INTERLEAVED, 100, {.cb_nodes = 1}, 9000},
    {"empty ranks", K_EMPTY, 0, {0}, 0},
    {"empty ranks, 3 aggregators", K_EMPTY, 0, {.cb_nodes = 3}, 0},
    {"one rank holds all", K_ONE, 0, {0}, 0},
    {"one rank holds all, 4 KiB buffer", K_ONE, 0, {H_CB, .cb_buffer_size = 4096}, 0},
    {"runs larger than the buffer", K_BIG, 0, {H_CB, .cb_buffer_size = 4096}, 0},
    {"runs larger than the buffer, 1 aggregator", K_BIG, 0,
     {H_CB, .cb_buffer_size = 4096, .cb_nodes = 1}, 0},
    {"holes", K_HOLES, 0, {0}, 20000},
    {"holes, sieving on", K_HOLES, 0, {H_CB, .ds_write = IOH_ENABLE,
                                       .ds_read = IOH_ENABLE, .cb_buffer_size = 1000}, 20000},
    {"holes, sieving off", K_HOLES, 0, {H_CB, .ds_write = IOH_DISABLE,
                                        .ds_read = IOH_DISABLE}, 20000},
    {"holes, cb disabled", K_HOLES, 0, {H_NOCB}, 20000},
    {"unaligned", K_UNALIGNED, 0, {0}, 0},
    {"unaligned, stripe 64, 3 aggregators", K_UNALIGNED, 0,
     {H_CB, .striping_unit = 64, .cb_nodes = 3}, 0},
    {"unaligned, 1000 B buffer", K_UNALIGNED, 0, {H_CB, .cb_buffer_size = 1000}, 0},
};

/* A write through a read-only descriptor fails on every rank, even those writing nothing or
 * not aggregating, and leaves the file as it was. */
static void read_only(const char *path, const io_hints_t *h, const char *name)
{
    phase(name, 120);
    tcase_t c = {name, K_INTERLEAVED, 10, *h, 1000};
    close(open_fresh(path, &c));
    int fd = open(path, O_RDONLY);
    size_t n;
    io_run_t *runs = my_runs(&c, &n, 1);
    expect_everywhere(name, io_coll_access(RMP_COMM_WORLD, fd, runs, n, 1, h),
                      RMP_ERR_READ_ONLY);
    free_runs(runs, n);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (rank == 0) {
        unsigned char buf[1001];
        struct stat st;
        EXPECT(fstat(fd, &st) == 0 && st.st_size == 1000, "%s: size changed", name);
        EXPECT(pread(fd, buf, sizeof buf, 0) == 1000, "%s: short read", name);
        for (int i = 0; i < 1000; i++)
            if (buf[i] != 0xEE) {
                FAIL("%s: byte %d changed to 0x%02x", name, i, buf[i]);
                break;
            }
    }
    close(fd);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

/* Runs that break io_coll.h's promise on one rank: RMP_ERR_ARG everywhere, nothing moved. */
static void bad_runs(const char *path)
{
    phase("bad runs", 120);
    tcase_t c = {"bad runs", K_INTERLEAVED, 10, {H_CB}, 100};
    int fd = open_fresh(path, &c);
    size_t n;
    io_run_t *runs = my_runs(&c, &n, 1);
    if (rank == size - 1) { /* out of order */
        io_run_t t = runs[0];
        runs[0] = runs[1], runs[1] = t;
    }
    expect_everywhere("bad runs", io_coll_access(RMP_COMM_WORLD, fd, runs, n, 1, &c.hints),
                      RMP_ERR_ARG);
    free_runs(runs, n);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    struct stat st;
    if (rank == 0)
        EXPECT(fstat(fd, &st) == 0 && st.st_size == 100, "bad runs: the file grew to %lld",
               (long long)st.st_size);
    close(fd);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

/* A collective read across the end of the file: the bytes past it read as zeros. */
static void read_past_end(const char *path)
{
    phase("read past the end", 120);
    tcase_t c = {"read past the end", K_INTERLEAVED, 10, {H_CB}, 1000};
    int fd = open_fresh(path, &c);
    char *buf = malloc(200);
    memset(buf, 0x55, 200);
    io_run_t run = {900 + (int64_t)rank * 200, 200, buf};
    expect_everywhere(c.name, io_coll_access(RMP_COMM_WORLD, fd, &run, 1, 0, &c.hints),
                      RMP_SUCCESS);
    for (int k = 0; k < 200; k++)
        if ((unsigned char)buf[k] != (run.off + k < 1000 ? 0xEE : 0)) {
            FAIL("read past the end: byte %lld is 0x%02x", (long long)(run.off + k),
                 (unsigned char)buf[k]);
            break;
        }
    free(buf);
    close(fd);
    MUST(rmp_barrier(RMP_COMM_WORLD));
}

int main(int argc, char **argv)
{
    phase("init", 60);
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &size));
    prog_rank = rank;
    char path[4096];
    die = argc > 2 && strcmp(argv[2], "die") == 0;
    if (rank == 0)
        snprintf(path, sizeof path, "%s/io_coll.%d.dat", argc > 1 ? argv[1] : "/tmp",
                 (int)getpid());
    MUST(rmp_bcast(path, sizeof path, RMP_BYTE, 0, RMP_COMM_WORLD));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(path, &cases[i]);
    read_only(path, &(io_hints_t){H_CB}, "read-only fd, two-phase");
    read_only(path, &(io_hints_t){H_NOCB}, "read-only fd, cb disabled");
    bad_runs(path);
    read_past_end(path);
    phase("end", 60);
    MUST(rmp_barrier(RMP_COMM_WORLD));
    if (rank == 0)
        unlink(path);
    if (rank == 0 && !prog_failures)
        printf("io_coll: OK n=%d\n", size);
    MUST(rmp_finalize());
    return prog_exit();
}
