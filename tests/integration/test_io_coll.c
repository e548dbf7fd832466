/* test_io_coll.c — the two-phase collective I/O engine (io/coll_*.c) alone: tests/progs/io_coll
 * writes and reads back every access shape under several hints at n = 1, 2, 4, 5, on tmpfs
 * (/dev/shm) and on the disk file system of /tmp, checked byte for byte against a serial
 * reference; a read-only descriptor's failure comes back on every rank, reported once per
 * failing rank with the file's path and errno; a rank that dies mid-write ends the job. */
#include "run.h"

static void io_coll(int n, const char *dir)
{
    run_opts_t o = {.limit = 200};
    run_result_t r = run_mrun(&o, n, PROG("io_coll"), dir, NULL);
    expect_success(r);
    char line[64];
    snprintf(line, sizeof line, "io_coll: OK n=%d", n);
    expect_line(r, out, line, 1);
    /* rank 0 aggregates or writes alone in both read-only cases: one line each */
    expect_like(r, err, "rmp[0]: collective I/O: pwrite of ",
                "failed: Bad file descriptor (errno 9)", 2);
    int named = count_like(r.err, "rmp[0]: collective I/O: pwrite of ", "(errno 9)");
    cr_assert(strstr(r.err, dir) && named == 2, "the error lines name the file:\n%s",
              tail(r.err));
    run_free(&r);
}

RUN_SIZES(io_coll, tmpfs, 1, 2, 4, 5)

ParameterizedTest(int *n, io_coll, tmpfs, .timeout = 300)
{
    io_coll(*n, "/dev/shm");
}

RUN_SIZES(io_coll, disk, 1, 2, 4, 5)

ParameterizedTest(int *n, io_coll, disk, .timeout = 300)
{
    io_coll(*n, "/tmp");
}

/* The others are inside the collective write when rank 1 exits: the job ends, it never
 * hangs, and mrun names the rank. */
Test(io_coll, rank_dies_mid_write_n4, .timeout = 300)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, 4, PROG("io_coll"), "/dev/shm", "die", NULL);
    cr_assert(!r.timed_out, "the job hung after rank 1 died:\n%s", tail(r.err));
    cr_assert_neq(r.code, 0, "the job succeeded although rank 1 died");
    expect_like(r, err, "mrun: rank 1 (pid ", "exited with status 3; terminating the job", 1);
    expect_clean(r);
    run_free(&r);
}
