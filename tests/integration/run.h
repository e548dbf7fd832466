/* run.h — how the integration tests start a job: run mrun (or any command) with extra
 * environment, capture its stdout and stderr, kill it after a wall-clock limit, and report what
 * it left behind (processes, /dev/shm segments, temp dirs). Plus assertions on the result. */
#ifndef RMP_TEST_RUN_H
#define RMP_TEST_RUN_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RMP_TEST_MRUN
#error "build with -DRMP_TEST_MRUN=<path of mrun> (the Makefile does)"
#endif
#ifndef RMP_TEST_PROGS
#error "build with -DRMP_TEST_PROGS=<dir of the test programs> (the Makefile does)"
#endif

/* The path of test program `name` (a string literal). */
#define PROG(name) RMP_TEST_PROGS "/" name

typedef struct run_opts {
    double limit;           /* wall-clock seconds before the whole job is killed (0: 30) */
    const char *const *env; /* extra "VAR=VALUE" entries, NULL-terminated (may be NULL) */
    /* Send `signal` to mrun once stdout holds `signal_after_lines` lines equal to
     * `signal_when` (0 signal: never). */
    int signal;
    const char *signal_when;
    int signal_after_lines;
    /* Record when stdout first holds a line starting with `mark_when` (NULL: never): the
     * moment a program says it fails, for bounds on how long the job took to end after. */
    const char *mark_when;
} run_opts_t;

typedef struct run_result {
    int code;          /* exit status; 128+N when killed by signal N; -1 when it timed out */
    bool timed_out;    /* killed by the harness after opts.limit */
    double elapsed;    /* seconds from start to exit */
    double signalled_at, marked_at; /* seconds from start to opts.signal, opts.mark_when; -1 */
    char *out, *err;   /* everything printed (NUL-terminated, never NULL) */
    char leftovers[1024]; /* "" if clean, else what survived the job (processes, files) */
} run_result_t;

/* Runs argv (argv[0] a path) and waits for it; never fails the test itself. */
run_result_t run_cmd(const run_opts_t *opts, const char *const argv[]);
/* Runs `mrun -n N <prog path> args...` (args NULL-terminated). */
run_result_t run_mrun(const run_opts_t *opts, int n, const char *prog, ...);
void run_free(run_result_t *r);
/* Sends sig to every live process whose environment holds the entry `marker` ("VAR=VALUE");
 * returns how many there were (sig 0: only counts them). */
int run_signal_marked(const char *marker, int sig);

/* Seconds from the job's cause of ending to its exit: from the signal the harness sent, else
 * from the mark (opts.mark_when), else from the start. Start-up under a sanitizer on a loaded
 * machine takes seconds; a bound on how promptly a job ends must not count it. */
double run_since_cause(const run_result_t *r);

/* Number of lines of `text` exactly equal to `line`. */
int count_lines(const char *text, const char *line);
/* Number of lines of `text` starting with `prefix`. */
int count_prefix(const char *text, const char *prefix);
/* Number of lines of `text` starting with `prefix` and ending with `suffix` (for lines with a
 * pid or a time in the middle). */
int count_like(const char *text, const char *prefix, const char *suffix);
/* The first line starting with `prefix` (copied into buf), or NULL. */
const char *find_prefix(const char *text, const char *prefix, char *buf, size_t len);

/* The tail of a captured stream for assertion messages (at most ~3000 chars). */
const char *tail(const char *text);
/* Absolute path of Open MPI's mpirun in PATH (into buf), or NULL: mpirun.openmpi (Debian's
 * name, which stays Open MPI's when MPICH is installed too and owns the plain name), else
 * mpirun. */
const char *run_find_mpirun(char *buf, size_t len);

/* The job exited with `status` within its limit. */
#define expect_exit(r, status)                                                                 \
    do {                                                                                       \
        cr_assert(!(r).timed_out, "killed after %.1f s: the job hung\n--- stdout:\n%s\n--- "   \
                                  "stderr:\n%s",                                               \
                  (r).elapsed, tail((r).out), tail((r).err));                                  \
        cr_assert_eq((r).code, (status),                                                       \
                     "exit status %d, expected %d\n--- stdout:\n%s\n--- stderr:\n%s",          \
                     (r).code, (status), tail((r).out), tail((r).err));                        \
    } while (0)

