/* mpi_attr.c — attribute caching the way MPICH's test/mpi/attr does it (attrt, attric,
 * attrorder, attrordercomm, attrordertype, attrerr, attrerrcomm, attrerrtype, fkeyval,
 * fkeyvalcomm, fkeyvaltype, keyval_double_free, baseattr2, attr2type): the predefined
 * attributes of communicators and windows, set/get/delete in every order, the copy callbacks
 * at MPI_Comm_dup (in the order of setting; flag 0 copies nothing; an error fails the dup
 * with MPI_COMM_NULL), the delete callbacks (delete_attr, replacing set_attr, Comm_free,
 * Type_free, Win_free: last set first), freed keyvals living on in their attributes, and the
 * MPI_ERRORS_RETURN class of every invalid argument. At MPI_Finalize MPI_COMM_SELF's
 * attributes are deleted, last set first: the callback prints "mpi_attr: rank R finalize
 * deleted self attributes in order" when the order was right. */
#include "mpicheck.h"

static int rank, size;

static void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* ---- Callbacks that log what they saw ---- */
#define LOGMAX 64
typedef struct logent {
    char what; /* 'c' copy, 'd' delete */
    int obj, keyval;
    void *val;
} logent_t;
static logent_t logv[LOGMAX];
static int nlog;

static void log_call(char what, int obj, int keyval, void *val)
{
    if (nlog < LOGMAX)
        logv[nlog] = (logent_t){what, obj, keyval, val};
    nlog++;
}

/* Copies value + 1 when extra_state is non-NULL, otherwise says "not copied". */
static int copy_plus1(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    log_call('c', old, keyval, in);
    if (extra) {
        *(void **)out = (char *)in + 1;
        *flag = 1;
    } else {
        *flag = 0;
    }
    return MPI_SUCCESS;
}

static int delete_log(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', comm, keyval, val);
    return MPI_SUCCESS;
}

static int type_delete_log(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', t, keyval, val);
    return MPI_SUCCESS;
}

static int win_delete_log(MPI_Win w, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', w, keyval, val);
    return MPI_SUCCESS;
}

static void expect_log(int i, char what, int obj, int keyval, void *val)
{
    if (i >= nlog) {
        FAIL("callback %d (%c) never ran (%d ran)", i, what, nlog);
        return;
    }
    if (logv[i].what != what || logv[i].obj != obj || logv[i].keyval != keyval ||
        logv[i].val != val)
        FAIL("callback %d: %c(obj %d, key %d, val %p), expected %c(obj %d, key %d, val %p)", i,
             logv[i].what, logv[i].obj, logv[i].keyval, logv[i].val, what, obj, keyval, val);
}

static void expect_attr(MPI_Comm comm, int keyval, void *want)
{
    void *v = NULL;
    int flag = -1;
    CHECK(MPI_Comm_get_attr(comm, keyval, &v, &flag));
    if (want && (!flag || v != want))
        FAIL("key %d: flag %d value %p, expected %p", keyval, flag, v, want);
    if (!want && flag)
        FAIL("key %d: set (%p), expected none", keyval, v);
}

/* ---- Predefined attributes (baseattr2) ---- */
static void predefined_comm(MPI_Comm comm)
{
    static const struct {
        int key;
        int want_set;
    } keys[] = {{MPI_TAG_UB, 1},        {MPI_HOST, 1},   {MPI_IO, 1},
                {MPI_WTIME_IS_GLOBAL, 1}, {MPI_UNIVERSE_SIZE, 1}, {MPI_APPNUM, 1},
                {MPI_LASTUSEDCODE, 1}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        int *v = NULL, flag = 0;
        CHECK(MPI_Comm_get_attr(comm, keys[i].key, &v, &flag));
        if (!flag || !v) {
            FAIL("predefined key %d not set", keys[i].key);
            continue;
        }
        int want = keys[i].key == MPI_TAG_UB            ? 0x3fffffff
                   : keys[i].key == MPI_HOST            ? MPI_PROC_NULL
                   : keys[i].key == MPI_IO              ? MPI_ANY_SOURCE
                   : keys[i].key == MPI_WTIME_IS_GLOBAL ? 0
                   : keys[i].key == MPI_UNIVERSE_SIZE   ? size
                   : keys[i].key == MPI_APPNUM          ? 0
                                                        : MPI_ERR_LASTCODE;
        EXPECT_INT(*v, want);
        /* the MPI-1 name too */
        v = NULL, flag = 0;
        CHECK(MPI_Attr_get(comm, keys[i].key, &v, &flag));
        if (!flag || !v || *v != want)
            FAIL("MPI_Attr_get of predefined key %d", keys[i].key);
    }
    /* MPI_TAG_UB is at least 32767 and a tag that large works */
    int *ub = NULL, flag = 0;
    CHECK(MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag));
    if (flag && *ub >= 32767) {
        int me = -1, x = rank, y = -1;
        CHECK(MPI_Comm_rank(comm, &me));
        CHECK(MPI_Sendrecv(&x, 1, MPI_INT, me, *ub, &y, 1, MPI_INT, me, *ub, comm,
                           MPI_STATUS_IGNORE));
        EXPECT_INT(y, rank);
    }
    /* predefined ones cannot be set, deleted or freed */
    int k = MPI_TAG_UB;
    expect_class("set MPI_TAG_UB", MPI_Comm_set_attr(comm, MPI_TAG_UB, &k), MPI_ERR_KEYVAL);
    expect_class("delete MPI_HOST", MPI_Comm_delete_attr(comm, MPI_HOST), MPI_ERR_KEYVAL);
    expect_class("free MPI_IO", MPI_Comm_free_keyval(&k), MPI_ERR_KEYVAL);
    EXPECT_INT(k, MPI_TAG_UB);
    /* a window keyval on a communicator */
    void *v = NULL;
    expect_class("MPI_WIN_BASE on a comm", MPI_Comm_get_attr(comm, MPI_WIN_BASE, &v, &flag),
                 MPI_ERR_KEYVAL);
}

