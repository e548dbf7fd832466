/* test_knobs.c — unit tests of runtime/knobs.c: every type at its boundaries, overflow (of
 * the number and of the suffix), trailing and leading garbage, the exact refusal messages,
 * loading from the environment, and the typo suggestions. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"

static const knob_t *K(knob_id_t id)
{
    return &knob_table[id];
}

/* Parses and returns the number; fails the test if refused. */
static long long ok(const knob_t *k, const char *text)
{
    knob_val_t v;
    char err[512] = "";
    int rc = knob_parse(k, text, &v, err, sizeof(err));
    cr_assert_eq(rc, 0, "%s=\"%s\" refused: %s", k->name, text, err);
    cr_assert(v.set);
    cr_assert_str_eq(v.text, text);
    return v.num;
}

static void bad(const knob_t *k, const char *text)
{
    knob_val_t v = {.num = 12345};
    char err[512] = "";
    cr_assert_eq(knob_parse(k, text, &v, err, sizeof(err)), -1, "%s=\"%s\" accepted", k->name,
                 text);
    cr_assert_eq(v.num, 12345, "a refused value changed the output");
    cr_assert_neq(err[0], '\0');
}

static void message(const knob_t *k, const char *text, const char *expect)
{
    knob_val_t v;
    char err[512];
    cr_assert_eq(knob_parse(k, text, &v, err, sizeof(err)), -1);
    cr_assert_str_eq(err, expect);
}

Test(knobs, table_is_complete_and_defaults_parse)
{
    for (int i = 0; i < KNOB_COUNT; i++) {
        const knob_t *k = &knob_table[i];
        cr_assert_not_null(k->name, "knob %d has no entry", i);
        cr_assert_eq(strncmp(k->name, "RMP_", 4), 0, "%s", k->name);
        cr_assert(k->doc && k->doc[0], "%s has no doc", k->name);
        cr_assert_eq(knob_find(k->name), k, "%s", k->name);
        cr_assert(k->type != KNOB_ENUM || (k->set && k->set[0]), "%s has no set", k->name);
        cr_assert(k->type == KNOB_ENUM || k->type == KNOB_STRING || k->min <= k->max, "%s",
                  k->name);
        if (k->dflt) {
            knob_val_t v;
            char err[512] = "";
            cr_assert_eq(knob_parse(k, k->dflt, &v, err, sizeof(err)), 0, "%s", err);
        }
    }
    cr_assert_null(knob_find("RMP_NOPE"));
    cr_assert_null(knob_find("rmp_verbose"));
}

