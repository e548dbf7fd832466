/* test_bench.c — rmp-bench (bench/rmp-bench) under mrun: every benchmark sweeps a tiny range
 * and reports one validated row per size, in each output format; bad input ends with a
 * message and exit status 2, never a crash or a hang. */
#include "run.h"

#ifndef RMP_TEST_BENCH
#error "build with -DRMP_TEST_BENCH=<path of rmp-bench> (the Makefile does)"
#endif

#define SWEEP "--max", "4096", "--iters", "20"

/* CSV rows "rmp,<bench>,<n>,<bytes>,20,avg,min,max,<unit>,<check>": exactly one per size of
 * the doubling sweep first..4096, and no other row of that benchmark. */
static void expect_rows(const run_result_t *r, const char *bench, int n, const char *unit,
                        size_t first, const char *check)
{
    char prefix[128], suffix[64];
    int rows = 0;
    for (size_t s = first; s <= 4096; s = s ? s * 2 : 4096 + 1, rows++) {
        snprintf(prefix, sizeof prefix, "rmp,%s,%d,%zu,20,", bench, n, s);
        snprintf(suffix, sizeof suffix, ",%s,%s", unit, check);
        expect_like(*r, out, prefix, suffix, 1);
    }
    snprintf(prefix, sizeof prefix, "rmp,%s,", bench);
    int found = count_prefix(r->out, prefix);
    cr_assert_eq(found, rows, "%d rows of %s, expected %d\n%s", found, bench, rows, tail(r->out));
}

static void bench_one(const char *bench, const char *unit, size_t first)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, bench, SWEEP, "--format", "csv", NULL);
    expect_success(r);
    expect_line(r, out, "backend,bench,ranks,bytes,iters,avg,min,max,unit,check", 1);
    expect_rows(&r, bench, 2, unit, first, first == 0 && !strcmp(bench, "barrier") ? "-" : "ok");
    run_free(&r);
}

/* The MPI-IO kernels (one shared file in /tmp, removed at the end): one 4 KiB row each, its
 * bytes read back through the view. */
Test(bench, io_kernels_n2, .timeout = 300)
{
    static const char *const io[] = {"io-write", "io-read", "io-strided-write",
                                      "io-2d-write-all", "io-2d-read-all", "io-3d-write-all",
                                      "io-3d-read-all", "io-write-ordered"};
    for (size_t i = 0; i < sizeof io / sizeof io[0]; i++)
        bench_one(io[i], "MB/s", 4096);
}

Test(bench, latency_n2, .timeout = 90)
{
    bench_one("latency", "us", 1);
}

Test(bench, bw_n2, .timeout = 90)
{
    bench_one("bw", "MB/s", 1);
}

Test(bench, bibw_n2, .timeout = 90)
{
    bench_one("bibw", "MB/s", 1);
}

Test(bench, msgrate_n2, .timeout = 90)
{
    bench_one("msgrate", "msg/s", 1);
}

Test(bench, barrier_n2, .timeout = 90)
{
    bench_one("barrier", "us", 0);
}

Test(bench, bcast_n2, .timeout = 90)
{
    bench_one("bcast", "us", 1);
}

Test(bench, reduce_n2, .timeout = 90)
{
    bench_one("reduce", "us", 4);
}

Test(bench, allreduce_n2, .timeout = 90)
{
    bench_one("allreduce", "us", 4);
}

/* Sums of ints, exact (what RMP_COLL_OFFLOAD runs on RDMA atomics over verbs). */
Test(bench, allreduce_int_n2, .timeout = 90)
{
    bench_one("allreduce-int", "us", 4);
}

Test(bench, allgather_n2, .timeout = 90)
{
    bench_one("allgather", "us", 1);
}

Test(bench, alltoall_n2, .timeout = 90)
{
    bench_one("alltoall", "us", 1);
}

static void collectives_at(int n)
{
    run_opts_t o = {.limit = 120};
    run_result_t r = run_mrun(&o, n, RMP_TEST_BENCH, "collectives", SWEEP, "--format", "csv", NULL);
    expect_success(r);
    expect_rows(&r, "barrier", n, "us", 0, "-");
    expect_rows(&r, "bcast", n, "us", 1, "ok");
    expect_rows(&r, "reduce", n, "us", 4, "ok");
    expect_rows(&r, "allreduce", n, "us", 4, "ok");
    expect_rows(&r, "allgather", n, "us", 1, "ok");
    expect_rows(&r, "alltoall", n, "us", 1, "ok");
    run_free(&r);
}

Test(bench, collectives_n3, .timeout = 150)
{
    collectives_at(3);
}

