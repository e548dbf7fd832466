/* errcode.c — the table of the program's own error classes and codes (MPI-3.1 8.5): add,
 * set a string, remove, look up; the MPI calls over it are errclass.c's. Below errors.c and
 * errclass.c both, raising nothing, so either can read it. */
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
int rmpi_ec_add(int cls, int *code)
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

/* The string of a code the program added: copy (owned from here on) replaces its string;
 * MPI_ERR_ARG (copy freed) for a predefined code or class, or none at all. */
int rmpi_ec_set_string(int errorcode, char *copy)
{
    int rc = MPI_SUCCESS;
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
    return rc;
}

/* MPI-4.1 9.5: only what the program added goes, a class only once no code of it is left;
 * anything else is MPI_ERR_ARG. A class (want_class) or a code that is not a class. */
int rmpi_ec_remove(int code, bool want_class)
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

/* The string a code was given goes (none: MPI_ERR_ARG). */
int rmpi_ec_drop_string(int errorcode)
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
    return rc;
}
