/* test_examples.c — the programs in examples/ (built next to mrun, in bin/examples) run and
 * print what the README shows. */
#include "run.h"

/* bin/examples/<name>, beside bin/mrun. */
static const char *example(const char *name)
{
    static char path[1024];
    const char *slash = strrchr(RMP_TEST_MRUN, '/');
    snprintf(path, sizeof path, "%.*s/examples/%s", (int)(slash - RMP_TEST_MRUN), RMP_TEST_MRUN,
             name);
    return path;
}

Test(examples, allreduce_n4_readme_demo, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 4, example("allreduce"), NULL);
    expect_success(r);
    for (int k = 0; k < 4; k++) {
        char line[80];
        snprintf(line, sizeof line, "rank %d of 4: allreduce sum = 10 (expected 10)", k);
        expect_line(r, out, line, 1);
    }
    expect_line(r, out, "allreduce OK", 1);
    run_free(&r);
}

Test(examples, allreduce_n8_oversubscribed, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 8, example("allreduce"), NULL);
    expect_success(r);
    expect_line(r, out, "rank 7 of 8: allreduce sum = 36 (expected 36)", 1);
    expect_line(r, out, "allreduce OK", 1);
    run_free(&r);
}

Test(examples, hello_n3, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 3, example("hello"), NULL);
    expect_success(r);
    for (int k = 0; k < 3; k++) {
        char line[64];
        snprintf(line, sizeof line, "hello from rank %d of 3", k);
        expect_line(r, out, line, 1);
    }
    run_free(&r);
}

Test(examples, pingpong_n2_reports_latency_and_bandwidth, .timeout = 30)
{
    run_opts_t o = {.limit = 20};
    run_result_t r = run_mrun(&o, 2, example("pingpong"), "200", NULL);
    expect_success(r);
    expect_like(r, out, "pingpong: 8 B: ", " us one-way latency", 1);
    expect_like(r, out, "pingpong: 1048576 B: ", " us one-way)", 1);
    run_free(&r);
}
