/* bigcount_vcoll.c — the large-count v-forms of gather, scatter, allgather and alltoall
 * (MPI_Count counts, MPI_Aint displacements): within int they take the int path; else, once the
 * ranks agree (one small allreduce), rmp_alltoallw with a derived type per peer. The reasons
 * are told at the top of bigcount.c. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include "bigcount.h"
#include "rmpi.h"

/* Whether every count and displacement of n fits the int path (counts <= limit, displacements
 * within int); NULL arrays fit (the int path reports them). */
static bool fits(const MPI_Count *counts, const MPI_Aint *displs, int n)
{
    MPI_Count lim = rmpi_bc_limit();
    for (int i = 0; i < n; i++)
        if ((counts && counts[i] > lim) || (displs && (displs[i] > INT_MAX || displs[i] < INT_MIN)))
            return false;
    return true;
}

/* int copies of n counts and displacements (NULL stays NULL). false: no memory. */
static bool to_int(const MPI_Count *c, const MPI_Aint *d, int n, int **ic, int **id)
{
    *ic = *id = NULL;
    if (c && !(*ic = malloc(sizeof(int) * (size_t)(n ? n : 1))))
        return false;
    if (d && !(*id = malloc(sizeof(int) * (size_t)(n ? n : 1)))) {
        free(*ic);
        *ic = NULL;
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (c)
            (*ic)[i] = c[i] < INT_MIN ? -1 : (int)c[i];
        if (d)
            (*id)[i] = (int)d[i];
    }
    return true;
}

/* Every rank says whether it needs the big path; all take it if one does. */
static int agree(bool mine, MPI_Comm comm, bool *all)
{
    int m = mine, any = 0;
    int rc = rmp_allreduce(&m, &any, 1, RMP_INT32, RMP_MAX, comm);
    *all = any != 0;
    return rc;
}

/* An alltoallw side as rmp_alltoallw takes it: per peer a count (0 or 1), a displacement (0)
 * and a type (MPI_BYTE where nothing moves). */
typedef struct wside {
    int *counts, *zeros;
    MPI_Datatype *types;
    int n;
} wside_t;

static void wside_free(wside_t *w)
{
    if (w->types)
        for (int i = 0; i < w->n; i++)
            if (w->types[i] != MPI_BYTE)
                rmp_type_free(&w->types[i]);
    free(w->counts);
    free(w->zeros);
    free(w->types);
    *w = (wside_t){0};
}

/* One block's type: count elements of type starting displ extents from the buffer. */
static int block_type(MPI_Count count, MPI_Aint displ, MPI_Datatype type, MPI_Datatype *out)
{
    ptrdiff_t lb, ext, at;
    int rc = rmp_type_get_extent(type, &lb, &ext);
    if (rc)
        return rc;
    if (count < 0)
        return RMP_ERR_COUNT;
    if (__builtin_mul_overflow(displ, ext, &at))
        return RMP_ERR_COUNT;
    rmpi_bc_t v;
    if ((rc = rmpi_bc_make(count, type, true, &v)))
        return rc;
    int one = v.count;
    rc = rmp_type_create_hindexed(1, &one, &at, v.type, out);
    rmpi_bc_free(&v);
    if (!rc && (rc = rmp_type_commit(out)))
        rmp_type_free(out);
    return rc;
}

/* One side of the exchange in alltoallw form: which blocks move (every peer's, one peer's or
 * none, less skip: -1 none) and what each is: counts[i] elements of type at displs[i] extents,
 * or (one) every block count elements at displ. */
enum { V_ALL = -1, V_NONE = -2 };
typedef struct vside {
    int only, skip;
    bool one;
    const MPI_Count *counts;
    const MPI_Aint *displs;
    MPI_Count count;
    MPI_Aint displ;
    MPI_Datatype type;
} vside_t;

static vside_t v_one(MPI_Count count, MPI_Aint displ, MPI_Datatype type, int only, int skip)
{
    return (vside_t){.only = only, .skip = skip, .one = true, .count = count, .displ = displ,
                     .type = type};
}

static vside_t v_many(const MPI_Count *counts, const MPI_Aint *displs, MPI_Datatype type,
                      int only, int skip)
{
    return (vside_t){.only = only, .skip = skip, .counts = counts, .displs = displs, .type = type};
}

/* The alltoallw description of side v over n peers: block i, when it moves, one element of a
 * per-block type at byte 0; else count 0 (of MPI_BYTE). */
static int wside_make(wside_t *w, int n, const vside_t *v)
{
    *w = (wside_t){0};
    w->counts = calloc((size_t)n + 1, sizeof(int));
    w->zeros = calloc((size_t)n + 1, sizeof(int));
    w->types = malloc(((size_t)n + 1) * sizeof(MPI_Datatype));
    if (!w->counts || !w->zeros || !w->types)
        return RMP_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        w->types[i] = MPI_BYTE;
    w->n = n; /* (wside_free frees the types of n blocks) */
    for (int i = 0; i < n; i++) {
        if ((v->only != V_ALL && v->only != i) || i == v->skip)
            continue;
        if (!v->one && (!v->counts || !v->displs))
            return RMP_ERR_ARG;
        MPI_Datatype t;
        int rc = block_type(v->one ? v->count : v->counts[i], v->one ? v->displ : v->displs[i],
                            v->type, &t);
        if (rc)
            return rc;
        w->types[i] = t;
        w->counts[i] = 1;
    }
    return RMP_SUCCESS;
}

