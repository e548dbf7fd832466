/* mpi_py_win.c — windows as mpi4py's test_win.py checks them, of each flavor (create over
 * Alloc_mem, allocate, allocate_shared, create_dynamic) on MPI_COMM_SELF and MPI_COMM_WORLD:
 * WIN_BASE/SIZE/DISP_UNIT (0 and 0 for a dynamic window, attached memory or not),
 * WIN_CREATE_FLAVOR and WIN_MODEL, the group, info set and read back, handlers set, read and
 * freed, the name set and restored, shared_query of my own rank, attach/detach in any order,
 * and a window over MPI_BOTTOM with size 0. */
#include <stdint.h>

#include "mpicheck.h"

static MPI_Aint attr_aint(MPI_Win w, int key)
{
    void *v = NULL;
    int flag = 0;
    CHECK(MPI_Win_get_attr(w, key, &v, &flag));
    if (!flag || (!v && key != MPI_WIN_BASE)) { /* the base itself: NULL for a dynamic one */
        FAIL("window attribute %d not set", key);
        return -1;
    }
    return key == MPI_WIN_BASE ? (MPI_Aint)(uintptr_t)v : *(MPI_Aint *)v;
}

static int attr_int(MPI_Win w, int key)
{
    int *v = NULL, flag = 0;
    CHECK(MPI_Win_get_attr(w, key, &v, &flag));
    if (!flag || !v) {
        FAIL("window attribute %d not set", key);
        return -1;
    }
    return *v;
}

static void common(MPI_Win w, MPI_Comm comm, int flavor)
{
    int f = attr_int(w, MPI_WIN_CREATE_FLAVOR), m = attr_int(w, MPI_WIN_MODEL), cmp = -1;
    EXPECT_INT(f, flavor);
    if (m != MPI_WIN_SEPARATE && m != MPI_WIN_UNIFIED)
        FAIL("WIN_MODEL %d", m);
    MPI_Group cg, wg;
    CHECK(MPI_Comm_group(comm, &cg));
    CHECK(MPI_Win_get_group(w, &wg));
    CHECK(MPI_Group_compare(cg, wg, &cmp));
    EXPECT_INT(cmp, MPI_IDENT);
    CHECK(MPI_Group_free(&cg));
    CHECK(MPI_Group_free(&wg));
    MPI_Info info;
    CHECK(MPI_Info_create(&info));
    CHECK(MPI_Win_set_info(w, info));
    CHECK(MPI_Info_free(&info));
    CHECK(MPI_Win_get_info(w, &info));
    CHECK(MPI_Win_set_info(w, info));
    CHECK(MPI_Info_free(&info));
    MPI_Errhandler set[] = {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ARE_FATAL,
                            MPI_ERRORS_RETURN};
    for (int i = 0; i < 4; i++) {
        MPI_Errhandler e1 = MPI_ERRHANDLER_NULL, e2 = MPI_ERRHANDLER_NULL;
        CHECK(MPI_Win_get_errhandler(w, &e1));
        if (e1 == MPI_ERRHANDLER_NULL)
            FAIL("MPI_Win_get_errhandler gave MPI_ERRHANDLER_NULL");
        CHECK(MPI_Win_set_errhandler(w, set[i]));
        CHECK(MPI_Win_get_errhandler(w, &e2));
        if (e2 != set[i])
            FAIL("window handler %d did not stick", i);
        CHECK(MPI_Errhandler_free(&e2));
        EXPECT_INT(e2 == MPI_ERRHANDLER_NULL, 1);
        CHECK(MPI_Win_set_errhandler(w, e1));
        CHECK(MPI_Errhandler_free(&e1));
    }
    char name[MPI_MAX_OBJECT_NAME], now[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK(MPI_Win_get_name(w, name, &len));
    CHECK(MPI_Win_set_name(w, "mywin"));
    CHECK(MPI_Win_get_name(w, now, &len));
    if (strcmp(now, "mywin"))
        FAIL("window name '%s'", now);
    CHECK(MPI_Win_set_name(w, name));
    CHECK(MPI_Win_get_name(w, now, &len));
    if (strcmp(now, name))
        FAIL("window name '%s' after restoring '%s'", now, name);
}

static void expect_memory(MPI_Win w, void *base, MPI_Aint size)
{
    MPI_Aint b = attr_aint(w, MPI_WIN_BASE), s = attr_aint(w, MPI_WIN_SIZE);
    int unit = attr_int(w, MPI_WIN_DISP_UNIT);
    if (b != (MPI_Aint)(uintptr_t)base || s != size || unit != 1)
        FAIL("window base %p size %ld unit %d, expected %p %ld 1", (void *)b, (long)s, unit,
             base, (long)size);
}

static void flavors(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    void *mem = NULL, *base = NULL;
    MPI_Win w;
    CHECK(MPI_Alloc_mem(10, MPI_INFO_NULL, &mem));
    memset(mem, 0, 10);
    CHECK(MPI_Win_create(mem, 10, 1, MPI_INFO_NULL, comm, &w));
    expect_memory(w, mem, 10);
    common(w, comm, MPI_WIN_FLAVOR_CREATE);
    CHECK(MPI_Win_free(&w));
    CHECK(MPI_Free_mem(mem));
    CHECK(MPI_Win_allocate(10, 1, MPI_INFO_NULL, comm, &base, &w));
    expect_memory(w, base, 10);
    common(w, comm, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK(MPI_Win_free(&w));
    CHECK(MPI_Win_allocate_shared(10, 1, MPI_INFO_NULL, comm, &base, &w));
    expect_memory(w, base, 10);
    common(w, comm, MPI_WIN_FLAVOR_SHARED);
    MPI_Aint qsize = -1;
    int qunit = -1;
    void *qbase = NULL;
    CHECK(MPI_Win_shared_query(w, rank, &qsize, &qunit, &qbase));
    if (qbase != base || qsize != 10 || qunit != 1)
        FAIL("shared_query(me): %p %ld %d, expected %p 10 1", qbase, (long)qsize, qunit, base);
    CHECK(MPI_Win_free(&w));
    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w));
    expect_memory(w, NULL, 0);
    common(w, comm, MPI_WIN_FLAVOR_DYNAMIC);
    void *m[3];
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Alloc_mem(8 << i, MPI_INFO_NULL, &m[i]));
    for (int i = 0; i < 3; i++) {
        CHECK(MPI_Win_attach(w, m[i], 8 << i));
        expect_memory(w, NULL, 0);
        CHECK(MPI_Win_detach(w, m[i]));
    }
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Win_attach(w, m[i], 8 << i));
    expect_memory(w, NULL, 0);
    for (int i = 2; i >= 0; i--)
        CHECK(MPI_Win_detach(w, m[i]));
    for (int i = 0; i < 3; i++)
        CHECK(MPI_Free_mem(m[i]));
    CHECK(MPI_Win_free(&w));
    CHECK(MPI_Win_create(MPI_BOTTOM, 0, 1, MPI_INFO_NULL, comm, &w));
    CHECK(MPI_Win_free(&w));
}

int main(int argc, char **argv)
{
    mc_init(&argc, &argv, 120);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    flavors(MPI_COMM_SELF);
    flavors(MPI_COMM_WORLD);
    MPI_Finalize();
    return mc_done("mpi_py_win");
}
