/* type_name.c — rmp_type_get_name: the builtin types' names (a constant table, so concurrent
 * calls need no lock) and the empty name of derived types. */
#include <string.h>

#include "core.h"
#include "objmeta.h"

static const char *const type_names[DT_FIRST_DERIVED] = {
    [DT_INT8] = "RMP_INT8",           [DT_INT16] = "RMP_INT16",
    [DT_INT32] = "RMP_INT32",         [DT_INT64] = "RMP_INT64",
    [DT_UINT8] = "RMP_UINT8",         [DT_UINT16] = "RMP_UINT16",
    [DT_UINT32] = "RMP_UINT32",       [DT_UINT64] = "RMP_UINT64",
    [DT_FLOAT] = "RMP_FLOAT",         [DT_DOUBLE] = "RMP_DOUBLE",
    [DT_BYTE] = "RMP_BYTE",           [DT_2INT] = "RMP_2INT",
    [DT_FLOAT_INT] = "RMP_FLOAT_INT", [DT_DOUBLE_INT] = "RMP_DOUBLE_INT",
    [DT_LONG_INT] = "RMP_LONG_INT",   [DT_SHORT_INT] = "RMP_SHORT_INT",
    [DT_LONG_DOUBLE] = "RMP_LONG_DOUBLE", [DT_WCHAR] = "RMP_WCHAR", [DT_C_BOOL] = "RMP_C_BOOL",
    [DT_C_FLOAT_COMPLEX] = "RMP_C_FLOAT_COMPLEX", [DT_C_DOUBLE_COMPLEX] = "RMP_C_DOUBLE_COMPLEX",
    [DT_C_LONG_DOUBLE_COMPLEX] = "RMP_C_LONG_DOUBLE_COMPLEX",
    [DT_LONG_DOUBLE_INT] = "RMP_LONG_DOUBLE_INT", [DT_LOGICAL] = "RMP_LOGICAL",
    [DT_2REAL] = "RMP_2REAL", [DT_2DOUBLE] = "RMP_2DOUBLE_PRECISION",
    [DT_PACKED] = "RMP_PACKED",
    /* the named synonyms */
    [RMP_SIGNED_CHAR] = "RMP_SIGNED_CHAR",
    [RMP_INT8_T] = "RMP_INT8_T",
    [RMP_INT16_T] = "RMP_INT16_T",
    [RMP_INT32_T] = "RMP_INT32_T",
    [RMP_INT64_T] = "RMP_INT64_T",
    [RMP_UINT8_T] = "RMP_UINT8_T",
    [RMP_UINT16_T] = "RMP_UINT16_T",
    [RMP_UINT32_T] = "RMP_UINT32_T",
    [RMP_UINT64_T] = "RMP_UINT64_T",
    [RMP_LONG] = "RMP_LONG",
    [RMP_UNSIGNED_LONG] = "RMP_UNSIGNED_LONG",
    [RMP_LONG_LONG] = "RMP_LONG_LONG",
    [RMP_AINT] = "RMP_AINT",
    [RMP_OFFSET] = "RMP_OFFSET",
    [RMP_COUNT] = "RMP_COUNT",
    [RMP_C_COMPLEX] = "RMP_C_COMPLEX",
    [RMP_CXX_BOOL] = "RMP_CXX_BOOL",
    [RMP_CXX_FLOAT_COMPLEX] = "RMP_CXX_FLOAT_COMPLEX",
    [RMP_CXX_DOUBLE_COMPLEX] = "RMP_CXX_DOUBLE_COMPLEX",
    [RMP_CXX_LONG_DOUBLE_COMPLEX] = "RMP_CXX_LONG_DOUBLE_COMPLEX",
    [RMP_INTEGER] = "RMP_INTEGER",
    [RMP_REAL] = "RMP_REAL",
    [RMP_DOUBLE_PRECISION] = "RMP_DOUBLE_PRECISION",
    [RMP_COMPLEX] = "RMP_COMPLEX",
    [RMP_DOUBLE_COMPLEX] = "RMP_DOUBLE_COMPLEX",
    [RMP_CHARACTER] = "RMP_CHARACTER",
    [RMP_INTEGER1] = "RMP_INTEGER1",
    [RMP_INTEGER2] = "RMP_INTEGER2",
    [RMP_INTEGER4] = "RMP_INTEGER4",
    [RMP_INTEGER8] = "RMP_INTEGER8",
    [RMP_REAL4] = "RMP_REAL4",
    [RMP_REAL8] = "RMP_REAL8",
    [RMP_COMPLEX8] = "RMP_COMPLEX8",
    [RMP_COMPLEX16] = "RMP_COMPLEX16",
    [RMP_2INTEGER] = "RMP_2INTEGER",
    [RMP_LOGICAL1] = "RMP_LOGICAL1",
    [RMP_LOGICAL2] = "RMP_LOGICAL2",
    [RMP_LOGICAL4] = "RMP_LOGICAL4",
    [RMP_LOGICAL8] = "RMP_LOGICAL8",
};

int rmp_type_get_name(rmp_datatype_t type, char *name, int *resultlen)
{
    int err = ctx_check();
    if (err)
        return err;
    if (!name)
        return RMP_ERR_ARG;
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    char set[RMP_MAX_OBJECT_NAME]; /* a name rmp_type_set_name gave it (objmeta.c) first */
    const char *s = objmeta_name(OBJ_TYPE, type, set)            ? set
                    : t->builtin && type < DT_FIRST_DERIVED ? type_names[type]
                                                       : "";
    size_t n = strlen(s); /* every name is shorter than RMP_MAX_OBJECT_NAME */
    memcpy(name, s, n + 1);
    if (resultlen)
        *resultlen = (int)n;
    return RMP_SUCCESS;
}
