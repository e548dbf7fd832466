/* copy.h — memcpy for the few bytes of a small message and its header. A call to libc's
 * memcpy for a length known only at run time costs a call, a size dispatch and a return (about
 * 15 instructions) for an 8-byte payload, on the path of every message: up to 32 bytes are
 * moved here by two overlapping loads and stores, anything longer by memcpy. Used by the shm
 * rings (transport) and the core's delivery (runtime), which is why it lives at the bottom
 * layer. */
#ifndef RMP_COPY_H
#define RMP_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void copy_bytes(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        struct b16 {
            uint64_t w[2];
        } a, b; /* fixed-size memcpy compiles to one 16-byte move each */
        memcpy(&a, s, 16);
        memcpy(&b, s + n - 16, 16);
        memcpy(d, &a, 16);
        memcpy(d + n - 16, &b, 16);
    } else if (n >= 8) {
        uint64_t a, b; /* fixed-size memcpy compiles to one move each */
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

#endif
