/* objects.c — mpi_attr on other objects and situations: datatypes, windows (each flavor's
 * predefined attributes), callbacks that delete and read other attributes, and several threads
 * at once. */
#include "mpi_attr.h"

/* ---- attrordertype / attrerrtype / fkeyvaltype / attr2type: datatypes ---- */
void types(void)
{
    MPI_Datatype t;
    int k1, k2, flag = 0;
    void *v = NULL;
    static char buf[8];
    CHECK(MPI_Type_contiguous(3, MPI_INT, &t));
    CHECK(MPI_Type_commit(&t));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete_log, &k1, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete_log, &k2, NULL));
    CHECK(MPI_Type_set_attr(t, k2, buf + 2));
    CHECK(MPI_Type_set_attr(t, k1, buf + 1));
    CHECK(MPI_Type_get_attr(t, k1, &v, &flag));
    if (!flag || v != buf + 1)
        FAIL("type attr k1: flag %d value %p", flag, v);
    /* builtins hold attributes too */
    CHECK(MPI_Type_set_attr(MPI_INT, k1, buf + 5));
    CHECK(MPI_Type_get_attr(MPI_INT, k1, &v, &flag));
    if (!flag || v != buf + 5)
        FAIL("MPI_INT attr: flag %d value %p", flag, v);
    CHECK(MPI_Type_get_attr(MPI_DOUBLE, k1, &v, &flag));
    EXPECT_INT(flag, 0);
    nlog = 0;
    CHECK(MPI_Type_set_attr(t, k2, buf + 3)); /* replaced: the old value is deleted */
    EXPECT_INT(nlog, 1);
    expect_log(0, 'd', t, k2, buf + 2);
    MPI_Datatype old = t;
    nlog = 0;
    CHECK(MPI_Type_free(&t));
    EXPECT_INT(t, MPI_DATATYPE_NULL);
    EXPECT_INT(nlog, 2); /* k2 then k1 were set: k1 goes first */
    expect_log(0, 'd', old, k1, buf + 1);
    expect_log(1, 'd', old, k2, buf + 3);
    /* a new type (perhaps the same handle) starts with no attributes */
    CHECK(MPI_Type_vector(2, 1, 2, MPI_INT, &t));
    CHECK(MPI_Type_get_attr(t, k1, &v, &flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Type_free(&t));
    /* builtins cannot be freed, and keep their attributes */
    MPI_Datatype i = MPI_INT;
    nlog = 0;
    expect_class("free MPI_INT", MPI_Type_free(&i), MPI_ERR_TYPE);
    EXPECT_INT(nlog, 0);
    CHECK(MPI_Type_delete_attr(MPI_INT, k1));
    EXPECT_INT(nlog, 1);
    CHECK(MPI_Type_free_keyval(&k1));
    CHECK(MPI_Type_free_keyval(&k2));
}

/* ---- Windows: the predefined attributes of each flavor, and user attributes ---- */
static void check_win(MPI_Win w, void *base, MPI_Aint wsize, int disp, int flavor)
{
    void *b = (void *)1;
    MPI_Aint *s = NULL;
    int *d = NULL, *f = NULL, *m = NULL, flag = 0;
    CHECK(MPI_Win_get_attr(w, MPI_WIN_BASE, &b, &flag));
    if (!flag || b != base)
        FAIL("MPI_WIN_BASE: flag %d %p, expected %p", flag, b, base);
    CHECK(MPI_Win_get_attr(w, MPI_WIN_SIZE, &s, &flag));
    if (!flag || !s || *s != wsize)
        FAIL("MPI_WIN_SIZE: flag %d %ld, expected %ld", flag, s ? (long)*s : -1L, (long)wsize);
    CHECK(MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &d, &flag));
    if (!flag || !d || *d != disp)
        FAIL("MPI_WIN_DISP_UNIT: flag %d %d, expected %d", flag, d ? *d : -1, disp);
    CHECK(MPI_Win_get_attr(w, MPI_WIN_CREATE_FLAVOR, &f, &flag));
    if (!flag || !f || *f != flavor)
        FAIL("MPI_WIN_CREATE_FLAVOR: flag %d %d, expected %d", flag, f ? *f : -1, flavor);
    CHECK(MPI_Win_get_attr(w, MPI_WIN_MODEL, &m, &flag));
    if (!flag || !m || *m != MPI_WIN_UNIFIED)
        FAIL("MPI_WIN_MODEL: flag %d %d", flag, m ? *m : -1);
    int k = MPI_WIN_BASE;
    expect_class("set MPI_WIN_BASE", MPI_Win_set_attr(w, MPI_WIN_BASE, NULL), MPI_ERR_KEYVAL);
    expect_class("delete MPI_WIN_SIZE", MPI_Win_delete_attr(w, MPI_WIN_SIZE), MPI_ERR_KEYVAL);
    expect_class("free MPI_WIN_BASE", MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL);
    expect_class("MPI_TAG_UB on a window", MPI_Win_get_attr(w, MPI_TAG_UB, &b, &flag),
                 MPI_ERR_KEYVAL);
}

