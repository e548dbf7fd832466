/* rankstat.c: mrun's end of the ranks' status channel (see rankstat.h): reading and parsing
 * the lines a rank writes. A line that is not understood is ignored: a rank can only report on
 * itself, and a garbled report must not change the verdict on another rank. */
#include "rankstat.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rankstat_init(rankstat_t *st, int fd)
{
    *st = (rankstat_t){.fd = fd, .saw_peer = -1};
}

/* "<letter>" or "<letter> <int>"; false if malformed. */
static bool parse_int(const char *s, int *v)
{
    if (*s != ' ')
        return false;
    char *end;
    errno = 0;
    long x = strtol(s + 1, &end, 10);
    if (errno || end == s + 1 || *end != '\0' || x < INT_MIN || x > INT_MAX)
        return false;
    *v = (int)x;
    return true;
}

static void apply(rankstat_t *st, const char *line, int nprocs)
{
    int v;
    if (strcmp(line, "I") == 0) {
        st->init = true;
    } else if (strcmp(line, "F") == 0) {
        st->fin = true;
    } else if (line[0] == 'A' && parse_int(line + 1, &v)) {
        if (!st->aborted)
            st->aborted = true, st->abort_code = v;
    } else if (line[0] == 'P' && parse_int(line + 1, &v)) {
        if (st->saw_peer < 0 && v >= 0 && v < nprocs)
            st->saw_peer = v;
    }
}

void rankstat_feed(rankstat_t *st, const char *data, int n, int nprocs)
{
    for (int i = 0; i < n; i++) {
        char ch = data[i];
        if (ch == '\n') {
            st->buf[st->len < (int)sizeof st->buf ? st->len : (int)sizeof st->buf - 1] = '\0';
            if (st->len < (int)sizeof st->buf) /* an overlong line is dropped whole */
                apply(st, st->buf, nprocs);
            st->len = 0;
        } else if (st->len < (int)sizeof st->buf) {
            st->buf[st->len++] = ch;
        }
    }
}

void rankstat_pump(rankstat_t *st, int nprocs)
{
    while (st->fd >= 0) {
        char data[256];
        ssize_t n = read(st->fd, data, sizeof data);
        if (n > 0) {
            rankstat_feed(st, data, (int)n, nprocs);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        rankstat_close(st); /* EOF, or an error that will not go away */
    }
}

void rankstat_close(rankstat_t *st)
{
    if (st->fd >= 0)
        close(st->fd);
    st->fd = -1;
}
