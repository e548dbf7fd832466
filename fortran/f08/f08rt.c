/* f08rt.c — the small conversions every generated mpi_f08 wrapper shares: Fortran strings
 * (hidden length, blank padding) to and from C strings, mpi_f08's status sentinels to C's,
 * and failures found before an MPI call raised as the call would raise them. */
#include <stdlib.h>
#include <string.h>

#include "f08rt.h"

char *f08_str_in(const CFI_cdesc_t *s, int strip_leading)
{
    const char *p = s->base_addr;
    size_t n = s->elem_len;
    while (n && p[n - 1] == ' ')
        n--;
    while (strip_leading && n && *p == ' ')
        p++, n--;
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, p, n);
        c[n] = '\0';
    }
    return c;
}

/* Every MPI_MAX_* (NUL included) is at most MPI_MAX_INFO_VAL + 1; Info_get's valuelen and
 * Info_get_string's buflen are at most the Fortran string's own length. The first byte is
 * UNWRITTEN until the C call writes a string there (at least its NUL). */
#define UNWRITTEN '\x01'
char *f08_str_room(const CFI_cdesc_t *s)
{
    char *c = calloc(s->elem_len + MPI_MAX_INFO_VAL + 2, 1);
    if (c)
        c[0] = UNWRITTEN;
    return c;
}

/* A string the call did not write (Info_get of a missing key, Info_get_string with buflen 0)
 * leaves the program's variable as it was. */
void f08_str_out(CFI_cdesc_t *s, char *c)
{
    char *p = s->base_addr;
    if (c[0] == UNWRITTEN) {
        free(c);
        return;
    }
    size_t n = strlen(c);
    if (n > s->elem_len)
        n = s->elem_len;
    memcpy(p, c, n);
    memset(p + n, ' ', s->elem_len - n);
    free(c);
}

int rmp_f08_unweighted_;
int rmp_f08_weights_empty_;

/* The C call declares its weights `const` or not (Dist_graph_create, _neighbors). */
int *f08_int_opt(const int *a)
{
    if (a == &rmp_f08_unweighted_)
        return MPI_UNWEIGHTED;
    if (a == &rmp_f08_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    if (a == rmpi_errcodes_ignore_)
        return MPI_ERRCODES_IGNORE;
    return (int *)a;
}

MPI_Status *f08_status(MPI_Status *s)
{
    return s == MPI_F08_STATUS_IGNORE ? MPI_STATUS_IGNORE : s;
}

MPI_Status *f08_statuses(MPI_Status *s)
{
    return s == MPI_F08_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : s;
}

int f08_fail_comm(MPI_Comm comm, int code)
{
    MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_WORLD : comm, code);
    return code;
}

int f08_fail_win(MPI_Win win, int code)
{
    if (win == MPI_WIN_NULL)
        return f08_fail_comm(MPI_COMM_WORLD, code);
    MPI_Win_call_errhandler(win, code);
    return code;
}

/* MPI_FILE_NULL's handler (MPI_ERRORS_RETURN unless set) takes a failure with no file. */
int f08_fail_file(MPI_File file, int code)
{
    MPI_File_call_errhandler(file, code);
    return code;
}