/* ---- attrorder / attrordercomm ---- */
static void order(MPI_Comm comm)
{
    int key[3], val[3];
    for (int i = 0; i < 3; i++) {
        if (i == 2)
            CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key[i], NULL));
        else
            CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key[i],
                                         NULL));
        val[i] = 1024 * i;
    }
    static const int orders[6][3] = {{2, 1, 0}, {1, 2, 0}, {0, 1, 2},
                                     {0, 2, 1}, {1, 0, 2}, {2, 0, 1}};
    for (int o = 0; o < 6; o++) {
        for (int i = 0; i < 3; i++)
            CHECK((o % 2 ? MPI_Attr_put : MPI_Comm_set_attr)(comm, key[orders[o][i]],
                                                             &val[orders[o][i]]));
        for (int i = 0; i < 3; i++)
            expect_attr(comm, key[i], &val[i]);
        for (int i = 0; i < 3; i++) /* deleted in another order */
            CHECK((o % 2 ? MPI_Comm_delete_attr : MPI_Attr_delete)(comm,
                                                                   key[orders[(o + 1) % 6][i]]));
        for (int i = 0; i < 3; i++)
            expect_attr(comm, key[i], NULL);
    }
    /* deleting what is not set is no error */
    CHECK(MPI_Comm_delete_attr(comm, key[0]));
    for (int i = 0; i < 3; i++) {
        if (i == 2)
            CHECK(MPI_Keyval_free(&key[i]));
        else
            CHECK(MPI_Comm_free_keyval(&key[i]));
        EXPECT_INT(key[i], MPI_KEYVAL_INVALID);
    }
}