Test(knobs, bool)
{
    cr_assert_eq(ok(K(KNOB_CMA), "0"), 0);
    cr_assert_eq(ok(K(KNOB_CMA), "1"), 1);
    const char *no[] = {"", "2", "-1", "01", "1 ", " 1", "true", "yes", "0x1", "1\n"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(K(KNOB_CMA), no[i]);
    message(K(KNOB_CMA), "2", "RMP_CMA=2 is not valid: expected 0 or 1");
}

Test(knobs, int_boundaries_and_garbage)
{
    const knob_t *k = K(KNOB_SPIN_US);
    cr_assert_eq(ok(k, "0"), 0);
    cr_assert_eq(ok(k, "1000000"), 1000000);
    cr_assert_eq(ok(k, "010"), 10, "decimal, not octal");
    const char *no[] = {"-1", "-5", "1000001", "", "+5", " 5", "5 ", "0x10", "5k", "1e3", "-",
                        "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                        "99999999999999999999999999"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(k, no[i]);
    message(k, "-5", "RMP_SPIN_US=-5 is not valid: expected an integer from 0 to 1000000");
    cr_assert_eq(ok(K(KNOB_SHM_RING_KB), "16"), 16);
    bad(K(KNOB_SHM_RING_KB), "15");
    cr_assert_eq(ok(K(KNOB_VERBS_SRQ), "4096"), 4096);
    bad(K(KNOB_VERBS_SRQ), "abc");
    bad(K(KNOB_VERBS_SRQ), "255");
}

Test(knobs, negative_int_range)
{
    knob_t k = {"RMP_T", KNOB_INT, LLONG_MIN, -2, NULL, NULL, NULL, NULL, "test"};
    cr_assert_eq(ok(&k, "-9223372036854775808"), LLONG_MIN);
    cr_assert_eq(ok(&k, "-2"), -2);
    bad(&k, "-1");
    bad(&k, "--2");
    bad(&k, "-9223372036854775809");
}

Test(knobs, size_suffixes_and_boundaries)
{
    const knob_t *k = K(KNOB_EAGER_LIMIT);
    cr_assert_eq(ok(k, "0"), 0);
    cr_assert_eq(ok(k, "1048576"), 1048576);
    cr_assert_eq(ok(k, "1024k"), 1048576);
    cr_assert_eq(ok(k, "1024K"), 1048576);
    cr_assert_eq(ok(k, "1m"), 1048576);
    cr_assert_eq(ok(k, "1M"), 1048576);
    cr_assert_eq(ok(k, "0g"), 0);
    cr_assert_eq(ok(k, "64k"), 65536);
    const char *no[] = {"1048577", "1025k", "2m", "1g", "-5", "-0", "", "k", "1kb", "1 k",
                        "1k ", "1t", "1.5k", "0x10", "+1", "99999999999999999999",
                        "18446744073709551615", "18014398509481984k", "17179869184g"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(k, no[i]);
    message(k, "-5", "RMP_EAGER_LIMIT=-5 is not valid: expected a size from 0 to 1 MiB "
                     "(suffixes k, m)");
    const knob_t *t = K(KNOB_COLL_BCAST_LARGE);
    cr_assert_eq(ok(t, "1024g"), 1LL << 40);
    bad(t, "1025g");
    message(t, "1t", "RMP_COLL_BCAST_LARGE=1t is not valid: expected a size from 0 to 1 TiB "
                     "(suffixes k, m, g)");
}

/* The suffix's multiplication at the edge of 64 bits. */
Test(knobs, size_overflow_at_the_limit)
{
    knob_t k = {"RMP_T", KNOB_SIZE, 0, LLONG_MAX, NULL, NULL, NULL, NULL, "test"};
    cr_assert_eq(ok(&k, "9223372036854775807"), LLONG_MAX);
    bad(&k, "9223372036854775808");
    cr_assert_eq(ok(&k, "8589934591g"), 8589934591LL << 30);
    bad(&k, "8589934592g");
    cr_assert_eq(ok(&k, "9007199254740991k"), 9007199254740991LL << 10);
    bad(&k, "9007199254740992k");
    knob_t small = {"RMP_T", KNOB_SIZE, 16, 1000, NULL, NULL, NULL, NULL, "test"};
    message(&small, "1", "RMP_T=1 is not valid: expected a size from 16 to 1000");
    bad(&small, "1k");
    knob_t kib = {"RMP_T", KNOB_SIZE, 0, 4096, NULL, NULL, NULL, NULL, "test"};
    message(&kib, "5k", "RMP_T=5k is not valid: expected a size from 0 to 4 KiB (suffix k)");
}

Test(knobs, enum)
{
    const knob_t *k = K(KNOB_TRANSPORT);
    cr_assert_eq(ok(k, "auto"), 0);
    cr_assert_eq(ok(k, "shm"), 1);
    cr_assert_eq(ok(k, "verbs"), 2);
    const char *no[] = {"", "Auto", "SHM", "shm ", " shm", "sh", "shmm", "self", "verbs\n"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(k, no[i]);
    message(k, "carrier-pigeon", "RMP_TRANSPORT=carrier-pigeon is not valid: expected one of: "
                                 "auto, shm, verbs");
    message(K(KNOB_COLL_ALLREDUCE), "fastest", "RMP_COLL_ALLREDUCE=fastest is not valid: "
            "expected one of: auto, recursive_doubling, rabenseifner, ring, pipelined_ring, "
            "direct");
}

Test(knobs, device_string)
{
    const knob_t *k = K(KNOB_DEVICE);
    ok(k, "mlx5_0");
    ok(k, "rxe0:1");
    ok(k, "mlx5_0:255");
    ok(k, "hfi1_0.x-y");
    const char *no[] = {"", ":1", "mlx5_0:", "mlx5_0:0", "mlx5_0:256", "mlx5_0:01", "a b",
                        "mlx5_0:1:2", "mlx5_0:1x", "../dev", "a\n",
                        "0123456789012345678901234567890123456789012345678901234567890123"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(k, no[i]);
    message(k, "mlx5_0:0", "RMP_DEVICE=mlx5_0:0 is not valid: expected a device name[:port] "
                           "(port from 1 to 255), e.g. mlx5_0 or rxe0:1");
}

/* Values are printed on one line, at most 40 characters of them. */
Test(knobs, messages_stay_one_short_line)
{
    message(K(KNOB_SPIN_US), "1\n2\t3\x7f", "RMP_SPIN_US=1?2?3? is not valid: expected an "
                                            "integer from 0 to 1000000");
    char longv[300];
    memset(longv, '7', sizeof(longv) - 1);
    longv[sizeof(longv) - 1] = '\0';
    message(K(KNOB_SPIN_US), longv, "RMP_SPIN_US=7777777777777777777777777777777777777777... is "
                                    "not valid: expected an integer from 0 to 1000000");
    /* a short error buffer is cut, never overrun; NULL is allowed */
    knob_val_t v;
    char err[8];
    cr_assert_eq(knob_parse(K(KNOB_CMA), "2", &v, err, sizeof(err)), -1);
    cr_assert_str_eq(err, "RMP_CMA");
    cr_assert_eq(knob_parse(K(KNOB_CMA), "2", &v, NULL, 0), -1);
}

Test(knobs, load_from_environment)
{
    setenv("RMP_EAGER_LIMIT", "8k", 1);
    setenv("RMP_CMA", "", 1); /* empty: unset */
    unsetenv("RMP_SPIN_US");
    setenv("RMP_COLL_ALLREDUCE", "ring", 1);
    knob_val_t vals[KNOB_COUNT];
    memset(vals, 0x5a, sizeof(vals)); /* every entry is written, set or not */
    char err[512] = "";
    cr_assert_eq(knob_load(vals, err, sizeof(err)), 0, "%s", err);
    cr_assert(vals[KNOB_EAGER_LIMIT].set);
    cr_assert_eq(vals[KNOB_EAGER_LIMIT].num, 8192);
    cr_assert(!vals[KNOB_CMA].set);
    cr_assert_eq(vals[KNOB_CMA].num, 1, "RMP_CMA's default is 1");
    cr_assert(!vals[KNOB_SPIN_US].set);
    cr_assert_eq(vals[KNOB_SHM_RING_KB].num, 256);
    cr_assert_str_eq(knob_lookup(vals, "RMP_COLL_ALLREDUCE")->text, "ring");
    cr_assert_eq(knob_lookup(vals, "RMP_COLL_ALLREDUCE")->num, 3);
    cr_assert_null(knob_lookup(vals, "RMP_COLL_NOPE"));

    /* the first refused value is reported; refused ones fall back to their defaults */
    setenv("RMP_CMA", "7", 1);
    setenv("RMP_SHM_RING_KB", "3", 1);
    cr_assert_eq(knob_load(vals, err, sizeof(err)), -1);
    cr_assert_str_eq(err, "RMP_CMA=7 is not valid: expected 0 or 1");
    cr_assert(!vals[KNOB_CMA].set);
    cr_assert_eq(vals[KNOB_CMA].num, 1);
    cr_assert_eq(vals[KNOB_SHM_RING_KB].num, 256);
    cr_assert_eq(vals[KNOB_EAGER_LIMIT].num, 8192);
}

Test(knobs, typo_suggestions)
{
    cr_assert_eq(knob_suggest("RMP_EAGERLIMIT"), K(KNOB_EAGER_LIMIT));
    cr_assert_eq(knob_suggest("rmp_eager_limit"), K(KNOB_EAGER_LIMIT));
    cr_assert_eq(knob_suggest("RMP_EAGER_LIMTI"), K(KNOB_EAGER_LIMIT));
    cr_assert_eq(knob_suggest("RMP_SPINUS"), K(KNOB_SPIN_US));
    cr_assert_eq(knob_suggest("RMP_VERBOSS"), K(KNOB_VERBOSE));
    cr_assert_eq(knob_suggest("RMP_COLL_ALLREDUCE_LARG"), K(KNOB_COLL_ALLREDUCE_LARGE));
    cr_assert_null(knob_suggest("RMP_EAGER_LIMIT"), "a knob is no typo");
    cr_assert_null(knob_suggest("RMP_TEST_ALGO_NS"));
    cr_assert_null(knob_suggest("RMP_XYZ"));
    cr_assert_null(knob_suggest(""));
}

static char said[4][192];
static int nsaid;

static void collect(const char *line)
{
    if (nsaid < 4)
        snprintf(said[nsaid], sizeof(said[0]), "%s", line);
    nsaid++;
}

Test(knobs, typo_warnings_from_environment)
{
    setenv("RMP_EAGERLIMIT", "5", 1);
    setenv("RMP_TEST_ALGO_NS", "2 3", 1);
    setenv("RMP_VERBOSE", "1", 1);
    cr_assert_eq(knob_warn_typos(collect), 1);
    cr_assert_eq(nsaid, 1);
    cr_assert_str_eq(said[0], "warning: RMP_EAGERLIMIT is not an rmp variable (ignored); did "
                              "you mean RMP_EAGER_LIMIT?");
}

/* RMP_VERBS_FAULT: kind[:N][@rank]; verbs_fault.c parses again what passes here. */
Test(knobs, verbs_fault)
{
    const char *yes[] = {"qp-err", "qp-err:300", "qp-err:300@0", "revoke:1@1", "cq:130",
                         "cm-unroutable", "cm-unroutable@0", "cq@3"};
    for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
        ok(K(KNOB_VERBS_FAULT), yes[i]);
    const char *no[] = {"bogus", "qp-err:", "qp-err:x", "qp-err@", "qp-err:1:2", "qp-err@1:2",
                        "qp-errx", "cq:12345678", "revoke:1@1@2", ":3"};
    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
        bad(K(KNOB_VERBS_FAULT), no[i]);
}
