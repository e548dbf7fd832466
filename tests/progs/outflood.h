/* outflood.h — the byte stream outflood's rank R writes, shared with the test that checks it
 * (tests/integration/test_mrun_output.c): line i is "R i " then a payload whose length and
 * letters depend on R and i, then a newline. */
#ifndef RMP_TEST_OUTFLOOD_H
#define RMP_TEST_OUTFLOOD_H

#include <stdio.h>
#include <stddef.h>

/* Writes line i of rank r into buf (room for 256 bytes); returns its length. */
static inline size_t outflood_line(int r, long i, char *buf)
{
    int n = snprintf(buf, 256, "%d %ld ", r, i);
    size_t len = (size_t)n, payload = (size_t)((i * 7919 + r * 31) % 200);
    for (size_t j = 0; j < payload; j++)
        buf[len++] = (char)('a' + (i + (long)j + r) % 26);
    buf[len++] = '\n';
    return len;
}

/* Character k of rank r's long line (outflood longline). */
static inline char outflood_long_char(int r, size_t k) { return (char)('A' + (k + 7u * r) % 26); }

#endif