Test(bench, collectives_n4, .timeout = 150)
{
    collectives_at(4);
}

/* The default table: a header per benchmark, then "bytes avg min max iters check" rows. */
Test(bench, table_format_rows, .timeout = 60)
{
    run_opts_t o = {.limit = 45};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, "allreduce", SWEEP, NULL);
    expect_success(r);
    expect_like(r, out, "# rmp-bench allreduce: rmp, 2 ranks, us", "", 1);
    for (size_t s = 4; s <= 4096; s *= 2) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "  %10zu ", s);
        expect_like(r, out, prefix, "       20  ok", 1);
    }
    run_free(&r);
}

Test(bench, json_format_rows, .timeout = 60)
{
    run_opts_t o = {.limit = 45};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, "bcast", "--max", "64", "--iters", "20",
                              "--format", "json", NULL);
    expect_success(r);
    expect_line(r, out, "{\"backend\": \"rmp\", \"ranks\": 2, \"results\": [", 1);
    /* rows end with "}," but the last */
    expect_like(r, out, "  {\"bench\": \"bcast\", \"bytes\": ", "\"check\": \"ok\"},", 6);
    expect_like(r, out, "  {\"bench\": \"bcast\", \"bytes\": 64,", "\"check\": \"ok\"}", 1);
    expect_line(r, out, "]}", 1);
    run_free(&r);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void expect_usage_error(int n, const char *message, const char *const args[])
{
    const char *argv[16] = {RMP_TEST_MRUN, "-n", n == 2 ? "2" : "3", RMP_TEST_BENCH};
    int k = 4;
    for (int i = 0; args[i] && k < 15; i++)
        argv[k++] = args[i];
    argv[k] = NULL;
    run_opts_t o = {.limit = 30};
    run_result_t r = run_cmd(&o, argv);
    expect_exit(r, 2);
    expect_clean(r);
    expect_line(r, err, message, 1);
    expect_line(r, err, "Try 'rmp-bench --help'.", 1);
    cr_assert_eq(count_prefix(r.out, "rmp,"), 0, "rows printed despite the error:\n%s",
                 tail(r.out));
    run_free(&r);
}

Test(bench, unknown_benchmark_exits_2_with_message, .timeout = 45)
{
    expect_usage_error(2,
                       "rmp-bench: unknown benchmark 'nosuch' (latency, bw, bibw, msgrate, "
                       "barrier, bcast, reduce, allreduce, allgather, alltoall, collectives, "
                       "allreduce-int, overlap, overlap-iallreduce, overlap-p2p, put, get, "
                       "acc, get-acc, fop, cas, put-bw, get-bw, put-bibw, rma, io-write, io-read, "
                       "io-strided-write, io-2d-write-all, io-2d-read-all, io-3d-write-all, "
                       "io-3d-read-all, io-write-ordered, io, overlap-iwrite-all)",
                       (const char *const[]){"nosuch", NULL});
}

/* overlap: per size, the overlap (%) and the three times it comes from (us), for both
 * operations, every row validated (the pure and the overlapped loops' data). */
static void expect_overlap_rows(const run_result_t *r, const char *op, int n)
{
    static const char *const suffix[] = {"", "-comm", "-total", "-compute"};
    for (int i = 0; i < 4; i++) {
        char bench[64];
        snprintf(bench, sizeof bench, "%s%s", op, suffix[i]);
        expect_rows(r, bench, n, i ? "us" : "%", 1024, "ok");
    }
}

Test(bench, overlap_n2, .timeout = 90)
{
    run_opts_t o = {.limit = 60};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, "overlap", SWEEP, "--format", "csv", NULL);
    expect_success(r);
    expect_overlap_rows(&r, "overlap-iallreduce", 2);
    expect_overlap_rows(&r, "overlap-p2p", 2);
    run_free(&r);
}

Test(bench, overlap_iallreduce_n3_with_progress_thread, .timeout = 90)
{
    static const char *const env[] = {"RMP_PROGRESS_THREAD=1", NULL};
    run_opts_t o = {.limit = 60, .env = env};
    run_result_t r = run_mrun(&o, 3, RMP_TEST_BENCH, "overlap-iallreduce", SWEEP, "--format",
                              "csv", NULL);
    expect_success(r);
    expect_overlap_rows(&r, "overlap-iallreduce", 3);
    run_free(&r);
}

Test(bench, overlap_on_three_ranks_exits_2, .timeout = 45)
{
    expect_usage_error(3, "rmp-bench: overlap-p2p needs an even number of ranks (pairs); this "
                          "job has 3",
                       (const char *const[]){"overlap", NULL});
}

