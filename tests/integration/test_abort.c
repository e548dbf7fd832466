/* test_abort.c — the exit status of rmp_abort(comm, code) is the same everywhere: code & 255,
 * except that an abort never reports success (low 8 bits 0 give 1). Checked on the rank itself
 * (a singleton, no launcher in between) and through mrun. */
#include "run.h"

typedef struct abort_case {
    const char *code;
    int status;
} abort_case_t;

static const abort_case_t cases[] = {{"0", 1}, {"-1", 255}, {"300", 44}, {"256", 1}, {"7", 7},
                                     {"255", 255}, {"-256", 1}, {"2147483647", 255}};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* The rank's own _exit: what every launcher that reports exit statuses sees. */
Test(failure, abort_status_mapping_singleton, .timeout = 60)
{
    for (size_t i = 0; i < NCASES; i++) {
        const char *argv[] = {PROG("fail_abort"), cases[i].code, "0", NULL};
        run_opts_t o = {.limit = 10};
        run_result_t r = run_cmd(&o, argv);
        cr_log_info("rmp_abort(%s) as a singleton: status %d", cases[i].code, r.code);
        expect_exit(r, cases[i].status);
        char line[96];
        snprintf(line, sizeof line, "rank 0: calling rmp_abort with code %s", cases[i].code);
        expect_line(r, out, line, 1);
        expect_clean(r);
        run_free(&r);
    }
}

/* Through mrun, rank 1 of 2 aborting while rank 0 waits for it. */
Test(failure, abort_status_mapping_mrun, .timeout = 120)
{
    for (size_t i = 0; i < NCASES; i++) {
        run_opts_t o = {.limit = 20};
        run_result_t r = run_mrun(&o, 2, PROG("fail_abort"), cases[i].code, "1", NULL);
        cr_log_info("rmp_abort(%s) under mrun: status %d", cases[i].code, r.code);
        expect_exit(r, cases[i].status);
        expect_clean(r);
        run_free(&r);
    }
}
