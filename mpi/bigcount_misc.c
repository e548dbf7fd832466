/* bigcount_misc.c — the large-count (_c) forms whose big arguments are no (count, datatype)
 * pair of a message: packing, buffers, windows, user ops. Every one WORKS past int where rmp
 * can represent the value: an element count becomes one element of a big type (rmp's pack
 * positions and sizes are size_t already), a user op of MPI_Op_create_c gets a long long len
 * (rmp_op_create_c). Fails with an error only where rmp holds the value in an int: a buffer
 * of more than INT_MAX bytes to attach (MPI_ERR_COUNT) and a disp_unit past int
 * (MPI_ERR_ARG, the class of its kind, api/mpi.api). */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "bigcount.h"
#include "rmpi.h"

int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return rmpi_raise(MPI_COMM_WORLD, rmp_op_create_c(user_fn, commute, op), __func__);
}

/* ---- packing: rmp's positions and sizes are size_t, only the element count is an int ---- */

static int comm_ok(MPI_Comm comm)
{
    int n;
    return rmp_comm_size(comm, &n);
}

/* A size or position the caller gives: non-negative, else RMP_ERR_ARG (as the int forms). */
static int pos_in(const MPI_Count *p, MPI_Count size, size_t *pos)
{
    if (!p || *p < 0 || size < 0)
        return RMP_ERR_ARG;
    *pos = (size_t)*p;
    return RMP_SUCCESS;
}

int MPI_Pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
               MPI_Count outsize, MPI_Count *position, MPI_Comm comm)
{
    size_t pos = 0;
    rmpi_bc_t v = {0};
    int rc = comm_ok(comm);
    if (!rc && !(rc = pos_in(position, outsize, &pos)) &&
        !(rc = rmpi_bc_make(incount, datatype, true, &v))) {
        rc = rmp_pack(inbuf, v.count, v.type, outbuf, (size_t)outsize, &pos);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *position = (MPI_Count)pos;
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                 MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm)
{
    size_t pos = 0;
    rmpi_bc_t v = {0};
    int rc = comm_ok(comm);
    if (!rc && !(rc = pos_in(position, insize, &pos)) &&
        !(rc = rmpi_bc_make(outcount, datatype, true, &v))) {
        rc = rmp_unpack(inbuf, (size_t)insize, &pos, outbuf, v.count, v.type);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *position = (MPI_Count)pos;
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size)
{
    size_t sz = 0;
    rmpi_bc_t v = {0};
    int rc = comm_ok(comm);
    if (!rc && !size)
        rc = RMP_ERR_ARG;
    if (!rc && !(rc = rmpi_bc_make(incount, datatype, true, &v))) {
        rc = rmp_pack_size(v.count, v.type, &sz);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *size = (MPI_Count)sz;
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Pack_external_c(const char datarep[], const void *inbuf, MPI_Count incount,
                        MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
                        MPI_Count *position)
{
    size_t pos = 0;
    rmpi_bc_t v = {0};
    int rc = pos_in(position, outsize, &pos);
    if (!rc && !(rc = rmpi_bc_make(incount, datatype, true, &v))) {
        rc = rmp_pack_external(datarep, inbuf, v.count, v.type, outbuf, (size_t)outsize, &pos);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *position = (MPI_Count)pos;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize,
                          MPI_Count *position, void *outbuf, MPI_Count outcount,
                          MPI_Datatype datatype)
{
    size_t pos = 0;
    rmpi_bc_t v = {0};
    int rc = pos_in(position, insize, &pos);
    if (!rc && !(rc = rmpi_bc_make(outcount, datatype, true, &v))) {
        rc = rmp_unpack_external(datarep, inbuf, (size_t)insize, &pos, outbuf, v.count, v.type);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *position = (MPI_Count)pos;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                             MPI_Count *size)
{
    size_t sz = 0;
    rmpi_bc_t v = {0};
    int rc = size ? rmpi_bc_make(incount, datatype, true, &v) : RMP_ERR_ARG;
    if (!rc) {
        rc = rmp_pack_external_size(datarep, v.count, v.type, &sz);
        rmpi_bc_free(&v);
    }
    if (!rc)
        *size = (MPI_Count)sz;
    return rmpi_raise(MPI_COMM_WORLD, rc, __func__);
}

/* ---- the attached buffer: rmp holds its size in an int ---- */

int MPI_Buffer_attach_c(void *buffer, MPI_Count size)
{
    if (size > INT_MAX)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_COUNT, __func__);
    return MPI_Buffer_attach(buffer, size < 0 ? -1 : (int)size);
}

int MPI_Buffer_detach_c(void *buffer_addr, MPI_Count *size)
{
    int n = 0;
    if (!size)
        return rmpi_raise(MPI_COMM_WORLD, RMP_ERR_ARG, __func__);
    int rc = MPI_Buffer_detach(buffer_addr, &n);
    if (rc == MPI_SUCCESS)
        *size = n;
    return rc;
}

/* ---- windows: rmp's disp_unit is an int ---- */

static int disp_unit_in(MPI_Aint disp_unit, int *du)
{
    if (disp_unit > INT_MAX || disp_unit < INT_MIN)
        return RMP_ERR_ARG;
    *du = (int)disp_unit;
    return RMP_SUCCESS;
}

int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                     MPI_Win *win)
{
    int du;
    if (disp_unit_in(disp_unit, &du))
        return rmpi_raise(comm, RMP_ERR_ARG, __func__);
    return MPI_Win_create(base, size, du, info, comm, win);
}

int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                       void *baseptr, MPI_Win *win)
{
    int du;
    if (disp_unit_in(disp_unit, &du))
        return rmpi_raise(comm, RMP_ERR_ARG, __func__);
    return MPI_Win_allocate(size, du, info, comm, baseptr, win);
}

int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              void *baseptr, MPI_Win *win)
{
    int du;
    if (disp_unit_in(disp_unit, &du))
        return rmpi_raise(comm, RMP_ERR_ARG, __func__);
    return MPI_Win_allocate_shared(size, du, info, comm, baseptr, win);
}

int MPI_Win_shared_query_c(MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit,
                           void *baseptr)
{
    int du = 0;
    if (!disp_unit)
        return rmpi_raise_win(win, RMP_ERR_ARG, __func__);
    int rc = MPI_Win_shared_query(win, rank, size, &du, baseptr);
    if (rc == MPI_SUCCESS)
        *disp_unit = du;
    return rc;
}