/* `stream` ("out" or "err") of r has exactly `times` lines equal to `line`. */
#define expect_line(r, stream, line, times)                                                    \
    do {                                                                                       \
        int n_ = count_lines((r).stream, (line));                                              \
        cr_assert_eq(n_, (times), "expected %d line(s) \"%s\" on std%s, found %d\n--- "        \
                                  "stdout:\n%s\n--- stderr:\n%s",                              \
                     (times), (line), #stream, n_, tail((r).out), tail((r).err));              \
    } while (0)

/* `stream` of r has exactly `times` lines starting with `prefix` and ending with `suffix`. */
#define expect_like(r, stream, prefix, suffix, times)                                          \
    do {                                                                                       \
        int n_ = count_like((r).stream, (prefix), (suffix));                                   \
        cr_assert_eq(n_, (times), "expected %d line(s) \"%s...%s\" on std%s, found %d\n--- "  \
                                  "stdout:\n%s\n--- stderr:\n%s",                              \
                     (times), (prefix), (suffix), #stream, n_, tail((r).out), tail((r).err));  \
    } while (0)

/* No FAIL line from the programs. */
#define expect_no_fail(r)                                                                      \
    do {                                                                                       \
        cr_assert_eq(count_prefix((r).out, "FAIL"), 0, "the program reported failures:\n%s",   \
                     tail((r).out));                                                           \
    } while (0)

/* Nothing survived the job: no process, no /dev/shm segment, no temp dir. */
#define expect_clean(r) cr_assert_str_empty((r).leftovers, "left behind: %s", (r).leftovers)

/* The usual success: exit 0, no FAIL line, nothing left behind. */
#define expect_success(r)                                                                      \
    do {                                                                                       \
        expect_exit(r, 0);                                                                     \
        expect_no_fail(r);                                                                     \
        expect_clean(r);                                                                       \
    } while (0)

/* Success, and each of ranks 0..n-1 printed "<prog>: rank R OK" exactly once (the tests/mpi
 * programs' verdict, tests/mpi/mpicheck.h). */
#define expect_ranks_ok(r, prog, n)                                                            \
    do {                                                                                       \
        expect_success(r);                                                                     \
        for (int i_ = 0; i_ < (n); i_++) {                                                     \
            char l_[160];                                                                      \
            snprintf(l_, sizeof l_, "%s: rank %d OK", (prog), i_);                             \
            expect_line(r, out, l_, 1);                                                        \
        }                                                                                      \
    } while (0)

/* Skips the test, saying why, when environment variable var lists sizes and n is not among
 * them (the sanitizer passes narrow the sizes; the release pass runs every one). */
void run_size_filter(int n, const char *var);

/* The sizes (n) a ParameterizedTest(int *n, suite, name, ...) runs at, said once:
 * RUN_SIZES(mpi, p2p, 1, 2, 4). */
#define RUN_SIZES(suite, name, ...)                                                            \
    ParameterizedTestParameters(suite, name)                                                   \
    {                                                                                          \
        static int ns_[] = {__VA_ARGS__};                                                      \
        return cr_make_param_array(int, ns_, sizeof ns_ / sizeof ns_[0]);                      \
    }

/* The cases of a ParameterizedTest(int *index, suite, name, ...): the indices 0..count-1 of a
 * table, said once: RUN_INDICES(mrun, usage_error, sizeof cases / sizeof cases[0]). */
#define RUN_INDICES(suite, name, count)                                                        \
    ParameterizedTestParameters(suite, name)                                                   \
    {                                                                                          \
        static int i_[count];                                                                  \
        for (int k_ = 0; k_ < (int)(count); k_++)                                              \
            i_[k_] = k_;                                                                       \
        return cr_make_param_array(int, i_, (size_t)(count));                                  \
    }

/* The sizes a tests/mpi program runs at: a rank alone, a pair, odd primes (3; 5, the remainder
 * steps of the tree and recursive-doubling algorithms, and ASan's size), and powers of two,
 * square and not (4; 8, 4 x 2 process grids). 6 and 7 (once in every list) add no shape these
 * lack: the programs check the MPI layer, the algorithms at every size are test_coll's. */
#define MPI_SIZES 1, 2, 3, 4, 5, 8

#ifdef RMP_TEST_MPIPROGS
/* The path of tests/mpi program `name` (a string literal). */
#define MPIPROG(name) RMP_TEST_MPIPROGS "/" name
#endif
/* Runs tests/progs program prog (a name) at n with env (or NULL) within limit seconds:
 * success, and one line "<prog>: OK" (the native programs' verdict). */
void run_prog_ok(int n, const char *prog, const char *const *env, double limit);

/* Runs tests/mpi program prog (a name) at n with one argument (or NULL) and env (or NULL)
 * within limit seconds (0: 90): success, and "<label>: rank R OK" from every rank (label NULL:
 * prog). */
void run_mpi_ok(int n, const char *prog, const char *label, const char *arg,
                const char *const *env, double limit);

#endif
