/* type_pack.c — rmp_pack / rmp_unpack: a type's data to and from a user's buffer of bytes, in
 * the same representation a message carries (the basic elements' bytes in typemap order,
 * dtype_pack), and the "external32" forms: the same bytes with every basic element
 * big-endian (MPI-3.1 13.5.2). rmp's basic types keep their own sizes there; MPI_LONG is
 * MPI_INT64_T in rmp (LP64), so it takes 8 bytes, not external32's 4. */
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

/* Swap the packed bytes of count elements of t at p; returns the bytes they take. */
static size_t swap_type(const dtype_t *t, size_t count, unsigned char *p)
{
    size_t total = count * t->size;
    if (t->base != DT_NONE) { /* all one basic type, or records of one pair type */
        size_t bs = dtype_base_size(t->base);
        if (bs)
            swap_base(t->base, total / bs, p);
        return total;
    }
    size_t done = 0;
    for (size_t e = 0; e < count; e++) {
        if (t->nblocks == 0) {
            const dtype_t *o = &rmp_ctx.dtypes[t->old];
            for (int b = 0; b < t->count; b++)
                done += swap_type(o, (size_t)t->blocklen, p + done);
        } else {
            for (int b = 0; b < t->nblocks; b++)
                done += swap_type(&rmp_ctx.dtypes[t->blocks[b].old], (size_t)t->blocks[b].count,
                                  p + done);
        }
    }
    return done;
}

static bool big_endian(void)
{
    return __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
}

int rmp_pack_external(const char *datarep, const void *inbuf, int incount, rmp_datatype_t type,
                      void *outbuf, size_t outsize, size_t *position)
{
    int err = ctx_check();
    if (err)
        return err;
    if ((err = datarep_check(datarep)))
        return err;
    size_t at = position ? *position : 0;
    if ((err = rmp_pack(inbuf, incount, type, outbuf, outsize, position)))
        return err;
    if (!big_endian() && *position > at)
        swap_type(dtype_get(type, true), (size_t)incount, (unsigned char *)outbuf + at);
    return RMP_SUCCESS;
}

int rmp_unpack_external(const char *datarep, const void *inbuf, size_t insize, size_t *position,
                        void *outbuf, int outcount, rmp_datatype_t type)
{
    int err = ctx_check();
    if (err)
        return err;
    if ((err = datarep_check(datarep)))
        return err;
    const dtype_t *t;
    size_t bytes;
    if ((err = pack_args(outcount, type, &t, &bytes)) ||
        (err = pack_check(outbuf, t, inbuf, insize, position, bytes)))
        return err;
    if (big_endian() || bytes == 0)
        return rmp_unpack(inbuf, insize, position, outbuf, outcount, type);
    /* the input is the caller's (const): its native form in a copy */
    unsigned char *tmp = malloc(bytes);
    if (!tmp)
        return RMP_ERR_NO_MEM;
    memcpy(tmp, (const char *)inbuf + *position, bytes);
    swap_type(t, (size_t)outcount, tmp);
    dtype_unpack(t, outcount, tmp, bytes, outbuf);
    free(tmp);
    *position += bytes;
    return RMP_SUCCESS;
}

int rmp_pack_external_size(const char *datarep, int incount, rmp_datatype_t type, size_t *size)
{
    int err = ctx_check();
    if (err)
        return err;
    if ((err = datarep_check(datarep)))
        return err;
    return rmp_pack_size(incount, type, size);
}
