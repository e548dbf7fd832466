/* type_pack.c — rmp_pack / rmp_unpack: a type's data to and from a user's buffer of bytes, in
 * the same representation a message carries (the basic elements' bytes in typemap order,
 * dtype_pack), and the "external32" forms (MPI-3.1 13.5.2): every basic element big-endian
 * in the standard's size for its named type (dt_ext_t): a long in 4 bytes, a wchar_t in 2,
 * a long double as IEEE binary128. */
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The committed type and the packed size of count elements. */
static int pack_args(int count, rmp_datatype_t type, const dtype_t **t, size_t *bytes)
{
    int err = ctx_check();
    if (err)
        return err;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (!(*t = dtype_get(type, true)))
        return RMP_ERR_TYPE;
    return dtype_bytes(*t, (size_t)count, bytes);
}

/* Checks shared by pack and unpack: the user's side (elems, for count elements of t) and the
 * packed side (buf of size bytes, from *position; need the bytes that move). */
static int pack_check(const void *elems, const dtype_t *t, const void *buf, size_t size,
                      const size_t *position, size_t need)
{
    if (!position || *position > size)
        return RMP_ERR_ARG;
    if (need > size - *position)
        return RMP_ERR_TRUNCATE;
    if (need > 0 && (!buf || !dtype_buf_ok(elems, t)))
        return RMP_ERR_BUFFER;
    return RMP_SUCCESS;
}

int rmp_pack(const void *inbuf, int incount, rmp_datatype_t type, void *outbuf, size_t outsize,
             size_t *position)
{
    const dtype_t *t;
    size_t bytes;
    int err = pack_args(incount, type, &t, &bytes);
    if (!err)
        err = pack_check(inbuf, t, outbuf, outsize, position, bytes);
    if (err)
        return err;
    if (bytes > 0)
        dtype_pack(t, incount, inbuf, (char *)outbuf + *position);
    *position += bytes;
    return RMP_SUCCESS;
}

int rmp_unpack(const void *inbuf, size_t insize, size_t *position, void *outbuf, int outcount,
               rmp_datatype_t type)
{
    const dtype_t *t;
    size_t bytes;
    int err = pack_args(outcount, type, &t, &bytes);
    if (!err)
        err = pack_check(outbuf, t, inbuf, insize, position, bytes);
    if (err)
        return err;
    if (bytes > 0)
        dtype_unpack(t, outcount, (const char *)inbuf + *position, bytes, outbuf);
    *position += bytes;
    return RMP_SUCCESS;
}

int rmp_pack_size(int incount, rmp_datatype_t type, size_t *size)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!size)
        return RMP_ERR_ARG;
    if (incount < 0)
        return RMP_ERR_COUNT;
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    return dtype_bytes(t, (size_t)incount, size);
}

/* ---- external32 ---------------------------------------------------------------------------- */

static int datarep_check(const char *datarep)
{
    return datarep && strcmp(datarep, "external32") == 0 ? RMP_SUCCESS : RMP_ERR_ARG;
}

/* Reverse the bytes of n values of w bytes each at p (w of 1: nothing). */
static void swap_n(unsigned char *p, size_t n, size_t w)
{
    if (w <= 1)
        return;
    for (size_t i = 0; i < n; i++, p += w)
        for (size_t a = 0, b = w - 1; a < b; a++, b--) {
            unsigned char c = p[a];
            p[a] = p[b];
            p[b] = c;
        }
}

/* n packed basic elements of base b at p, to or from big-endian (the same swap both ways). */
static void swap_base(dt_base_t b, size_t n, unsigned char *p)
{
    if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
        return;
    size_t sz = dtype_base_size(b);
    if (b == DT_C_FLOAT_COMPLEX || b == DT_C_DOUBLE_COMPLEX || b == DT_C_LONG_DOUBLE_COMPLEX ||
        b == DT_2REAL || b == DT_2DOUBLE) { /* two halves of one type: each is swapped */
        swap_n(p, 2 * n, sz / 2);
        return;
    }
    if ((b >= DT_2INT && b <= DT_SHORT_INT) || b == DT_LONG_DOUBLE_INT) { /* value, then int */
        size_t vs = sz - sizeof(int32_t);
        for (size_t i = 0; i < n; i++, p += sz) {
            swap_n(p, 1, vs);
            swap_n(p + vs, 1, sizeof(int32_t));
        }
        return;
    }
    swap_n(p, n, sz);
}

/* Big-endian integers of w bytes. */
static void put_be(unsigned char *p, uint64_t v, size_t w)
{
    for (size_t i = 0; i < w; i++)
        p[i] = (unsigned char)(v >> (8 * (w - 1 - i)));
}
static uint64_t get_be(const unsigned char *p, size_t w)
{
    uint64_t v = 0;
    for (size_t i = 0; i < w; i++)
        v = v << 8 | p[i];
    return v;
}

