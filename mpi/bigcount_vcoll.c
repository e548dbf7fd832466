/* bigcount_vcoll.c — the large-count v-forms of gather, scatter, allgather and alltoall
 * (MPI_Count counts, MPI_Aint displacements): within int they take the int path; else, once the
 * ranks agree (one small allreduce), rmp_alltoallw with a derived type per peer. The reasons
 * are told at the top of bigcount.c. */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* The alltoallw description of n blocks: block i is counts[i] elements of type at displs[i]
 * extents (or at my own block when dflt_count >= 0: every block is that one, dflt_count
 * elements at dflt_displ), made one element of a per-block type at byte 0; used[i] false:
 * count 0. */
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

/* used(i): whether block i moves; count(i), displ(i): its elements and place. */
static int wside_make(wside_t *w, int n, const bool *used, const MPI_Count *counts,
                      const MPI_Aint *displs, MPI_Count one_count, MPI_Aint one_displ, bool one,
                      MPI_Datatype type)
{
    *w = (wside_t){.n = n};
    w->counts = calloc((size_t)n + 1, sizeof(int));
    w->zeros = calloc((size_t)n + 1, sizeof(int));
    w->types = malloc(((size_t)n + 1) * sizeof(MPI_Datatype));
    if (!w->counts || !w->zeros || !w->types) {
        wside_free(w);
        return RMP_ERR_NO_MEM;
    }
    for (int i = 0; i < n; i++)
        w->types[i] = MPI_BYTE;
    for (int i = 0; i < n; i++) {
        if (!used[i])
            continue;
        MPI_Count c = one ? one_count : counts ? counts[i] : 0;
        MPI_Aint d = one ? one_displ : displs ? displs[i] : 0;
        if (!one && (!counts || !displs)) {
            wside_free(w);
            return RMP_ERR_ARG;
        }
        int rc = block_type(c, d, type, &w->types[i]);
        if (rc) {
            w->types[i] = MPI_BYTE;
            wside_free(w);
            return rc;
        }
        w->counts[i] = 1;
    }
    return RMP_SUCCESS;
}

static int w_run(const void *sendbuf, wside_t *s, void *recvbuf, wside_t *r, MPI_Comm comm)
{
    return rmp_alltoallw(sendbuf, s->counts, s->zeros, s->types, recvbuf, r->counts, r->zeros,
                         r->types, comm);
}

