/* io.c — MPI-IO's file calls over rmp_file_* (io/): open, close, delete, size, group, amode,
 * hints, sync, atomicity, views, pointers, data representations, and the files' error
 * handlers (MPI_ERRORS_RETURN by default: MPI_FILE_NULL's, which a program may change). */
#include <stdlib.h>

#include "rmpi.h"

/* Raises an rmp error on the file's handler (MPI_FILE_NULL's for an invalid handle, and for
 * open and delete, as MPI says). */
int rmpi_raise_file(MPI_File fh, int rmp_err, const char *call)
{
    if (rmp_err == RMP_SUCCESS)
        return MPI_SUCCESS;
    int amode;
    if (fh != MPI_FILE_NULL && rmp_file_get_amode(fh, &amode) != RMP_SUCCESS)
        fh = MPI_FILE_NULL;
    return rmpi_raise_on(RMPI_EH_FILE, fh, rmpi_code(rmp_err), call);
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    int rc = rmp_file_open(comm, filename, amode, info, fh);
    if (rc == RMP_ERR_COMM) /* the communicator's error, on its handler */
        return rmpi_raise(comm, rc, __func__);
    return rmpi_raise_file(MPI_FILE_NULL, rc, __func__);
}

int MPI_File_close(MPI_File *fh)
{
    MPI_File h = fh ? *fh : MPI_FILE_NULL;
    int rc = rmp_file_close(fh);
    bool closed = fh && *fh == MPI_FILE_NULL && h != MPI_FILE_NULL;
    if (closed) /* its errors from here on are MPI_FILE_NULL's */
        rmpi_file_errh_forget(h);
    return rmpi_raise_file(closed ? MPI_FILE_NULL : h, rc, __func__);
}

int MPI_File_delete(const char *filename, MPI_Info info)
{
    return rmpi_raise_file(MPI_FILE_NULL, rmp_file_delete(filename, info), __func__);
}

int MPI_File_set_size(MPI_File fh, MPI_Offset size)
{
    return rmpi_raise_file(fh, rmp_file_set_size(fh, size), __func__);
}

int MPI_File_preallocate(MPI_File fh, MPI_Offset size)
{
    return rmpi_raise_file(fh, rmp_file_preallocate(fh, size), __func__);
}

int MPI_File_get_size(MPI_File fh, MPI_Offset *size)
{
    return rmpi_raise_file(fh, rmp_file_get_size(fh, size), __func__);
}

int MPI_File_get_group(MPI_File fh, MPI_Group *group)
{
    return rmpi_raise_file(fh, rmp_file_get_group(fh, group), __func__);
}

int MPI_File_get_amode(MPI_File fh, int *amode)
{
    return rmpi_raise_file(fh, rmp_file_get_amode(fh, amode), __func__);
}

int MPI_File_set_info(MPI_File fh, MPI_Info info)
{
    return rmpi_raise_file(fh, rmp_file_set_info(fh, info), __func__);
}

int MPI_File_get_info(MPI_File fh, MPI_Info *info_used)
{
    return rmpi_raise_file(fh, rmp_file_get_info(fh, info_used), __func__);
}

int MPI_File_sync(MPI_File fh)
{
    return rmpi_raise_file(fh, rmp_file_sync(fh), __func__);
}

int MPI_File_set_atomicity(MPI_File fh, int flag)
{
    return rmpi_raise_file(fh, rmp_file_set_atomicity(fh, flag), __func__);
}

int MPI_File_get_atomicity(MPI_File fh, int *flag)
{
    return rmpi_raise_file(fh, rmp_file_get_atomicity(fh, flag), __func__);
}

MPI_Fint MPI_File_c2f(MPI_File file)
{
    return (MPI_Fint)file;
}

MPI_File MPI_File_f2c(MPI_Fint file)
{
    int amode;
    return rmp_file_get_amode((MPI_File)file, &amode) == RMP_SUCCESS ? (MPI_File)file
                                                                     : MPI_FILE_NULL;
}

int MPI_File_create_errhandler(MPI_File_errhandler_function *file_errhandler_fn,
                               MPI_Errhandler *errhandler)
{
    int code = rmpi_errh_create(RMPI_EH_FILE, (void (*)(void))file_errhandler_fn, errhandler);
    return code == MPI_SUCCESS ? code : rmpi_raise_on(RMPI_EH_FILE, MPI_FILE_NULL, code, __func__);
}

/* A valid file, or MPI_FILE_NULL (whose handler is the default for opens): both may have one. */
static bool io_handle_ok(MPI_File fh)
{
    int amode;
    return fh == MPI_FILE_NULL || rmp_file_get_amode(fh, &amode) == RMP_SUCCESS;
}

int MPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler)
{
    if (!io_handle_ok(file))
        return rmpi_raise_file(MPI_FILE_NULL, RMP_ERR_FILE, __func__);
    int code = rmpi_errh_set(RMPI_EH_FILE, file, errhandler);
    return code == MPI_SUCCESS ? code : rmpi_raise_on(RMPI_EH_FILE, file, code, __func__);
}

int MPI_File_get_errhandler(MPI_File file, MPI_Errhandler *errhandler)
{
    if (!io_handle_ok(file))
        return rmpi_raise_file(MPI_FILE_NULL, RMP_ERR_FILE, __func__);
    if (!errhandler)
        return rmpi_raise_file(file, RMP_ERR_ARG, __func__);
    *errhandler = rmpi_errh_get(RMPI_EH_FILE, file);
    return MPI_SUCCESS;
}

