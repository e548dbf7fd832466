/* mpi_py_spawn.c — MPI_Comm_spawn as mpi4py's test_spawn.py and mpi4py.futures use it: every
 * rank spawning on MPI_COMM_SELF at once, arguments only at the root (NULL command, NULL argv,
 * maxprocs -1 elsewhere), MPI_ARGV_NULL, info keys (wdir, path, host, "soft" below
 * maxprocs, a key rmp does not know), spawn_multiple with count 0 at the non-roots, a root
 * that is not rank 0; futures' pool: MPI_UNIVERSE_SIZE, info "soft", a manager thread that
 * spawns, Ibarrier/Test, bcast from MPI_ROOT, Allreduce LAND, issend/iprobe(ANY_SOURCE) and
 * Disconnect, twice in a row and from two threads at once ("futures U": the universe is U).
 * Children: "barrier" (mpi4py's child script) or "server" (futures' server loop); no argument
 * at all is "barrier". */
#include <pthread.h>
#include <stdbool.h>

#include "mpicheck.h"

/* mpi4py's child: Barrier, Disconnect, and the parent is MPI_COMM_NULL ever after. */
static void child_barrier(MPI_Comm parent)
{
    CHECK(MPI_Barrier(parent));
    CHECK(MPI_Comm_disconnect(&parent));
    if (parent != MPI_COMM_NULL)
        FAIL("child: parent not MPI_COMM_NULL after Disconnect");
    CHECK(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL)
        FAIL("child: MPI_Comm_get_parent after Disconnect is not MPI_COMM_NULL");
}

/* futures' server: sync (Ibarrier, bcast from the client), init (Allreduce LAND), then
 * tasks (value v, tag t) answered with 2v on tag t until the tag-0 stop message. */
static void child_server(MPI_Comm parent)
{
    MPI_Request q;
    int done = 0, opts = -1;
    CHECK(MPI_Ibarrier(parent, &q));
    while (!done)
        CHECK(MPI_Test(&q, &done, MPI_STATUS_IGNORE));
    CHECK(MPI_Bcast(&opts, 1, MPI_INT, 0, parent));
    EXPECT_INT(opts, 77);
    unsigned char ok = 1, all = 0;
    CHECK(MPI_Allreduce(&ok, &all, 1, MPI_UNSIGNED_CHAR, MPI_LAND, parent));
    EXPECT_INT(all, 0); /* the client adds a false */
    for (;;) {
        MPI_Status st;
        int flag = 0, v = -1;
        while (!flag)
            CHECK(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, parent, &flag, &st));
        CHECK(MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, parent, MPI_STATUS_IGNORE));
        if (st.MPI_TAG == 0)
            break;
        v *= 2;
        CHECK(MPI_Issend(&v, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, parent, &q));
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    }
    CHECK(MPI_Comm_disconnect(&parent));
}

static int child(MPI_Comm parent, int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "server"))
        child_server(parent);
    else
        child_barrier(parent);
    MPI_Finalize();
    return mc_failures ? 1 : 0; /* quiet: the parents count what matters */
}

static char *barrier_args[] = {"barrier", NULL};

/* test_spawn.py's testCommSpawn/testArgsOnlyAtRoot on comm with root; everywhere: every
 * rank passes the arguments and errcodes (testErrcodes: each rank's are all MPI_SUCCESS). */
static void spawn_one(MPI_Comm comm, int root, int maxprocs, bool argv_null, const char *exe,
                      bool everywhere)
{
    int r, size, codes[8];
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < 8; i++)
        codes[i] = -1;
    MPI_Comm ic = MPI_COMM_NULL;
    if (r == root || everywhere)
        CHECK(MPI_Comm_spawn(exe, argv_null ? MPI_ARGV_NULL : barrier_args, maxprocs,
                             MPI_INFO_NULL, root, comm, &ic, codes));
    else
        CHECK(MPI_Comm_spawn(NULL, NULL, -1, MPI_INFO_NULL, root, comm, &ic,
                             MPI_ERRCODES_IGNORE));
    int ls = -1, rs = -1;
    CHECK(MPI_Comm_size(ic, &ls));
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(ls, size);
    EXPECT_INT(rs, maxprocs);
    for (int i = 0; (r == root || everywhere) && i < maxprocs; i++)
        EXPECT_INT(codes[i], MPI_SUCCESS);
    CHECK(MPI_Barrier(ic));
    CHECK(MPI_Comm_disconnect(&ic));
    if (ic != MPI_COMM_NULL)
        FAIL("parent: intercomm not MPI_COMM_NULL after Disconnect");
}

