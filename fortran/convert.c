/* convert.c — the Fortran glue's conversions (rmpif.h): strings with hidden lengths, argv
 * arrays, sentinel integer arrays and arrays of pointer handles (requests, messages), which
 * Fortran holds as the integers MPI_Request_c2f gives. */
#include <string.h>

#include "rmpif.h"

#ifndef MPI_ERRCODES_IGNORE
#define MPI_ERRCODES_IGNORE ((int *)0)
#endif
#ifndef MPI_ARGV_NULL
#define MPI_ARGV_NULL ((char **)0)
#endif
#ifndef MPI_ARGVS_NULL
#define MPI_ARGVS_NULL ((char ***)0)
#endif

int *rmpif_ints(MPI_Fint *a)
{
    if (a == rmpi_errcodes_ignore_)
        return MPI_ERRCODES_IGNORE;
    if (a == rmpi_unweighted_)
        return MPI_UNWEIGHTED;
    if (a == rmpi_weights_empty_)
        return MPI_WEIGHTS_EMPTY;
    return a;
}

char *rmpif_str_in(const char *f, size_t len)
{
    while (len > 0 && f[len - 1] == ' ')
        len--;
    char *c = malloc(len + 1);
    if (c) {
        memcpy(c, f, len);
        c[len] = '\0';
    }
    return c;
}

char *rmpif_str_in_info(const char *f, size_t len)
{
    while (len > 0 && f[0] == ' ') {
        f++;
        len--;
    }
    return rmpif_str_in(f, len);
}

void rmpif_str_out(const char *c, char *f, size_t len)
{
    size_t n = strlen(c);
    if (n > len)
        n = len;
    memcpy(f, c, n);
    memset(f + n, ' ', len - n);
}

/* The strings of one argv column up to its first blank entry: a NULL-terminated array whose
 * strings live in the same allocation, after the pointers. */
static char **argv_column(const char *f, size_t len, size_t max)
{
    size_t n = 0, bytes = 0;
    for (; n < max; n++) {
        const char *s = f + n * len;
        size_t l = len;
        while (l > 0 && s[l - 1] == ' ')
            l--;
        if (l == 0)
            break;
        bytes += l + 1;
    }
    char **argv = malloc((n + 1) * sizeof(char *) + bytes);
    if (!argv)
        return NULL;
    char *p = (char *)(argv + n + 1);
    for (size_t i = 0; i < n; i++) {
        char *s = rmpif_str_in(f + i * len, len);
        size_t l = s ? strlen(s) : 0;
        memcpy(p, s ? s : "", l + 1);
        free(s);
        argv[i] = p;
        p += l + 1;
    }
    argv[n] = NULL;
    return argv;
}

void *rmpif_strs_in(const char *f, int n, size_t len)
{
    if (f == rmpi_argv_null_)
        return MPI_ARGV_NULL;
    return argv_column(f, len, n >= 0 ? (size_t)n : SIZE_MAX / (len ? len : 1));
}

/* MPI-4.0 10.3.3: array_of_argv(count, *) in Fortran; argument j of command i is (i, j). Each
 * command's arguments are gathered from its row into a column first. */
void *rmpif_argvs_in(const char *f, int count, size_t len)
{
    if (f == rmpi_argvs_null_ || count <= 0)
        return MPI_ARGVS_NULL;
    char ***argvs = calloc((size_t)count + 1, sizeof(char **));
    for (int i = 0; argvs && i < count; i++) {
        size_t n = 0;
        for (;; n++) {
            const char *s = f + (n * (size_t)count + (size_t)i) * len;
            size_t l = len;
            while (l > 0 && s[l - 1] == ' ')
                l--;
            if (l == 0)
                break;
        }
        char *col = malloc((n + 1) * (len ? len : 1));
        if (col) {
            for (size_t j = 0; j <= n; j++)
                memcpy(col + j * len, f + (j * (size_t)count + (size_t)i) * len, len);
            argvs[i] = argv_column(col, len, n + 1);
        }
        free(col);
    }
    return argvs;
}

void rmpif_argv_free(void *argv) { free(argv); }

void rmpif_argvs_free(void *argvs, int count)
{
    char ***a = argvs;
    for (int i = 0; a && i < count; i++)
        free(a[i]);
    free(a);
}

void rmpif_index_out(MPI_Fint *idx, int n)
{
    for (int i = 0; i < n; i++)
        if (idx[i] >= 0)
            idx[i]++;
}

MPI_Aint *rmpif_aints_in(const MPI_Fint *f, int n)
{
    MPI_Aint *c = malloc(sizeof(MPI_Aint) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; c && i < n; i++)
        c[i] = f[i];
    return c;
}

MPI_Request *rmpif_request_in(const MPI_Fint *f, int n)
{
    MPI_Request *c = malloc(sizeof(MPI_Request) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; c && i < n; i++)
        c[i] = MPI_Request_f2c(f[i]);
    return c;
}

void rmpif_request_out(MPI_Request *c, MPI_Fint *f, int n, int out)
{
    for (int i = 0; out && i < n; i++)
        f[i] = MPI_Request_c2f(c[i]);
    free(c);
}

MPI_Message *rmpif_message_in(const MPI_Fint *f, int n)
{
    MPI_Message *c = malloc(sizeof(MPI_Message) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; c && i < n; i++)
        c[i] = MPI_Message_f2c(f[i]);
    return c;
}

void rmpif_message_out(MPI_Message *c, MPI_Fint *f, int n, int out)
{
    for (int i = 0; out && i < n; i++)
        f[i] = MPI_Message_c2f(c[i]);
    free(c);
}
