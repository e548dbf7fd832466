/* errors.c — mpi_attr's failures: callbacks that fail (attrerr, attrerrcomm), a delete
 * callback freeing its own keyval (keyval_double_free), and every invalid argument's class. */
#include "mpi_attr.h"

/* ---- attrerr / attrerrcomm: callbacks that fail ---- */
static int delete_ok;

static int copy_bomb(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static int delete_bomb(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)keyval, (void)val, (void)extra;
    return delete_ok ? MPI_SUCCESS : MPI_ERR_OTHER;
}

void failing_callbacks(void)
{
    MPI_Comm comm, d2 = MPI_COMM_WORLD;
    int key, kok, flag = 0;
    void *v = NULL;
    static char buf[4];
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    CHECK(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    CHECK(MPI_Keyval_create(copy_bomb, delete_bomb, &key, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_log, &kok, NULL));
    CHECK(MPI_Comm_set_attr(comm, kok, buf + 3)); /* copied before the bomb goes off */
    delete_ok = 0;
    CHECK(MPI_Attr_put(comm, key, buf));
    EXPECT_INT(MPI_Attr_put(comm, key, buf + 1), MPI_ERR_OTHER);
    EXPECT_INT(MPI_Attr_delete(comm, key), MPI_ERR_OTHER);
    CHECK(MPI_Attr_get(comm, key, &v, &flag)); /* the delete failed: it stays, unchanged */
    if (!flag || v != buf)
        FAIL("after failed deletes: flag %d value %p, expected %p", flag, v, (void *)buf);

    nlog = 0;
    EXPECT_INT(MPI_Comm_dup(comm, &d2), MPI_ERR_OTHER);
    EXPECT_INT(d2, MPI_COMM_NULL);
    /* the attribute copied before the failure was deleted from the half-made dup */
    EXPECT_INT(nlog, 1);
    if (nlog == 1 && (logv[0].what != 'd' || logv[0].val != buf + 3 || logv[0].keyval != kok))
        FAIL("the copied attribute was not deleted again");

    /* Comm_free fails while a delete callback fails, and comm stays usable */
    MPI_Comm keep = comm;
    EXPECT_INT(MPI_Comm_free(&comm), MPI_ERR_OTHER);
    EXPECT_INT(comm, keep);
    CHECK(MPI_Barrier(comm));
    delete_ok = 1;
    CHECK(MPI_Comm_free(&comm));
    EXPECT_INT(comm, MPI_COMM_NULL);
    CHECK(MPI_Keyval_free(&key));
    CHECK(MPI_Comm_free_keyval(&kok));
}

/* ---- keyval_double_free: a delete callback freeing its keyval, copies of the handle ---- */
static int delete_frees(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)comm, (void)val, (void)extra;
    return MPI_Keyval_free(&keyval);
}

void double_free(void)
{
    MPI_Comm duped, other;
    int keyval, copy;
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &duped));
    CHECK(MPI_Comm_dup(MPI_COMM_SELF, &other));
    CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, delete_frees, &keyval, NULL));
    copy = keyval;
    CHECK(MPI_Attr_put(other, keyval, NULL));
    CHECK(MPI_Attr_put(duped, keyval, NULL));
    CHECK(MPI_Comm_free(&duped));   /* first free, in the callback */
    CHECK(MPI_Keyval_free(&keyval)); /* second */
    CHECK(MPI_Keyval_free(&copy));   /* third */
    CHECK(MPI_Comm_free(&other));    /* fourth, in the callback: the last attribute goes */
    expect_class("a fifth free", MPI_Keyval_free(&copy), MPI_ERR_KEYVAL);
}