/* testCommSpawnMultiple/testArgsOnlyAtRootMultiple: maxprocs 1 and 2, per-app infos, the
 * non-roots pass count 0 and NULL arrays (as mpi4py does). */
static void spawn_multi(MPI_Comm comm, int root, const char *exe)
{
    int r;
    MPI_Comm_rank(comm, &r);
    MPI_Comm ic = MPI_COMM_NULL;
    int codes[3] = {-1, -1, -1};
    if (r == root) {
        char *cmds[] = {(char *)exe, (char *)exe};
        char **argvs[] = {barrier_args, barrier_args};
        int np[] = {1, 2};
        MPI_Info infos[] = {MPI_INFO_NULL, MPI_INFO_NULL};
        CHECK(MPI_Comm_spawn_multiple(2, cmds, argvs, np, infos, root, comm, &ic, codes));
        for (int i = 0; i < 3; i++)
            EXPECT_INT(codes[i], MPI_SUCCESS);
    } else {
        CHECK(MPI_Comm_spawn_multiple(0, NULL, MPI_ARGVS_NULL, NULL, NULL, root, comm, &ic,
                                      MPI_ERRCODES_IGNORE));
    }
    int rs = -1;
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(rs, 3);
    CHECK(MPI_Barrier(ic));
    CHECK(MPI_Comm_disconnect(&ic));
}

/* futures' get_max_workers: the universe is at least the world, and want when not 0. */
static int universe_size(int want)
{
    int *u = NULL, flag = 0, size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &u, &flag));
    if (!flag || !u || *u < size || (want && *u != want)) {
        FAIL("MPI_UNIVERSE_SIZE: flag %d, value %d, world %d, expected %d", flag, u ? *u : -1,
             size, want);
        return size;
    }
    return *u;
}

/* futures' client over a spawned pool of n servers, on COMM_SELF. */
static const char *self_exe;

static void *futures_pool(void *arg)
{
    int n = *(int *)arg;
    char soft[32], *args[] = {"server", NULL};
    snprintf(soft, sizeof soft, "1:%d", n);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "soft", soft);
    MPI_Comm ic = MPI_COMM_NULL;
    CHECK(MPI_Comm_spawn(self_exe, args, n, info, 0, MPI_COMM_SELF, &ic, MPI_ERRCODES_IGNORE));
    MPI_Info_free(&info);
    if (ic == MPI_COMM_NULL)
        return NULL;
    MPI_Request q;
    int done = 0, opts = 77, rs = -1;
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(rs, n);
    CHECK(MPI_Ibarrier(ic, &q));
    while (!done)
        CHECK(MPI_Test(&q, &done, MPI_STATUS_IGNORE));
    CHECK(MPI_Bcast(&opts, 1, MPI_INT, MPI_ROOT, ic));
    unsigned char no = 0, all = 1;
    CHECK(MPI_Allreduce(&no, &all, 1, MPI_UNSIGNED_CHAR, MPI_LAND, ic));
    EXPECT_INT(all, 1); /* the servers' reduction comes back to me, the LAND of their trues */
    for (int t = 1; t <= 3 * n; t++) { /* a task per worker, three rounds */
        int v = 10 * t, w = t % n, flag = 0;
        MPI_Status st;
        CHECK(MPI_Issend(&v, 1, MPI_INT, w, t, ic, &q));
        while (!flag)
            CHECK(MPI_Iprobe(MPI_ANY_SOURCE, t, ic, &flag, &st));
        CHECK(MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, t, ic, &st));
        EXPECT_INT(v, 20 * t);
        EXPECT_INT(st.MPI_SOURCE, w);
        CHECK(MPI_Wait(&q, MPI_STATUS_IGNORE));
    }
    MPI_Request stop[8];
    int zero = 0;
    for (int w = 0; w < n && w < 8; w++)
        CHECK(MPI_Issend(&zero, 1, MPI_INT, w, 0, ic, &stop[w]));
    CHECK(MPI_Waitall(n < 8 ? n : 8, stop, MPI_STATUSES_IGNORE));
    CHECK(MPI_Comm_disconnect(&ic));
    return NULL;
}

