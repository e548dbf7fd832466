/* rmpi.h — what the files of the MPI layer (the sources in mpi/, librmp-mpi) share: turning an rmp
 * result into an MPI error code and raising it on a communicator's error handler, and the
 * statuses, which are rmp's own seen through MPI's field names. */
#ifndef RMPI_H
#define RMPI_H

#include <stdbool.h>

#include "rmp/mpi.h"

/* The MPI error code for an rmp result (RMP_SUCCESS -> MPI_SUCCESS). */
int rmpi_code(int rmp_err);

/* An MPI code that has no rmp error of its own (a class or code the program added, returned by
 * a generalized request's callback) rides through rmp as a value below RMP_ERR_LAST that
 * rmpi_code turns back into the very same code: MPI says the request's error is the
 * callback's own. */
#define RMPI_FOREIGN_BASE (RMP_ERR_LAST - 1)
/* Alltoallw's send and receive buffers must differ (MPI_IN_PLACE says they are one):
 * checked here, not by rmp_alltoallw, which the big-count forms (bigcount.c) call with one
 * buffer and disjoint types for both sides. */
static inline int rmpi_w_alias(const void *sendbuf, const void *recvbuf)
{
    return sendbuf && sendbuf != MPI_IN_PLACE && sendbuf == recvbuf ? RMP_ERR_BUFFER
                                                                     : RMP_SUCCESS;
}

static inline int rmpi_foreign(int code)
{
    return RMPI_FOREIGN_BASE - code;
}

/* Returns MPI_SUCCESS for RMP_SUCCESS. Otherwise raises the error on comm's handler: under
 * MPI_ERRORS_RETURN returns the MPI code; under MPI_ERRORS_ARE_FATAL prints one line naming
 * `call`, the rank and the error, and ends the job. An invalid comm uses MPI_COMM_WORLD's. */
int rmpi_raise(MPI_Comm comm, int rmp_err, const char *call);
/* The same for an error detected by the layer itself, already an MPI code. */
int rmpi_raise_code(MPI_Comm comm, int code, const char *call);

/* Error handlers follow communicators: a new one inherits its parent's, a freed one forgets. */
void rmpi_errh_inherit(MPI_Comm parent, MPI_Comm child);
void rmpi_errh_forget(MPI_Comm comm);

/* An MPI_Info argument of a call that takes hints: MPI_SUCCESS for MPI_INFO_NULL and any valid
 * info (hints never change what rmp does), MPI_ERR_INFO for an invalid or freed handle. */
int rmpi_info_check(MPI_Info info);

/* Error handlers by kind of object (errors.c; RMPI_EH_SESSION: sessions, session.c): make
 * one, set or get (a reference taken) object h's, raise code on h's (its kind's default,
 * MPI_ERRORS_ARE_FATAL, for a handle never set). MPI codes. */
enum { RMPI_EH_COMM = 0, RMPI_EH_WIN = 1, RMPI_EH_SESSION = 2, RMPI_EH_FILE = 3 }; /* FILE: io.c */
int rmpi_errh_create(int kind, void (*fn)(void), MPI_Errhandler *errhandler);
int rmpi_errh_set(int kind, int h, MPI_Errhandler eh);
MPI_Errhandler rmpi_errh_get(int kind, int h);
/* Has window win a handler the program set (else its errors go to MPI_COMM_WORLD's)? */
bool rmpi_win_has_errh(MPI_Win win);
int rmpi_raise_on(int kind, int h, int code, const char *call);
/* An rmp error of a session call on the session's handler (session.c); a handle that is not a
 * live session's goes to MPI_COMM_WORLD's. */
int rmpi_raise_session(MPI_Session s, int rmp_err, const char *call);

/* After a successful MPI_Init/MPI_Init_thread: an exit with status 0 that did not finalize
 * finalizes then (exit.c). */
void rmpi_exit_register(void);

