/* attr_calls.c — the MPI attribute calls (MPI-3.1 6.7) and the predefined copy/delete
 * callbacks: the same five calls for communicators, datatypes and windows, plus MPI-1's
 * communicator ones, each the store's operation (attr.h) with its kind filled in. Written
 * once by macro: the kinds differ only in their names and handle types. */
#include <string.h>

#include "attr.h"

/* ---- Predefined callbacks ------------------------------------------------------------- */
static int null_copy(void *out, int *flag)
{
    (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

static int dup_copy(void *in, void *out, int *flag)
{
    memcpy(out, &in, sizeof in);
    *flag = 1;
    return MPI_SUCCESS;
}

#define RMPI_PREDEF_CALLBACKS(H, NULL_COPY, DUP, NULL_DELETE)                                  \
    int NULL_COPY(H old, int keyval, void *extra, void *in, void *out, int *flag)              \
    {                                                                                          \
        (void)old, (void)keyval, (void)extra, (void)in;                                        \
        return null_copy(out, flag);                                                           \
    }                                                                                          \
    int DUP(H old, int keyval, void *extra, void *in, void *out, int *flag)                    \
    {                                                                                          \
        (void)old, (void)keyval, (void)extra;                                                  \
        return dup_copy(in, out, flag);                                                        \
    }                                                                                          \
    int NULL_DELETE(H obj, int keyval, void *val, void *extra)                                 \
    {                                                                                          \
        (void)obj, (void)keyval, (void)val, (void)extra;                                       \
        return MPI_SUCCESS;                                                                    \
    }

RMPI_PREDEF_CALLBACKS(MPI_Comm, MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN)
RMPI_PREDEF_CALLBACKS(MPI_Comm, MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN)
RMPI_PREDEF_CALLBACKS(MPI_Datatype, MPI_TYPE_NULL_COPY_FN, MPI_TYPE_DUP_FN,
                      MPI_TYPE_NULL_DELETE_FN)
RMPI_PREDEF_CALLBACKS(MPI_Win, MPI_WIN_NULL_COPY_FN, MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN)

/* ---- The MPI calls -------------------------------------------------------------------- */
#define RMPI_ATTR_CALLS(Kind, H, KIND)                                                         \
    int MPI_##Kind##_create_keyval(MPI_##Kind##_copy_attr_function *copy_fn,                   \
                                   MPI_##Kind##_delete_attr_function *delete_fn, int *keyval,  \
                                   void *extra_state)                                          \
    {                                                                                          \
        return rmpi_attr_create_keyval(KIND, copy_fn, delete_fn, keyval, extra_state,          \
                                       __func__);                                              \
    }                                                                                          \
    int MPI_##Kind##_free_keyval(int *keyval)                                                  \
    {                                                                                          \
        return rmpi_attr_free_keyval(KIND, keyval, __func__);                                  \
    }                                                                                          \
    int MPI_##Kind##_set_attr(H obj, int keyval, void *attribute_val)                          \
    {                                                                                          \
        return rmpi_attr_set(KIND, obj, keyval, attribute_val, __func__);                      \
    }                                                                                          \
    int MPI_##Kind##_get_attr(H obj, int keyval, void *attribute_val, int *flag)               \
    {                                                                                          \
        return rmpi_attr_get(KIND, obj, keyval, attribute_val, flag, __func__);                \
    }                                                                                          \
    int MPI_##Kind##_delete_attr(H obj, int keyval)                                            \
    {                                                                                          \
        return rmpi_attr_delete(KIND, obj, keyval, __func__);                                  \
    }

RMPI_ATTR_CALLS(Comm, MPI_Comm, RMPI_KIND_COMM)
RMPI_ATTR_CALLS(Type, MPI_Datatype, RMPI_KIND_TYPE)
RMPI_ATTR_CALLS(Win, MPI_Win, RMPI_KIND_WIN)

/* MPI-1's names (deprecated): the communicator's calls. */
int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                      void *extra_state)
{
    return rmpi_attr_create_keyval(RMPI_KIND_COMM, copy_fn, delete_fn, keyval, extra_state,
                                   __func__);
}

int MPI_Keyval_free(int *keyval)
{
    return rmpi_attr_free_keyval(RMPI_KIND_COMM, keyval, __func__);
}

int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return rmpi_attr_set(RMPI_KIND_COMM, comm, keyval, attribute_val, __func__);
}

int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return rmpi_attr_get(RMPI_KIND_COMM, comm, keyval, attribute_val, flag, __func__);
}

int MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return rmpi_attr_delete(RMPI_KIND_COMM, comm, keyval, __func__);
}