int MPI_File_call_errhandler(MPI_File fh, int errorcode)
{
    if (!io_handle_ok(fh))
        return rmpi_raise_file(MPI_FILE_NULL, RMP_ERR_FILE, __func__);
    if (errorcode != MPI_SUCCESS)
        (void)rmpi_raise_on(RMPI_EH_FILE, fh, errorcode, __func__);
    return MPI_SUCCESS;
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char *datarep, MPI_Info info)
{
    return rmpi_raise_file(fh, rmp_file_set_view(fh, disp, etype, filetype, datarep, info),
                           __func__);
}

/* A derived type of the view comes back as a new handle the program frees (MPI-3.1 13.3). */
static int io_type_out(MPI_Datatype t, MPI_Datatype *out)
{
    int ni, na, nd, comb;
    int rc = rmp_type_get_envelope(t, &ni, &na, &nd, &comb);
    if (rc == RMP_SUCCESS && comb != RMP_COMBINER_NAMED)
        return rmp_type_dup(t, out);
    *out = t;
    return rc;
}

int MPI_File_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype,
                      MPI_Datatype *filetype, char *datarep)
{
    MPI_Datatype e, f;
    int rc = rmp_file_get_view(fh, disp, &e, &f, datarep);
    if (rc == RMP_SUCCESS && (!etype || !filetype))
        rc = RMP_ERR_ARG;
    if (rc == RMP_SUCCESS)
        rc = io_type_out(e, etype);
    if (rc == RMP_SUCCESS && (rc = io_type_out(f, filetype)) != RMP_SUCCESS &&
        *etype != e)
        rmp_type_free(etype);
    return rmpi_raise_file(fh, rc, __func__);
}

int MPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
    return rmpi_raise_file(fh, rmp_file_get_type_extent(fh, datatype, extent), __func__);
}

int MPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
    ptrdiff_t e = 0;
    int rc = extent ? rmp_file_get_type_extent(fh, datatype, &e) : RMP_ERR_ARG;
    if (rc == RMP_SUCCESS)
        *extent = e;
    return rmpi_raise_file(fh, rc, __func__);
}

int MPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
    return rmpi_raise_file(fh, rmp_file_get_byte_offset(fh, offset, disp), __func__);
}

int MPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
    return rmpi_raise_file(fh, rmp_file_seek(fh, offset, whence), __func__);
}

int MPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
    return rmpi_raise_file(fh, rmp_file_get_position(fh, offset), __func__);
}

int MPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence)
{
    return rmpi_raise_file(fh, rmp_file_seek_shared(fh, offset, whence), __func__);
}

int MPI_File_get_position_shared(MPI_File fh, MPI_Offset *offset)
{
    return rmpi_raise_file(fh, rmp_file_get_position_shared(fh, offset), __func__);
}

/* User data representations: the program's functions, int or MPI_Count counts, behind one
 * pair of trampolines of rmp's form. Kept for the process's life, as rmp keeps the name. */
typedef struct io_urep {
    MPI_Datarep_conversion_function *rd, *wr;
    MPI_Datarep_conversion_function_c *rd_c, *wr_c;
    MPI_Datarep_extent_function *ext;
    void *extra;
} io_urep_t;

static int urep_read(void *ub, rmp_datatype_t t, int n, void *fb, rmp_offset_t pos, void *x)
{
    io_urep_t *u = x;
    return u->rd ? u->rd(ub, t, n, fb, pos, u->extra) : u->rd_c(ub, t, n, fb, pos, u->extra);
}

static int urep_write(void *ub, rmp_datatype_t t, int n, void *fb, rmp_offset_t pos, void *x)
{
    io_urep_t *u = x;
    return u->wr ? u->wr(ub, t, n, fb, pos, u->extra) : u->wr_c(ub, t, n, fb, pos, u->extra);
}

static int urep_extent(rmp_datatype_t t, ptrdiff_t *e, void *x)
{
    io_urep_t *u = x;
    return u->ext(t, e, u->extra);
}

static int io_register(const char *name, io_urep_t *u)
{
    if (!u->ext)
        return RMP_ERR_ARG;
    io_urep_t *k = malloc(sizeof *k);
    if (!k)
        return RMP_ERR_NO_MEM;
    *k = *u;
    bool rd = u->rd || u->rd_c, wr = u->wr || u->wr_c;
    int rc = rmp_register_datarep(name, rd ? urep_read : NULL, wr ? urep_write : NULL,
                                  urep_extent, k);
    if (rc != RMP_SUCCESS)
        free(k);
    return rc;
}

int MPI_Register_datarep(const char *datarep,
                         MPI_Datarep_conversion_function *read_conversion_fn,
                         MPI_Datarep_conversion_function *write_conversion_fn,
                         MPI_Datarep_extent_function *dtype_file_extent_fn, void *extra_state)
{
    io_urep_t u = {.rd = read_conversion_fn, .wr = write_conversion_fn,
                   .ext = dtype_file_extent_fn, .extra = extra_state};
    return rmpi_raise_file(MPI_FILE_NULL, io_register(datarep, &u), __func__);
}

int MPI_Register_datarep_c(const char *datarep,
                           MPI_Datarep_conversion_function_c *read_conversion_fn,
                           MPI_Datarep_conversion_function_c *write_conversion_fn,
                           MPI_Datarep_extent_function *dtype_file_extent_fn,
                           void *extra_state)
{
    io_urep_t u = {.rd_c = read_conversion_fn, .wr_c = write_conversion_fn,
                   .ext = dtype_file_extent_fn, .extra = extra_state};
    return rmpi_raise_file(MPI_FILE_NULL, io_register(datarep, &u), __func__);
}
