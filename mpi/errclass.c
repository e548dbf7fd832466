/* errclass.c — user error classes, codes and strings (MPI-3.1 8.5, MPI-4.1 9.5):
 * MPI_Add_error_class, _code, _string and MPI_Remove_error_class, _code, _string. A class is
 * a code whose class is itself; both are numbered from MPI_ERR_LASTCODE + 1 up, in one table,
 * never reused (a removed one stays in the table, marked). The MPI layer holds them: they are
 * MPI numbers that rmp never raises. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "rmpi.h"

typedef struct user_code {
    int cls;
    char *string; /* NULL: none added ("") */
    bool removed; /* MPI_Remove_error_class or _code: unknown from then on */
} user_code_t;

static struct {
    pthread_mutex_t lock;
    user_code_t *c; /* c[i] is code MPI_ERR_LASTCODE + 1 + i */
    int n, cap;
} ec = {.lock = PTHREAD_MUTEX_INITIALIZER};

int rmpi_lastusedcode(void)
{
    pthread_mutex_lock(&ec.lock);
    int last = MPI_ERR_LASTCODE + ec.n;
    pthread_mutex_unlock(&ec.lock);
    return last;
}

/* The entry of code, or NULL (lock held). */
static user_code_t *ec_get(int code)
{
    if (code <= MPI_ERR_LASTCODE || code - MPI_ERR_LASTCODE > ec.n)
        return NULL;
    user_code_t *u = &ec.c[code - MPI_ERR_LASTCODE - 1];
    return u->removed ? NULL : u;
}

bool rmpi_user_code(int code, int *cls, char *string)
{
    pthread_mutex_lock(&ec.lock);
    user_code_t *u = ec_get(code);
    if (u) {
        if (cls)
            *cls = u->cls;
        if (string) {
            const char *s = u->string ? u->string : "";
            size_t n = strlen(s); /* shorter than MPI_MAX_ERROR_STRING: see the add */
            memcpy(string, s, n + 1);
        }
    }
    pthread_mutex_unlock(&ec.lock);
    return u != NULL;
}

/* A new code of class cls (cls < 0: a new class, itself); MPI_ERR_NO_MEM on failure. */
static int ec_add(int cls, int *code)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&ec.lock);
    if (ec.n == ec.cap) {
        int cap = ec.cap ? 2 * ec.cap : 16;
        user_code_t *p = realloc(ec.c, sizeof(*p) * (size_t)cap);
        if (p) {
            ec.c = p;
            ec.cap = cap;
        } else {
            rc = MPI_ERR_NO_MEM;
        }
    }
    if (!rc) {
        int c = MPI_ERR_LASTCODE + 1 + ec.n;
        ec.c[ec.n++] = (user_code_t){.cls = cls < 0 ? c : cls, .string = NULL};
        *code = c;
    }
    pthread_mutex_unlock(&ec.lock);
    return rc;
}

int MPI_Add_error_class(int *errorclass)
{
    int rc = errorclass ? ec_add(-1, errorclass) : MPI_ERR_ARG;
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

/* errorclass: a predefined class or one MPI_Add_error_class made (not a mere code). */
int MPI_Add_error_code(int errorclass, int *errorcode)
{
    int cls = -1;
    bool ok = (errorclass >= MPI_SUCCESS && errorclass <= MPI_ERR_LASTCLASS) ||
              (rmpi_user_code(errorclass, &cls, NULL) && cls == errorclass);
    int rc = !errorcode || !ok || errorclass == MPI_SUCCESS ? MPI_ERR_ARG
                                                            : ec_add(errorclass, errorcode);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

int MPI_Add_error_string(int errorcode, const char *string)
{
    int rc = MPI_SUCCESS;
    size_t n = string ? strnlen(string, MPI_MAX_ERROR_STRING) : 0;
    char *copy = NULL;
    if (!string || n >= MPI_MAX_ERROR_STRING)
        rc = MPI_ERR_ARG;
    else if (!(copy = malloc(n + 1)))
        rc = MPI_ERR_NO_MEM;
    else
        memcpy(copy, string, n + 1);
    if (!rc) {
        pthread_mutex_lock(&ec.lock);
        user_code_t *u = ec_get(errorcode);
        if (u) {
            free(u->string);
            u->string = copy;
        } else {
            free(copy);
            rc = MPI_ERR_ARG; /* a predefined code or class, or none at all */
        }
        pthread_mutex_unlock(&ec.lock);
    }
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}

/* MPI-4.1 9.5: only what the program added goes, a class only once no code of it is left;
 * anything else is MPI_ERR_ARG. A class (want_class) or a code that is not a class. */
static int ec_remove(int code, bool want_class)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&ec.lock);
    user_code_t *u = ec_get(code);
    if (!u || (u->cls == code) != want_class)
        rc = MPI_ERR_ARG;
    for (int i = 0; !rc && want_class && i < ec.n; i++)
        if (!ec.c[i].removed && ec.c[i].cls == code && MPI_ERR_LASTCODE + 1 + i != code)
            rc = MPI_ERR_ARG; /* a code of the class is still there */
    if (!rc) {
        free(u->string);
        u->string = NULL;
        u->removed = true;
    }
    pthread_mutex_unlock(&ec.lock);
    return rc;
}

int MPI_Remove_error_class(int errorclass)
{
    return rmpi_raise_code(MPI_COMM_WORLD, ec_remove(errorclass, true), __func__);
}

int MPI_Remove_error_code(int errorcode)
{
    return rmpi_raise_code(MPI_COMM_WORLD, ec_remove(errorcode, false), __func__);
}

/* The string MPI_Add_error_string gave a code or class (none: MPI_ERR_ARG). */
int MPI_Remove_error_string(int errorcode)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&ec.lock);
    user_code_t *u = ec_get(errorcode);
    if (u && u->string) {
        free(u->string);
        u->string = NULL;
    } else {
        rc = MPI_ERR_ARG;
    }
    pthread_mutex_unlock(&ec.lock);
    return rmpi_raise_code(MPI_COMM_WORLD, rc, __func__);
}
