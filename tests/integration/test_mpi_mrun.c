/* test_mpi_mrun.c — mrun under the command lines of mpirun/mpiexec scripts: the spellings it
 * accepts (-np, --n, single-dash long options, -H localhost:N, --oversubscribe, --map-by,
 * --report-bindings, --output-filename) start the job they say; the ones it cannot honour
 * are refused with one line naming the alternative (status 2, nothing started); no option is
 * taken for an abbreviation of another. */
#include <dirent.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"

static run_result_t mrun_argv(const char *const args[], double limit)
{
    const char *argv[24] = {RMP_TEST_MRUN};
    for (int i = 0; args[i] && i < 22; i++)
        argv[i + 1] = args[i];
    return run_cmd(&(run_opts_t){.limit = limit}, argv);
}

/* Each accepted command line runs PROG("quick") with `ranks` ranks. */
typedef struct accept_case {
    const char *args[8];
    int ranks;
} accept_case_t;

static const accept_case_t accept_cases[] = {
    {{"-np", "3"}, 3},
    {{"--np", "2"}, 2},
    {{"--n", "2"}, 2}, /* the number of ranks, not --nodes 2 */
    {{"--n=4"}, 4},
    {{"-n", "2", "--oversubscribe"}, 2},
    {{"-np", "2", "-oversubscribe"}, 2},
    {{"-n", "2", "--map-by", "core"}, 2},
    {{"-n", "2", "--map-by", "slot"}, 2},
    {{"-n", "2", "--map-by", "node"}, 2},
    {{"-H", "localhost:3"}, 3},
    {{"--host", "localhost:2,localhost"}, 3},
    {{"-host", "localhost:2", "-np", "2"}, 2},
    {{"-H", "localhost:1", "-n", "3", "--oversubscribe"}, 3},
};

RUN_INDICES(mpi_mrun, accepted, sizeof accept_cases / sizeof accept_cases[0])

ParameterizedTest(int *index, mpi_mrun, accepted, .timeout = 40)
{
    const accept_case_t *c = &accept_cases[*index];
    const char *args[12];
    int k = 0;
    for (; c->args[k]; k++)
        args[k] = c->args[k];
    args[k++] = PROG("quick");
    args[k] = NULL;
    run_result_t r = mrun_argv(args, 30);
    expect_success(r);
    for (int i = 0; i < c->ranks; i++) {
        char line[64];
        snprintf(line, sizeof line, "rank %d of %d ok", i, c->ranks);
        expect_line(r, out, line, 1);
    }
    cr_assert_eq(count_prefix(r.out, "rank "), c->ranks, "%s", r.out);
    run_free(&r);
}

/* Each refused command line: status 2, this one line on stderr, nothing started. */
typedef struct refuse_case {
    const char *args[8];
    const char *message;
} refuse_case_t;

static const refuse_case_t refuse_cases[] = {
    {{"--nod", "2", "-n", "2"},
     "mrun: unknown option '--nod' (mrun takes no abbreviations: did you mean --nodes?); try "
     "mrun --help"},
    {{"-n", "2", "--over"},
     "mrun: unknown option '--over' (mrun takes no abbreviations: did you mean "
     "--oversubscribe?); try mrun --help"},
    {{"-n", "2", "--map-by", "socket"},
     "mrun: --map-by needs core, slot or node, not 'socket' (for binding, use --bind-to "
     "core|none); try mrun --help"},
    {{"-n", "4", "--nodes", "2", "--map-by", "node"},
     "mrun: --map-by node with --nodes 2: mrun fills virtual nodes in blocks (--map-by slot), "
     "not round-robin; try mrun --help"},
    {{"-H", "localhost:2", "-n", "3"},
     "mrun: -n 3 is more than the 2 slots -H gives: add --oversubscribe, or give more slots "
     "(-H localhost:3); try mrun --help"},
    {{"-H", "node7:4"},
     "mrun: -H node7: mrun starts ranks on this machine only (use -H localhost:N, or --nodes K "
     "to simulate K nodes); try mrun --help"},
    {{"-H", "localhost:0"},
     "mrun: -H needs host[:slots] with 1 to 4096 slots, not 'localhost:0'; try mrun --help"},
    {{"--hostfile", "hosts", "-n", "2"},
     "mrun: --hostfile is not supported: mrun starts every rank on this machine: use -n N (and "
     "--nodes K for K virtual nodes); try mrun --help"},
    {{"-machinefile", "hosts", "-n", "2"},
     "mrun: --machinefile is not supported: mrun starts every rank on this machine: use -n N "
     "(and --nodes K for K virtual nodes); try mrun --help"},
    {{"-n", "4", "--npernode", "2"},
     "mrun: -n 4 and --npernode 2 disagree: mrun starts one node, so --npernode 2 is -n 2 "
     "(give one of them, or --nodes K for K virtual nodes); try mrun --help"},
    {{"--mca", "btl", "self", "-n", "2"},
     "mrun: --mca is not supported: rmp has no MCA parameters: set RMP_* variables with -x "
     "RMP_NAME=VALUE (rmp-info lists them); try mrun --help"},
    {{"-genv", "A", "1", "-n", "2"},
     "mrun: --genv is not supported: use -x VAR=VALUE; try mrun --help"},
    {{"-hosts", "a", "-n", "2"}, "mrun: unknown option '-hosts'; try mrun --help"},
    {{"-np", "0"}, "mrun: -n needs a number of ranks from 1 to 4096, not '0'; try mrun --help"},
    {{"--output-filename", "", "-n", "1"},
     "mrun: --output-filename needs a directory; try mrun --help"},
};

