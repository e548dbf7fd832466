/* f2c.c — MPI's handle conversions for Fortran (MPI_*_c2f, MPI_*_f2c, MPI_Status_c2f/f2c). They
 * belong to the MPI layer alone: rmp has no Fortran, and what needs converting is how mpi.h
 * represents handles. Integer handles convert to themselves; requests and messages, which are
 * pointers, are numbered in a table (index + 1: 0 is the null handle) that keeps every handle
 * converted once, so a handle converts to the same integer each time. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rmpi.h"

MPI_Fint MPI_Comm_c2f(MPI_Comm comm) { return (MPI_Fint)comm; }
MPI_Comm MPI_Comm_f2c(MPI_Fint comm) { return (MPI_Comm)comm; }
MPI_Fint MPI_Type_c2f(MPI_Datatype datatype) { return (MPI_Fint)datatype; }
MPI_Datatype MPI_Type_f2c(MPI_Fint datatype) { return (MPI_Datatype)datatype; }
MPI_Fint MPI_Group_c2f(MPI_Group group) { return (MPI_Fint)group; }
MPI_Group MPI_Group_f2c(MPI_Fint group) { return (MPI_Group)group; }
MPI_Fint MPI_Info_c2f(MPI_Info info) { return (MPI_Fint)info; }
MPI_Info MPI_Info_f2c(MPI_Fint info) { return (MPI_Info)info; }
MPI_Fint MPI_Op_c2f(MPI_Op op) { return (MPI_Fint)op; }
MPI_Op MPI_Op_f2c(MPI_Fint op) { return (MPI_Op)op; }
MPI_Fint MPI_Errhandler_c2f(MPI_Errhandler errhandler) { return (MPI_Fint)errhandler; }
MPI_Errhandler MPI_Errhandler_f2c(MPI_Fint errhandler) { return (MPI_Errhandler)errhandler; }
MPI_Fint MPI_Win_c2f(MPI_Win win) { return (MPI_Fint)win; }
MPI_Win MPI_Win_f2c(MPI_Fint win) { return (MPI_Win)win; }

/* The pointers converted so far (requests and messages share it: both are opaque pointers):
 * p[i] has the integer i + 1; idx, an open-addressing hash of the pointers (a slot holds
 * i + 1, 0 when empty; at most half full), finds a pointer's integer in O(1), so that a
 * program converting many live requests (every Fortran MPI_Isend does) does not slow down
 * with their number. */
static struct {
    pthread_mutex_t lock;
    void **p;
    int n, cap;
    int *idx;
    size_t slots; /* a power of two, 2 * cap */
} ptab = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t ptr_slot(const void *p, size_t slots)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 17) & (slots - 1);
}

/* The slot of p in idx: its own, or the empty one where it would go. */
static size_t ptr_find(const void *p)
{
    size_t i = ptr_slot(p, ptab.slots);
    while (ptab.idx[i] && ptab.p[ptab.idx[i] - 1] != p)
        i = (i + 1) & (ptab.slots - 1);
    return i;
}

/* Room for one more pointer: p and idx doubled, idx rebuilt. 0, or -1 when out of memory. */
static int ptr_grow(void)
{
    int cap = ptab.cap ? 2 * ptab.cap : 64;
    void **q = realloc(ptab.p, sizeof(void *) * (size_t)cap);
    if (!q)
        return -1;
    ptab.p = q;
    int *idx = calloc(2 * (size_t)cap, sizeof(int));
    if (!idx)
        return -1;
    free(ptab.idx);
    ptab.idx = idx;
    ptab.cap = cap;
    ptab.slots = 2 * (size_t)cap;
    for (int k = 0; k < ptab.n; k++)
        ptab.idx[ptr_find(ptab.p[k])] = k + 1;
    return 0;
}

/* p's integer (0 for NULL; -1 when out of memory, which f2c gives back as NULL). */
static MPI_Fint ptr_c2f(void *p)
{
    if (!p)
        return 0;
    MPI_Fint f = -1;
    pthread_mutex_lock(&ptab.lock);
    size_t i = ptab.idx ? ptr_find(p) : 0;
    if (ptab.idx && ptab.idx[i]) {
        f = ptab.idx[i];
    } else if (ptab.n < ptab.cap || ptr_grow() == 0) {
        ptab.p[ptab.n++] = p;
        ptab.idx[ptr_find(p)] = ptab.n;
        f = ptab.n;
    }
    pthread_mutex_unlock(&ptab.lock);
    return f;
}

static void *ptr_f2c(MPI_Fint f)
{
    void *p = NULL;
    pthread_mutex_lock(&ptab.lock);
    if (f > 0 && f <= ptab.n)
        p = ptab.p[f - 1];
    pthread_mutex_unlock(&ptab.lock);
    return p;
}

MPI_Fint MPI_Request_c2f(MPI_Request request) { return ptr_c2f(request); }
MPI_Request MPI_Request_f2c(MPI_Fint request) { return (MPI_Request)ptr_f2c(request); }
/* MPI_MESSAGE_NO_PROC, a constant of Fortran's too, has a fixed integer outside the table's. */
#define F_MESSAGE_NO_PROC (-2)
MPI_Fint MPI_Message_c2f(MPI_Message message)
{
    return message == MPI_MESSAGE_NO_PROC ? F_MESSAGE_NO_PROC : ptr_c2f(message);
}

MPI_Message MPI_Message_f2c(MPI_Fint message)
{
    return message == F_MESSAGE_NO_PROC ? MPI_MESSAGE_NO_PROC : (MPI_Message)ptr_f2c(message);
}

/* A status is copied as it is: its integers are the Fortran status (MPI_STATUS_SIZE of them). */
/* The Fortran IGNORE sentinels are no status (MPI-4.0 19.3.5: MPI_ERR_ARG). */
static int f_status_ok(const MPI_Fint *f)
{
    return f && f != MPI_F_STATUS_IGNORE && f != MPI_F_STATUSES_IGNORE;
}

int MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    if (!c_status || !f_status_ok(f_status))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    memcpy(f_status, c_status, sizeof(MPI_Status));
    return MPI_SUCCESS;
}

int MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (!c_status || !f_status_ok(f_status))
        return rmpi_raise_code(MPI_COMM_WORLD, MPI_ERR_ARG, __func__);
    memcpy(c_status, f_status, sizeof(MPI_Status));
    return MPI_SUCCESS;
}