/* ---- Invalid arguments ---- */
void invalid(void)
{
    int key, tkey, wkey, flag = 0;
    void *v = NULL;
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL));
    CHECK(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL));
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wkey, NULL));
    expect_class("create_keyval NULL", MPI_Comm_create_keyval(NULL, NULL, NULL, NULL),
                 MPI_ERR_ARG);
    expect_class("Type_create_keyval NULL",
                 MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, NULL, NULL, NULL), MPI_ERR_ARG);
    expect_class("free_keyval NULL", MPI_Comm_free_keyval(NULL), MPI_ERR_ARG);
    int bad = MPI_KEYVAL_INVALID;
    expect_class("free MPI_KEYVAL_INVALID", MPI_Comm_free_keyval(&bad), MPI_ERR_KEYVAL);
    bad = 123456;
    expect_class("free 123456", MPI_Comm_free_keyval(&bad), MPI_ERR_KEYVAL);
    expect_class("set invalid keyval", MPI_Comm_set_attr(MPI_COMM_WORLD, 123456, NULL),
                 MPI_ERR_KEYVAL);
    expect_class("get invalid keyval", MPI_Comm_get_attr(MPI_COMM_WORLD, -5, &v, &flag),
                 MPI_ERR_KEYVAL);
    expect_class("delete MPI_KEYVAL_INVALID",
                 MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL);
    /* keyvals of another kind of object */
    expect_class("type keyval on comm", MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, NULL),
                 MPI_ERR_KEYVAL);
    expect_class("win keyval on comm", MPI_Comm_get_attr(MPI_COMM_WORLD, wkey, &v, &flag),
                 MPI_ERR_KEYVAL);
    expect_class("comm keyval on type", MPI_Type_set_attr(MPI_INT, key, NULL), MPI_ERR_KEYVAL);
    expect_class("comm keyval on type", MPI_Type_delete_attr(MPI_INT, key), MPI_ERR_KEYVAL);
    expect_class("free a comm keyval as a type's", MPI_Type_free_keyval(&key), MPI_ERR_KEYVAL);
    expect_class("free a type keyval as a win's", MPI_Win_free_keyval(&tkey), MPI_ERR_KEYVAL);
    /* invalid objects */
    expect_class("set on MPI_COMM_NULL", MPI_Comm_set_attr(MPI_COMM_NULL, key, NULL),
                 MPI_ERR_COMM);
    expect_class("get on MPI_COMM_NULL", MPI_Comm_get_attr(MPI_COMM_NULL, key, &v, &flag),
                 MPI_ERR_COMM);
    expect_class("delete on MPI_COMM_NULL", MPI_Attr_delete(MPI_COMM_NULL, key), MPI_ERR_COMM);
    expect_class("set on MPI_DATATYPE_NULL", MPI_Type_set_attr(MPI_DATATYPE_NULL, tkey, NULL),
                 MPI_ERR_TYPE);
    expect_class("get on MPI_DATATYPE_NULL",
                 MPI_Type_get_attr(MPI_DATATYPE_NULL, tkey, &v, &flag), MPI_ERR_TYPE);
    expect_class("set on MPI_WIN_NULL", MPI_Win_set_attr(MPI_WIN_NULL, wkey, NULL),
                 MPI_ERR_WIN);
    expect_class("get on MPI_WIN_NULL", MPI_Win_get_attr(MPI_WIN_NULL, MPI_WIN_BASE, &v, &flag),
                 MPI_ERR_WIN);
    /* NULL outputs */
    expect_class("get_attr NULL flag", MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, NULL),
                 MPI_ERR_ARG);
    expect_class("get_attr NULL value", MPI_Comm_get_attr(MPI_COMM_WORLD, key, NULL, &flag),
                 MPI_ERR_ARG);
    int saved = key;
    CHECK(MPI_Comm_free_keyval(&key));
    CHECK(MPI_Type_free_keyval(&tkey));
    CHECK(MPI_Win_free_keyval(&wkey));
    EXPECT_INT(tkey, MPI_KEYVAL_INVALID);
    EXPECT_INT(wkey, MPI_KEYVAL_INVALID);
    /* a freed keyval with no attribute left */
    expect_class("set with a freed keyval", MPI_Comm_set_attr(MPI_COMM_WORLD, saved, NULL),
                 MPI_ERR_KEYVAL);
}
