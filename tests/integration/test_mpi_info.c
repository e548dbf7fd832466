/* test_mpi_info.c — rmp-info: the version (also the library's rmp_get_version), every knob of
 * the runtime's table with its default and current value, a value rmp_init would refuse
 * flagged with the reason, and the device section, which on a host without RDMA devices says
 * so in one line. */
#include "knobs.h"
#include "rmp.h"
#include "run.h"

#ifndef RMP_TEST_BINDIR
#error "build with -DRMP_TEST_BINDIR=<the variant's bin directory> (the Makefile does)"
#endif
#define RMPINFO RMP_TEST_BINDIR "/rmp-info"

static run_result_t info(const char *arg, const char *const *env)
{
    const char *argv[] = {RMPINFO, arg, NULL};
    return run_cmd(&(run_opts_t){.limit = 20, .env = env}, argv);
}

Test(mpi_info, version, .timeout = 30)
{
    run_result_t r = info("--version", NULL);
    expect_exit(r, 0);
    expect_line(r, out, "rmp " RMP_VERSION_STRING " (library " RMP_VERSION_STRING ", header "
                RMP_VERSION_STRING "), MPI 3.1 subset through rmp/mpi.h", 1);
    run_free(&r);
}

/* Each knob of knob_table: one line with its default, "(unset)" here. */
Test(mpi_info, every_knob_with_default_and_value, .timeout = 30)
{
    run_result_t r = info(NULL, NULL);
    expect_exit(r, 0);
    char want[64];
    snprintf(want, sizeof want, "knobs: %d (RMP_* environment variables, read by rmp_init)",
             KNOB_COUNT);
    expect_line(r, out, want, 1);
    for (int i = 0; i < KNOB_COUNT; i++) {
        const knob_t *k = &knob_table[i];
        char line[256];
        snprintf(line, sizeof line, "  %-32s default %-14s current (unset)", k->name,
                 k->dflt ? k->dflt : "(see doc)");
        expect_line(r, out, line, 1);
    }
    cr_assert_eq(count_prefix(r.out, "  RMP_"), KNOB_COUNT, "%s", r.out);
    expect_like(r, out, "rmp " RMP_VERSION_STRING, "", 1);
    expect_like(r, out, "build: variant ", "", 1);
    expect_like(r, out, "transports: self ", "", 1);
    run_free(&r);
}

Test(mpi_info, current_values_and_refused_ones, .timeout = 30)
{
    const char *env[] = {"RMP_SHM_RING_KB=64", "RMP_CMA=7", "RMP_EAGR_LIMIT=1", NULL};
    run_result_t r = info("--knobs", env);
    expect_exit(r, 1);
    expect_line(r, out, "  RMP_SHM_RING_KB                  default 256            current 64", 1);
    expect_line(r, out, "  RMP_CMA                          default 1              current 7 "
                "(INVALID)", 1);
    expect_like(r, out, "      RMP_CMA=7 is not valid", "", 1);
    expect_line(r, out, "  warning: RMP_EAGR_LIMIT is not an rmp variable (ignored); did you mean "
                "RMP_EAGER_LIMIT?", 1);
    expect_line(r, err, "rmp-info: 1 knob(s) have values rmp_init would refuse (see above)", 1);
    run_free(&r);
}

/* Whatever this host has, the section starts with one line that says how many devices; with
 * none, that line says there is no RDMA device and nothing more follows. */
Test(mpi_info, devices_or_a_clear_line_without_any, .timeout = 30)
{
    run_result_t r = info("--devices", NULL);
    expect_exit(r, 0);
    int none = count_prefix(r.out, "verbs devices: none (no RDMA device on this host");
    int some = count_prefix(r.out, "verbs devices: ") - none;
    cr_assert_eq(none + some, 1, "no device summary line:\n%s", r.out);
    if (none)
        cr_assert_eq(count_prefix(r.out, "  device "), 0, "%s", r.out);
    else
        cr_assert_gt(count_prefix(r.out, "  device "), 0, "%s", r.out);
    cr_assert_str_empty(r.err);
    run_free(&r);
}

Test(mpi_info, bad_option, .timeout = 30)
{
    run_result_t r = info("--bogus", NULL);
    expect_exit(r, 2);
    expect_like(r, err, "", "rmp-info: unknown option '--bogus'", 1);
    run_free(&r);
}
