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
#include "mpi_attr/mpi_attr.h"

static int rank, size;

void expect_class(const char *what, int rc, int cls)
{
    int got = -1;
    if (rc == MPI_SUCCESS || MPI_Error_class(rc, &got) != MPI_SUCCESS || got != cls)
        FAIL("%s: returned %d (class %d), expected class %d", what, rc, got, cls);
}

/* ---- Callbacks that log what they saw ---- */
logent_t logv[LOGMAX];
int nlog;

void log_call(char what, int obj, int keyval, void *val)
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

int delete_log(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', comm, keyval, val);
    return MPI_SUCCESS;
}

int type_delete_log(MPI_Datatype t, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', t, keyval, val);
    return MPI_SUCCESS;
}

int win_delete_log(MPI_Win w, int keyval, void *val, void *extra)
{
    (void)extra;
    log_call('d', w, keyval, val);
    return MPI_SUCCESS;
}

void expect_log(int i, char what, int obj, int keyval, void *val)
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
        /* the universe: the slots mrun knows of (--universe-size, -H, the CPUs), never fewer
         * than the world (as Open MPI's, which mpi4py.futures sizes its pool by) */
        int universe = keys[i].key == MPI_UNIVERSE_SIZE;
        if (universe && *v >= size)
            want = *v;
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