Test(bench, latency_on_three_ranks_exits_2, .timeout = 45)
{
    expect_usage_error(3, "rmp-bench: latency needs exactly 2 ranks (mrun -n 2); this job has 3",
                       (const char *const[]){"latency", "--format", "csv", NULL});
}

Test(bench, min_above_max_exits_2, .timeout = 45)
{
    expect_usage_error(2, "rmp-bench: --min (8192) is larger than --max (4096)",
                       (const char *const[]){"bw", "--min", "8k", "--max", "4k", NULL});
}

Test(bench, bad_size_exits_2, .timeout = 45)
{
    expect_usage_error(2, "rmp-bench: --max: '12x' is not a size of 0 to 256M bytes",
                       (const char *const[]){"bcast", "--max", "12x", NULL});
}

/* ---- one-sided ---------------------------------------------------------------------------- */

/* `rma` under one synchronization and window flavor: every one of the nine kernels reports its
 * rows as NAME-SYNC, each validated (the data or the atomic's result and effect, at the origin
 * and the target). */
static void rma_at(const char *sync, const char *flavor)
{
    static const struct {
        const char *name, *unit;
        size_t first;
    } sweeps[] = {
        {"put", "us", 1},       {"get", "us", 1},       {"acc", "us", 8},
        {"get-acc", "us", 8},   {"put-bw", "MB/s", 1},  {"get-bw", "MB/s", 1},
        {"put-bibw", "MB/s", 1},
    };
    run_opts_t o = {.limit = 100};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, "rma", "--sync", sync, "--win", flavor,
                              SWEEP, "--format", "csv", NULL);
    expect_success(r);
    char bench[64], prefix[96];
    for (size_t i = 0; i < sizeof sweeps / sizeof sweeps[0]; i++) {
        snprintf(bench, sizeof bench, "%s-%s", sweeps[i].name, sync);
        expect_rows(&r, bench, 2, sweeps[i].unit, sweeps[i].first, "ok");
    }
    /* fetch_and_op and compare_and_swap: one 8-byte row whatever the sweep. */
    for (int i = 0; i < 2; i++) {
        snprintf(prefix, sizeof prefix, "rmp,%s-%s,2,8,20,", i ? "cas" : "fop", sync);
        expect_like(r, out, prefix, ",us,ok", 1);
        snprintf(prefix, sizeof prefix, "rmp,%s-%s,", i ? "cas" : "fop", sync);
        cr_assert_eq(count_prefix(r.out, prefix), 1, "%s\n%s", prefix, tail(r.out));
    }
    run_free(&r);
}

Test(bench, rma_flush_n2, .timeout = 150)
{
    rma_at("flush", "allocate");
}

Test(bench, rma_lock_n2, .timeout = 150)
{
    rma_at("lock", "allocate");
}

Test(bench, rma_fence_create_n2, .timeout = 150)
{
    rma_at("fence", "create");
}

Test(bench, rma_pscw_n2, .timeout = 150)
{
    rma_at("pscw", "allocate");
}

Test(bench, rma_on_three_ranks_exits_2, .timeout = 45)
{
    expect_usage_error(3, "rmp-bench: put needs exactly 2 ranks (mrun -n 2); this job has 3",
                       (const char *const[]){"put", "--sync", "lock", NULL});
}

Test(bench, rma_bad_sync_exits_2, .timeout = 45)
{
    expect_usage_error(2, "rmp-bench: --sync: 'pcsw' is not one of flush, lock, fence, pscw",
                       (const char *const[]){"put", "--sync", "pcsw", NULL});
}

Test(bench, rma_bad_flavor_exits_2, .timeout = 45)
{
    expect_usage_error(2, "rmp-bench: --win: 'dynamic' is not one of allocate, create",
                       (const char *const[]){"get", "--win", "dynamic", NULL});
}

Test(bench, acc_sizes_not_multiples_of_8_exit_2, .timeout = 45)
{
    expect_usage_error(2,
                       "rmp-bench: acc: no message size in the sweep (sizes must be multiples "
                       "of 8 bytes)",
                       (const char *const[]){"acc", "--min", "4", "--max", "4", NULL});
}

Test(bench, help_exits_0, .timeout = 45)
{
    run_opts_t o = {.limit = 30};
    run_result_t r = run_mrun(&o, 2, RMP_TEST_BENCH, "--help", NULL);
    expect_success(r);
    expect_line(r, out, "Usage: mrun -n N rmp-bench BENCHMARK [options]", 1);
    run_free(&r);
}
