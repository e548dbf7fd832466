/* verbs_atomic_val.c — the values of an allreduce on RDMA atomics (verbs_atomic.c): elements
 * widened to 8-byte words, and every op mapped onto SUM, unsigned MAX or OR on words whose
 * identity is 0, which fetch-add and compare-swap at the root can accumulate. */
#include <string.h>

#include "transport/verbs/verbs_atomic.h"

/* ---- values: every op becomes SUM, unsigned MAX or OR on words whose identity is 0 ------- */

static bool atom_signed(ofl_elem_t e)
{
    return e == OFL_I32 || e == OFL_I64;
}

uint64_t atom_load(ofl_elem_t e, const void *p, int i)
{
    if (e == OFL_I32 || e == OFL_U32) {
        uint32_t x;
        memcpy(&x, (const char *)p + 4 * (size_t)i, 4);
        return e == OFL_I32 ? (uint64_t)(int64_t)(int32_t)x : x; /* widen */
    }
    uint64_t x;
    memcpy(&x, (const char *)p + 8 * (size_t)i, 8);
    return x;
}

void atom_store(ofl_elem_t e, void *p, int i, uint64_t x)
{
    if (e == OFL_I32 || e == OFL_U32) {
        uint32_t y = (uint32_t)x; /* SUM wraps mod 2^32 as the software schedule's does */
        memcpy((char *)p + 4 * (size_t)i, &y, 4);
    } else {
        memcpy((char *)p + 8 * (size_t)i, &x, 8);
    }
}

/* BAND = NOT(OR of NOTs); signed order becomes unsigned by flipping the sign bit; MIN is MAX
 * of the complement. */
uint64_t atom_to_acc(ofl_op_t op, ofl_elem_t e, uint64_t x)
{
    uint64_t s = atom_signed(e) ? ATOM_SIGN : 0;
    switch (op) {
    case OFL_OP_BAND: return ~x;
    case OFL_OP_MAX: return x ^ s;
    case OFL_OP_MIN: return ~(x ^ s);
    default: return x; /* SUM, BOR */
    }
}

uint64_t atom_from_acc(ofl_op_t op, ofl_elem_t e, uint64_t y)
{
    uint64_t s = atom_signed(e) ? ATOM_SIGN : 0;
    switch (op) {
    case OFL_OP_BAND: return ~y;
    case OFL_OP_MAX: return y ^ s;
    case OFL_OP_MIN: return ~y ^ s;
    default: return y;
    }
}

uint64_t atom_combine(ofl_op_t op, uint64_t old, uint64_t mine)
{
    if (op == OFL_OP_SUM)
        return old + mine;
    if (op == OFL_OP_MIN || op == OFL_OP_MAX)
        return old > mine ? old : mine;
    return old | mine;
}

