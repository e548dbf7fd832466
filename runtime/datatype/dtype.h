/* dtype.h — what a datatype is to the rest of the runtime (datatype.c and the type_*.c files
 * own it): the builtin bases, the descriptor dtype_t, the handle layout of the table, the
 * size check every send and receive makes, and pack/unpack. Lifetime: datatype.h. */
#ifndef RMP_DTYPE_H
#define RMP_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rmp.h"

/* The builtin types, whose values double as their handles. The pair types (MINLOC/MAXLOC)
 * are reduced as records: value then int, packed without padding (their base size). */
typedef enum {
    DT_NONE = 0, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32,
    DT_UINT64, DT_FLOAT, DT_DOUBLE, DT_BYTE, DT_2INT, DT_FLOAT_INT, DT_DOUBLE_INT, DT_LONG_INT,
    DT_SHORT_INT,
    /* issue 20, predefined types: long double, wchar_t, C bool, the C complex types, the long
     * double pair, Fortran LOGICAL and the Fortran pairs (both members REAL, DOUBLE PRECISION) */
    DT_LONG_DOUBLE, DT_WCHAR, DT_C_BOOL, DT_C_FLOAT_COMPLEX, DT_C_DOUBLE_COMPLEX,
    DT_C_LONG_DOUBLE_COMPLEX, DT_LONG_DOUBLE_INT, DT_LOGICAL, DT_2REAL, DT_2DOUBLE,
    DT_PACKED, /* issue 20: MPI_PACKED, bytes of a packed buffer (rmp_pack) */
    DT_NBUILTIN
} dt_base_t;

/* A builtin element's form in external32 (type_pack.c), whose sizes are the standard's for
 * the type's name (MPI-3.1 13.5.2): EXT_NATIVE its own bytes, big-endian; EXT_INT4 and
 * EXT_UINT4 a long or unsigned long of 8 bytes (LP64) in 4; EXT_WCHAR2 a 4-byte wchar_t in 2;
 * EXT_QUAD a long double that is not IEEE binary128 (x87's 80 bits) as binary128, and
 * EXT_QUAD2 two of them (long double complex). */
typedef enum { EXT_NATIVE = 0, EXT_INT4, EXT_UINT4, EXT_WCHAR2, EXT_QUAD, EXT_QUAD2 } dt_ext_t;

/* A block of a struct-like type: count elements of old at disp bytes from the origin. */
typedef struct dt_block {
    ptrdiff_t disp;
    int count;
    rmp_datatype_t old;
} dt_block_t;

typedef struct dtype {
    bool in_use, committed, builtin;
    dt_base_t base;       /* the one builtin type every element is made of; DT_NONE: mixed */
    dt_ext_t ext;         /* a builtin's external32 form; derived types: EXT_NATIVE (their
                           * elements say) */
    size_t size;          /* bytes of data in one element */
    size_t extent;        /* bytes from one element to the next */
    ptrdiff_t lb;         /* lower bound: where the element's span starts, from its origin */
    ptrdiff_t true_lb, true_ub; /* where its data really lies, from the origin (a resized
                                 * type's data may reach outside [lb, lb + extent)) */
    bool contig;          /* lb == 0, size == extent and no gaps: memcpy is enough */
    /* The strictest C alignment of the builtins it is made of; a struct type's extent is
     * rounded up to it (MPI-3.1 4.1.6, as a C compiler pads a struct). sticky: its bounds
     * were set by resized (at any depth), which pads nothing, as MPICH and Open MPI do. */
    unsigned short align;
    bool sticky;
    /* What keeps a derived type's slot after rmp_type_free (type_slot.c): the types built on
     * it or naming it in their record, and the operations in flight on it (dtype_hold). The
     * slot goes back to the pool when it is freed and this is 0. */
    int refs;
    /* A negative extent (resized to one, or built so, as MPI allows): extent is then 0 and
     * neg_extent the real one. Such a type is usable one element at a time (count <= 1:
     * dtype_bytes refuses more, every step by extent would go the wrong way); a type built
     * on it places each of its elements in a block of its own (type_blocks.c), so it may be
     * used in any count. 0: not negative. */
    ptrdiff_t neg_extent;
    /* vector kind (nblocks == 0): count blocks of blocklen `old` elements, block starts
     * stride*extent(old) apart */
    int count, blocklen, stride;
    rmp_datatype_t old;
    /* block kind (indexed, hindexed, struct, resized, the pair builtins): nblocks blocks */
    int nblocks;
    dt_block_t *blocks;
    struct dt_env *env;   /* how it was built (type_env.h): rmp_type_get_contents; NULL for
                           * builtins */
} dtype_t;

