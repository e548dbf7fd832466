/* outflood.c — usage: outflood MODE BYTES. A plain program (no rmp_init) that floods mrun's
 * output forwarding, for tests/integration/test_mrun_output.c. Rank R (PMIX_RANK) says
 * "rank R: started pid P" on stderr, then writes the lines of outflood.h, BYTES bytes of them
 * at least, to stdout with write(2) in chunks of varying size that cut lines anywhere,
 * reporting "rank R: wrote N" on stderr every 16 KiB written. Then, by MODE:
 *   exit      exit 0;
 *   hang      wait for ever (for --timeout and signals);
 *   crash     rank 1 kills itself with SIGKILL 1 s after writing 32 KiB (less than a pipe
 *             holds, so it gets there even when nobody reads), the others write on and wait;
 *   longline  instead of lines: one line of BYTES characters (outflood_long_char), written in
 *             pieces of 1000 with a 0.3 ms pause between them, then "rank R: done". */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outflood.h"

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            exit(3);
        p += w;
        n -= (size_t)w;
    }
}

static void long_line(int r, size_t bytes)
{
    char piece[1000];
    for (size_t k = 0; k < bytes;) {
        size_t n = bytes - k < sizeof piece ? bytes - k : sizeof piece;
        for (size_t j = 0; j < n; j++)
            piece[j] = outflood_long_char(r, k + j);
        write_all(piece, n);
        k += n;
        usleep(300); /* the ranks' pieces alternate in time, as a slow printf's would */
    }
    char end[64];
    int n = snprintf(end, sizeof end, "\nrank %d: done\n", r);
    write_all(end, (size_t)n);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: outflood exit|hang|crash|longline BYTES\n");
        return 2;
    }
    const char *mode = argv[1];
    size_t bytes = strtoul(argv[2], NULL, 10);
    const char *rs = getenv("PMIX_RANK");
    int r = rs ? atoi(rs) : 0;
    fprintf(stderr, "rank %d: started pid %d\n", r, (int)getpid());
    if (strcmp(mode, "longline") == 0) {
        long_line(r, bytes);
        return 0;
    }
    bool crash = strcmp(mode, "crash") == 0 && r == 1;
    if (crash)
        bytes = 32768;
    /* Chunks of 1..8191 bytes cut across lines, as stdio buffers and write sizes do. */
    static char chunk[8192 + 256];
    size_t have = 0, written = 0, reported = 0;
    unsigned seed = 12345u + (unsigned)r;
    for (long i = 0; written + have < bytes || have > 0; i++) {
        if (written + have < bytes)
            have += outflood_line(r, i, chunk + have);
        seed = seed * 1103515245u + 12345u;
        size_t want = 1 + (seed >> 8) % 8191;
        if (have >= want || written + have >= bytes) {
            size_t n = have < want ? have : want;
            write_all(chunk, n);
            memmove(chunk, chunk + n, have - n);
            have -= n;
            written += n;
            for (; written - reported >= 16384; reported += 16384)
                fprintf(stderr, "rank %d: wrote %zu\n", r, reported + 16384);
        }
    }
    fprintf(stderr, "rank %d: wrote all %zu\n", r, written);
    if (crash) { /* late enough that mrun had to forward the others' flood meanwhile */
        sleep(1);
        kill(getpid(), SIGKILL);
    }
    if (strcmp(mode, "exit") == 0)
        return 0;
    for (;;)
        pause();
}
