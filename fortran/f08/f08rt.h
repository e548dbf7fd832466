/* f08rt.h — what the generated C side of mpi_f08 (build/.../f08/f08_wrap.c, from tools/gen-f08)
 * calls beside the MPI functions: choice buffers from Fortran descriptors (cdesc.c), strings
 * with hidden lengths and the status/sentinel objects (f08rt.c), attribute callbacks
 * (f08cb.c). Internal to librmp-mpi-f08. */
#ifndef RMP_F08RT_H
#define RMP_F08RT_H

#include <ISO_Fortran_binding.h>
#include <mpi.h>

#include "../rmpif.h" /* argv arrays and MPI_ERRCODES_IGNORE: the same as mpif.h's */

/* A choice buffer as the C call takes it: where, how many of which type. tmp is the type
 * made for a non-contiguous section (freed by f08_buf_done), MPI_DATATYPE_NULL otherwise. */
typedef struct f08_buf {
    void *addr;
    MPI_Aint count;
    MPI_Datatype type;
    MPI_Datatype tmp;
    const CFI_cdesc_t *d;
} f08_buf_t;

/* The objects mpi_f08's MPI_BOTTOM and MPI_IN_PLACE are (Fortran binds to these names). */
extern int rmp_f08_bottom_;
extern int rmp_f08_in_place_;

/* buf with count elements of type: MPI_BOTTOM, MPI_IN_PLACE, the descriptor's first element
 * when contiguous, else (1, a type describing the section's first count elements; with
 * multi, a type whose extent steps to the next block of count elements). */
int f08_buf_get(CFI_cdesc_t *d, MPI_Aint count, MPI_Datatype type, int multi, f08_buf_t *b);
/* A v-form's buffer (counts and displacements in elements of type): MPI_BOTTOM,
 * MPI_IN_PLACE, the first element when contiguous, else a section whose elements are one
 * stride apart (1-D, or dims that merge into one) as type resized to that stride; any other
 * section is MPI_ERR_BUFFER. */
int f08_buf_vget(CFI_cdesc_t *d, MPI_Datatype type, f08_buf_t *b);
/* Buffers sharing a count and datatype agree on them (MPI_ERR_BUFFER when they cannot). */
int f08_buf_share(f08_buf_t *a, f08_buf_t *b);
/* A buffer with no count and datatype beside it (bytes: Pack's outbuf, Win_create's base):
 * the sentinels, or its first element; a non-contiguous section is MPI_ERR_BUFFER. */
int f08_buf_raw(CFI_cdesc_t *d, void **addr);
/* Any address of the buffer, contiguous or not (Get_address, Free_mem, Win_detach). */
void *f08_buf_addr(CFI_cdesc_t *d);
void f08_buf_done(f08_buf_t *b);

/* A Fortran string argument as a C string: trailing blanks gone (leading too for info keys
 * and values: MPI-4.0 10.2), NUL-terminated, malloc'd (NULL when out of memory). */
char *f08_str_in(const CFI_cdesc_t *s, int strip_leading);
/* Room for a C call's output string into s: MPI_MAX_* and s's own length both fit. */
char *f08_str_room(const CFI_cdesc_t *s);
/* c copied into s, blank-padded or cut to s's length; c freed. */
void f08_str_out(CFI_cdesc_t *s, char *c);

/* An INTEGER array that may be mpi_f08's MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY or
 * MPI_ERRCODES_IGNORE: C's. */
extern int rmp_f08_unweighted_;
extern int rmp_f08_weights_empty_;
int *f08_int_opt(const int *a);

/* A status argument for C: mpi_f08's MPI_STATUS(ES)_IGNORE become C's. */
MPI_Status *f08_status(MPI_Status *s);
MPI_Status *f08_statuses(MPI_Status *s);

/* A failure found before the MPI call (a section no type describes, no memory): raised on
 * the handler of the call's object (comm, win, or MPI_COMM_WORLD) as the call would. */
int f08_fail_comm(MPI_Comm comm, int code);
int f08_fail_win(MPI_Win win, int code);
int f08_fail_file(MPI_File file, int code);

#endif
