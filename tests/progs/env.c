/* env.c — usage: env VAR... Each rank prints "rank R of N: VAR=value" (or "VAR unset") for
 * every VAR on stdout, then "rank R: stderr" on stderr: for mrun -x and --tag-output. */
#include "progs.h"

int main(int argc, char **argv)
{
    int n;
    MUST(rmp_init(&argc, &argv));
    MUST(rmp_comm_rank(RMP_COMM_WORLD, &prog_rank));
    MUST(rmp_comm_size(RMP_COMM_WORLD, &n));
    for (int i = 1; i < argc; i++) {
        const char *v = getenv(argv[i]);
        if (v)
            printf("rank %d of %d: %s=%s\n", prog_rank, n, argv[i], v);
        else
            printf("rank %d of %d: %s unset\n", prog_rank, n, argv[i]);
    }
    fflush(stdout);
    fprintf(stderr, "rank %d: stderr\n", prog_rank);
    MUST(rmp_finalize());
    return 0;
}