/* long double <-> IEEE binary128, big-endian, for x87's 80-bit format (LDBL_MANT_DIG 64):
 * the same sign and 15-bit biased exponent, the 63 fraction bits after the explicit integer
 * bit become the top of binary128's 112 (exact); back, the 112 are cut to 63 (toward zero). */
#if LDBL_MANT_DIG == 64
static void quad_put(unsigned char *q, const unsigned char *ld)
{
    uint64_t m;
    uint16_t se;
    memcpy(&m, ld, 8);       /* little-endian x86: mantissa, then sign and exponent */
    memcpy(&se, ld + 8, 2);
    put_be(q, se, 2);
    put_be(q + 2, m << 1, 8); /* the 63 fraction bits, left-aligned in the next 64 */
    memset(q + 10, 0, 6);
}
static void quad_get(unsigned char *ld, const unsigned char *q)
{
    uint16_t se = (uint16_t)get_be(q, 2);
    uint64_t f = get_be(q + 2, 8) >> 1;          /* top 63 fraction bits */
    uint64_t m = f | ((se & 0x7fff) ? 1ULL << 63 : 0); /* the integer bit: not for zero/denormal */
    memset(ld, 0, sizeof(long double));
    memcpy(ld, &m, 8);
    memcpy(ld + 8, &se, 2);
}
#elif LDBL_MANT_DIG != 113
#error "external32: long double is neither x87 80-bit nor IEEE binary128"
#else
static void quad_put(unsigned char *q, const unsigned char *ld)
{
    memcpy(q, ld, 16);
    swap_base(DT_LONG_DOUBLE, 1, q);
}
static void quad_get(unsigned char *ld, const unsigned char *q)
{
    memcpy(ld, q, 16);
    swap_base(DT_LONG_DOUBLE, 1, ld);
}
#endif

/* external32 bytes of one builtin element of t. */
static size_t ext_leaf_size(const dtype_t *t)
{
    switch (t->ext) {
    case EXT_INT4:
    case EXT_UINT4:
        return 4;
    case EXT_WCHAR2:
        return 2;
    case EXT_QUAD:
        return 16;
    case EXT_QUAD2:
        return 32;
    default:
        return t->size;
    }
}

/* external32 bytes of one element of t (*conv: some element is not only swapped). A type
 * whose elements all keep their size and only swap (the common case) is packed natively and
 * swapped in place; the others are converted element by element (ext_conv). */
static size_t ext_size(const dtype_t *t, bool *conv)
{
    if (t->builtin && t->nblocks == 0) {
        *conv |= t->ext != EXT_NATIVE;
        return ext_leaf_size(t);
    }
    if (t->nblocks == 0)
        return (size_t)t->count * (size_t)t->blocklen * ext_size(&rmp_ctx.dtypes[t->old], conv);
    size_t n = 0;
    for (int b = 0; b < t->nblocks; b++)
        n += (size_t)t->blocks[b].count * ext_size(&rmp_ctx.dtypes[t->blocks[b].old], conv);
    return n;
}

/* n elements of builtin t between native packed bytes and external32 ones. */
static void ext_leaf(const dtype_t *t, size_t n, unsigned char *nat, unsigned char *ext,
                     bool to_ext)
{
    size_t ns = t->size, es = ext_leaf_size(t);
    if (t->ext == EXT_NATIVE) { /* the same bytes, swapped: all at once */
        unsigned char *from = to_ext ? nat : ext, *to = to_ext ? ext : nat;
        if (to != from)
            memcpy(to, from, n * ns);
        swap_base(t->base, n, to);
        return;
    }
    for (size_t i = 0; i < n; i++, nat += ns, ext += es) {
        switch (t->ext) {
        case EXT_INT4:
        case EXT_UINT4:
        case EXT_WCHAR2:
            if (to_ext) {
                uint64_t v = 0; /* the low bytes of the value (little- or big-endian host) */
                if (ns == 8) {
                    uint64_t x;
                    memcpy(&x, nat, 8);
                    v = x;
                } else {
                    uint32_t x;
                    memcpy(&x, nat, 4);
                    v = x;
                }
                put_be(ext, v, es);
            } else {
                uint64_t v = get_be(ext, es); /* sign-extended for long */
                bool neg = t->ext == EXT_INT4 && (v >> (8 * es - 1)) != 0;
                if (neg)
                    v |= ~0ULL << (8 * es);
                if (ns == 8) {
                    memcpy(nat, &v, 8);
                } else {
                    uint32_t x = (uint32_t)v;
                    memcpy(nat, &x, 4);
                }
            }
            break;
        case EXT_QUAD:
        case EXT_QUAD2:
            for (size_t h = 0; h < es / 16; h++) {
                unsigned char *ld = nat + h * sizeof(long double), *q = ext + h * 16;
                if (to_ext)
                    quad_put(q, ld);
                else
                    quad_get(ld, q);
            }
            break;
        default: /* EXT_NATIVE: above */
            break;
        }
    }
}