/* ---- attrt / attric: copy and delete callbacks around MPI_Comm_dup and MPI_Comm_free ---- */
static void copy_delete(void)
{
    MPI_Comm base, dup;
    int kdup, knull, kplus, knot, kdel;
    static char buf[16];
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &base));
    CHECK(MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_log, &kdup, NULL));
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_log, &knull, NULL));
    CHECK(MPI_Comm_create_keyval(copy_plus1, delete_log, &kplus, (void *)1));
    CHECK(MPI_Comm_create_keyval(copy_plus1, delete_log, &knot, NULL));
    CHECK(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &kdel, NULL));

    /* set in the order plus, dup, not, null, del */
    CHECK(MPI_Comm_set_attr(base, kplus, buf + 4));
    CHECK(MPI_Comm_set_attr(base, kdup, buf + 1));
    CHECK(MPI_Comm_set_attr(base, knot, buf + 2));
    CHECK(MPI_Comm_set_attr(base, knull, buf + 3));
    CHECK(MPI_Attr_put(base, kdel, buf + 6));

    nlog = 0;
    CHECK(MPI_Comm_dup(base, &dup));
    /* the copy callbacks ran in the order of setting: plus then not */
    EXPECT_INT(nlog, 2);
    expect_log(0, 'c', base, kplus, buf + 4);
    expect_log(1, 'c', base, knot, buf + 2);
    expect_attr(dup, kplus, buf + 5);
    expect_attr(dup, kdup, buf + 1);
    expect_attr(dup, knot, NULL);
    expect_attr(dup, knull, NULL);
    expect_attr(dup, kdel, buf + 6);
    expect_attr(base, kplus, buf + 4); /* the original is untouched */
    /* only a dup copies attributes: a split starts with none */
    MPI_Comm split;
    nlog = 0;
    CHECK(MPI_Comm_split(base, 0, rank, &split));
    EXPECT_INT(nlog, 0);
    expect_attr(split, kplus, NULL);
    expect_attr(split, kdup, NULL);
    CHECK(MPI_Comm_free(&split));
    EXPECT_INT(nlog, 0);
    /* the dup inherited the handler too */
    MPI_Errhandler eh;
    CHECK(MPI_Comm_get_errhandler(dup, &eh));
    EXPECT_INT(eh, MPI_ERRORS_RETURN);

    /* a dup of the dup: plus applies again */
    MPI_Comm dup2;
    nlog = 0;
    CHECK(MPI_Comm_dup(dup, &dup2));
    expect_attr(dup2, kplus, buf + 6);
    MPI_Comm d2 = dup2;
    CHECK(MPI_Comm_free(&dup2));
    EXPECT_INT(dup2, MPI_COMM_NULL);
    /* dup2 held plus (copied), dup (dup), del (no logging delete): last set first */
    EXPECT_INT(nlog, 3);
    expect_log(0, 'c', dup, kplus, buf + 5);
    expect_log(1, 'd', d2, kdup, buf + 1);
    expect_log(2, 'd', d2, kplus, buf + 6);

    /* replacing a value deletes the old one; delete_attr deletes */
    nlog = 0;
    CHECK(MPI_Comm_set_attr(dup, kdup, buf + 9));
    EXPECT_INT(nlog, 1);
    expect_log(0, 'd', dup, kdup, buf + 1);
    expect_attr(dup, kdup, buf + 9);
    CHECK(MPI_Comm_delete_attr(dup, kdup));
    EXPECT_INT(nlog, 2);
    expect_log(1, 'd', dup, kdup, buf + 9);
    expect_attr(dup, kdup, NULL);
    /* set again: it goes last in the order */
    CHECK(MPI_Comm_set_attr(dup, kdup, buf + 10));

    /* freeing a keyval with attributes attached: they stay, their callback still runs */
    int saved = kplus;
    CHECK(MPI_Comm_free_keyval(&kplus));
    EXPECT_INT(kplus, MPI_KEYVAL_INVALID);
    expect_attr(dup, saved, buf + 5); /* the handle still reaches the live keyval */

    nlog = 0;
    MPI_Comm d = dup;
    CHECK(MPI_Comm_free(&dup));
    EXPECT_INT(dup, MPI_COMM_NULL);
    /* dup held plus(buf+5), del, dup(buf+10): deleted last set first */
    EXPECT_INT(nlog, 2);
    expect_log(0, 'd', d, kdup, buf + 10);
    expect_log(1, 'd', d, saved, buf + 5);

    /* base: knull, knot, kdup, kplus (freed keyval) */
    nlog = 0;
    MPI_Comm b = base;
    CHECK(MPI_Comm_free(&base));
    EXPECT_INT(nlog, 4);
    expect_log(0, 'd', b, knull, buf + 3);
    expect_log(1, 'd', b, knot, buf + 2);
    expect_log(2, 'd', b, kdup, buf + 1);
    expect_log(3, 'd', b, saved, buf + 4);
    /* now no attribute holds the freed keyval: it is gone */
    expect_class("free a dead keyval", MPI_Comm_free_keyval(&saved), MPI_ERR_KEYVAL);
    CHECK(MPI_Comm_free_keyval(&kdup));
    CHECK(MPI_Comm_free_keyval(&knull));
    CHECK(MPI_Comm_free_keyval(&knot));
    CHECK(MPI_Keyval_free(&kdel));
}

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

static void failing_callbacks(void)
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

static void double_free(void)
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
static void invalid(void)
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

/* ---- attrordertype / attrerrtype / fkeyvaltype / attr2type: datatypes ---- */
static void types(void)
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

static void windows(void)
{
    MPI_Win w;
    static long mem[16];
    MPI_Aint bytes = (MPI_Aint)(rank + 1) * 8;
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

static void delete_in_callbacks(void)
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

static void threads(void)
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

/* ---- MPI_Finalize deletes MPI_COMM_SELF's attributes, last set first ---- */
static int self_keys[2], self_seen;

static int self_delete(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)val, (void)extra;
    if (comm != MPI_COMM_SELF || keyval != self_keys[1 - self_seen])
        self_seen = -100;
    if (++self_seen == 2)
        printf("mpi_attr: rank %d finalize deleted self attributes in order\n", rank);
    fflush(stdout);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    mc_watchdog(60);
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank = mc_rank;

    MPI_Comm dup;
    CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    predefined_comm(MPI_COMM_WORLD);
    predefined_comm(MPI_COMM_SELF);
    predefined_comm(dup);
    CHECK(MPI_Comm_free(&dup));
    order(MPI_COMM_WORLD);
    order(MPI_COMM_SELF);
    copy_delete();
    failing_callbacks();
    double_free();
    invalid();
    types();
    windows();
    delete_in_callbacks();
    threads();

    for (int i = 0; i < 2; i++) {
        CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &self_keys[i], NULL));
        CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, self_keys[i], NULL));
    }
    CHECK(MPI_Barrier(MPI_COMM_WORLD));
    int rc = mc_done("mpi_attr");
    MPI_Finalize();
    return rc;
}