/* The rmp view of a status (NULL stays NULL: MPI_STATUS_IGNORE). */
static inline rmp_status_t *rmpi_st(MPI_Status *s)
{
    return s ? &s->rmp_status_ : RMP_STATUS_IGNORE;
}

/* MPI-3.1 3.2.5: a call leaves the MPI_ERROR field of its statuses alone, unless it is one of
 * the calls completing several requests and returns MPI_ERR_IN_STATUS; rmp writes its own
 * error field there (the same int), so the layer keeps what the caller had. Before rmp may
 * fill n statuses, prep saves their error fields and sets them to RMP_SUCCESS (so that
 * whatever rmp wrote is defined); after, fix turns them into MPI codes when rmp's result rc is
 * RMP_ERR_IN_STATUS, else puts the caller's values back. */
typedef struct rmpi_stsave {
    int *saved; /* local, or malloc'd for many statuses; NULL: none could be kept */
    int local[8];
} rmpi_stsave_t;
void rmpi_status_prep(rmpi_stsave_t *sv, MPI_Status *s, int n);
void rmpi_status_fix(rmpi_stsave_t *sv, MPI_Status *s, int n, int rc);

/* ---- Attributes (attr.c) and error handlers of windows (errors.c) ---- */
/* The kinds of object that hold attributes. */
enum { RMPI_KIND_COMM, RMPI_KIND_TYPE, RMPI_KIND_WIN };
/* Runs the copy callbacks of old's attributes onto new_ (a fresh dup of old): MPI_SUCCESS,
 * or the first callback error (the attributes already copied to new_ are deleted again).
 * For MPI_Comm_dup, MPI_Comm_idup, MPI_Type_dup. */
int rmpi_attr_copy(int kind, int old, int new_);
/* Runs the delete callbacks of obj's attributes, last set first, and forgets them (and a
 * window's creation record): MPI_SUCCESS, or the first callback error (that attribute and
 * those set before it stay). Call it before the object is freed, and free only on success. */
int rmpi_attr_delete_all(int kind, int obj);
/* After a window is made: what the calling rank gave, its flavor and memory model, for the
 * MPI_WIN_* attributes. */
void rmpi_win_born(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor,
                   int model);
/* MPI_Finalize, first: MPI_COMM_SELF's attributes are deleted, then MPI_COMM_WORLD's. */
int rmpi_attr_finalize(void);

/* User error codes and classes (errclass.c). The last code given out (MPI_ERR_LASTCODE
 * before any). */
int rmpi_lastusedcode(void);
/* For a user code or class: true, with its class and (string may be NULL) its string. */
bool rmpi_user_code(int code, int *cls, char *string);
/* (errcode.c) The table of user codes: a new code of class cls (cls < 0: a new class); a
 * code's string (copy owned from then on); the removal of a class (want_class) or a code.
 * MPI codes back, nothing raised. */
int rmpi_ec_add(int cls, int *code);
int rmpi_ec_set_string(int errorcode, char *copy);
int rmpi_ec_remove(int code, bool want_class);
int rmpi_ec_drop_string(int errorcode);

/* Errors on a window: its handler (errors.c), MPI_COMM_WORLD's for an invalid window. */
int rmpi_raise_win(MPI_Win win, int rmp_err, const char *call);
int rmpi_raise_win_code(MPI_Win win, int code, const char *call);
/* Is win a live window? (errors.c) */
bool rmpi_win_valid(MPI_Win win);
/* Raises an rmp error on file fh's handler (MPI_FILE_NULL's for an invalid fh) (io.c). */
int rmpi_raise_file(MPI_File fh, int rmp_err, const char *call);
/* A closed file forgets its handler (io.c). */
void rmpi_file_errh_forget(MPI_File fh);
/* A new window starts with MPI_ERRORS_ARE_FATAL; a freed one forgets its handler. */
void rmpi_win_errh_forget(MPI_Win win);

#endif