/* count elements of t, in typemap order, between native packed bytes (*nat) and external32
 * ones (*ext); both pointers advance. */
static void ext_conv(const dtype_t *t, size_t count, unsigned char **nat, unsigned char **ext,
                     bool to_ext)
{
    if (t->builtin && t->nblocks == 0) {
        ext_leaf(t, count, *nat, *ext, to_ext);
        *nat += count * t->size;
        *ext += count * ext_leaf_size(t);
        return;
    }
    for (size_t e = 0; e < count; e++) {
        if (t->nblocks == 0) {
            for (int b = 0; b < t->count; b++)
                ext_conv(&rmp_ctx.dtypes[t->old], (size_t)t->blocklen, nat, ext, to_ext);
        } else {
            for (int b = 0; b < t->nblocks; b++)
                ext_conv(&rmp_ctx.dtypes[t->blocks[b].old], (size_t)t->blocks[b].count, nat,
                         ext, to_ext);
        }
    }
}

/* Swap the packed bytes of count elements of t at p (a type ext_size found conv-free). */
static void swap_type(const dtype_t *t, size_t count, unsigned char *p)
{
    if (t->base != DT_NONE) { /* all one basic type, or records of one pair type */
        size_t bs = dtype_base_size(t->base);
        if (bs)
            swap_base(t->base, count * t->size / bs, p);
        return;
    }
    unsigned char *nat = p, *ext = p; /* same sizes: in place, element by element */
    ext_conv(t, count, &nat, &ext, true);
}

/* The committed type and the external32 size of count elements (*conv as ext_size). */
static int ext_args(const char *datarep, int count, rmp_datatype_t type, const dtype_t **t,
                    size_t *bytes, size_t *native, bool *conv)
{
    int err = ctx_check();
    if (err)
        return err;
    if ((err = datarep_check(datarep)) || (err = pack_args(count, type, t, native)))
        return err;
    *conv = false;
    size_t one = ext_size(*t, conv);
    if (!*conv) {
        *bytes = *native;
        return RMP_SUCCESS;
    }
    /* smaller than native (4-byte longs, 2-byte wchar_t) or as large (binary128) */
    if (__builtin_mul_overflow((size_t)count, one, bytes) || *bytes > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    return RMP_SUCCESS;
}

int rmp_pack_external(const char *datarep, const void *inbuf, int incount, rmp_datatype_t type,
                      void *outbuf, size_t outsize, size_t *position)
{
    const dtype_t *t;
    size_t bytes, native;
    bool conv;
    int err = ext_args(datarep, incount, type, &t, &bytes, &native, &conv);
    if (!err)
        err = pack_check(inbuf, t, outbuf, outsize, position, bytes);
    if (err || bytes == 0)
        return err;
    unsigned char *out = (unsigned char *)outbuf + *position;
    if (!conv) {
        dtype_pack(t, incount, inbuf, out);
        swap_type(t, (size_t)incount, out);
    } else { /* native bytes in a buffer of their own, converted into the output */
        unsigned char *tmp = malloc(native ? native : 1), *nat = tmp, *ext = out;
        if (!tmp)
            return RMP_ERR_NO_MEM;
        dtype_pack(t, incount, inbuf, tmp);
        ext_conv(t, (size_t)incount, &nat, &ext, true);
        free(tmp);
    }
    *position += bytes;
    return RMP_SUCCESS;
}

int rmp_unpack_external(const char *datarep, const void *inbuf, size_t insize, size_t *position,
                        void *outbuf, int outcount, rmp_datatype_t type)
{
    const dtype_t *t;
    size_t bytes, native;
    bool conv;
    int err = ext_args(datarep, outcount, type, &t, &bytes, &native, &conv);
    if (!err)
        err = pack_check(outbuf, t, inbuf, insize, position, bytes);
    if (err || bytes == 0)
        return err;
    /* the input is the caller's (const): its native form in a buffer of our own */
    unsigned char *tmp = malloc(native ? native : 1);
    if (!tmp)
        return RMP_ERR_NO_MEM;
    if (!conv) {
        memcpy(tmp, (const char *)inbuf + *position, bytes);
        swap_type(t, (size_t)outcount, tmp);
    } else {
        unsigned char *nat = tmp, *ext = (unsigned char *)inbuf + *position;
        ext_conv(t, (size_t)outcount, &nat, &ext, false);
    }
    dtype_unpack(t, outcount, tmp, native, outbuf);
    free(tmp);
    *position += bytes;
    return RMP_SUCCESS;
}

int rmp_pack_external_size(const char *datarep, int incount, rmp_datatype_t type, size_t *size)
{
    const dtype_t *t;
    size_t native;
    bool conv;
    if (!size)
        return ctx_check() ? ctx_check() : RMP_ERR_ARG;
    return ext_args(datarep, incount, type, &t, size, &native, &conv);
}