/* The pool made by a manager thread (as futures does), twice in a row, then two at once. */
static void futures(int want_universe)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = universe_size(want_universe) - size;
    n = n < 1 ? 1 : n > 2 ? 2 : n;
    for (int round = 0; round < 2; round++) {
        pthread_t th;
        pthread_create(&th, NULL, futures_pool, &n);
        pthread_join(th, NULL);
    }
    pthread_t th[2];
    int one = 1;
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, futures_pool, &one);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
}

/* Info "soft" 1:2 with maxprocs 3: two children, the third's errcode MPI_ERR_SPAWN, and the
 * call a success (MPI-4.0 11.8.4); a key rmp does not know is ignored (MPI-4.0 10.1). */
static void spawn_soft(const char *exe)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "soft", "1:2");
    MPI_Info_set(info, "mpi4py_no_such_key", "1");
    MPI_Comm ic = MPI_COMM_NULL;
    int codes[3] = {-1, -1, -1}, rs = -1, cls = -1;
    CHECK(MPI_Comm_spawn(exe, barrier_args, 3, info, 0, MPI_COMM_SELF, &ic, codes));
    MPI_Info_free(&info);
    if (ic == MPI_COMM_NULL)
        return;
    CHECK(MPI_Comm_remote_size(ic, &rs));
    EXPECT_INT(rs, 2);
    EXPECT_INT(codes[0], MPI_SUCCESS);
    EXPECT_INT(codes[1], MPI_SUCCESS);
    MPI_Error_class(codes[2], &cls);
    EXPECT_INT(cls, MPI_ERR_SPAWN);
    CHECK(MPI_Barrier(ic));
    CHECK(MPI_Comm_disconnect(&ic));
}

/* Info keys futures passes through: wdir, path (a bare command name found there), host. */
static void spawn_info(const char *exe)
{
    char host[256] = {0}, dir[4096], *slash;
    gethostname(host, sizeof host - 1);
    snprintf(dir, sizeof dir, "%s", exe);
    slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = '\0';
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "wdir", "/tmp");
    MPI_Info_set(info, "path", dir);
    MPI_Info_set(info, "host", host);
    MPI_Comm ic = MPI_COMM_NULL;
    CHECK(MPI_Comm_spawn(slash + 1, barrier_args, 1, info, 0, MPI_COMM_SELF, &ic,
                         MPI_ERRCODES_IGNORE));
    MPI_Info_free(&info);
    if (ic != MPI_COMM_NULL) {
        CHECK(MPI_Barrier(ic));
        CHECK(MPI_Comm_disconnect(&ic));
    }
}

int main(int argc, char **argv)
{
    int provided = -1, size;
    mc_watchdog(200);
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm parent;
    CHECK(MPI_Comm_get_parent(&parent));
    if (parent != MPI_COMM_NULL)
        return child(parent, argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mc_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    EXPECT_INT(provided, MPI_THREAD_MULTIPLE);
    const char *what = argc > 1 ? argv[1] : "all";
    bool all = !strcmp(what, "all");
    self_exe = argv[0];
    if (all || !strcmp(what, "self")) { /* TestSpawnSelf, TestSpawnSelfMany */
        spawn_one(MPI_COMM_SELF, 0, 1, false, argv[0], false);
        spawn_one(MPI_COMM_SELF, 0, size, true, argv[0], false);
    }
    if (all || !strcmp(what, "world")) { /* TestSpawnWorld(Many), a root that is not 0 */
        spawn_one(MPI_COMM_WORLD, 0, 1, false, argv[0], false);
        spawn_one(MPI_COMM_WORLD, size - 1, size, true, argv[0], false);
        spawn_one(MPI_COMM_WORLD, size / 2, size, false, argv[0], true);
        spawn_multi(MPI_COMM_WORLD, size - 1, argv[0]);
    }
    if (all || !strcmp(what, "futures"))
        futures(argc > 2 ? atoi(argv[2]) : 0); /* "futures U": MPI_UNIVERSE_SIZE is U */
    if (all || !strcmp(what, "info")) {
        spawn_info(argv[0]);
        spawn_soft(argv[0]);
    }
    MPI_Finalize();
    return mc_done("mpi_py_spawn");
}
