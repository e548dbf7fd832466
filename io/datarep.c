/* datarep.c — data representations: "native" and "internal" (memory bytes as they are),
 * "external32" (rmp_pack_external's conversion: big-endian, the standard's sizes), and those
 * the program registers with conversion functions (MPI-3.1 13.5.3). Memory data goes through
 * one packed buffer on its way to and from the file. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "io.h"

typedef struct io_rep {
    char name[RMP_MAX_DATAREP_STRING];
    rmp_datarep_conv_fn *read_fn, *write_fn;
    rmp_datarep_extent_fn *extent_fn;
    void *extra;
    struct io_rep *next;
} io_rep_t;

static struct {
    pthread_mutex_t lock;
    io_rep_t *head; /* registered ones live until the process ends, as MPI says */
} io_reps = {.lock = PTHREAD_MUTEX_INITIALIZER};

int rmp_register_datarep(const char *name, rmp_datarep_conv_fn *read_fn,
                         rmp_datarep_conv_fn *write_fn, rmp_datarep_extent_fn *extent_fn,
                         void *extra_state)
{
    if (!name || !*name || strlen(name) >= RMP_MAX_DATAREP_STRING || !extent_fn)
        return RMP_ERR_ARG;
    int rep;
    void *u;
    if (io_rep_lookup(name, &rep, &u) == RMP_SUCCESS)
        return RMP_ERR_DUP_DATAREP;
    io_rep_t *r = calloc(1, sizeof *r);
    if (!r)
        return RMP_ERR_NO_MEM;
    strcpy(r->name, name);
    r->read_fn = read_fn;
    r->write_fn = write_fn;
    r->extent_fn = extent_fn;
    r->extra = extra_state;
    pthread_mutex_lock(&io_reps.lock);
    r->next = io_reps.head;
    io_reps.head = r;
    pthread_mutex_unlock(&io_reps.lock);
    return RMP_SUCCESS;
}

int io_rep_lookup(const char *name, int *rep, void **user)
{
    *user = NULL;
    if (strcmp(name, "native") == 0 || strcmp(name, "internal") == 0) {
        *rep = IO_REP_NATIVE;
        return RMP_SUCCESS;
    }
    if (strcmp(name, "external32") == 0) {
        *rep = IO_REP_EXTERNAL32;
        return RMP_SUCCESS;
    }
    pthread_mutex_lock(&io_reps.lock);
    io_rep_t *r = io_reps.head;
    while (r && strcmp(r->name, name) != 0)
        r = r->next;
    pthread_mutex_unlock(&io_reps.lock);
    *rep = IO_REP_USER;
    *user = r;
    return r ? RMP_SUCCESS : RMP_ERR_UNSUPPORTED_DATAREP;
}

int io_rep_size(const io_view_t *v, rmp_datatype_t type, int64_t *size)
{
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    if (v->rep == IO_REP_NATIVE) {
        *size = (int64_t)t->extent;
        return RMP_SUCCESS;
    }
    if (v->rep == IO_REP_EXTERNAL32) {
        size_t s;
        int rc = rmp_pack_external_size("external32", 1, type, &s);
        *size = (int64_t)s;
        return rc;
    }
    const io_rep_t *r = v->rep_user;
    ptrdiff_t e = 0;
    if (r->extent_fn(type, &e, r->extra) != RMP_SUCCESS)
        return RMP_ERR_CONVERSION;
    *size = (int64_t)e;
    return RMP_SUCCESS;
}

int io_rep_same_size(const io_view_t *v, rmp_datatype_t type)
{
    const dtype_t *t = dtype_get(type, false);
    if (!t)
        return RMP_ERR_TYPE;
    if (v->rep == IO_REP_NATIVE)
        return RMP_SUCCESS;
    int64_t s;
    if (v->rep == IO_REP_EXTERNAL32) {
        size_t e;
        int rc = rmp_pack_external_size("external32", 1, type, &e);
        s = (int64_t)e;
        if (rc != RMP_SUCCESS)
            return rc;
    } else if (!t->builtin) {
        return RMP_SUCCESS; /* the extent function speaks of builtins; its conversions decide */
    } else if (io_rep_size(v, type, &s) != RMP_SUCCESS) {
        return RMP_ERR_CONVERSION;
    }
    return s == (int64_t)t->size ? RMP_SUCCESS : RMP_ERR_UNSUPPORTED_DATAREP;
}

int io_rep_to_file(const io_view_t *v, const void *buf, int64_t count, rmp_datatype_t type,
                   char **out, int64_t *len, bool *owned)
{
    const dtype_t *t = dtype_get(type, true);
    if (!t)
        return RMP_ERR_TYPE;
    size_t bytes;
    if (dtype_bytes(t, (size_t)count, &bytes) != RMP_SUCCESS || count > INT_MAX)
        return RMP_ERR_COUNT;
    *owned = false;
    *len = (int64_t)bytes;
    if (v->rep == IO_REP_NATIVE && t->contig) {
        *out = (char *)buf;
        return RMP_SUCCESS;
    }
    if (bytes == 0) {
        *out = NULL;
        return RMP_SUCCESS;
    }
    char *p = malloc(bytes);
    if (!p)
        return RMP_ERR_NO_MEM;
    int rc = RMP_SUCCESS;
    if (v->rep == IO_REP_NATIVE) {
        dtype_pack(t, (int)count, buf, p);
    } else if (v->rep == IO_REP_EXTERNAL32) {
        size_t at = 0;
        rc = rmp_pack_external("external32", buf, (int)count, type, p, bytes, &at);
    } else {
        const io_rep_t *r = v->rep_user;
        if (!r->write_fn)
            dtype_pack(t, (int)count, buf, p);
        else if (r->write_fn((void *)buf, type, (int)count, p, 0, r->extra) != RMP_SUCCESS)
            rc = RMP_ERR_CONVERSION;
    }
    if (rc != RMP_SUCCESS) {
        free(p);
        return rc;
    }
    *out = p;
    *owned = true;
    return RMP_SUCCESS;
}

int io_rep_from_file(const io_view_t *v, const char *in, int64_t len, void *buf,
                     int64_t count, rmp_datatype_t type)
{
    const dtype_t *t = dtype_get(type, true);
    if (!t)
        return RMP_ERR_TYPE;
    if (v->rep == IO_REP_NATIVE) {
        if (!t->contig)
            dtype_unpack(t, (int)count, in, (size_t)len, buf);
        return RMP_SUCCESS; /* contiguous: read in place */
    }
    if (v->rep == IO_REP_EXTERNAL32) {
        /* whole elements only: a short read converts what came */
        int64_t one = count ? (int64_t)t->size : 1;
        int n = (int)(one ? len / one : 0);
        size_t at = 0;
        return n ? rmp_unpack_external("external32", in, (size_t)len, &at, buf, n, type)
                 : RMP_SUCCESS;
    }
    const io_rep_t *r = v->rep_user;
    if (!r->read_fn) {
        dtype_unpack(t, (int)count, in, (size_t)len, buf);
        return RMP_SUCCESS;
    }
    int64_t one = (int64_t)t->size;
    int n = (int)(one ? len / one : 0);
    if (n && r->read_fn(buf, type, n, (void *)in, 0, r->extra) != RMP_SUCCESS)
        return RMP_ERR_CONVERSION;
    return RMP_SUCCESS;
}