void windows(void)
{
    MPI_Win w;
    static long mem[16];
    MPI_Aint bytes = (MPI_Aint)(mc_rank + 1) * 8;
    CHECK(MPI_Win_create(mem, bytes, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_win(w, mem, bytes, 8, MPI_WIN_FLAVOR_CREATE);

    int k1, k2, flag = 0;
    void *v = NULL;
    static char buf[4];
    CHECK(MPI_Win_create_keyval(MPI_WIN_DUP_FN, win_delete_log, &k1, NULL));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete_log, &k2, NULL));
    CHECK(MPI_Win_set_attr(w, k1, buf + 1));
    CHECK(MPI_Win_set_attr(w, k2, buf + 2));
    CHECK(MPI_Win_get_attr(w, k2, &v, &flag));
    if (!flag || v != buf + 2)
        FAIL("win attr: flag %d value %p", flag, v);
    CHECK(MPI_Win_delete_attr(w, k2));
    CHECK(MPI_Win_get_attr(w, k2, &v, &flag));
    EXPECT_INT(flag, 0);
    CHECK(MPI_Win_set_attr(w, k2, buf + 3));
    MPI_Win old = w;
    nlog = 0;
    CHECK(MPI_Win_free(&w));
    EXPECT_INT(w, MPI_WIN_NULL);
    EXPECT_INT(nlog, 2);
    expect_log(0, 'd', old, k2, buf + 3);
    expect_log(1, 'd', old, k1, buf + 1);

    void *p = NULL;
    CHECK(MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w));
    check_win(w, p, bytes, 4, MPI_WIN_FLAVOR_ALLOCATE);
    CHECK(MPI_Win_get_attr(w, k1, &v, &flag)); /* a new window: nothing of the old one */
    EXPECT_INT(flag, 0);
    CHECK(MPI_Win_free(&w));

    CHECK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &w));
    check_win(w, NULL, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
    CHECK(MPI_Win_free(&w));
    CHECK(MPI_Win_free_keyval(&k1));
    CHECK(MPI_Win_free_keyval(&k2));
}

/* ---- attrdelete / attrdeleteget: callbacks that delete other attributes and read theirs ---- */
static int kd1, kd2, kd3, deleteget_ok;

static int delete_others(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval, (void)val, (void)extra;
    CHECK(MPI_Comm_delete_attr(comm, kd1));
    CHECK(MPI_Comm_delete_attr(comm, kd3));
    return MPI_SUCCESS;
}

static int delete_get(MPI_Comm comm, int keyval, void *val, void *extra)
{
    void *v = NULL;
    int flag = 0;
    (void)extra;
    /* the communicator is still valid, and the attribute still readable */
    CHECK(MPI_Comm_get_attr(comm, keyval, &v, &flag));
    deleteget_ok = comm != MPI_COMM_NULL && flag && v == val;
    return MPI_SUCCESS;
}

void delete_in_callbacks(void)
{
    MPI_Comm comm;
    static char buf[4];
    void *v = NULL;
    int flag = 0;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &comm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kd1, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_others, &kd2, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kd3, NULL));
    CHECK(MPI_Comm_set_attr(comm, kd1, buf));
    CHECK(MPI_Comm_set_attr(comm, kd2, buf + 1));
    CHECK(MPI_Comm_set_attr(comm, kd3, buf + 2));
    CHECK(MPI_Comm_delete_attr(comm, kd2));
    for (int k = 0; k < 3; k++) {
        CHECK(MPI_Comm_get_attr(comm, k == 0 ? kd1 : k == 1 ? kd2 : kd3, &v, &flag));
        EXPECT_INT(flag, 0);
    }
    /* the same during MPI_Comm_free: kd2 goes first (set last), taking kd1 with it */
    CHECK(MPI_Comm_set_attr(comm, kd1, buf));
    CHECK(MPI_Comm_set_attr(comm, kd3, buf + 2));
    CHECK(MPI_Comm_set_attr(comm, kd2, buf + 1));
    CHECK(MPI_Comm_free(&comm));
    CHECK(MPI_Comm_free_keyval(&kd1));
    CHECK(MPI_Comm_free_keyval(&kd2));
    CHECK(MPI_Comm_free_keyval(&kd3));

    int key;
    CHECK(MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &comm));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_get, &key, NULL));
    CHECK(MPI_Comm_set_attr(comm, key, buf + 3));
    deleteget_ok = 0;
    CHECK(MPI_Comm_free(&comm));
    if (!deleteget_ok)
        FAIL("the delete callback at MPI_Comm_free could not read its attribute");
    CHECK(MPI_Comm_free_keyval(&key));
}

/* ---- Several threads at once (MPI_THREAD_MULTIPLE), each on its own keyvals and dups ---- */
#include <pthread.h>

static void *thread_attrs(void *arg)
{
    MPI_Comm comm = *(MPI_Comm *)arg;
    static char buf[1];
    for (int i = 0; i < 300; i++) {
        int key, flag = 0;
        void *v = NULL;
        CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
        CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, key, buf));
        CHECK(MPI_Comm_set_attr(comm, key, buf));
        CHECK(MPI_Comm_get_attr(comm, key, &v, &flag));
        if (!flag || v != buf)
            FAIL("thread: flag %d value %p", flag, v);
        int copy = key;
        CHECK(MPI_Comm_free_keyval(&key));
        CHECK(MPI_Comm_delete_attr(MPI_COMM_SELF, copy)); /* alive while attached */
        if (i % 2) /* else the comm's attribute goes with the comm */
            CHECK(MPI_Comm_delete_attr(comm, copy));
    }
    return NULL;
}

void threads(void)
{
    int provided = 0;
    CHECK(MPI_Query_thread(&provided));
    if (provided != MPI_THREAD_MULTIPLE)
        return;
    enum { NT = 4 };
    pthread_t t[NT];
    MPI_Comm comms[NT];
    for (int i = 0; i < NT; i++) {
        CHECK(MPI_Comm_dup(MPI_COMM_SELF, &comms[i]));
        CHECK(MPI_Comm_set_errhandler(comms[i], MPI_ERRORS_RETURN));
    }
    for (int i = 0; i < NT; i++)
        if (pthread_create(&t[i], NULL, thread_attrs, &comms[i]))
            FAIL("pthread_create");
    for (int i = 0; i < NT; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < NT; i++)
        CHECK(MPI_Comm_free(&comms[i]));
}