/* The big path: one rmp_alltoallw moving sides sv (from sbuf) and rv (into rbuf). */
static int w_run(int n, const void *sbuf, const vside_t *sv, void *rbuf, const vside_t *rv,
                 MPI_Comm comm)
{
    wside_t s = {0}, r = {0};
    int rc = wside_make(&s, n, sv);
    if (!rc)
        rc = wside_make(&r, n, rv);
    if (!rc)
        rc = rmp_alltoallw(sbuf, s.counts, s.zeros, s.types, rbuf, r.counts, r.zeros, r.types,
                           comm);
    wside_free(&s);
    wside_free(&r);
    return rc;
}

/* The int path's count: one past int goes on as -1, which the int path refuses. */
static int icount(MPI_Count c)
{
    return c < INT_MIN ? -1 : (int)c;
}

/* Whether the call takes the big path (every rank agrees: one small allreduce); rc: the size
 * query's status, kept when it failed. */
static int choose(int rc, bool mine, MPI_Comm comm, bool *big)
{
    *big = false;
    return rc ? rc : agree(mine, comm, big);
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool am_root = me == root, big;
    bool mine = sendcount > rmpi_bc_limit() || (am_root && !fits(recvcounts, displs, n));
    if ((rc = choose(rc, mine, comm, &big)) || !big) {
        int *ic = NULL, *id = NULL;
        if (!rc && am_root && !to_int(recvcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else if (!rc)
            rc = rmp_gatherv(sendbuf, icount(sendcount), sendtype, recvbuf, ic, id, recvtype,
                             root, comm);
        free(ic), free(id);
    } else if (root < 0 || root >= n) {
        rc = RMP_ERR_ROOT;
    } else {
        bool in_place = am_root && sendbuf == MPI_IN_PLACE;
        vside_t s = v_one(sendcount, 0, sendtype, in_place ? V_NONE : root, -1);
        vside_t r = v_many(recvcounts, displs, recvtype, am_root ? V_ALL : V_NONE,
                           in_place ? root : -1);
        rc = w_run(n, in_place ? recvbuf : sendbuf, &s, recvbuf, &r, comm);
    }
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool am_root = me == root, big;
    bool mine = recvcount > rmpi_bc_limit() || (am_root && !fits(sendcounts, displs, n));
    if ((rc = choose(rc, mine, comm, &big)) || !big) {
        int *ic = NULL, *id = NULL;
        if (!rc && am_root && !to_int(sendcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else if (!rc)
            rc = rmp_scatterv(sendbuf, ic, id, sendtype, recvbuf, icount(recvcount), recvtype,
                              root, comm);
        free(ic), free(id);
    } else if (root < 0 || root >= n) {
        rc = RMP_ERR_ROOT;
    } else {
        bool in_place = am_root && recvbuf == MPI_IN_PLACE;
        vside_t s = v_many(sendcounts, displs, sendtype, am_root ? V_ALL : V_NONE,
                           in_place ? root : -1);
        vside_t r = v_one(recvcount, 0, recvtype, in_place ? V_NONE : root, -1);
        rc = w_run(n, sendbuf, &s, in_place ? (void *)sendbuf : recvbuf, &r, comm);
    }
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool big, in_place = sendbuf == MPI_IN_PLACE;
    bool mine = sendcount > rmpi_bc_limit() || !fits(recvcounts, displs, n);
    if ((rc = choose(rc, mine, comm, &big)) || !big) {
        int *ic = NULL, *id = NULL;
        if (!rc && !to_int(recvcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else if (!rc)
            rc = rmp_allgatherv(sendbuf, icount(sendcount), sendtype, recvbuf, ic, id, recvtype,
                                comm);
        free(ic), free(id);
    } else if (in_place && (!recvcounts || !displs)) {
        rc = RMP_ERR_ARG;
    } else {
        /* in place, my block goes out from where it is, and not to me */
        vside_t s = in_place ? v_one(recvcounts[me], displs[me], recvtype, V_ALL, me)
                             : v_one(sendcount, 0, sendtype, V_ALL, -1);
        vside_t r = v_many(recvcounts, displs, recvtype, V_ALL, in_place ? me : -1);
        rc = w_run(n, in_place ? recvbuf : sendbuf, &s, recvbuf, &r, comm);
    }
    return rmpi_raise(comm, rc, __func__);
}

/* In place with a count past int: MPI_ERR_COUNT (rmp_alltoallw's in-place form takes int
 * counts, and a copy of the whole buffer is not made here). */
int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    int n = 0, rc = rmp_comm_size(comm, &n);
    bool big, in_place = sendbuf == MPI_IN_PLACE;
    bool mine = !fits(recvcounts, rdispls, n) || (!in_place && !fits(sendcounts, sdispls, n));
    if ((rc = choose(rc, mine, comm, &big)) || !big) {
        int *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
        if (!rc && ((!in_place && !to_int(sendcounts, sdispls, n, &sc, &sd)) ||
                    !to_int(recvcounts, rdispls, n, &rcn, &rd)))
            rc = RMP_ERR_NO_MEM;
        else if (!rc)
            rc = rmp_alltoallv(sendbuf, sc, sd, sendtype, recvbuf, rcn, rd, recvtype, comm);
        free(sc), free(sd), free(rcn), free(rd);
    } else if (in_place) {
        rc = RMP_ERR_COUNT;
    } else {
        vside_t s = v_many(sendcounts, sdispls, sendtype, V_ALL, -1);
        vside_t r = v_many(recvcounts, rdispls, recvtype, V_ALL, -1);
        rc = w_run(n, sendbuf, &s, recvbuf, &r, comm);
    }
    return rmpi_raise(comm, rc, __func__);
}