static bool *flags(int n, bool v)
{
    bool *f = malloc((size_t)n + 1);
    if (f)
        memset(f, v, (size_t)n + 1);
    return f;
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool am_root = me == root, big = false;
    bool mine = sendcount > rmpi_bc_limit() || (am_root && !fits(recvcounts, displs, n));
    if (!rc && (rc = agree(mine, comm, &big)) == RMP_SUCCESS && !big) {
        int *ic = NULL, *id = NULL;
        if (am_root && !to_int(recvcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else
            rc = rmp_gatherv(sendbuf, sendcount < INT_MIN ? -1 : (int)sendcount, sendtype, recvbuf,
                             ic, id, recvtype, root, comm);
        free(ic);
        free(id);
    } else if (!rc) {
        if (root < 0 || root >= n)
            return rmpi_raise(comm, RMP_ERR_ROOT, __func__);
        bool in_place = am_root && sendbuf == MPI_IN_PLACE;
        bool *su = flags(n, false), *ru = flags(n, am_root);
        wside_t s = {0}, r = {0};
        if (!su || !ru) {
            rc = RMP_ERR_NO_MEM;
        } else {
            su[root] = !in_place;
            if (in_place)
                ru[root] = false;
            if (!(rc = wside_make(&s, n, su, NULL, NULL, sendcount, 0, true, sendtype)))
                rc = wside_make(&r, n, ru, recvcounts, displs, 0, 0, false, recvtype);
            if (!rc)
                rc = w_run(in_place ? recvbuf : sendbuf, &s, recvbuf, &r, comm);
        }
        wside_free(&s);
        wside_free(&r);
        free(su);
        free(ru);
    }
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool am_root = me == root, big = false;
    bool mine = recvcount > rmpi_bc_limit() || (am_root && !fits(sendcounts, displs, n));
    if (!rc && (rc = agree(mine, comm, &big)) == RMP_SUCCESS && !big) {
        int *ic = NULL, *id = NULL;
        if (am_root && !to_int(sendcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else
            rc = rmp_scatterv(sendbuf, ic, id, sendtype, recvbuf,
                              recvcount < INT_MIN ? -1 : (int)recvcount, recvtype, root, comm);
        free(ic);
        free(id);
    } else if (!rc) {
        if (root < 0 || root >= n)
            return rmpi_raise(comm, RMP_ERR_ROOT, __func__);
        bool in_place = am_root && recvbuf == MPI_IN_PLACE;
        bool *su = flags(n, am_root), *ru = flags(n, false);
        wside_t s = {0}, r = {0};
        if (!su || !ru) {
            rc = RMP_ERR_NO_MEM;
        } else {
            ru[root] = !in_place;
            if (in_place)
                su[root] = false;
            if (!(rc = wside_make(&s, n, su, sendcounts, displs, 0, 0, false, sendtype)))
                rc = wside_make(&r, n, ru, NULL, NULL, recvcount, 0, true, recvtype);
            if (!rc)
                rc = w_run(sendbuf, &s, in_place ? (void *)sendbuf : recvbuf, &r, comm);
        }
        wside_free(&s);
        wside_free(&r);
        free(su);
        free(ru);
    }
    return rmpi_raise(comm, rc, __func__);
}

int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    int n = 0, me = rmpi_rank_of(comm), rc = rmp_comm_size(comm, &n);
    bool big = false;
    bool mine = sendcount > rmpi_bc_limit() || !fits(recvcounts, displs, n);
    if (!rc && (rc = agree(mine, comm, &big)) == RMP_SUCCESS && !big) {
        int *ic = NULL, *id = NULL;
        if (!to_int(recvcounts, displs, n, &ic, &id))
            rc = RMP_ERR_NO_MEM;
        else
            rc = rmp_allgatherv(sendbuf, sendcount < INT_MIN ? -1 : (int)sendcount, sendtype,
                                recvbuf, ic, id, recvtype, comm);
        free(ic);
        free(id);
    } else if (!rc) {
        bool in_place = sendbuf == MPI_IN_PLACE;
        bool *su = flags(n, true), *ru = flags(n, true);
        wside_t s = {0}, r = {0};
        if (!su || !ru) {
            rc = RMP_ERR_NO_MEM;
        } else if (in_place && (!recvcounts || !displs)) {
            rc = RMP_ERR_ARG;
        } else {
            if (in_place) /* my block is in place: it goes out from there, not to me */
                su[me] = ru[me] = false;
            if (in_place)
                rc = wside_make(&s, n, su, NULL, NULL, recvcounts[me], displs[me], true, recvtype);
            else
                rc = wside_make(&s, n, su, NULL, NULL, sendcount, 0, true, sendtype);
            if (!rc)
                rc = wside_make(&r, n, ru, recvcounts, displs, 0, 0, false, recvtype);
            if (!rc)
                rc = w_run(in_place ? recvbuf : sendbuf, &s, recvbuf, &r, comm);
        }
        wside_free(&s);
        wside_free(&r);
        free(su);
        free(ru);
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
    bool big = false, in_place = sendbuf == MPI_IN_PLACE;
    bool mine = !fits(recvcounts, rdispls, n) || (!in_place && !fits(sendcounts, sdispls, n));
    if (!rc && (rc = agree(mine, comm, &big)) == RMP_SUCCESS && !big) {
        int *sc = NULL, *sd = NULL, *rcn = NULL, *rd = NULL;
        if ((!in_place && !to_int(sendcounts, sdispls, n, &sc, &sd)) ||
            !to_int(recvcounts, rdispls, n, &rcn, &rd))
            rc = RMP_ERR_NO_MEM;
        else
            rc = rmp_alltoallv(sendbuf, sc, sd, sendtype, recvbuf, rcn, rd, recvtype, comm);
        free(sc), free(sd), free(rcn), free(rd);
    } else if (!rc && in_place) {
        rc = RMP_ERR_COUNT;
    } else if (!rc) {
        bool *u = flags(n, true);
        wside_t s = {0}, r = {0};
        if (!u)
            rc = RMP_ERR_NO_MEM;
        else if (!(rc = wside_make(&s, n, u, sendcounts, sdispls, 0, 0, false, sendtype)) &&
                 !(rc = wside_make(&r, n, u, recvcounts, rdispls, 0, 0, false, recvtype)))
            rc = w_run(sendbuf, &s, recvbuf, &r, comm);
        wside_free(&s);
        wside_free(&r);
        free(u);
    }
    return rmpi_raise(comm, rc, __func__);
}
