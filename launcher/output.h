/* output.h: forwarding of one rank's stdout or stderr pipe to mrun's own stdout/stderr,
 * optionally line-buffered and prefixed with "[rank] " (--tag-output). */
#ifndef MRUN_OUTPUT_H
#define MRUN_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct out_stream {
    int fd;        /* read end of the rank's pipe; -1 once closed */
    int dest_fd;   /* STDOUT_FILENO or STDERR_FILENO */
    int rank;
    bool tag;      /* prefix every line with "[rank] " */
    char *line;    /* tag mode: the pending partial line (allocated on first use) */
    size_t len;
    bool mid_line; /* tag mode: an over-long line was flushed without its end */
} out_stream_t;

void out_init(out_stream_t *s, int fd, int dest_fd, int rank, bool tag);

/* Reads what the pipe holds now and forwards it. Returns false once the stream is closed
 * (EOF, a read error, or the destination refused the data). */
bool out_pump(out_stream_t *s);

/* Opens DIR/1/rank.R/NAME for writing, creating the directories, the layout of Open MPI's
 * --output-filename. Returns the fd (close-on-exec), or -1 after printing why. */
int out_open_file(const char *dir, int rank, const char *name);

/* Flushes a partial last line (prefixed, with a newline added) and closes the pipe. */
void out_close(out_stream_t *s);

#endif