/* dtype_get(h, need_commit), the type of a handle: inline in ctx.h (it reads the context). */
size_t dtype_base_size(dt_base_t b);
/* `count` elements of t as one buffer: *bytes gets the packed size. RMP_ERR_COUNT if the data
 * (count * size) or the memory it spans (count * extent) exceeds PTRDIFF_MAX: such a buffer
 * cannot exist, and every later product (pack, pointer steps) must not wrap. Inline: it is
 * on every send and receive (a contiguous type has extent == size: one product). */
static inline int dtype_bytes(const dtype_t *t, size_t count, size_t *bytes)
{
    size_t size, span;
    if (t->neg_extent && count > 1)
        return RMP_ERR_COUNT;
    if (__builtin_mul_overflow(count, t->size, &size) || size > PTRDIFF_MAX)
        return RMP_ERR_COUNT;
    if (!t->contig && (__builtin_mul_overflow(count, t->extent, &span) || span > PTRDIFF_MAX))
        return RMP_ERR_COUNT;
    *bytes = size;
    return RMP_SUCCESS;
}
/* A block of count > 0 elements of t at buf + off bytes: a real buffer (not RMP_IN_PLACE), or
 * NULL (RMP_BOTTOM) when the type's data, with the block's offset, lies at absolute addresses
 * (rmp_get_address), all above the first page, which is never mapped. Like MPICH, BOTTOM is
 * refused only where no type map could make it valid. */
static inline bool dtype_block_ok(const void *buf, ptrdiff_t off, const dtype_t *t)
{
    ptrdiff_t at;
    if (buf)
        return buf != RMP_IN_PLACE;
    return t->size == 0 || (!__builtin_add_overflow(off, t->true_lb, &at) && at >= 4096);
}
static inline bool dtype_buf_ok(const void *buf, const dtype_t *t)
{
    return dtype_block_ok(buf, 0, t);
}
/* Pack count elements at src into dst (size*count bytes), and the reverse. `bytes` caps how
 * much is unpacked (a truncated message). */
void dtype_pack(const dtype_t *t, int count, const void *src, void *dst);
void dtype_unpack(const dtype_t *t, int count, const void *src, size_t bytes, void *dst);
/* A receive that will unpack through t later holds it (delta +1) until then (-1), so that a
 * type freed meanwhile keeps its slot (type_slot.c; lock held). */
void dtype_hold(const dtype_t *t, int delta);

/* Handles: builtins and named synonyms below DT_FIRST_DERIVED (rmp.h; a synonym is a copy
 * of its builtin's descriptor, same base), derived types from DT_FIRST_DERIVED on. The
 * table is allocated once with room for DT_MAX_DERIVED derived types and never moves, so a dtype_t pointer kept
 * by a pending request stays valid while the table is used by other threads. */
#define DT_FIRST_DERIVED 80
/* About a million alive at once (120 MB of address space, touched only as used): HDF5's
 * link-chunk collective I/O holds a type per chunk, 160,000 of them in its own parallel tests,
 * which the earlier 65,536 refused with RMP_ERR_NO_MEM. */
#define DT_MAX_DERIVED   (1 << 20)
#define DT_TABLE_CAP     (DT_FIRST_DERIVED + DT_MAX_DERIVED)

#endif
