/* stats.c — the native tools API (rmp_stats_*, rmp_comm_stats, rmp_cvar_*) without MPI: zeros
 * and the environment's knob values before rmp_init, exact counts of a known exchange (10
 * eager messages of 8 bytes from rank 0 to rank 1, or to itself alone), RMP_EAGER_LIMIT
 * written at run time turning the next message into a rendezvous and back, a communicator's
 * own counts, a high-water mark of the caller's own (rmp_stats_watch), the final values after rmp_finalize, and RMP_ERR_* for every bad argument.
 * Prints "stats: OK" from rank 0 when every rank passed. */
#include "progs.h"

static int wr, ws;

static int stat_index(const char *name)
{
    rmp_stat_info_t info;
    for (int i = 0; i < rmp_stats_count(); i++)
        if (rmp_stats_info(i, &info) == RMP_SUCCESS && !strcmp(info.name, name))
            return i;
    FAIL("no counter %s", name);
    return 0;
}

static int cvar_index(const char *name)
{
    rmp_cvar_info_t info;
    for (int i = 0; i < rmp_cvar_count(); i++)
        if (rmp_cvar_info(i, &info) == RMP_SUCCESS && !strcmp(info.name, name))
            return i;
    FAIL("no cvar %s", name);
    return 0;
}

static unsigned long long stat(const char *name)
{
    unsigned long long v[64] = {0};
    int n = rmp_stats_count();
    CHECK(rmp_stats_get(v, n < 64 ? n : 64));
    return v[stat_index(name)];
}

/* Sent (or received) over the three transports. */
static unsigned long long msgs(const char *dir)
{
    char n[3][32];
    snprintf(n[0], sizeof n[0], "self_msgs_%s", dir);
    snprintf(n[1], sizeof n[1], "shm_msgs_%s", dir);
    snprintf(n[2], sizeof n[2], "verbs_msgs_%s", dir);
    return stat(n[0]) + stat(n[1]) + stat(n[2]);
}

static unsigned long long bytes_sent(void)
{
    return stat("self_bytes_sent") + stat("shm_bytes_sent") + stat("verbs_bytes_sent");
}

static void t_before_init(void)
{
    EXPECT(stat("eager_sent") == 0 && msgs("sent") == 0, "counters before rmp_init");
    long long num = 7;
    char text[64];
    CHECK(rmp_cvar_read(cvar_index("RMP_EAGER_LIMIT"), &num, text, sizeof text));
    EXPECT(num == -1 && text[0] == '\0', "RMP_EAGER_LIMIT before init: %lld \"%s\"", num, text);
    CHECK(rmp_cvar_read(cvar_index("RMP_CONNECT"), &num, text, sizeof text));
    EXPECT(num == 0 && !strcmp(text, "lazy"), "RMP_CONNECT: %lld \"%s\"", num, text);
    EXPECT_RC(RMP_ERR_NOT_INITIALIZED, rmp_cvar_write(cvar_index("RMP_EAGER_LIMIT"), "0"));
    rmp_stat_info_t si;
    rmp_cvar_info_t ci;
    unsigned long long v;
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_info(rmp_stats_count(), &si));
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_info(0, NULL));
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_get(&v, rmp_stats_count() + 1));
    EXPECT_RC(RMP_ERR_ARG, rmp_cvar_info(-1, &ci));
    EXPECT_RC(RMP_ERR_ARG, rmp_cvar_read(rmp_cvar_count(), &num, NULL, 0));
    EXPECT_RC(RMP_ERR_NOT_INITIALIZED, rmp_comm_stats(RMP_COMM_WORLD, &v, &v));
    int w;
    EXPECT_RC(RMP_ERR_NOT_INITIALIZED, rmp_stats_watch(stat_index("unexpected_queue_hwm"), &w));
}

/* A watch of the unexpected queue: 3 messages to itself wait in it (the probe of the last
 * one returns once all three are queued); 32 watches at most; a dropped one is invalid. */
