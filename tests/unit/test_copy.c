/* test_copy.c — copy_bytes (transport/copy.h), the small-message copy on every message's path:
 * every length up to past its memcpy threshold, at every alignment of source and destination,
 * copies exactly those bytes and writes nothing around them (guard bytes; the ASan build also
 * sees any read past the source). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "transport/copy.h"

#define GUARD 0xa5

Test(copy, every_length_and_alignment)
{
    unsigned char *src = malloc(64); /* exactly the bytes used: reads past them are caught */
    unsigned char dst[64 + 32];
    cr_assert_not_null(src);
    for (size_t n = 0; n <= 40; n++)
        for (size_t so = 0; so + n <= 64 && so < 8; so++)
            for (size_t d = 0; d < 8; d++) {
                for (size_t i = 0; i < 64; i++)
                    src[i] = (unsigned char)(i * 7 + n + 1);
                memset(dst, GUARD, sizeof(dst));
                copy_bytes(dst + 16 + d, src + so, n);
                cr_assert(memcmp(dst + 16 + d, src + so, n) == 0, "n %zu: bytes differ", n);
                for (size_t i = 0; i < sizeof(dst); i++)
                    if (i < 16 + d || i >= 16 + d + n)
                        cr_assert_eq(dst[i], GUARD, "n %zu offset %zu: byte %zu written", n, d, i);
            }
    free(src);
}

/* A header of 32 bytes followed by an 8-byte payload, as a small eager message is written into
 * a shm record: the payload lands after the header, the header is untouched. */
Test(copy, payload_after_header)
{
    unsigned char rec[64];
    memset(rec, 0, sizeof(rec));
    memset(rec, 0x11, 32);
    const char payload[8] = "abcdefg";
    copy_bytes(rec + 32, payload, sizeof(payload));
    for (int i = 0; i < 32; i++)
        cr_assert_eq(rec[i], 0x11);
    cr_assert(memcmp(rec + 32, payload, 8) == 0);
    for (int i = 40; i < 64; i++)
        cr_assert_eq(rec[i], 0);
}
