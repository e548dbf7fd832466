/* progs.h — what the integration test programs share: one "FAIL rank R: ..." line per problem,
 * checked rmp calls, a watchdog that bounds every blocking phase (and says which one hung),
 * deterministic payload patterns and a small random generator. Header-only: each program is
 * one .c file linked with librmp. */
#ifndef RMP_TEST_PROGS_H
#define RMP_TEST_PROGS_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rmp.h"

/* Weak, not static: a program built from several files (tests/progs/<prog>/) has one rank,
 * one failure count and one phase; the linker keeps one definition. */
__attribute__((weak)) int prog_rank = -1;   /* world rank once known, for messages */
__attribute__((weak)) _Atomic int prog_failures; /* FAIL lines printed so far (by any thread) */
__attribute__((weak)) const char *volatile prog_phase = "start"; /* what the program is doing */

#define FAIL(...)                                                                              \
    do {                                                                                       \
        printf("FAIL rank %d: ", prog_rank);                                                   \
        printf(__VA_ARGS__);                                                                   \
        printf("\n");                                                                          \
        fflush(stdout);                                                                        \
        prog_failures++;                                                                       \
    } while (0)

/* An rmp call that must succeed; a failure is reported and counted, the program goes on. */
#define CHECK(call)                                                                            \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != RMP_SUCCESS)                                                                \
            FAIL("%s:%d: %s returned %d (%s)", __FILE__, __LINE__, #call, rc_,                 \
                 rmp_strerror(rc_));                                                           \
    } while (0)

/* An rmp call that must succeed for the program to go on at all. */
#define MUST(call)                                                                             \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != RMP_SUCCESS) {                                                              \
            FAIL("%s:%d: %s returned %d (%s); giving up", __FILE__, __LINE__, #call, rc_,      \
                 rmp_strerror(rc_));                                                           \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* A call that must return exactly `want` (an RMP_ERR_* code). */
#define EXPECT_RC(want, call)                                                                  \
    do {                                                                                       \
        int rc_ = (call);                                                                      \
        if (rc_ != (want))                                                                     \
            FAIL("%s:%d: %s returned %d (%s), expected %d (%s)", __FILE__, __LINE__, #call,    \
                 rc_, rmp_strerror(rc_), (want), rmp_strerror(want));                          \
    } while (0)

#define EXPECT(cond, ...)                                                                      \
    do {                                                                                       \
        if (!(cond))                                                                           \
            FAIL(__VA_ARGS__);                                                                 \
    } while (0)

/* EXPECT_RC and EXPECT counted, for a program that reports how many checks it made: it
 * defines its own `static long checks` before using these. */
#define RC(want, call)                                                                         \
    do {                                                                                       \
        checks++;                                                                              \
        EXPECT_RC(want, call);                                                                 \
    } while (0)
#define IS(cond, ...)                                                                          \
    do {                                                                                       \
        checks++;                                                                              \
        EXPECT(cond, __VA_ARGS__);                                                             \
    } while (0)

/* ---- the watchdog: a blocking phase that outlives its budget ends the program ---- */

static inline void prog_put(const char *s)
{
    ssize_t ignored = write(1, s, strlen(s));
    (void)ignored;
}

static inline void prog_alarm(int sig)
{
    (void)sig;
    char num[16];
    int r = prog_rank < 0 ? 0 : prog_rank, i = (int)sizeof num - 1;
    num[i] = '\0';
    do
        num[--i] = (char)('0' + r % 10);
    while ((r /= 10) > 0 && i > 0);
    prog_put("FAIL rank ");
    prog_put(prog_rank < 0 ? "?" : num + i);
    prog_put(": watchdog: still in '");
    prog_put(prog_phase);
    prog_put("'; giving up\n");
    _exit(1);
}

/* Enter a phase that must end within `secs` seconds (0: no limit). */
static inline void phase(const char *what, unsigned secs)
{
    static int armed;
    if (!armed) {
        signal(SIGALRM, prog_alarm);
        armed = 1;
    }
    prog_phase = what;
    alarm(secs);
}

/* ---- ordering between processes ---- */

/* Waits up to `secs` seconds for process pid to exit (a zombie, or already reaped); false if it
 * did not. A program that needs another rank gone first waits for exactly that, never a
 * guessed sleep that a loaded machine outlasts. */
static inline bool prog_await_exit(pid_t pid, int secs)
{
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0)
        return errno == ESRCH; /* reaped already */
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int rc;
    while ((rc = poll(&pfd, 1, secs * 1000)) < 0 && errno == EINTR)
        ;
    close(fd);
    return rc > 0;
}

/* ---- payloads ---- */

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Fill buf with n bytes that depend on `seed` and position (8 bytes per mix). */
static inline void fill(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = mix64(seed ^ (i * 0x100000001b3ull));
        memcpy(p + i, &v, 8);
    }
    if (i < n) {
        uint64_t v = mix64(seed ^ (i * 0x100000001b3ull));
        memcpy(p + i, &v, n - i);
    }
}

/* Offset of the first byte of buf that differs from fill(seed), or n if none. */
static inline size_t first_mismatch(const void *buf, size_t n, uint64_t seed)
{
    const unsigned char *p = buf;
    unsigned char want[8];
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = mix64(seed ^ (i * 0x100000001b3ull));
        memcpy(want, &v, 8);
        size_t k = n - i < 8 ? n - i : 8;
        if (memcmp(p + i, want, k) != 0) {
            for (size_t j = 0; j < k; j++)
                if (p[i + j] != want[j])
                    return i + j;
        }
    }
    return n;
}

/* FNV-1a over n bytes: the checksum a receiver reports back. */
static inline uint64_t checksum(const void *buf, size_t n)
{
    const unsigned char *p = buf;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* xorshift64*: a small deterministic generator (same seed -> same stream on every rank). */
static inline uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dull;
}

/* The program's end: exit 1 if anything failed (mrun then reports this rank). */
static inline int prog_exit(void)
{
    fflush(stdout);
    return prog_failures ? 1 : 0;
}

#endif