static void t_watch(void)
{
    int hwm = stat_index("unexpected_queue_hwm"), w, more[32], n = 0;
    unsigned long long v = 99;
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_watch(stat_index("eager_sent"), &w));
    MUST(rmp_stats_watch(hwm, &w));
    CHECK(rmp_stats_watch_read(w, &v));
    EXPECT(v < 3, "a new watch reads %llu, expected the level now", v);
    int x[3] = {1, 2, 3}, y;
    rmp_request_t rq[3];
    for (int i = 0; i < 3; i++)
        CHECK(rmp_isend(&x[i], 1, RMP_INT32, wr, i < 2 ? 9 : 10, RMP_COMM_WORLD, &rq[i]));
    CHECK(rmp_probe(wr, 10, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    for (int i = 0; i < 3; i++)
        CHECK(rmp_recv(&y, 1, RMP_INT32, wr, i < 2 ? 9 : 10, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    CHECK(rmp_waitall(3, rq, RMP_STATUSES_IGNORE));
    CHECK(rmp_stats_watch_read(w, &v));
    /* (other ranks' messages for the verdict's allreduce may wait in the queue too) */
    EXPECT(v >= 3, "the watch reads %llu after 3 queued messages", v);
    CHECK(rmp_stats_watch_set(w, 1000));
    CHECK(rmp_stats_watch_read(w, &v));
    EXPECT(v == 1000, "set to 1000: %llu", v);
    while (n < 32 && rmp_stats_watch(hwm, &more[n]) == RMP_SUCCESS)
        n++;
    EXPECT(n == 31, "%d more watches, expected 31", n);
    EXPECT_RC(RMP_ERR_NO_MEM, rmp_stats_watch(hwm, &more[0]));
    while (n > 0)
        CHECK(rmp_stats_unwatch(more[--n]));
    CHECK(rmp_stats_unwatch(w));
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_watch_read(w, &v));
    EXPECT_RC(RMP_ERR_ARG, rmp_stats_unwatch(-1));
}

/* Rank 0 sends n messages of 8 bytes to `to` (which receives them). */
static void send_n(int to, int n, int tag)
{
    uint64_t x = 42;
    rmp_request_t rq[16];
    for (int i = 0; wr == 0 && i < n; i++)
        CHECK(rmp_isend(&x, 1, RMP_UINT64, to, tag, RMP_COMM_WORLD, &rq[i]));
    for (int i = 0; wr == to && i < n; i++)
        CHECK(rmp_recv(&x, 1, RMP_UINT64, 0, tag, RMP_COMM_WORLD, RMP_STATUS_IGNORE));
    if (wr == 0)
        CHECK(rmp_waitall(n, rq, RMP_STATUSES_IGNORE));
}

static void t_exchange(void)
{
    int to = ws > 1 ? 1 : 0;
    /* what arrives is counted on arrival, maybe while the barrier still progresses */
    unsigned long long r0 = msgs("recvd");
    CHECK(rmp_barrier(RMP_COMM_WORLD));
    unsigned long long s0 = msgs("sent"), e0 = stat("eager_sent");
    unsigned long long b0 = bytes_sent();
    send_n(to, 10, 1);
    if (wr == 0)
        EXPECT(msgs("sent") - s0 == 10 && stat("eager_sent") - e0 == 10 &&
               bytes_sent() - b0 == 80,
               "10 x 8 bytes: +%llu messages, +%llu eager", msgs("sent") - s0,
               stat("eager_sent") - e0);
    if (wr == to)
        EXPECT(msgs("recvd") - r0 >= 10, "received +%llu", msgs("recvd") - r0);
    /* written at run time: the next message goes by rendezvous, then eagerly again */
    int el = cvar_index("RMP_EAGER_LIMIT");
    unsigned long long rv0 = stat("rndv_sent");
    CHECK(rmp_cvar_write(el, "0"));
    send_n(to, 1, 2);
    CHECK(rmp_cvar_write(el, ""));
    send_n(to, 1, 3);
    if (wr == 0)
        EXPECT(stat("rndv_sent") - rv0 == 1, "rendezvous +%llu, expected 1",
               stat("rndv_sent") - rv0);
    EXPECT_RC(RMP_ERR_ARG, rmp_cvar_write(el, "2g"));           /* above its range */
    EXPECT_RC(RMP_ERR_ARG, rmp_cvar_write(cvar_index("RMP_CMA"), "0")); /* fixed at init */
}

static void t_comm(void)
{
    rmp_comm_t dup;
    MUST(rmp_comm_dup(RMP_COMM_WORLD, &dup));
    unsigned long long m = 1, b = 1;
    CHECK(rmp_comm_stats(dup, &m, &b));
    EXPECT(m == 0 && b == 0, "a new communicator: %llu messages %llu bytes", m, b);
    int x = wr, y;
    CHECK(rmp_sendrecv(&x, 1, RMP_INT32, (wr + 1) % ws, 0, &y, 1, RMP_INT32,
                       (wr + ws - 1) % ws, 0, dup, RMP_STATUS_IGNORE));
    CHECK(rmp_comm_stats(dup, &m, &b));
    EXPECT(m == 1 && b == 4, "after one int: %llu messages %llu bytes", m, b);
    CHECK(rmp_comm_free(&dup));
    EXPECT_RC(RMP_ERR_COMM, rmp_comm_stats(12345, &m, &b));
    EXPECT_RC(RMP_ERR_ARG, rmp_comm_stats(RMP_COMM_WORLD, NULL, &b));
}

int main(int argc, char **argv)
{
    t_before_init();
    MUST(rmp_init(&argc, &argv));
    rmp_comm_rank(RMP_COMM_WORLD, &wr);
    rmp_comm_size(RMP_COMM_WORLD, &ws);
    prog_rank = wr;
    phase("stats", 60);
    t_exchange();
    t_comm();
    t_watch();
    phase("verdict", 30);
    int bad = prog_failures, any = 0;
    MUST(rmp_allreduce(&bad, &any, 1, RMP_INT32, RMP_MAX, RMP_COMM_WORLD));
    MUST(rmp_finalize());
    EXPECT(wr != 0 || msgs("sent") >= 12, "after rmp_finalize: %llu sent", msgs("sent"));
    if (wr == 0 && !any && !prog_failures)
        printf("stats: OK\n");
    return prog_exit();
}
