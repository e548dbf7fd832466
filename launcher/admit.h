/* admit.h: which rank a client connecting to mrun's PMIx server claims to be, read from its
 * PMIx handshake before PMIx itself sees the connection (so that mrun can refuse a second
 * process claiming a rank that is already connected; see pmix_srv.c). */
#ifndef MRUN_ADMIT_H
#define MRUN_ADMIT_H

#include <stddef.h>
#include <stdint.h>

/* Parses the first n bytes of a PMIx 4.2 client handshake. Returns 1 with the namespace (at
 * most len - 1 characters) and rank the client claims, 0 if more bytes are needed, -1 if this
 * is no plain client's handshake (a tool, another version, garbage: PMIx decides those). */
int admit_parse(const unsigned char *buf, size_t n, char *nspace, size_t len, uint32_t *rank);

/* The same from a freshly accepted socket, without consuming anything: waits at most wait_ms
 * for the bytes. Returns 1 with nspace and rank, or 0 (timed out, closed, or not a client). */
int admit_peek(int fd, int wait_ms, char *nspace, size_t len, uint32_t *rank);

/* The line that tells the user what to do about a second process claiming a rank (the same
 * words in mrun and in the refused process). */
#define ADMIT_FIX                                                                              \
    "a program started by a rank is not that rank: unset the PMIX_* variables or start it "    \
    "with mrun"

#endif
