/* admit.c: reading the rank a PMIx client claims off its handshake, without taking the bytes
 * off the socket (PMIx reads them next). The layout is PMIx 4.2's (measured with 4.2.2): a
 * header {int32 index, uint32 tag, size_t nbytes} in host order, then nbytes of: the security
 * module's name and NUL, a credential length (uint32, network order) and that many bytes, a
 * process-type byte (0: a client started by a server), the namespace and NUL, the rank (uint32,
 * network order), then versions that do not matter here. Anything else parses as "not a
 * client", and PMIx's own checks take over. */
#include "admit.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum {
    HDR_LEN = 16,         /* int32 + uint32 + size_t on the 64-bit ABIs mrun builds for */
    MAX_BODY = 4096,      /* a client's handshake is ~60 bytes; PMIx caps credentials too */
    SIMPLE_CLIENT = 0,    /* the process-type byte of a client started by a PMIx server */
};

/* Takes a NUL-terminated string of at most max - 1 characters off *p; NULL if incomplete. */
static const char *take_string(const unsigned char **p, const unsigned char *end, size_t max)
{
    const unsigned char *nul = memchr(*p, '\0', (size_t)(end - *p));
    if (!nul || (size_t)(nul - *p) >= max)
        return NULL;
    const char *s = (const char *)*p;
    *p = nul + 1;
    return s;
}

static int take_u32(const unsigned char **p, const unsigned char *end, uint32_t *v)
{
    if (end - *p < 4)
        return 0;
    uint32_t net;
    memcpy(&net, *p, 4);
    *v = ntohl(net);
    *p += 4;
    return 1;
}

int admit_parse(const unsigned char *buf, size_t n, char *nspace, size_t len, uint32_t *rank)
{
    if (n < HDR_LEN)
        return 0;
    size_t body;
    memcpy(&body, buf + 8, sizeof body);
    if (body < 8 || body > MAX_BODY)
        return -1;
    /* Everything below lies within the body: having all of it (or failing inside it) is a
     * verdict; running off what has arrived so far only means "wait". */
    bool whole = n >= HDR_LEN + body;
    const unsigned char *p = buf + HDR_LEN, *end = buf + (whole ? HDR_LEN + body : n);
    uint32_t cred;
    const char *ns;
    if (!take_string(&p, end, 64) || !take_u32(&p, end, &cred))
        return whole ? -1 : 0;
    if (cred > (uint32_t)(end - p))
        return whole || cred > MAX_BODY ? -1 : 0;
    p += cred;
    if (p >= end)
        return whole ? -1 : 0;
    if (*p++ != SIMPLE_CLIENT)
        return -1;
    if (!(ns = take_string(&p, end, len)) || !take_u32(&p, end, rank))
        return whole ? -1 : 0;
    memcpy(nspace, ns, strlen(ns) + 1);
    return 1;
}

static long ms_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t); /* cannot fail for CLOCK_MONOTONIC */
    return (t.tv_sec - t0->tv_sec) * 1000L + (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

int admit_peek(int fd, int wait_ms, char *nspace, size_t len, uint32_t *rank)
{
    unsigned char buf[HDR_LEN + MAX_BODY];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ssize_t last = -1;
    for (;;) {
        long left = wait_ms - ms_since(&t0);
        if (left <= 0)
            return 0;
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int rc = poll(&pfd, 1, (int)left);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return 0;
        ssize_t n = recv(fd, buf, sizeof buf, MSG_PEEK | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return 0; /* closed or failed: PMIx will find out for itself */
        int got = admit_parse(buf, (size_t)n, nspace, len, rank);
        if (got != 0)
            return got > 0;
        if (n == last || n == (ssize_t)sizeof buf) {
            /* poll keeps saying "readable" for the bytes already peeked: wait a moment for
             * the rest of a handshake that arrived in pieces */
            struct timespec pause = {0, 1000000L};
            nanosleep(&pause, NULL);
        }
        last = n;
    }
}
