/* test_pingpong.c — point-to-point integrity under mrun: every size class from 0 B to 16 MiB
 * across the eager/rendezvous boundary, at n = 1, 2, 3, 4, 8, with the eager limit moved low
 * and high, and with CMA off (rendezvous copied through the shm rings). */
#include "run.h"

/* Runs pingpong MIN MAX at n ranks with env and checks its totals: each size is ping-ponged
 * twice by each of the n/2 pairs (4 messages) and sent once around the ring by every rank. */
static void pingpong(int n, const char *min, const char *max, const char *const env[],
                     double limit)
{
    run_opts_t o = {.limit = limit, .env = env};
    run_result_t r = run_mrun(&o, n, PROG("pingpong"), min, max, NULL);
    expect_success(r);
    char line[256];
    int got_n = -1, sizes = -1;
    long messages = -1;
    cr_assert(find_prefix(r.out, "pingpong: OK ", line, sizeof line), "no OK line:\n%s",
              tail(r.out));
    cr_assert_eq(sscanf(line, "pingpong: OK n=%d sizes=%d messages=%ld", &got_n, &sizes,
                        &messages), 3, "malformed line: %s", line);
    cr_assert_eq(got_n, n);
    cr_assert_gt(sizes, 20, "only %d sizes tested", sizes);
    cr_assert_eq(messages, 4L * sizes * (n / 2) + (long)n * sizes, "%s", line);
    expect_line(r, out, line, 1);
    run_free(&r);
}

Test(pingpong, n1_self_0B_to_16MiB, .timeout = 60)
{
    pingpong(1, "0", "16m", NULL, 40);
}

Test(pingpong, n2_0B_to_16MiB, .timeout = 60)
{
    pingpong(2, "0", "16m", NULL, 40);
}

Test(pingpong, n3_odd_rank_idles_0B_to_4MiB, .timeout = 60)
{
    pingpong(3, "0", "4m", NULL, 40);
}

Test(pingpong, n4_0B_to_4MiB, .timeout = 60)
{
    pingpong(4, "0", "4m", NULL, 40);
}

Test(pingpong, n8_oversubscribed_0B_to_1MiB, .timeout = 60)
{
    pingpong(8, "0", "1m", NULL, 40);
}

Test(pingpong, n2_eager_limit_64B, .timeout = 60)
{
    const char *env[] = {"RMP_EAGER_LIMIT=64", NULL};
    pingpong(2, "0", "4m", env, 40);
}

Test(pingpong, n2_eager_limit_0_everything_rendezvous, .timeout = 60)
{
    const char *env[] = {"RMP_EAGER_LIMIT=0", NULL};
    pingpong(2, "0", "1m", env, 40);
}

Test(pingpong, n2_eager_limit_high_128KiB, .timeout = 60)
{
    const char *env[] = {"RMP_EAGER_LIMIT=131072", NULL};
    pingpong(2, "0", "4m", env, 40);
}

Test(pingpong, n2_cma_off_0B_to_16MiB, .timeout = 60)
{
    const char *env[] = {"RMP_CMA=0", NULL};
    pingpong(2, "0", "16m", env, 40);
}

Test(pingpong, n4_cma_off_small_rings, .timeout = 60)
{
    const char *env[] = {"RMP_CMA=0", "RMP_SHM_RING_KB=16", NULL};
    pingpong(4, "0", "2m", env, 40);
}

Test(pingpong, n3_cma_off_eager_limit_1KiB, .timeout = 60)
{
    const char *env[] = {"RMP_CMA=0", "RMP_EAGER_LIMIT=1024", NULL};
    pingpong(3, "0", "1m", env, 40);
}

/* Large shm messages copied by both ranks (shm_coop.h): runs coop at n = 2 with env and checks
 * its total (15 sizes each way, 3 windows of 8 each way, a truncated receive, a busy sender,
 * 160 sends in flight). */
static void coop(const char *const env[])
{
    run_opts_t o = {.limit = 90, .env = env};
    run_result_t r = run_mrun(&o, 2, PROG("coop"), NULL);
    expect_success(r);
    char line[256];
    cr_assert(find_prefix(r.out, "coop: OK ", line, sizeof line), "no OK line:\n%s",
              tail(r.out));
    cr_assert_str_eq(line, "coop: OK messages=240");
    run_free(&r);
}

Test(pingpong, n2_coop_sizes_both_ways_truncated_busy_many, .timeout = 120)
{
    coop(NULL);
}

Test(pingpong, n2_coop_off_receiver_copies_alone, .timeout = 120)
{
    const char *env[] = {"RMP_SHM_COOP=0", NULL};
    coop(env);
}

Test(pingpong, n2_coop_with_progress_thread, .timeout = 120)
{
    const char *env[] = {"RMP_PROGRESS_THREAD=1", NULL};
    coop(env);
}

Test(pingpong, n2_coop_cma_off_streams, .timeout = 120)
{
    const char *env[] = {"RMP_CMA=0", NULL};
    coop(env);
}
