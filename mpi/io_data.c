/* io_data.c — MPI-IO's data access calls (MPI-3.1 13.4), each a positioning (explicit offset,
 * individual pointer, shared pointer, ordered) x a form (blocking, nonblocking, collective,
 * split) over one native entry per form (rmp_file_access, _iaccess, _split_begin/_end), with
 * the _c twins. Written once by macro: the calls differ only in those two choices. */
#include "rmpi.h"

#define IO_OFF_ARG_ MPI_Offset offset,
#define IO_NO_ARG_
#define IO_OFF_ offset
#define IO_NO_ 0

/* Blocking: name, offset argument or none, positioning, write?, collective?. */
#define IO_RW(name, OFFA, OFF, pos, wr, coll, CT)                                                \
    int MPI_File_##name(MPI_File fh, OFFA IO_BUF_##wr buf, CT count, MPI_Datatype datatype,     \
                        MPI_Status *status)                                                    \
    {                                                                                          \
        return rmpi_raise_file(fh,                                                             \
                               rmp_file_access(fh, pos, OFF, (void *)buf, count, datatype, wr, \
                                               coll, rmpi_st(status)),                         \
                               __func__);                                                      \
    }
#define IO_I(name, OFFA, OFF, pos, wr, coll, CT)                                                 \
    int MPI_File_##name(MPI_File fh, OFFA IO_BUF_##wr buf, CT count, MPI_Datatype datatype,     \
                        MPI_Request *request)                                                  \
    {                                                                                          \
        return rmpi_raise_file(fh,                                                             \
                               rmp_file_iaccess(fh, pos, OFF, (void *)buf, count, datatype,    \
                                                wr, coll, request),                            \
                               __func__);                                                      \
    }
#define IO_BEGIN(name, OFFA, OFF, pos, wr, CT)                                                   \
    int MPI_File_##name(MPI_File fh, OFFA IO_BUF_##wr buf, CT count, MPI_Datatype datatype)     \
    {                                                                                          \
        return rmpi_raise_file(                                                                \
            fh, rmp_file_split_begin(fh, pos, OFF, (void *)buf, count, datatype, wr),          \
            __func__);                                                                         \
    }
#define IO_END(name, wr)                                                                         \
    int MPI_File_##name(MPI_File fh, IO_BUF_##wr buf, MPI_Status *status)                      \
    {                                                                                          \
        return rmpi_raise_file(fh, rmp_file_split_end(fh, (void *)buf, wr, rmpi_st(status)),   \
                               __func__);                                                      \
    }
#define IO_BUF_0 void *
#define IO_BUF_1 const void *

/* Each with its _c twin (an MPI_Count count). */
#define IO_RW2(name, O, pos, wr, coll)                                                           \
    IO_RW(name, IO_##O##_ARG_, IO_##O##_, pos, wr, coll, int)                                  \
    IO_RW(name##_c, IO_##O##_ARG_, IO_##O##_, pos, wr, coll, MPI_Count)
#define IO_I2(name, O, pos, wr, coll)                                                            \
    IO_I(name, IO_##O##_ARG_, IO_##O##_, pos, wr, coll, int)                                   \
    IO_I(name##_c, IO_##O##_ARG_, IO_##O##_, pos, wr, coll, MPI_Count)
#define IO_BEGIN2(name, O, pos, wr)                                                              \
    IO_BEGIN(name, IO_##O##_ARG_, IO_##O##_, pos, wr, int)                                     \
    IO_BEGIN(name##_c, IO_##O##_ARG_, IO_##O##_, pos, wr, MPI_Count)

IO_RW2(read_at, OFF, RMP_IO_AT, 0, 0)
IO_RW2(write_at, OFF, RMP_IO_AT, 1, 0)
IO_RW2(read_at_all, OFF, RMP_IO_AT, 0, 1)
IO_RW2(write_at_all, OFF, RMP_IO_AT, 1, 1)
IO_RW2(read, NO, RMP_IO_INDIV, 0, 0)
IO_RW2(write, NO, RMP_IO_INDIV, 1, 0)
IO_RW2(read_all, NO, RMP_IO_INDIV, 0, 1)
IO_RW2(write_all, NO, RMP_IO_INDIV, 1, 1)
IO_RW2(read_shared, NO, RMP_IO_SHARED, 0, 0)
IO_RW2(write_shared, NO, RMP_IO_SHARED, 1, 0)
IO_RW2(read_ordered, NO, RMP_IO_ORDERED, 0, 1)
IO_RW2(write_ordered, NO, RMP_IO_ORDERED, 1, 1)

IO_I2(iread_at, OFF, RMP_IO_AT, 0, 0)
IO_I2(iwrite_at, OFF, RMP_IO_AT, 1, 0)
IO_I2(iread_at_all, OFF, RMP_IO_AT, 0, 1)
IO_I2(iwrite_at_all, OFF, RMP_IO_AT, 1, 1)
IO_I2(iread, NO, RMP_IO_INDIV, 0, 0)
IO_I2(iwrite, NO, RMP_IO_INDIV, 1, 0)
IO_I2(iread_all, NO, RMP_IO_INDIV, 0, 1)
IO_I2(iwrite_all, NO, RMP_IO_INDIV, 1, 1)
IO_I2(iread_shared, NO, RMP_IO_SHARED, 0, 0)
IO_I2(iwrite_shared, NO, RMP_IO_SHARED, 1, 0)

IO_BEGIN2(read_at_all_begin, OFF, RMP_IO_AT, 0)
IO_BEGIN2(write_at_all_begin, OFF, RMP_IO_AT, 1)
IO_BEGIN2(read_all_begin, NO, RMP_IO_INDIV, 0)
IO_BEGIN2(write_all_begin, NO, RMP_IO_INDIV, 1)
IO_BEGIN2(read_ordered_begin, NO, RMP_IO_ORDERED, 0)
IO_BEGIN2(write_ordered_begin, NO, RMP_IO_ORDERED, 1)

IO_END(read_at_all_end, 0)
IO_END(write_at_all_end, 1)
IO_END(read_all_end, 0)
IO_END(write_all_end, 1)
IO_END(read_ordered_end, 0)
IO_END(write_ordered_end, 1)