RUN_INDICES(mpi_mrun, refused, sizeof refuse_cases / sizeof refuse_cases[0])

ParameterizedTest(int *index, mpi_mrun, refused, .timeout = 20)
{
    const refuse_case_t *c = &refuse_cases[*index];
    const char *args[12];
    int k = 0;
    for (; c->args[k]; k++)
        args[k] = c->args[k];
    args[k++] = "/bin/echo";
    args[k++] = "STARTED";
    args[k] = NULL;
    run_result_t r = mrun_argv(args, 10);
    expect_exit(r, 2);
    expect_line(r, err, c->message, 1);
    cr_assert_eq(count_prefix(r.err, ""), 1, "more than one line on stderr:\n%s", r.err);
    cr_assert_str_empty(r.out);
    expect_clean(r);
    run_free(&r);
}

/* One line per rank, on stderr: the CPU (rank i on the i-th CPU mrun may use), or why not. */
Test(mpi_mrun, report_bindings, .timeout = 40)
{
    cpu_set_t set;
    cr_assert_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    const char *args[] = {"-n", "2", "--bind-to", "core", "--report-bindings", PROG("quick"),
                          NULL};
    run_result_t r = mrun_argv(args, 30);
    expect_success(r);
    for (int i = 0; i < 2; i++) {
        char line[64];
        snprintf(line, sizeof line, "mrun: rank %d bound to CPU %d", i, cpus[i % n]);
        expect_line(r, err, line, 1);
    }
    run_free(&r);
    const char *none[] = {"-n", "2", "--bind-to", "none", "--report-bindings", PROG("quick"),
                          NULL};
    r = mrun_argv(none, 30);
    expect_success(r);
    expect_line(r, err, "mrun: rank 0 not bound (--bind-to none)", 1);
    expect_line(r, err, "mrun: rank 1 not bound (--bind-to none)", 1);
    run_free(&r);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 4096);
    size_t n = buf ? fread(buf, 1, 4095, f) : 0;
    (void)n;
    fclose(f);
    return buf;
}

/* Rank r's output lands in DIR/1/rank.r/stdout and stderr, nowhere else. */
Test(mpi_mrun, output_filename, .timeout = 40)
{
    char dir[] = "/tmp/rmp-outfile.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char out_dir[sizeof dir + 8];
    snprintf(out_dir, sizeof out_dir, "%s/out", dir);
    const char *args[] = {"-np", "3", "--output-filename", out_dir, "/bin/sh", "-c",
                          "echo out $PMIX_RANK; echo err $PMIX_RANK >&2", NULL};
    run_result_t r = mrun_argv(args, 30);
    char got[3][2][64];
    for (int i = 0; i < 3; i++)
        for (int s = 0; s < 2; s++) {
            char path[256];
            snprintf(path, sizeof path, "%s/1/rank.%d/%s", out_dir, i, s ? "stderr" : "stdout");
            char *text = slurp(path);
            snprintf(got[i][s], sizeof got[i][s], "%s", text ? text : "(missing)");
            free(text);
            unlink(path);
            snprintf(path, sizeof path, "%s/1/rank.%d", out_dir, i);
            rmdir(path);
        }
    char path[256];
    snprintf(path, sizeof path, "%s/1", out_dir);
    rmdir(path);
    rmdir(out_dir);
    int left = rmdir(dir);
    expect_success(r);
    cr_assert_str_empty(r.out, "output also went to the terminal: %s", r.out);
    for (int i = 0; i < 3; i++) {
        char want[32];
        snprintf(want, sizeof want, "out %d\n", i);
        cr_assert_str_eq(got[i][0], want, "rank %d stdout", i);
        snprintf(want, sizeof want, "err %d\n", i);
        cr_assert_str_eq(got[i][1], want, "rank %d stderr", i);
    }
    cr_assert_eq(left, 0, "%s held more than the rank files", dir);
    run_free(&r);
}

/* A directory that cannot be made: status 1, one line saying which, nothing started. */
Test(mpi_mrun, output_filename_unwritable, .timeout = 20)
{
    const char *args[] = {"-n", "1", "--output-filename", "/proc/rmp-no-such-dir",
                          "/bin/echo", "STARTED", NULL};
    run_result_t r = mrun_argv(args, 10);
    expect_exit(r, 1);
    expect_like(r, err, "mrun: --output-filename: cannot create directory /proc/rmp-no-such-dir: ",
                "", 1);
    cr_assert_str_empty(r.out);
    expect_clean(r);
    run_free(&r);
}
