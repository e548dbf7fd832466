/* attr.h — the attribute store's operations (mpi/attr.c), one per shape of MPI call, for
 * any kind of object (RMPI_KIND_COMM, _TYPE, _WIN: their handles are ints); the MPI calls
 * (mpi/attr_calls.c) are these with the kind filled in. Each raises its errors as the call
 * named `call` would: on the object's handler, keyval errors on MPI_COMM_WORLD's. */
#ifndef RMPI_ATTR_H
#define RMPI_ATTR_H

#include "rmpi.h"

typedef int rmpi_copy_fn(int oldobj, int keyval, void *extra, void *in, void *out, int *flag);
typedef int rmpi_delete_fn(int obj, int keyval, void *val, void *extra);

int rmpi_attr_create_keyval(int kind, rmpi_copy_fn *copy, rmpi_delete_fn *del, int *keyval,
                            void *extra, const char *call);
int rmpi_attr_free_keyval(int kind, int *keyval, const char *call);
int rmpi_attr_set(int kind, int h, int k, void *val, const char *call);
/* val is a void ** passed as void * (the standard's type); *flag 0 when not set. */
int rmpi_attr_get(int kind, int h, int k, void *val, int *flag, const char *call);
int rmpi_attr_delete(int kind, int h, int k, const char *call);

#endif
