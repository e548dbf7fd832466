/* pattern.c — the data the benchmarks send, and the check of what arrived. Every byte
 * depends on its offset and on a seed (sender, destination, size), so a block delivered to the
 * wrong place, a stale buffer or a short message all show up as wrong bytes. */
#include <stdint.h>

#include "bench.h"

static inline uint8_t pattern_byte(size_t i, unsigned seed)
{
    uint32_t h = (uint32_t)i * 2654435761u ^ (seed + 0x9e3779b9u) * 40503u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    return (uint8_t)(h >> 24);
}

void pattern_fill(void *buf, size_t bytes, unsigned seed)
{
    uint8_t *p = buf;
    for (size_t i = 0; i < bytes; i++)
        p[i] = pattern_byte(i, seed);
}

size_t pattern_check(const void *buf, size_t bytes, unsigned seed)
{
    const uint8_t *p = buf;
    size_t wrong = 0;
    for (size_t i = 0; i < bytes; i++)
        wrong += p[i] != pattern_byte(i, seed);
    return wrong;
}

static inline int pattern_small(size_t i, unsigned seed)
{
    return (int)((i * 7 + seed) % 13) + 1;
}

void pattern_fill_floats(float *v, size_t count, unsigned seed, int rank)
{
    for (size_t i = 0; i < count; i++)
        v[i] = (float)((rank + 1) * pattern_small(i, seed));
}

size_t pattern_check_float_sum(const float *v, size_t count, unsigned seed, int nranks)
{
    size_t wrong = 0;
    int ranks_sum = nranks * (nranks + 1) / 2;
    for (size_t i = 0; i < count; i++)
        wrong += v[i] != (float)(ranks_sum * pattern_small(i, seed));
    return wrong;
}
